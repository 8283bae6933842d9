// Package reader is lakecat's public entry point: it opens a data file
// ([Open], [OpenFile]) or reads one planned task ([ReadTask]; tasks are
// table.Task values, planned by [OpenTable] and [Table.Tasks] on this
// machine or another), resolves the file's schema to field ids, builds the
// projection plan against the read schema and yields Arrow record batches in
// the read schema through an [array.RecordReader]. [ScanTasks] and
// [Table.Scan] read many tasks in parallel, in order, within a memory
// budget. The table formats' rules live in table/iceberg, table/paimon and
// table/hudi; storage is a storage.FS.
//
// Data flows one way: the format decoder ([formats/parquet], [formats/orc])
// decodes only the columns the plan needs, then [project.Plan.Apply] aligns
// each batch to the read schema (rename and reorder at zero copy, promotion,
// null and initial-default fill).
//
// Record batches follow the Arrow convention: a batch returned by
// RecordBatch is valid until the next call to Next; call Retain to keep it.
// Check Err after Next returns false.
package reader
