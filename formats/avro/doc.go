// Package avro decodes Apache Avro object container files (the Avro data
// files an Iceberg table may hold) into Apache Arrow record batches.
//
// It follows the same contract as formats/parquet and formats/orc: [Open]
// reads the header, [File.Schema] reports the file schema as an id-tagged
// tree, and [File.NewBatchReader] decodes a pruned copy of that schema into
// batches whose Arrow schema is schema.ToArrowSchema(proj).
//
// Field ids come from the Avro schema's properties as the Iceberg spec
// (Appendix A, "Avro") writes them: "field-id" on record fields,
// "element-id" on arrays, "key-id" and "value-id" on maps. A map with
// non-string keys is an array of records with fields "key" and "value"
// (logicalType "map"). A field without an id gets [schema.NoID].
//
// Type mapping (Avro → schema): boolean, int, long, float, double, string and
// bytes map to themselves (bytes → binary); int/date → date; long/time-micros
// → time; long/timestamp-micros → timestamptz when "adjust-to-utc" is true (or
// absent), timestamp when it is false, and local-timestamp-micros →
// timestamp; the -millis forms are widened to microseconds and the -nanos
// forms map to the nanosecond kinds; fixed/decimal and bytes/decimal →
// decimal(P,S); fixed[16] or string with logicalType uuid → uuid; other
// fixed → fixed[L]; enum → string; record → struct; a union of null and one
// type → an optional field of that type. Other unions are refused with
// [ErrUnsupported].
//
// [ParseSchema] parses the JSON of an Avro schema into a [Schema] tree
// with encoding/json (the decoder's and Hudi's table schemas use it); it
// keeps the attributes it does not interpret, such as the ids, in Props.
//
// Supported codecs: null, deflate, snappy, zstandard, bzip2.
//
// Values are decoded by a decoder tree compiled once per projection that
// appends into typed Arrow builders; skipped fields are stepped over without
// building anything.
package avro
