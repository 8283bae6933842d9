// Package paimon turns a Paimon table folder into the list of live data
// files a scan reads, each with the schema id it was written with, its
// partition values, bucket, level and row count. It does not decode data
// files.
//
// The flow (Paimon docs, "Specification": https://paimon.apache.org/docs/master/concepts/spec/overview/):
// snapshot/LATEST (or the highest snapshot-N, or a given id) names a
// snapshot file ([ParseSnapshot]); its base and delta manifest lists name
// manifest files, read in the table's manifest format (Avro through
// formats/avro or ORC through formats/orc, told apart by their magic bytes);
// ADD and DELETE entries are merged into the live file set keyed by
// partition, bucket and file name. Partition values are decoded from
// Paimon's BinaryRow bytes ([DecodeBinaryRow]) with the partition key types
// of the file's own schema-N, which gives the file's folder
// [partition=value/…]bucket-N/. Schemas are loaded with
// schema.ParsePaimonSchema. Branches live in branch/branch-<name>/, and the
// "scan.fallback-branch" option is honoured.
//
// A primary-key table's files form an LSM tree per partition and bucket
// ([Scan.LSM]: sections of overlapping key ranges, each of sorted runs,
// Paimon docs "Primary Key Table"); [Scan.MergeSpec] reads the merge
// engine and its options from the read schema, and [Scan.MergeTask] makes
// a section a merge task. Deletion vectors (the snapshot's index manifest,
// [ReadDeletionVector]) are located per data file by
// [Scan.DeletionVectorOf].
//
// [Scan.Task] turns a live file into a [table.Task]. Storage is a
// storage.FS.
package paimon
