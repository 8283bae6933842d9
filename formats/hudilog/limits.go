package hudilog

// Limits caps what a log file may ask this package to allocate. A zero
// field keeps its default.
type Limits struct {
	// BlockBytes caps one block (its size field): a block is read into
	// memory whole. Default 1 GiB, the largest block Hudi's own reader
	// accepts (it reads the size into a Java int).
	BlockBytes int64
}

const (
	defaultBlockBytes = 1 << 30
	// maxMetadataEntries caps the entries of a header or footer map: Hudi
	// defines nine keys.
	maxMetadataEntries = 64
	// maxDeleteRecords caps the records of one delete block's list, before
	// each is decoded (each takes at least 3 bytes, which bounds it first).
	maxDeleteRecords = 1 << 26
	// maxOrderingBytes caps a delete record's bytes or string ordering
	// value.
	maxOrderingBytes = 1 << 20
)

func (l Limits) blockBytes() int64 {
	if l.BlockBytes > 0 {
		return l.BlockBytes
	}
	return defaultBlockBytes
}
