package parquet

// Caps on numbers read from a file, checked before anything is allocated from
// them. Each guards an allocation or a recursion that a corrupt or hostile
// footer could otherwise make unbounded.
const (
	// maxFooterBytes bounds the thrift FileMetaData length (bytes). Real
	// footers are kilobytes to a few megabytes; wide files with many row
	// groups stay far below this.
	maxFooterBytes = 256 << 20

	// maxSchemaElements bounds the number of schema elements (nodes).
	maxSchemaElements = 1 << 20

	// maxNestingDepth bounds the depth of the schema tree (and so the
	// recursion when converting it, and the repetition/definition levels,
	// which parquet-go stores in one byte).
	maxNestingDepth = 100

	// maxFixedLength bounds FIXED_LEN_BYTE_ARRAY type_length (bytes).
	maxFixedLength = 1 << 24

	// maxBatchRows bounds BatchOptions.BatchRows (rows).
	maxBatchRows = 1 << 24

	// maxColumnChunkBytes bounds the uncompressed size of one column chunk
	// (bytes). parquet-go decompresses a page whole before it is decoded, so
	// this is the memory a single column of a row group may claim; writers
	// cut row groups far below it (Spark, Iceberg and Paimon default to
	// 128 MiB row groups).
	maxColumnChunkBytes = 1 << 30

	// maxPageHeaderBytes bounds the bytes read to decode one page header;
	// headers are tens of bytes plus statistics (min/max values).
	maxPageHeaderBytes = 64 << 20

	// maxBatchBytes bounds the variable-length data of one column in one
	// batch (bytes): Arrow binary and utf8 arrays use 32-bit offsets.
	maxBatchBytes = 1<<31 - 1
)

// DefaultBatchRows is the number of rows per batch when BatchOptions.BatchRows
// is 0.
const DefaultBatchRows = 64 * 1024
