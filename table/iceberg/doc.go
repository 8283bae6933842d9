// Package iceberg turns an Iceberg table folder into the list of live data
// files a scan reads, with what the scan needs for each (resolved path,
// file format, record count, partition spec id and partition values,
// sequence numbers) and the snapshot's delete files. It does not decode data
// files.
//
// The flow (Iceberg table spec, https://iceberg.apache.org/spec/):
// [FindMetadata] locates the current metadata file ("File System Tables"),
// [Open] parses it with schema.ParseTableMetadata, and [Table.Plan] selects a
// snapshot (current, by id, or as of a time), reads its manifest list and
// manifests ([DecodeManifestList], [DecodeManifest]: Avro object container
// files decoded with the writer schema in each file's header, so format v1,
// v2 and v3 files and writers that differ in int/long and nullability all
// read) and keeps the ADDED and EXISTING entries ("Scan Planning").
//
// Storage is the small [FS] interface (Open for ranged reads, List for a
// folder); [OSFS] implements it over the local file system, and an object
// store can implement it too. Paths written in metadata are resolved by
// [Table.Resolve]: a --path-map style [PathMap], file:// URIs, and paths
// under the table location re-rooted at the folder the table was opened
// from.
package iceberg
