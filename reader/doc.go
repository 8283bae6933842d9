// Package reader is lakecat's public entry point: it opens a data file (or,
// later, a table), resolves the file's schema to field ids, builds the
// projection plan against the read schema and yields Arrow record batches in
// the read schema through an [array.RecordReader].
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
