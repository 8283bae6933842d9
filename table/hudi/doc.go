// Package hudi turns a Hudi table folder into the list of base files a scan
// reads, with the table schema and the schema each base file was written
// with. It does not decode data files.
//
// The flow (Hudi docs, "Timeline" and "File Layouts":
// https://hudi.apache.org/docs/timeline, https://hudi.apache.org/docs/file_layouts):
// .hoodie/hoodie.properties gives the table type; the timeline (.hoodie/ for
// table versions up to 7, .hoodie/timeline/ from version 8) gives the
// completed commit, deltacommit and replacecommit instants, whose metadata
// (JSON, or an Avro object container from version 8: [ParseCommitMetadata])
// holds the writer's Avro schema in extraMetadata.schema and the partitions
// written. Each file group's latest committed base file
// (<fileId>_<writeToken>_<instant>.parquet) is live; with the log files
// written onto it (.<fileId>_<instant>.log.<version>_<writeToken>) it forms
// the file group's latest file slice ([Scan.FileSlices]), which
// [Scan.SliceTask] turns into a task whose log blocks a reader merges onto
// the base file (the instants whose blocks count, their writer schemas, the
// ordering fields and the merge mode; formats/hudilog reads the blocks).
// Avro schemas
// are converted to the internal schema with [ConvertAvroSchema]; Avro
// schemas have no field ids, so ids are assigned by name path ([IDs])
// consistently across the table schema and older writer schemas. A table
// with schema-on-read evolution keeps its schema history, with field ids, in
// .hoodie/.schema/ ([ParseSchemaHistory]); when present it gives the table
// schema and each base file's writer schema.
//
// Not handled: bootstrap tables, and the metadata table (files are listed
// from the storage).
//
// [Scan.Task] turns a live base file into a [table.Task], [Scan.SliceTask]
// a file slice. Storage is a storage.FS.
package hudi
