package orc

import (
	"bytes"
	"fmt"
	"io"
	"sync"

	lzo "github.com/anchore/go-lzo"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// decompressor undoes the compression of one file (spec section
// "Compression"): a stream is a sequence of chunks, each with a 3-byte
// little-endian header holding (length << 1) | isOriginal.
type decompressor struct {
	kind      uint64
	blockSize int
	inflater  io.ReadCloser
	br        bytes.Reader
}

func newDecompressor(kind uint64, blockSize uint64) (*decompressor, error) {
	switch kind {
	case compNone, compZlib, compSnappy, compLZ4, compZstd, compLZO:
	default:
		return nil, fmt.Errorf("%w %s", ErrUnsupportedCodec, compName(kind))
	}
	if blockSize == 0 {
		blockSize = defaultBlockSize
	}
	if blockSize > maxBlockSize {
		return nil, fmt.Errorf("%w: compression block size %d above %d", ErrTooLarge, blockSize, maxBlockSize)
	}
	return &decompressor{kind: kind, blockSize: int(blockSize)}, nil
}

var (
	zstdOnce sync.Once
	zstdDec  *zstd.Decoder
	zstdErr  error
)

// sharedZstd returns the package's one zstd decoder; DecodeAll is safe for
// concurrent use.
func sharedZstd() (*zstd.Decoder, error) {
	zstdOnce.Do(func() {
		zstdDec, zstdErr = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0),
			zstd.WithDecoderMaxMemory(maxBlockSize), zstd.WithDecoderLowmem(false))
	})
	return zstdDec, zstdErr
}

// decompress appends the decompressed form of src to dst[:0] and returns it.
// The result is at most max bytes long, else ErrTooLarge.
func (d *decompressor) decompress(dst, src []byte, max int) ([]byte, error) {
	dst = dst[:0]
	if d.kind == compNone {
		if len(src) > max {
			return nil, fmt.Errorf("%w: %d bytes above %d", ErrTooLarge, len(src), max)
		}
		return append(dst, src...), nil
	}
	// Size the output once: a compressed chunk decompresses to at most
	// blockSize bytes, an original chunk to its own length.
	bound := 0
	for rest := src; len(rest) >= 3 && bound <= max; {
		h := int(rest[0]) | int(rest[1])<<8 | int(rest[2])<<16
		n := min(h>>1, len(rest)-3)
		if h&1 == 1 {
			bound += n
		} else {
			bound += d.blockSize
		}
		rest = rest[3+n:]
	}
	// A tiny stream may legitimately claim many full chunks (zstd and lz4
	// runs), so the up-front guess is also held to a multiple of the input;
	// beyond it the output grows by doubling as it is produced.
	if bound = min(bound, max, 16*len(src)+64<<10); cap(dst) < bound {
		dst = make([]byte, 0, bound)
	}
	for len(src) > 0 {
		if len(src) < 3 {
			return nil, fmt.Errorf("truncated compression chunk header")
		}
		h := int(src[0]) | int(src[1])<<8 | int(src[2])<<16
		src = src[3:]
		n := h >> 1
		if n > len(src) {
			return nil, fmt.Errorf("compression chunk of %d bytes with %d bytes left", n, len(src))
		}
		chunk := src[:n]
		src = src[n:]
		if h&1 == 1 {
			if len(dst)+n > max {
				return nil, fmt.Errorf("%w: decompressed size above %d bytes", ErrTooLarge, max)
			}
			dst = append(dst, chunk...)
			continue
		}
		room := d.blockSize
		if len(dst)+room > max {
			room = max - len(dst)
		}
		var err error
		dst, err = d.chunk(dst, chunk, room)
		if err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// chunk appends one decompressed chunk of at most room bytes to dst.
func (d *decompressor) chunk(dst, chunk []byte, room int) ([]byte, error) {
	start := len(dst)
	grow := func(n int) {
		if cap(dst)-len(dst) < n {
			nd := make([]byte, len(dst), 2*len(dst)+n)
			copy(nd, dst)
			dst = nd
		}
	}
	switch d.kind {
	case compZlib:
		d.br.Reset(chunk)
		if d.inflater == nil {
			d.inflater = flate.NewReader(&d.br)
		} else if err := d.inflater.(flate.Resetter).Reset(&d.br, nil); err != nil {
			return nil, err
		}
		grow(room + 1)
		for {
			if len(dst) == start+room+1 {
				break
			}
			m, err := d.inflater.Read(dst[len(dst) : start+room+1])
			dst = dst[:len(dst)+m]
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("zlib: %w", err)
			}
		}
		if len(dst)-start > room {
			return nil, fmt.Errorf("%w: compression chunk above %d bytes", ErrTooLarge, room)
		}
	case compSnappy:
		n, err := snappy.DecodedLen(chunk)
		if err != nil {
			return nil, fmt.Errorf("snappy: %w", err)
		}
		if n > room {
			return nil, fmt.Errorf("%w: compression chunk of %d bytes above %d", ErrTooLarge, n, room)
		}
		grow(n)
		out, err := snappy.Decode(dst[len(dst):len(dst)+n], chunk)
		if err != nil {
			return nil, fmt.Errorf("snappy: %w", err)
		}
		dst = dst[:start+len(out)]
		if len(out) != n || (n > 0 && &out[0] != &dst[start]) {
			copy(dst[start:], out)
		}
	case compLZ4:
		grow(room)
		n, err := lz4.UncompressBlock(chunk, dst[start:start+room])
		if err != nil {
			return nil, fmt.Errorf("lz4: %w", err)
		}
		dst = dst[:start+n]
	case compZstd:
		zd, err := sharedZstd()
		if err != nil {
			return nil, err
		}
		if n, ok := d.decodedLen(chunk); ok {
			grow(n)
		} else {
			grow(room)
		}
		out, err := zd.DecodeAll(chunk, dst)
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		if len(out)-start > room {
			return nil, fmt.Errorf("%w: compression chunk above %d bytes", ErrTooLarge, room)
		}
		dst = out
	case compLZO:
		grow(room)
		n, err := lzoDecompress(chunk, dst[start:start+room])
		if err != nil {
			return nil, fmt.Errorf("lzo: %w", err)
		}
		dst = dst[:start+n]
	}
	return dst, nil
}

// decodedLen returns the decompressed size a compressed chunk states, and
// whether it states one: snappy's length preamble, a zstd frame header's
// content size.
func (d *decompressor) decodedLen(chunk []byte) (int, bool) {
	switch d.kind {
	case compSnappy:
		n, err := snappy.DecodedLen(chunk)
		return n, err == nil
	case compZstd:
		var h zstd.Header
		if h.Decode(chunk) != nil || !h.HasFCS || h.FrameContentSize > uint64(d.blockSize) {
			return 0, false
		}
		return int(h.FrameContentSize), true
	}
	return 0, false
}

// lzoDecompress wraps go-lzo, which may panic on hostile input in some
// versions; a panic becomes an error.
func lzoDecompress(src, dst []byte) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			n, err = 0, fmt.Errorf("corrupt block (%v)", r)
		}
	}()
	return lzo.Decompress(src, dst)
}
