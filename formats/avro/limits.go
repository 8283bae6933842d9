package avro

const (
	// maxHeaderBytes caps the container header (magic, metadata map with
	// the schema JSON, sync marker): 16 MiB.
	maxHeaderBytes = 16 << 20
	// maxBlockBytes caps one data block, compressed or decompressed:
	// 64 MiB. Writers cut blocks near their sync interval (Avro Java:
	// 64,000 bytes by default), so real blocks are far smaller; the cap is
	// the memory a decompression bomb can claim before it is refused.
	maxBlockBytes = 64 << 20
	// maxBlockRows caps the records one block may claim.
	maxBlockRows = 1 << 31
	// maxDepth caps the nesting of the Avro schema.
	maxDepth = 128
	// maxFields caps the fields of the converted file schema, counted
	// with every reference to a named type expanded: 2^20.
	maxFields = 1 << 20
)

// DefaultBatchRows is the number of rows per batch when
// BatchOptions.BatchRows is 0.
const DefaultBatchRows = 64 * 1024
