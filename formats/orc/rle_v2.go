package orc

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"unsafe"
)

// intRLEv2 decodes integer run-length encoding version 2 (spec section
// "Integer Run Length Encoding, version 2"): each run starts with a header
// whose top two bits select short repeat, direct, patched base or delta.
// A run holds at most 512 values. Runs are decoded straight into the
// caller's buffer at its width (fillV2); only a run that straddles the end
// of it goes through buf.
type intRLEv2 struct {
	b      []byte
	p      int
	s      *stream // when set, more bytes are decompressed from it as needed
	signed bool
	buf    []uint64 // the run that straddled the end of the last fill, from bp on
	bp     int
	wide   []uint64 // a narrow fill's runs of values wider than its words
}

// word is the unsigned form of an Arrow integer buffer the RLE decoders
// write into: a value wider than the word wraps, as Java's reader casts.
type word interface{ ~uint16 | ~uint32 | ~uint64 }

// wordBits returns the width of U in bits.
func wordBits[U word]() int { return bits.Len64(uint64(^U(0))) }

// int64Words returns dst's memory as unsigned words (same length).
func int64Words(dst []int64) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst))
}

const (
	v2ShortRepeat = 0
	v2Direct      = 1
	v2PatchedBase = 2
	v2Delta       = 3
)

// widthTable maps the 5-bit encoded width to a bit width.
var widthTable = [32]uint8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
	21, 22, 23, 24, 26, 28, 30, 32, 40, 48, 56, 64}

// closestFixedBits rounds a bit count up to a width the encoding uses
// (spec: the patch list entries are PGW+PW bits rounded this way).
func closestFixedBits(n int) int {
	switch {
	case n <= 24:
		return max(n, 1)
	case n <= 26:
		return 26
	case n <= 28:
		return 28
	case n <= 30:
		return 30
	case n <= 32:
		return 32
	case n <= 40:
		return 40
	case n <= 48:
		return 48
	case n <= 56:
		return 56
	}
	return 64
}

func (d *intRLEv2) at() (int64, bool) { return d.s.offset(d.p), d.bp >= len(d.buf) }

func (d *intRLEv2) next(dst []int64, n int) ([]int64, error) {
	at := len(dst)
	dst = slices.Grow(dst, n)[:at+n]
	m, err := d.fill(dst[at:])
	return dst[:at+m], err
}

func (d *intRLEv2) fill(dst []int64) (int, error)    { return fillV2(d, int64Words(dst)) }
func (d *intRLEv2) fill32(dst []uint32) (int, error) { return fillV2(d, dst) }
func (d *intRLEv2) fill16(dst []uint16) (int, error) { return fillV2(d, dst) }

// fillV2 decodes len(dst) values into dst and returns how many it wrote
// (len(dst) unless err is set). Runs that fit whole in what is left of dst
// are decoded in place; only the run that straddles the end of dst goes
// through d.buf, which keeps its remainder for the next call.
func fillV2[U word](d *intRLEv2, dst []U) (int, error) {
	i := 0
	if d.bp < len(d.buf) {
		k := min(len(dst), len(d.buf)-d.bp)
		for j, v := range d.buf[d.bp : d.bp+k] {
			dst[j] = U(v)
		}
		d.bp += k
		i = k
	}
	for i < len(dst) {
		if len(dst)-i >= maxRunValues {
			m, err := readRunV2(d, dst[i:])
			if err != nil {
				return i, err
			}
			i += m
			continue
		}
		d.buf = grow(d.buf, maxRunValues)
		m, err := readRunV2(d, d.buf)
		if err != nil {
			d.buf, d.bp = d.buf[:0], 0
			return i, err
		}
		d.buf = d.buf[:m]
		k := min(len(dst)-i, m)
		for j, v := range d.buf[:k] {
			dst[i+j] = U(v)
		}
		d.bp = k
		i += k
	}
	return i, nil
}

// maxRunValues is the most values one RLE v2 run holds (spec: 512 for
// direct, patched base and delta runs, 10 for a short repeat).
const maxRunValues = 512

