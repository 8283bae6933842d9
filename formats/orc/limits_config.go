package orc

// Limits caps sizes read from a file, checked before anything is allocated
// from them (see limits.go for the fixed caps). A size above a limit is an
// error matching [ErrTooLarge] and [ErrCorrupt]. A zero field takes its
// default from [DefaultLimits].
type Limits struct {
	// FooterBytes caps the file footer, the metadata section and each
	// stripe footer, compressed and decompressed, in bytes. Default
	// 256 MiB.
	FooterBytes int64
	// StreamBytes caps the decompressed size of one stream of one stripe
	// (one column's DATA, LENGTH, DICTIONARY_DATA, …), in bytes. Streams
	// are decompressed chunk by chunk as batches consume them, so they hold
	// about one batch's bytes plus one compression chunk at a time; only a
	// string dictionary (its LENGTH and DICTIONARY_DATA) is decompressed
	// whole. Default 2 GiB.
	StreamBytes int64
}

// DefaultLimits are the limits of a zero [Limits].
var DefaultLimits = Limits{FooterBytes: maxFooterLen, StreamBytes: maxStreamLen}

func (l Limits) withDefaults() Limits {
	if l.FooterBytes <= 0 {
		l.FooterBytes = DefaultLimits.FooterBytes
	}
	if l.StreamBytes <= 0 {
		l.StreamBytes = DefaultLimits.StreamBytes
	}
	return l
}

// WithLimits sets the size limits (zero fields: [DefaultLimits]).
func WithLimits(l Limits) Option { return func(o *options) { o.limits = l } }
