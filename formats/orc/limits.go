package orc

// Caps on sizes read from a file, checked before anything is allocated from
// them. A size is also always checked against the bytes that remain in the
// file or the stream.
const (
	// maxPostscriptLen is the largest postscript: its length is one byte.
	maxPostscriptLen = 255
	// maxTailRead is how many bytes Open reads at first from the end of the
	// file, hoping to catch postscript, footer and metadata in one read.
	maxTailRead = 256 << 10
	// maxFooterLen caps the (compressed and decompressed) footer, metadata
	// and stripe footer sizes: 256 MiB is far above any real writer's.
	maxFooterLen = 256 << 20
	// maxBlockSize caps compressionBlockSize, the largest decompressed size
	// of one compression chunk (writers use 256 KiB by default; the chunk
	// header can express at most 8 MiB of compressed data).
	maxBlockSize = 64 << 20
	// maxStreamLen caps the decompressed size of one stream of one stripe.
	maxStreamLen = 2 << 30
	// maxTypes caps the number of ORC types (columns) in a file.
	maxTypes = 1 << 20
	// maxStripes caps the number of stripes in a file.
	maxStripes = 1 << 24
	// maxDictSize caps a string dictionary's entry count.
	maxDictSize = 1 << 28
	// maxBatchBytes caps the string bytes of one column of one batch: Arrow
	// utf8 and binary arrays use 32-bit offsets.
	maxBatchBytes = 1<<31 - 1
	// maxDecimalVarint is the longest varint of an unscaled decimal: 128
	// bits need 19 base-128 bytes.
	maxDecimalVarint = 19
	// defaultBlockSize is the compression block size of a file whose
	// postscript has none (spec: "Postscript", default 256 KiB).
	defaultBlockSize = 256 << 10
	// defaultBatchRows is the batch size when BatchOptions.BatchRows is 0.
	defaultBatchRows = 64 << 10
	// maxPositions caps the stream positions of one row index entry: a
	// column has at most three positioned streams of at most four
	// positions each (a compressed boolean stream: chunk, offset in the
	// chunk, bytes and bits consumed).
	maxPositions = 64
	// maxSeekValues caps the encoder position of one stream in a row
	// index entry (the values of a run before the row group): a run of
	// any run-length encoding holds at most 512 values.
	maxSeekValues = 1024
	// maxBatchRows caps BatchOptions.BatchRows.
	maxBatchRows = 1 << 24
)

// maxBatchValues caps the values one column decodes for one batch (list and
// map children can hold many values per row).
const maxBatchValues = 1 << 27

// valueCap is maxBatchValues as a variable, so that the fuzz targets can
// lower it: a few bytes of RLE can legitimately claim millions of list
// elements, which is slow but not wrong.
var valueCap = maxBatchValues
