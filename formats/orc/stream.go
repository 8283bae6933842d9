package orc

import "fmt"

// stream is one stream of one stripe, decompressed chunk by chunk as its
// decoder consumes it (spec section "Compression": a stream is a sequence
// of chunks of at most the compression block size each), so that the
// memory a stream takes is bounded by what one batch needs plus one chunk,
// not by the stream's size: a few kilobytes of compressed chunks can
// otherwise claim gigabytes at once.
type stream struct {
	dec  *decompressor
	raw  []byte // compressed chunks not yet decompressed
	buf  []byte // decompressed bytes: the decoder's window
	left int    // decompressed bytes the stream may still produce (Limits.StreamBytes)
	// rawStore holds the stream's bytes as read, reused stripe to stripe.
	rawStore []byte
	// kind is the stream's kind (sData, sLength, ...), for errors.
	kind uint64
	// base is the offset of buf[0] in the stream's decompressed bytes (in
	// an uncompressed file, the byte offset in the stream); after a seek
	// in a compressed stream it counts from the chunk seeked to. marks
	// lists the chunks decompressed since the stripe was loaded or the
	// stream seeked: the row index check (checkAt) maps a position's
	// chunk offset to decompressed bytes by them.
	base  int64
	marks []chunkMark
}

// chunkMark places one decompressed chunk: raw is its offset in the
// stream's compressed bytes, dec the offset of its first byte in the
// decompressed bytes (counted as stream.base is).
type chunkMark struct{ raw, dec int64 }

// load starts s on raw, the stream's bytes as read (dec: the file's
// decompressor).
func (s *stream) load(raw []byte, dec *decompressor, kind uint64, left int) {
	s.rawStore, s.dec, s.kind, s.left, s.base, s.marks = raw, dec, kind, left, 0, s.marks[:0]
	if dec.kind == compNone {
		s.buf, s.raw = raw, nil
	} else {
		s.raw, s.buf = raw, s.buf[:0]
	}
}

// offset returns the offset in the decompressed bytes of the byte at p
// of a decoder window that starts at buf[0] (every window [stream.more]
// returns does).
func (s *stream) offset(p int) int64 {
	if s == nil {
		return 0
	}
	return s.base + int64(p)
}

// Decoders ask for this many bytes at the start of each run: the longest
// run of any integer or byte run-length encoding (RLE v2 patched base: a
// 4-byte header, an 8-byte base, 512 values of 64 bits and 31 patches).
const maxRunBytes = 8 << 10

// more returns a window holding the unconsumed bytes b[p:] followed by at
// least need bytes in all when the stream has them, with its position. It
// decompresses further chunks only when fewer than need bytes are left,
// and drops the consumed bytes before it does. A nil stream (an absent
// one) returns b and p unchanged; a decoder starts with a nil b.
func (s *stream) more(b []byte, p, need int) ([]byte, int, error) {
	if s == nil {
		return b, p, nil
	}
	if b == nil { // a decoder's first call: the window so far
		b, p = s.buf, 0
	}
	if len(b)-p >= need || len(s.raw) == 0 {
		return b, p, nil
	}
	// b is s.buf (or a prefix of it): keep its tail at the front.
	s.buf = append(s.buf[:0], b[p:]...)
	s.base += int64(p)
	for len(s.buf) < need && len(s.raw) > 0 {
		if err := s.chunk(); err != nil {
			return s.buf, 0, err
		}
	}
	return s.buf, 0, nil
}

// all decompresses the rest of the stream and returns all its bytes; for
// the streams a decoder needs whole (a dictionary).
func (s *stream) all() ([]byte, error) {
	if s == nil {
		return nil, nil
	}
	for len(s.raw) > 0 {
		if err := s.chunk(); err != nil {
			return nil, err
		}
	}
	return s.buf, nil
}

// chunk decompresses the next chunk onto the end of s.buf.
func (s *stream) chunk() error {
	if len(s.raw) < 3 {
		return fmt.Errorf("truncated compression chunk header")
	}
	h := int(s.raw[0]) | int(s.raw[1])<<8 | int(s.raw[2])<<16
	n := h >> 1
	if n > len(s.raw)-3 {
		return fmt.Errorf("compression chunk of %d bytes with %d bytes left", n, len(s.raw)-3)
	}
	c := s.raw[3 : 3+n]
	s.marks = append(s.marks, chunkMark{raw: int64(len(s.rawStore) - len(s.raw)), dec: s.base + int64(len(s.buf))})
	s.raw = s.raw[3+n:]
	start := len(s.buf)
	if h&1 == 1 {
		if n > s.left {
			return fmt.Errorf("%w: decompressed size above the stream limit", ErrTooLarge)
		}
		s.buf = append(s.buf, c...)
	} else {
		var err error
		if s.buf, err = s.dec.chunk(s.buf, c, min(s.dec.blockSize, s.left)); err != nil {
			return err
		}
	}
	s.left -= len(s.buf) - start
	return nil
}
