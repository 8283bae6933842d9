package avro

const (
	// maxHeaderBytes caps the container header (magic, metadata map with
	// the schema JSON, sync marker): 16 MiB.
	maxHeaderBytes = 16 << 20
	// maxBlockBytes caps one data block, compressed or decompressed:
	// 256 MiB.
	maxBlockBytes = 256 << 20
	// maxBlockRows caps the records one block may claim.
	maxBlockRows = 1 << 31
	// maxDepth caps the nesting of the Avro schema.
	maxDepth = 128
)

// DefaultBatchRows is the number of rows per batch when
// BatchOptions.BatchRows is 0.
const DefaultBatchRows = 64 * 1024