// readRunV2 decodes the next run into dst (at least maxRunValues long)
// and returns its length. Arithmetic on words wraps as on int64 values
// narrowed afterwards; only zigzag decoding needs a value's bits above
// the word, so a signed direct run wider than U is decoded as 64-bit
// words and narrowed.
func readRunV2[U word](d *intRLEv2, dst []U) (int, error) {
	if d.s != nil && len(d.b)-d.p < maxRunBytes {
		var err error
		if d.b, d.p, err = d.s.more(d.b, d.p, maxRunBytes); err != nil {
			return 0, err
		}
	}
	if d.p >= len(d.b) {
		return 0, errShort
	}
	h := d.b[d.p]
	switch h >> 6 {
	case v2ShortRepeat:
		w := int(h>>3&7) + 1
		cnt := int(h&7) + 3
		if d.p+1+w > len(d.b) {
			return 0, errShort
		}
		var u uint64
		for _, c := range d.b[d.p+1 : d.p+1+w] {
			u = u<<8 | uint64(c)
		}
		d.p += 1 + w
		v := int64(u)
		if d.signed {
			v = unzigzag(u)
		}
		x := U(v)
		for j := range dst[:cnt] {
			dst[j] = x
		}
		return cnt, nil
	case v2Direct:
		if d.p+2 > len(d.b) {
			return 0, errShort
		}
		w := int(widthTable[h>>1&0x1f])
		cnt := (int(h&1)<<8 | int(d.b[d.p+1])) + 1
		if d.signed && w > wordBits[U]() {
			d.wide = grow(d.wide, maxRunValues)
			m, err := readRunV2(d, d.wide)
			for j, v := range d.wide[:m] {
				dst[j] = U(v)
			}
			return m, err
		}
		p, err := unpack(dst[:cnt], d.b, d.p+2, w)
		if err != nil {
			return 0, err
		}
		d.p = p
		if d.signed {
			for j, x := range dst[:cnt] {
				dst[j] = x>>1 ^ -(x & 1)
			}
		}
		return cnt, nil
	case v2PatchedBase:
		return patchedV2(d, dst, h)
	default:
		return deltaV2(d, dst, h)
	}
}

func patchedV2[U word](d *intRLEv2, dst []U, h byte) (int, error) {
	if d.p+4 > len(d.b) {
		return 0, errShort
	}
	w := int(widthTable[h>>1&0x1f])
	cnt := (int(h&1)<<8 | int(d.b[d.p+1])) + 1
	b3, b4 := d.b[d.p+2], d.b[d.p+3]
	bw := int(b3>>5) + 1
	pw := int(widthTable[b3&0x1f])
	pgw := int(b4>>5) + 1
	pll := int(b4 & 0x1f)
	p := d.p + 4
	if p+bw > len(d.b) {
		return 0, errShort
	}
	var ub uint64
	for _, c := range d.b[p : p+bw] {
		ub = ub<<8 | uint64(c)
	}
	p += bw
	sign := uint64(1) << (uint(bw)*8 - 1)
	base := int64(ub)
	if ub&sign != 0 {
		base = -int64(ub &^ sign)
	}
	out := dst[:cnt]
	p, err := unpack(out, d.b, p, w)
	if err != nil {
		return 0, err
	}
	if pgw+pw > 64 {
		return 0, fmt.Errorf("RLE v2 patch width %d+%d above 64 bits", pgw, pw)
	}
	var patches [32]uint64
	p, err = unpack(patches[:pll], d.b, p, closestFixedBits(pgw+pw))
	if err != nil {
		return 0, err
	}
	d.p = p
	idx := 0
	mask := uint64(1)<<uint(pw) - 1
	for _, e := range patches[:pll] {
		gap := int(e >> uint(pw))
		patch := e & mask
		idx += gap
		if gap == 255 && patch == 0 {
			continue
		}
		if idx >= cnt {
			return 0, fmt.Errorf("RLE v2 patch position %d beyond run of %d", idx, cnt)
		}
		out[idx] |= U(patch << uint(w))
	}
	bs := U(base)
	for j := range out {
		out[j] += bs
	}
	return cnt, nil
}

