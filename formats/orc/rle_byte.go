package orc

import (
	"fmt"
	"io"
	"slices"
)

// byteRLE decodes the byte run-length encoding (spec section "Byte Run
// Length Encoding"): a control byte c < 0x80 starts a run of c+3 copies of
// the next byte; c ≥ 0x80 starts 256-c literal bytes.
type byteRLE struct {
	b   []byte
	p   int
	s   *stream // when set, more bytes are decompressed from it as needed
	run int     // values left in the current run
	lit bool    // current run is literal
	val byte    // the repeated byte
}

func (d *byteRLE) reset(b []byte) { *d = byteRLE{b: b} }

// resetStream starts decoding s (nil: an absent stream).
func (d *byteRLE) resetStream(s *stream) { *d = byteRLE{s: s} }

// at returns the decoder's offset in its stream's decompressed bytes and
// whether it is between runs.
func (d *byteRLE) at() (int64, bool) { return d.s.offset(d.p), d.run == 0 }

// next appends n bytes to dst.
func (d *byteRLE) next(dst []byte, n int) ([]byte, error) {
	for n > 0 {
		if d.run == 0 {
			if d.s != nil && len(d.b)-d.p < 130 {
				var err error
				if d.b, d.p, err = d.s.more(d.b, d.p, 130); err != nil {
					return dst, err
				}
			}
			if d.p >= len(d.b) {
				return dst, errShort
			}
			c := d.b[d.p]
			d.p++
			if c < 0x80 {
				if d.p >= len(d.b) {
					return dst, errShort
				}
				d.run, d.lit, d.val = int(c)+3, false, d.b[d.p]
				d.p++
			} else {
				d.run, d.lit = 256-int(c), true
			}
		}
		k := min(n, d.run)
		if d.lit {
			if d.p+k > len(d.b) {
				return dst, errShort
			}
			dst = append(dst, d.b[d.p:d.p+k]...)
			d.p += k
		} else {
			for range k {
				dst = append(dst, d.val)
			}
		}
		d.run -= k
		n -= k
	}
	return dst, nil
}

// boolRLE decodes booleans: a byte RLE stream whose bytes hold 8 values each,
// most significant bit first (spec section "Boolean Run Length Encoding").
type boolRLE struct {
	br   byteRLE
	cur  byte
	left int // bits left in cur
	tmp  []byte
}

func (d *boolRLE) reset(b []byte) { d.br.reset(b); d.left = 0 }

// resetStream starts decoding s (nil: an absent stream).
func (d *boolRLE) resetStream(s *stream) { d.br.resetStream(s); d.left = 0 }

// next appends n values (0 or 1) to dst.
func (d *boolRLE) next(dst []byte, n int) ([]byte, error) {
	for n > 0 && d.left > 0 {
		d.left--
		dst = append(dst, (d.cur>>uint(d.left))&1)
		n--
	}
	if n == 0 {
		return dst, nil
	}
	var err error
	d.tmp, err = d.br.next(d.tmp[:0], (n+7)/8)
	if err != nil {
		return dst, err
	}
	full := n / 8
	if len(d.tmp) < (n+7)/8 {
		return dst, io.ErrUnexpectedEOF
	}
	at := len(dst)
	dst = slices.Grow(dst, full*8)[:at+full*8]
	out := dst[at:]
	for i, c := range d.tmp[:full] {
		*(*[8]byte)(out[i*8 : i*8+8]) = bitBytes[c]
	}
	if r := n - full*8; r > 0 {
		d.cur, d.left = d.tmp[full], 8
		for range r {
			d.left--
			dst = append(dst, (d.cur>>uint(d.left))&1)
		}
	}
	return dst, nil
}

// intReader decodes a stream of integers.
type intReader interface {
	// next appends n values to dst.
	next(dst []int64, n int) ([]int64, error)
	// fill decodes len(dst) values into dst and returns how many it
	// wrote: len(dst) unless the error is set.
	fill(dst []int64) (int, error)
	// fill32 and fill16 are fill into 32- and 16-bit words, each value
	// narrowed as it is decoded (a wider value wraps, as Java's reader
	// casts): an int or smallint column's Arrow buffer.
	fill32(dst []uint32) (int, error)
	fill16(dst []uint16) (int, error)
	// at returns the decoder's offset in its stream's decompressed
	// bytes and whether it is between runs (none partly decoded).
	at() (int64, bool)
}

// newIntReader returns the RLE v1 or v2 decoder for a column encoding kind.
func newIntReader(s *stream, signed bool, enc uint64) intReader {
	if enc == encDirectV2 || enc == encDictionaryV2 {
		return &intRLEv2{s: s, signed: signed}
	}
	return &intRLEv1{s: s, signed: signed}
}

// readVarint reads a base-128 varint (least significant group first).
func readVarint(b []byte, p int) (uint64, int, error) {
	var v uint64
	for s := uint(0); s < 64; s += 7 {
		if p >= len(b) {
			return 0, p, errShort
		}
		c := b[p]
		p++
		v |= uint64(c&0x7f) << s
		if c < 0x80 {
			return v, p, nil
		}
	}
	return 0, p, fmt.Errorf("varint longer than 10 bytes")
}

func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// bitBytes[c] is byte c spread to one byte (0 or 1) per bit, most
// significant bit first (the order of ORC's boolean streams).
var bitBytes = func() (t [256][8]byte) {
	for c := range t {
		for j := range 8 {
			t[c][j] = byte(c>>(7-j)) & 1
		}
	}
	return t
}()
