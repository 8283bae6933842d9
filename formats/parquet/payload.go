package parquet

import (
	"fmt"

	"github.com/klauspost/compress/snappy"
	"github.com/parquet-go/parquet-go/format"
	"github.com/pierrec/lz4/v4"
)

// checkPagePayload guards parquet-go's decompressors, which size their
// output from the compressed bytes instead of the page header's
// uncompressed_page_size: its LZ4_RAW decoder doubles its buffer until the
// block decodes, without end on a damaged block (found by the corrupt
// corpus: one flipped byte made it ask for 32 GiB), and Snappy allocates
// whatever length the block's preamble claims (up to 4 GiB). The page of h
// starts at off in the file (after its header). Other codecs stream into a
// buffer grown as they decode and stop at the end of their input.
func (lr *leafReader) checkPagePayload(codec format.CompressionCodec, h *format.PageHeader, off int64) error {
	if codec != format.Snappy && codec != format.Lz4Raw {
		return nil
	}
	n, want := int64(h.CompressedPageSize), int64(h.UncompressedPageSize)
	if h.Type == format.DataPageV2 {
		v2 := &h.DataPageHeaderV2.V
		levels := int64(v2.RepetitionLevelsByteLength) + int64(v2.DefinitionLevelsByteLength)
		if v2.RepetitionLevelsByteLength < 0 || v2.DefinitionLevelsByteLength < 0 || levels > n || levels > want {
			return fmt.Errorf("page v2 levels of %d bytes do not fit the page (%d compressed, %d uncompressed bytes)", levels, n, want)
		}
		if v2.IsCompressed.Valid && !v2.IsCompressed.V {
			return nil
		}
		off, n, want = off+levels, n-levels, want-levels
	}
	if n == 0 {
		return nil
	}
	switch codec {
	case format.Snappy:
		var pre [10]byte
		k := min(n, int64(len(pre)))
		if err := readFull(lr.f.r, pre[:k], off); err != nil {
			return err
		}
		dl, err := snappy.DecodedLen(pre[:k])
		if err != nil {
			return fmt.Errorf("snappy block: %v", err)
		}
		if int64(dl) > want {
			return fmt.Errorf("snappy block claims %d bytes, the page header %d", dl, want)
		}
	case format.Lz4Raw:
		if cap(lr.lz4buf) < int(n+want) {
			lr.lz4buf = make([]byte, n+want)
		}
		src, dst := lr.lz4buf[:n], lr.lz4buf[n:n+want]
		if err := readFull(lr.f.r, src, off); err != nil {
			return err
		}
		if _, err := lz4.UncompressBlock(src, dst); err != nil {
			return fmt.Errorf("LZ4_RAW block does not decode into the %d bytes the page header claims: %v", want, err)
		}
	}
	return nil
}