func deltaV2[U word](d *intRLEv2, dst []U, h byte) (int, error) {
	if d.p+2 > len(d.b) {
		return 0, errShort
	}
	code := h >> 1 & 0x1f
	w := 0
	if code != 0 {
		w = int(widthTable[code])
	}
	cnt := (int(h&1)<<8 | int(d.b[d.p+1])) + 1
	u, p, err := readVarint(d.b, d.p+2)
	if err != nil {
		return 0, err
	}
	base := int64(u)
	if d.signed {
		base = unzigzag(u)
	}
	u, p, err = readVarint(d.b, p)
	if err != nil {
		return 0, err
	}
	db := unzigzag(u)
	if cnt == 1 {
		d.p = p
		dst[0] = U(base)
		return 1, nil
	}
	out := dst[:cnt]
	if w == 0 {
		v, step := U(base), U(db)
		for j := range out {
			out[j] = v
			v += step
		}
		d.p = p
		return cnt, nil
	}
	if p, err = unpack(out[2:], d.b, p, w); err != nil {
		return 0, err
	}
	d.p = p
	v := U(base) + U(db)
	out[0], out[1] = U(base), v
	if db < 0 {
		for j, x := range out[2:] {
			v -= x
			out[2+j] = v
		}
	} else {
		for j, x := range out[2:] {
			v += x
			out[2+j] = v
		}
	}
	return cnt, nil
}

// unpack fills out with unsigned values of w bits each, packed most
// significant bit first from b[p:], and returns the position after the
// last whole byte. A value wider than U is cut to its low bits.
func unpack[U word](out []U, b []byte, p, w int) (int, error) {
	n := len(out)
	need := (n*w + 7) / 8
	if need > len(b)-p {
		return p, errShort
	}
	src := b[p : p+need]
	switch w {
	case 8:
		for i, c := range src[:n] {
			out[i] = U(c)
		}
	case 16:
		src = src[:2*n]
		for i := range out {
			out[i] = U(binary.BigEndian.Uint16(src[2*i:]))
		}
	case 32:
		src = src[:4*n]
		for i := range out {
			out[i] = U(binary.BigEndian.Uint32(src[4*i:]))
		}
	case 64:
		src = src[:8*n]
		for i := range out {
			out[i] = U(binary.BigEndian.Uint64(src[8*i:]))
		}
	default:
		if w <= 56 {
			unpackNarrow(out, src, w)
		} else {
			unpackWide(out, src, w)
		}
	}
	return p + need, nil
}

// unpackNarrow unpacks len(out) values of w ≤ 56 bits from src (exactly
// the bytes they take). While 8 bytes remain from a value's first byte,
// the value is one shift of a big-endian 64-bit load (its at most 7 leading
// bits of the previous value plus w ≤ 57 bits fit); the last few values
// are assembled byte by byte.
func unpackNarrow[U word](out []U, src []byte, w int) {
	uw := uint(w)
	mask := uint64(1)<<uw - 1
	bit := 0
	i := 0
	for ; i < len(out) && bit>>3+8 <= len(src); i++ {
		v := binary.BigEndian.Uint64(src[bit>>3:])
		out[i] = U(v << uint(bit&7) >> (64 - uw) & mask)
		bit += w
	}
	for ; i < len(out); i++ {
		var v uint64
		for need := w; need > 0; {
			c := src[bit>>3]
			have := 8 - bit&7
			t := min(need, have)
			v = v<<uint(t) | uint64(c>>uint(have-t))&(1<<uint(t)-1)
			bit += t
			need -= t
		}
		out[i] = U(v)
	}
}

// unpackWide unpacks len(out) values of 56 < w < 64 bits from src, bit by
// bit group.
func unpackWide[U word](out []U, src []byte, w int) {
	var cur byte
	bits := 0
	i := 0
	for o := range out {
		var v uint64
		need := w
		for need > 0 {
			if bits == 0 {
				cur = src[i]
				i++
				bits = 8
			}
			t := min(need, bits)
			v = v<<uint(t) | uint64(cur>>uint(bits-t))&(1<<uint(t)-1)
			bits -= t
			need -= t
		}
		out[o] = U(v)
	}
}
