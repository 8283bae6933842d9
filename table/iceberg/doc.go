// Package iceberg holds lakecat's rules for Apache Iceberg tables: where the
// current metadata is ([FindMetadata], the one locate rule), which files a
// snapshot reads and which delete files apply to each ([Table.Plan],
// [Scan.DeletesFor]), the read of one file as a [table.Task] ([Scan.Task],
// [Table.Tasks], streamed), and commits of new metadata
// ([Table.CommitMetadata]). It does not decode data files.
//
// The flow (Iceberg table spec, https://iceberg.apache.org/spec/):
// [FindMetadata] locates the current metadata file ("File System Tables"),
// [Open] reads it ([ReadMetadata], streamed through [DecodeMetadata], the
// table metadata codec: [ParseMetadata] and [MarshalMetadata] for whole
// documents, one cap [MaxMetadataBytes]); a catalog that hands out a metadata
// location and the metadata itself opens the table with [FromMetadata].
// [Table.Plan] selects a
// snapshot (current, by id, or as of a time), reads its manifest list and
// manifests ([DecodeManifestList], [DecodeManifest]: Avro object container
// files decoded with the writer schema in each file's header, so format v1,
// v2 and v3 files and writers that differ in int/long and nullability all
// read) and keeps the ADDED and EXISTING entries ("Scan Planning").
//
// Storage is a storage.FS (the local file system or an object store).
// Paths written in metadata are resolved by
// [Table.Resolve]: a --path-map style [PathMap], file:// URIs, and paths
// under the table location re-rooted at the folder the table was opened
// from.
package iceberg
