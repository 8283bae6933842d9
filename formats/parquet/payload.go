package parquet

import (
	"bytes"
	"fmt"
	"io"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/format"
	"github.com/pierrec/lz4/v4"
)

// checkPagePayload checks that the page of h, which starts at off in the
// file (after its header), decompresses to no more than the page header's
// uncompressed_page_size, before parquet-go decompresses it: parquet-go's
// decompressors size their output from the compressed bytes and grow it
// until the payload ends, so a page of a few kilobytes can expand to
// gigabytes (a decompression bomb), and its LZ4_RAW decoder doubles its
// buffer without end on a damaged block (one flipped byte made it ask for
// 32 GiB).
//
// Snappy states its decoded length in a preamble, and ZSTD frames usually
// state theirs (zstdContentSize), which are compared. The other codecs, and
// ZSTD frames without sizes, are decompressed here into at most
// uncompressed_page_size bytes (LZ4_RAW and ZSTD into a buffer of that
// size, GZIP and BROTLI streamed and discarded), and a page that wants more
// is refused. Those pages are read and decompressed twice; the price of a
// bound that parquet-go's codecs do not offer.
func (lr *leafReader) checkPagePayload(codec format.CompressionCodec, h *format.PageHeader, off int64) error {
	switch codec {
	case format.Snappy, format.Lz4Raw, format.Zstd, format.Gzip, format.Brotli:
	default:
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
	if codec == format.Snappy {
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
		return nil
	}
	if int64(cap(lr.payload)) < n {
		lr.payload = make([]byte, n)
	}
	src := lr.payload[:n]
	if err := readFull(lr.f.r, src, off); err != nil {
		return err
	}
	switch codec {
	case format.Lz4Raw:
		dst := lr.scratch(want)
		if _, err := lz4.UncompressBlock(src, dst); err != nil {
			return fmt.Errorf("LZ4_RAW block does not decode into the %d bytes the page header claims: %v", want, err)
		}
	case format.Zstd:
		// Frames that state their sizes are bounded by them (the common
		// case); others are decoded into a buffer of the page's size, and
		// the decoder stops at its capacity (WithDecodeAllCapLimit).
		if total, ok := zstdContentSize(src); ok {
			if total > uint64(want) {
				return fmt.Errorf("ZSTD frames state %d bytes, the page header %d", total, want)
			}
			return nil
		}
		dst := lr.scratch(want)
		if _, err := zstdChecker().DecodeAll(src, dst[:0]); err != nil {
			return fmt.Errorf("ZSTD page does not decode into the %d bytes the page header claims: %v", want, err)
		}
	case format.Gzip:
		zr, err := gzip.NewReader(bytes.NewReader(src))
		if err != nil {
			return fmt.Errorf("GZIP page: %v", err)
		}
		return boundedStream("GZIP", zr, want)
	case format.Brotli:
		return boundedStream("BROTLI", brotli.NewReader(bytes.NewReader(src)), want)
	}
	return nil
}

// scratch returns lr's scratch buffer with length n.
func (lr *leafReader) scratch(n int64) []byte {
	if int64(cap(lr.decoded)) < n {
		lr.decoded = make([]byte, n)
	}
	return lr.decoded[:n]
}

// boundedStream reads r to its end, discarding the bytes, and fails when it
// yields more than want bytes.
func boundedStream(codec string, r io.Reader, want int64) error {
	got, err := io.CopyN(io.Discard, r, want+1)
	if got > want {
		return fmt.Errorf("%s page decompresses to more than the %d bytes the page header claims", codec, want)
	}
	if err != nil && err != io.EOF {
		return fmt.Errorf("%s page: %v", codec, err)
	}
	return nil
}

// zstdChecker returns the shared ZSTD decoder of checkPagePayload. DecodeAll
// is safe for concurrent use; it decodes two pages at a time at most and
// never beyond its destination's capacity.
var zstdChecker = sync.OnceValue(func() *zstd.Decoder {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(2), zstd.WithDecodeAllCapLimit(true))
	if err != nil {
		panic(err) // only for invalid options
	}
	return d
})
