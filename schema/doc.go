// Package schema is lakecat's id-tagged field tree: the internal schema that
// every table format (Iceberg, Paimon, Hudi) and every file format (Parquet,
// ORC, Avro) maps into.
//
// A [Schema] is a struct of [Field]s. Every field carries a stable field id
// (Iceberg table spec, "Schemas and Data Types"); a name is only a label.
// Lists and maps hold their element, key and value as [Field]s too, so that
// element-id, key-id and value-id and their requiredness live in one place and
// every node of the tree can be reached the same way.
//
// A field read from a data file written without ids has ID [NoID]. Paimon's
// field ids start at 0, so 0 is a real id.
//
// The package also holds the JSON codecs (Iceberg schema, Paimon schema-N
// files, name mappings) and the conversion to Arrow
// ([ToArrowSchema], [ToArrowType]). It does no I/O beyond decoding the bytes
// it is handed. Iceberg table metadata, which holds schemas, is decoded in
// package table/iceberg.
package schema
