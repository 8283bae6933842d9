package orc

import (
	"fmt"
	"io"
	"math/bits"
	"sync"
)

// stream is one stream of one stripe, read from the file and decompressed
// chunk by chunk as its decoder consumes it (spec section "Compression": a
// stream is a sequence of chunks of at most the compression block size
// each), so that the memory a stream takes is bounded by what one batch
// needs plus one read window and one chunk, not by the stream's size: a few
// kilobytes of compressed chunks can otherwise claim gigabytes at once, and
// a 64 MiB stripe is not held whole. Both buffers are reused stripe to
// stripe.
type stream struct {
	dec *decompressor
	src io.ReaderAt // the file
	off int64       // file offset of the stream's first byte
	// size is the stream's length in the file, read how many of its
	// bytes have been read from src.
	size, read int
	raw        []byte // compressed bytes read but not yet decompressed (a suffix of rawStore)
	rawStore   []byte // the read window of a compressed stream
	buf        []byte // decompressed bytes: the decoder's window
	left       int    // decompressed bytes the stream may still produce (Limits.StreamBytes)
	// kind is the stream's kind (sData, sLength, ...), for errors.
	kind uint64
	// base is the offset of buf[0] in the stream's decompressed bytes (in
	// a file without compression, the byte offset in the stream); after a
	// seek in a compressed stream it counts from the chunk seeked to.
	// marks lists the chunks decompressed since the stripe was loaded or
	// the stream seeked: the row index check ([stream.expected]) maps a
	// position's chunk offset to decompressed bytes by them.
	base  int64
	marks []chunkMark
}

// chunkMark places one decompressed chunk: raw is its offset in the
// stream's compressed bytes (s.read-len(s.raw) when its header is read:
// the windows read so far end at s.read), dec the offset of its first
// byte in the decompressed bytes (counted as stream.base is).
type chunkMark struct{ raw, dec int64 }

// readWindow is the least number of bytes a stream reads from the file at
// a time (all that is left when fewer are): large enough that a stripe on
// an object store costs few requests (storage.CoalesceFS passes a read of
// 4 MiB or more through as one request of its own), small enough that a
// 64 MiB stripe is not held whole. A variable so that the tests can make
// it small.
var readWindow = 4 << 20

// rawPools hold the read windows of closed batch readers for the next
// ones, by capacity class (class c: capacities in [2^c, 2^(c+1))), so that
// a table read file after file does not allocate and zero its stripes'
// bytes anew for each file.
var rawPools [40]sync.Pool

// getRaw returns an empty buffer of capacity at least n: one from
// rawPools when one is there (class bits.Len(n) holds only large enough
// buffers, the class below some), else a new one of capacity n.
func getRaw(n int) []byte {
	c := bits.Len(uint(n))
	for _, k := range [2]int{c, c - 1} {
		if k < 0 || k >= len(rawPools) {
			continue
		}
		if b, ok := rawPools[k].Get().(*[]byte); ok {
			if cap(*b) >= n {
				return (*b)[:0]
			}
			rawPools[k].Put(b)
		}
	}
	return make([]byte, 0, n)
}

// putRaw gives a buffer of getRaw back to rawPools.
func putRaw(b []byte) {
	if c := bits.Len(uint(cap(b))) - 1; c >= 16 && c < len(rawPools) {
		rawPools[c].Put(&b)
	}
}

// readError is an I/O error of the file's io.ReaderAt met while a stream
// was read; [BatchReader] reports it as a read error, not as corruption.
type readError struct{ err error }

func (e *readError) Error() string { return e.err.Error() }
func (e *readError) Unwrap() error { return e.err }

// reset starts the stream, of kind kind, over the size bytes at file
// offset off of src, keeping its buffers (a stripe after another, or
// another stripe range after [BatchReader.SetStripes]).
func (s *stream) reset(dec *decompressor, src io.ReaderAt, kind uint64, off int64, size int, left int) {
	s.dec, s.src, s.kind, s.off, s.size, s.read, s.left = dec, src, kind, off, size, 0, left
	s.raw, s.rawStore, s.buf, s.base, s.marks = nil, s.rawStore[:0], s.buf[:0], 0, s.marks[:0]
}

