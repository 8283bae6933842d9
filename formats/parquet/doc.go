// Package parquet decodes Apache Parquet data files into Arrow record
// batches, on top of github.com/parquet-go/parquet-go's page reader.
//
// The format is specified at https://parquet.apache.org/docs/file-format/
// (thrift definitions: https://github.com/apache/parquet-format/blob/master/src/main/thrift/parquet.thrift;
// logical types and the nested-type backward-compatibility rules:
// https://github.com/apache/parquet-format/blob/master/LogicalTypes.md).
//
// [Open] reads only the footer and maps the file's schema elements to a
// [schema.Schema] tree whose field ids are the footer's own field_id values
// (a present 0 is a real id; an absent one is [schema.NoID]). List elements
// are always named "element" and map keys and values "key" and "value",
// whatever the file calls them. [File.NewBatchReader] decodes only the leaf
// columns of a projection, page by page, straight into Arrow buffers:
// typed page values are copied out (dictionary indexes resolved against the
// dictionary once converted), definition levels become validity bitmaps and
// repetition levels become list and map offsets.
//
// # Type mapping
//
// The Parquet physical type and annotation (LogicalType, or the legacy
// ConvertedType when no LogicalType is present) give the schema type:
//
//	BOOLEAN                                 boolean
//	INT32                                   int
//	INT32 INT(8, signed)                    tinyint
//	INT32 INT(16, signed)                   smallint
//	INT32 INT(8, unsigned)                  smallint (zero-extended)
//	INT32 INT(16, unsigned)                 int (zero-extended)
//	INT32 INT(32, unsigned)                 long (zero-extended)
//	INT64, INT64 INT(64, signed)            long
//	INT64 INT(64, unsigned)                 long; a value above 2^63-1 fails the
//	                                        batch with ErrUnsupported (never wraps)
//	INT32 DATE                              date
//	INT32 TIME(MILLIS)                      time (scaled to microseconds)
//	INT64 TIME(MICROS)                      time
//	INT64 TIME(NANOS)                       time, floored to microseconds (Iceberg
//	                                        has no nanosecond time)
//	INT64 TIMESTAMP(MILLIS|MICROS, utc)     timestamptz, otherwise timestamp
//	                                        (milliseconds scaled to microseconds)
//	INT64 TIMESTAMP(NANOS, utc)             timestamptz_ns, otherwise timestamp_ns
//	INT96                                   timestamp (microseconds, converted
//	                                        straight from Julian day and
//	                                        nanoseconds, so correct outside the
//	                                        years 1677–2262; nanoseconds below
//	                                        a microsecond are floored away, as
//	                                        for Paimon TIMESTAMP(7..9))
//	INT32/INT64/BYTE_ARRAY/FLBA DECIMAL     decimal(P,S); P > 38 is reported but
//	                                        refused with ErrUnsupported when the
//	                                        column is selected
//	FLBA(16) UUID                           uuid
//	FLBA(2) FLOAT16                         float16
//	FLBA(L)                                 fixed[L]
//	BYTE_ARRAY STRING/ENUM/JSON             string
//	BYTE_ARRAY, BYTE_ARRAY BSON             binary
//	FLOAT, DOUBLE                           float, double
//
// An annotation this package does not know (a newer writer's LogicalType, or
// one such as INTERVAL or VARIANT) is ignored and the column is read by its
// physical type.
//
// # Nested types
//
// Groups become structs. A LIST-annotated group becomes a list whatever its
// layout: the standard 3-level layout and every legacy layout of the
// LogicalTypes backward-compatibility rules (a repeated primitive, a repeated
// group with more than one field, a repeated group named "array" or
// "<list>_tuple" is the element itself). MAP and MAP_KEY_VALUE groups become
// maps whatever their repeated group is called. A repeated field without a
// LIST or MAP parent is a required list of required elements. The field id of
// a list element or map key/value is the id of the node that holds the
// values; repeated groups usually carry none.
//
// # Reading
//
// Each column chunk's page headers are checked against the chunk's byte
// range before parquet-go reads a page (parquet-go allocates a page's
// claimed size before reading it); limits.go holds the caps on every size
// taken from the file. Pages are decompressed and decoded by parquet-go, so
// the codecs are parquet-go's: UNCOMPRESSED, SNAPPY, GZIP, BROTLI, ZSTD,
// LZ4_RAW (not the deprecated Hadoop-framed LZ4, which gives
// [ErrUnsupported]); page CRCs are verified. A page header whose encoding
// is no value of parquet.thrift's enum Encoding is [ErrCorrupt]; one the
// format defines that parquet-go does not decode for the column's type
// (GROUP_VAR_INT, say) is [ErrUnsupported]. The row count is the sum of the
// row groups' counts (some writers leave the footer's num_rows 0).
//
// Errors are [ErrCorrupt] (with a [*CorruptError] giving the offset and
// section) and [ErrUnsupported]; no input makes this package panic.
package parquet
