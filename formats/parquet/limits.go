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

	// maxShortDictValues bounds the entries of a dictionary of short
	// strings that is copied into padded blocks (36 bytes an entry at
	// most) for gathering; a larger dictionary is gathered from its data
	// and offsets.
	maxShortDictValues = 1 << 16

	// maxBatchRows bounds BatchOptions.BatchRows (rows).
	maxBatchRows = 1 << 24

	// maxColumnChunkBytes bounds the uncompressed size of one column chunk
	// (bytes). parquet-go decompresses a page whole before it is decoded, so
	// this is the memory a single column of a row group may claim; writers
	// cut row groups far below it (Spark, Iceberg and Paimon default to
	// 128 MiB row groups).
	maxColumnChunkBytes = 1 << 30

	// maxThriftDepth bounds the nesting of thrift structures and containers
	// in a footer or page header. parquet-format nests about ten deep
	// (FileMetaData, row groups, column chunks, column metadata,
	// statistics, logical types); the cap stops the recursion of a hostile
	// nesting before parquet-go's unbounded skip sees it.
	maxThriftDepth = 64

	// maxFooterDecodedBytes bounds the estimated memory of a decoded footer
	// (bytes; see thriftCheck for the estimate): a wide file with 100,000
	// column chunks needs about 70 MiB.
	maxFooterDecodedBytes = 1 << 30

	// maxPageHeaderDecodedBytes bounds the estimated memory of a decoded
	// page header (bytes): its statistics' min and max values.
	maxPageHeaderDecodedBytes = 64 << 20

	// maxPageHeaderBytes bounds the bytes read to decode one page header;
	// headers are tens of bytes plus statistics (min/max values).
	maxPageHeaderBytes = 64 << 20

	// maxPageValues bounds the values (level entries) of one data page and
	// the entries of one dictionary page. parquet-go expands a page's
	// repetition and definition levels to a byte each and sizes byte-array
	// offsets (4 bytes a value) from this count before decoding, and an RLE
	// run of 2^31-1 nulls takes five bytes; so the count, not the page
	// bytes, bounds that memory: at most 96 MiB a page. Writers cut pages
	// far below it (parquet-mr and Arrow at 20,000 rows by default).
	maxPageValues = 1 << 24

	// maxBloomFilterBytes bounds the bitset of one column chunk's bloom
	// filter (bytes) that is read to prune: parquet-mr caps its filters at
	// 1 MiB by default and Arrow C++ at 128 MiB; a larger filter is left
	// unread (the row group may match), not taken for corrupt.
	maxBloomFilterBytes = 128 << 20

	// maxBloomHeaderBytes bounds the bytes read to decode a bloom filter
	// header when the column chunk does not state the filter's length: the
	// header is a number and three one-member unions, under 16 bytes.
	maxBloomHeaderBytes = 64

	// maxBatchBytes bounds the variable-length data of one column in one
	// batch (bytes): Arrow binary and utf8 arrays use 32-bit offsets.
	maxBatchBytes = 1<<31 - 1
)

// DefaultBatchRows is the number of rows per batch when BatchOptions.BatchRows
// is 0.
const DefaultBatchRows = 64 * 1024