// offset returns the offset in the decompressed bytes of the byte at p
// of a decoder window that starts at buf[0] (every window [stream.more]
// and [stream.readInto] return does).
func (s *stream) offset(p int) int64 {
	if s == nil {
		return 0
	}
	return s.base + int64(p)
}

// release gives the stream's buffers back to rawPools.
func (s *stream) release() {
	putRaw(s.rawStore)
	putRaw(s.buf)
	*s = stream{}
}

// done reports whether every byte of the stream has been read and
// decompressed.
func (s *stream) done() bool { return len(s.raw) == 0 && s.read == s.size }

// readAppend appends the next max(n, readWindow) bytes of the stream (all
// that is left when fewer) to dst.
func (s *stream) readAppend(dst []byte, n int) ([]byte, error) {
	k := min(s.size-s.read, max(n, readWindow))
	at := len(dst)
	if cap(dst)-at < k {
		nd := getRaw(at + k)[:at]
		copy(nd, dst)
		putRaw(dst)
		dst = nd
	}
	m, err := s.src.ReadAt(dst[at:at+k], s.off+int64(s.read))
	if m < k {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return dst[:at], &readError{err}
	}
	s.read += k
	return dst[:at+k], nil
}

// rawHave makes s.raw hold at least n bytes when the stream has them,
// reading more of the file behind the bytes not yet consumed.
func (s *stream) rawHave(n int) error {
	if len(s.raw) >= n || s.read == s.size {
		return nil
	}
	s.rawStore = s.rawStore[:copy(s.rawStore, s.raw)]
	var err error
	s.rawStore, err = s.readAppend(s.rawStore, n-len(s.rawStore))
	s.raw = s.rawStore
	return err
}

// Decoders ask for this many bytes at the start of each run: the longest
// run of any integer or byte run-length encoding (RLE v2 patched base: a
// 4-byte header, an 8-byte base, 512 values of 64 bits and 31 patches).
const maxRunBytes = 8 << 10

// more returns a window holding the unconsumed bytes b[p:] followed by at
// least need bytes in all when the stream has them, with its position. It
// reads and decompresses further chunks only when fewer than need bytes
// are left, and drops the consumed bytes before it does. A nil stream (an
// absent one) returns b and p unchanged; a decoder starts with a nil b.
func (s *stream) more(b []byte, p, need int) ([]byte, int, error) {
	if s == nil {
		return b, p, nil
	}
	if b == nil { // a decoder's first call: the window so far
		b, p = s.buf, 0
	}
	if len(b)-p >= need || s.done() {
		return b, p, nil
	}
	// b is s.buf (or a prefix of it): keep its tail at the front.
	s.buf = append(s.buf[:0], b[p:]...)
	s.base += int64(p)
	for len(s.buf) < need && !s.done() {
		if err := s.chunk(need - len(s.buf)); err != nil {
			return s.buf, 0, err
		}
	}
	return s.buf, 0, nil
}

// all reads and decompresses the rest of the stream and returns all its
// bytes; for the streams a decoder needs whole (a dictionary).
func (s *stream) all() ([]byte, error) {
	if s == nil {
		return nil, nil
	}
	for !s.done() {
		if err := s.chunk(s.size - s.read); err != nil {
			return nil, err
		}
	}
	return s.buf, nil
}

// chunk appends more of the stream to s.buf: the next compression chunk,
// or, in a file without compression, the next max(want, readWindow) bytes.
func (s *stream) chunk(want int) error {
	if s.dec.kind == compNone {
		var err error
		s.buf, err = s.readAppend(s.buf, want)
		return err
	}
	c, orig, err := s.take()
	if err != nil {
		return err
	}
	start := len(s.buf)
	if orig {
		if len(c) > s.left {
			return fmt.Errorf("%w: decompressed size above the stream limit", ErrTooLarge)
		}
		s.buf = append(s.buf, c...)
	} else if s.buf, err = s.dec.chunk(s.buf, c, min(s.dec.blockSize, s.left)); err != nil {
		return err
	}
	s.left -= len(s.buf) - start
	return nil
}

