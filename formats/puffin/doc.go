// Package puffin reads and writes the parts of Puffin files
// (https://iceberg.apache.org/puffin-spec/) that Iceberg row-level deletes
// use: the deletion-vector-v1 blob, a portable 64-bit roaring bitmap of the
// deleted row positions of one data file, framed by a length, a magic and a
// CRC-32 (Iceberg table spec, "Deletion Vectors"; Puffin spec,
// "deletion-vector-v1 blob type").
//
// A blob is located by the manifest entry of its delete file
// (content_offset, content_size_in_bytes), so reading one does not parse the
// file's footer. [WriteDeletionVectors] writes a whole Puffin file (magic,
// blobs, footer) for tests and generators.
package puffin
