package orc

import (
	"encoding/binary"
	"fmt"
	"slices"
)

// intRLEv2 decodes integer run-length encoding version 2 (spec section
// "Integer Run Length Encoding, version 2"): each run starts with a header
// whose top two bits select short repeat, direct, patched base or delta.
// A run holds at most 512 values; it is decoded whole into buf.
type intRLEv2 struct {
	b      []byte
	p      int
	s      *stream // when set, more bytes are decompressed from it as needed
	signed bool
	buf    []int64
	bp     int
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

// fill decodes len(dst) values into dst and returns how many it wrote
// (len(dst) unless err is set). Runs that fit whole in what is left of dst
// are decoded in place; only the run that straddles the end of dst goes
// through d.buf, which keeps its remainder for the next call.
func (d *intRLEv2) fill(dst []int64) (int, error) {
	i := 0
	if d.bp < len(d.buf) {
		i = copy(dst, d.buf[d.bp:])
		d.bp += i
	}
	for i < len(dst) {
		if len(dst)-i >= maxRunValues {
			run, err := d.readRun(dst[i:i:len(dst)])
			if err != nil {
				return i, err
			}
			i += len(run)
			continue
		}
		var err error
		d.buf, err = d.readRun(d.buf[:0])
		d.bp = 0
		if err != nil {
			return i, err
		}
		k := copy(dst[i:], d.buf)
		d.bp = k
		i += k
	}
	return i, nil
}

// maxRunValues is the most values one RLE v2 run holds (spec: 512 for
// direct, patched base and delta runs, 10 for a short repeat).
const maxRunValues = 512

func (d *intRLEv2) readRun(dst []int64) ([]int64, error) {
	if d.s != nil && len(d.b)-d.p < maxRunBytes {
		var err error
		if d.b, d.p, err = d.s.more(d.b, d.p, maxRunBytes); err != nil {
			return dst, err
		}
	}
	if d.p >= len(d.b) {
		return dst, errShort
	}
	h := d.b[d.p]
	switch h >> 6 {
	case v2ShortRepeat:
		w := int(h>>3&7) + 1
		cnt := int(h&7) + 3
		if d.p+1+w > len(d.b) {
			return dst, errShort
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
		for range cnt {
			dst = append(dst, v)
		}
		return dst, nil
	case v2Direct:
		if d.p+2 > len(d.b) {
			return dst, errShort
		}
		w := int(widthTable[h>>1&0x1f])
		cnt := (int(h&1)<<8 | int(d.b[d.p+1])) + 1
		d.p += 2
		start := len(dst)
		var err error
		dst, d.p, err = unpack(dst, d.b, d.p, cnt, w)
		if err != nil {
			return dst, err
		}
		if d.signed {
			for i := start; i < len(dst); i++ {
				dst[i] = unzigzag(uint64(dst[i]))
			}
		}
		return dst, nil
	case v2PatchedBase:
		return d.patched(dst, h)
	default:
		return d.delta(dst, h)
	}
}

func (d *intRLEv2) patched(dst []int64, h byte) ([]int64, error) {
	if d.p+4 > len(d.b) {
		return dst, errShort
	}
	w := int(widthTable[h>>1&0x1f])
	cnt := (int(h&1)<<8 | int(d.b[d.p+1])) + 1
	b3, b4 := d.b[d.p+2], d.b[d.p+3]
	bw := int(b3>>5) + 1
	pw := int(widthTable[b3&0x1f])
	pgw := int(b4>>5) + 1
	pll := int(b4 & 0x1f)
	d.p += 4
	if d.p+bw > len(d.b) {
		return dst, errShort
	}
	var ub uint64
	for _, c := range d.b[d.p : d.p+bw] {
		ub = ub<<8 | uint64(c)
	}
	d.p += bw
	sign := uint64(1) << (uint(bw)*8 - 1)
	base := int64(ub)
	if ub&sign != 0 {
		base = -int64(ub &^ sign)
	}
	start := len(dst)
	var err error
	dst, d.p, err = unpack(dst, d.b, d.p, cnt, w)
	if err != nil {
		return dst, err
	}
	if pgw+pw > 64 {
		return dst, fmt.Errorf("RLE v2 patch width %d+%d above 64 bits", pgw, pw)
	}
	var patches [32]int64
	pl, np, err := unpack(patches[:0], d.b, d.p, pll, closestFixedBits(pgw+pw))
	if err != nil {
		return dst, err
	}
	d.p = np
	idx := 0
	mask := uint64(1)<<uint(pw) - 1
	for _, e := range pl {
		gap := int(uint64(e) >> uint(pw))
		patch := uint64(e) & mask
		idx += gap
		if gap == 255 && patch == 0 {
			continue
		}
		if idx >= cnt {
			return dst, fmt.Errorf("RLE v2 patch position %d beyond run of %d", idx, cnt)
		}
		dst[start+idx] = int64(uint64(dst[start+idx]) | patch<<uint(w))
	}
	for i := start; i < len(dst); i++ {
		dst[i] += base
	}
	return dst, nil
}

func (d *intRLEv2) delta(dst []int64, h byte) ([]int64, error) {
	if d.p+2 > len(d.b) {
		return dst, errShort
	}
	code := h >> 1 & 0x1f
	w := 0
	if code != 0 {
		w = int(widthTable[code])
	}
	cnt := (int(h&1)<<8 | int(d.b[d.p+1])) + 1
	d.p += 2
	u, p, err := readVarint(d.b, d.p)
	if err != nil {
		return dst, err
	}
	base := int64(u)
	if d.signed {
		base = unzigzag(u)
	}
	u, p, err = readVarint(d.b, p)
	if err != nil {
		return dst, err
	}
	d.p = p
	db := unzigzag(u)
	dst = append(dst, base)
	if cnt == 1 {
		return dst, nil
	}
	v := base + db
	dst = append(dst, v)
	if w == 0 {
		for i := 2; i < cnt; i++ {
			v += db
			dst = append(dst, v)
		}
		return dst, nil
	}
	start := len(dst)
	dst, d.p, err = unpack(dst, d.b, d.p, cnt-2, w)
	if err != nil {
		return dst, err
	}
	if db < 0 {
		for i := start; i < len(dst); i++ {
			v -= dst[i]
			dst[i] = v
		}
	} else {
		for i := start; i < len(dst); i++ {
			v += dst[i]
			dst[i] = v
		}
	}
	return dst, nil
}

// unpack appends n unsigned values of w bits each, packed most significant
// bit first from b[p:], and returns the position after the last whole byte.
func unpack(dst []int64, b []byte, p, n, w int) ([]int64, int, error) {
	need := (n*w + 7) / 8
	if need > len(b)-p {
		return dst, p, errShort
	}
	src := b[p : p+need]
	at := len(dst)
	dst = slices.Grow(dst, n)[:at+n]
	out := dst[at:]
	switch w {
	case 8:
		for i, c := range src[:n] {
			out[i] = int64(c)
		}
	case 16:
		src = src[:2*n]
		for i := range out {
			out[i] = int64(binary.BigEndian.Uint16(src[2*i:]))
		}
	case 32:
		src = src[:4*n]
		for i := range out {
			out[i] = int64(binary.BigEndian.Uint32(src[4*i:]))
		}
	case 64:
		src = src[:8*n]
		for i := range out {
			out[i] = int64(binary.BigEndian.Uint64(src[8*i:]))
		}
	default:
		if w <= 56 {
			unpackNarrow(out, src, w)
		} else {
			unpackWide(out, src, w)
		}
	}
	return dst, p + need, nil
}

// unpackNarrow unpacks len(out) values of w ≤ 56 bits from src (exactly
// the bytes they take). While 8 bytes remain from a value's first byte,
// the value is one shift of a big-endian 64-bit load (its at most 7 leading
// bits of the previous value plus w ≤ 57 bits fit); the last few values
// are assembled byte by byte.
func unpackNarrow(out []int64, src []byte, w int) {
	uw := uint(w)
	mask := uint64(1)<<uw - 1
	bit := 0
	i := 0
	for ; i < len(out) && bit>>3+8 <= len(src); i++ {
		v := binary.BigEndian.Uint64(src[bit>>3:])
		out[i] = int64(v << uint(bit&7) >> (64 - uw) & mask)
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
		out[i] = int64(v)
	}
}

// unpackWide unpacks len(out) values of 56 < w < 64 bits from src, bit by
// bit group.
func unpackWide(out []int64, src []byte, w int) {
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
		out[o] = int64(v)
	}
}