// take returns the next compression chunk's bytes and whether they are
// the original, uncompressed bytes (the header's low bit), and moves past
// it, marking the chunk (chunkMark) as decompressed at the end of s.buf.
func (s *stream) take() (c []byte, orig bool, err error) {
	if err := s.rawHave(3); err != nil {
		return nil, false, err
	}
	if len(s.raw) < 3 {
		return nil, false, fmt.Errorf("truncated compression chunk header")
	}
	h := int(s.raw[0]) | int(s.raw[1])<<8 | int(s.raw[2])<<16
	n := h >> 1
	if err := s.rawHave(3 + n); err != nil {
		return nil, false, err
	}
	if n > len(s.raw)-3 {
		return nil, false, fmt.Errorf("compression chunk of %d bytes with %d bytes left", n, len(s.raw)-3)
	}
	c = s.raw[3 : 3+n]
	s.marks = append(s.marks, chunkMark{raw: int64(s.read - len(s.raw)), dec: s.base + int64(len(s.buf))})
	s.raw = s.raw[3+n:]
	return c, h&1 == 1, nil
}

// mayHold reports whether the rest of the stream can plausibly give n more
// bytes (beyond its decoder's window), so that a decoder may allocate them
// before reading: at most the bytes left in a file without compression; a
// compressed stream is held to 64 times its bytes left plus a chunk, the
// stream limit, and a chunk's largest size for each chunk header left.
func (s *stream) mayHold(n int) bool {
	if s == nil {
		return n <= 0
	}
	rest := len(s.raw) + s.size - s.read
	if s.dec.kind == compNone {
		return n <= rest
	}
	return n <= s.left && n <= 64*rest+s.dec.blockSize && n <= (rest/3+1)*s.dec.blockSize
}

// readInto fills dst with the next len(dst) bytes of the stream, where
// b[p:] is the decoder's window (nil b: the decoder's first call), and
// returns the new window and position. It copies what the window holds,
// then reads and decompresses the following chunks straight into dst,
// each chunk that fits whole and states its decompressed size (snappy;
// zstd frames that record it; original chunks; the bytes of a file
// without compression): a float column's values or a batch's string bytes
// then move once from the file's bytes into the Arrow buffer. The part of
// the last chunk past dst stays in the window. It returns errShort when
// the stream ends first (a nil stream has no bytes).
func (s *stream) readInto(dst, b []byte, p int) ([]byte, int, error) {
	if len(dst) == 0 {
		return b, p, nil
	}
	if s == nil {
		return b, p, errShort
	}
	if b == nil {
		b, p = s.buf, 0
	}
	k := copy(dst, b[p:])
	p += k
	if dst = dst[k:]; len(dst) == 0 {
		return b, p, nil
	}
	// The window is consumed; dst's bytes follow it in the stream.
	s.buf, s.base = s.buf[:0], s.base+int64(len(b))
	if s.dec.kind == compNone {
		if s.size-s.read < len(dst) {
			return s.buf, 0, errShort
		}
		m, err := s.src.ReadAt(dst, s.off+int64(s.read))
		if m < len(dst) {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return s.buf, 0, &readError{err}
		}
		s.read += len(dst)
		s.base += int64(len(dst))
		return s.buf, 0, nil
	}
	for len(dst) > 0 {
		if s.done() {
			return s.buf, 0, errShort
		}
		c, orig, err := s.take()
		if err != nil {
			return s.buf, 0, err
		}
		out := c
		if !orig {
			room := min(s.dec.blockSize, s.left)
			if n, ok := s.dec.decodedLen(c); ok && n <= len(dst) && n <= room {
				out, err = s.dec.chunk(dst[:0:n], c, room)
			} else {
				out, err = s.dec.chunk(s.buf[:0], c, room)
				s.buf = out[:0]
			}
			if err != nil {
				return s.buf, 0, err
			}
		}
		if len(out) > s.left {
			return s.buf, 0, fmt.Errorf("%w: decompressed size above the stream limit", ErrTooLarge)
		}
		s.left -= len(out)
		k := len(out) // out is dst's first bytes when decoded into it
		if len(out) == 0 || &out[0] != &dst[0] {
			k = copy(dst, out)
		}
		dst = dst[k:]
		if k < len(out) { // the rest of the chunk is the new window
			if orig {
				s.buf, s.base = append(s.buf[:0], out[k:]...), s.base+int64(k)
				return s.buf, 0, nil
			}
			s.buf = out // base stays at the chunk's start
			return s.buf, k, nil
		}
		s.base += int64(k)
	}
	return s.buf, 0, nil
}
