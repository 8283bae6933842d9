package reader

import (
	"github.com/lakecat/lakecat/formats/orc"
	"github.com/lakecat/lakecat/formats/parquet"
)

// Limits caps the sizes a decoder accepts from a data file before it
// allocates anything from them; a file that asks for more fails with an
// error of class lakecat.ErrCorrupt naming the file, the offset and the
// size (a valid Parquet column chunk above ColumnBytes: lakecat.ErrUnsupported,
// before it is read). A zero field keeps the decoder's default.
type Limits struct {
	// FooterBytes caps the Parquet footer and the ORC file footer,
	// metadata and stripe footers (default 256 MiB).
	FooterBytes int64
	// ColumnBytes caps one Parquet column chunk (compressed and
	// uncompressed) and page (uncompressed), default 1 GiB, and one
	// decompressed ORC stream of one stripe, default 2 GiB.
	ColumnBytes int64
}

func (l Limits) parquet() parquet.Option {
	return parquet.WithLimits(parquet.Limits{FooterBytes: l.FooterBytes, ColumnChunkBytes: l.ColumnBytes})
}

func (l Limits) orc() orc.Option {
	return orc.WithLimits(orc.Limits{FooterBytes: l.FooterBytes, StreamBytes: l.ColumnBytes})
}
