package parquet

// Limits caps sizes read from a file, checked before anything is allocated
// from them (see limits.go for the fixed caps). A zero field takes its
// default from [DefaultLimits].
type Limits struct {
	// FooterBytes caps the thrift footer (FileMetaData) length in bytes. A
	// footer length above it, or above the file, is corrupt input
	// ([ErrCorrupt]). Default 256 MiB.
	FooterBytes int64
	// ColumnChunkBytes caps one column chunk of one row group, compressed
	// and uncompressed, and one page's uncompressed size, in bytes:
	// parquet-go decompresses a page whole, so this bounds the memory one
	// column may claim. A chunk whose metadata states more is refused with
	// [ErrUnsupported] before it is read; a page header claiming more, or a
	// chunk that does not fit the file, is [ErrCorrupt]. Default 1 GiB.
	ColumnChunkBytes int64
}

// DefaultLimits are the limits of a zero [Limits].
var DefaultLimits = Limits{FooterBytes: maxFooterBytes, ColumnChunkBytes: maxColumnChunkBytes}

func (l Limits) withDefaults() Limits {
	if l.FooterBytes <= 0 {
		l.FooterBytes = DefaultLimits.FooterBytes
	}
	if l.ColumnChunkBytes <= 0 {
		l.ColumnChunkBytes = DefaultLimits.ColumnChunkBytes
	}
	return l
}

// WithLimits sets the size limits (zero fields: [DefaultLimits]).
func WithLimits(l Limits) Option { return func(c *config) { c.limits = l } }
