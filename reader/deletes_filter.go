package reader

import (
	"encoding/binary"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// keptRuns returns the runs [start, end) of rows drop does not mark.
func keptRuns(dst [][2]int, drop []bool) [][2]int {
	dst = dst[:0]
	n := len(drop)
	for i := 0; i < n; {
		for i < n && drop[i] {
			i++
		}
		s := i
		for i < n && !drop[i] {
			i++
		}
		if i > s {
			dst = append(dst, [2]int{s, i})
		}
	}
	return dst
}

// runsBetween returns the runs [start, end) of the n rows that the sorted,
// distinct positions dropped leave: the same as [keptRuns] in the time of
// the dropped rows rather than of all rows (no branch per row).
func runsBetween(dst [][2]int, dropped []int, n int) [][2]int {
	dst = dst[:0]
	s := 0
	for _, p := range dropped {
		if p > s {
			dst = append(dst, [2]int{s, p})
		}
		s = p + 1
	}
	if n > s {
		dst = append(dst, [2]int{s, n})
	}
	return dst
}

// keepBitsOf sets keep (BytesForBits(n) bytes) to the bitmap of the n rows
// that the sorted positions dropped leave.
func keepBitsOf(keep []byte, dropped []int, n int) {
	for i := range keep {
		keep[i] = 0xff
	}
	if r := n & 7; r != 0 {
		keep[len(keep)-1] = byte(1)<<r - 1
	}
	for _, p := range dropped {
		keep[p>>3] &^= 1 << (p & 7)
	}
}

// filterRuns returns the rows of a in runs (kept rows in all; keep is the
// same as a bitmap, and keep1, when not nil, as a byte of 0 or 1 a row),
// copying each run of values at once (values of 4, 8 or 16 bytes one by
// one without a branch, when keep1 is given: for short runs), for flat
// fixed-width types (whole bytes) and string and binary with 32-bit
// offsets; ok is false for another type, which the caller filters with
// Arrow's kernel.
func filterRuns(a arrow.Array, runs [][2]int, keep []byte, keep1 []uint8, kept int, mem memory.Allocator) (out arrow.Array, ok bool) {
	data := a.Data()
	off := data.Offset()
	var validity *memory.Buffer
	nulls := 0
	if a.NullN() > 0 && data.Buffers()[0] != nil {
		validity = memory.NewResizableBuffer(mem)
		validity.Resize(int(bitutil.BytesForBits(int64(kept))))
		nulls = kept - copyBits(validity.Bytes(), data.Buffers()[0].Bytes(), off, keep)
	}
	release := func() {
		if validity != nil {
			validity.Release()
		}
	}
	switch dt := a.DataType().(type) {
	case arrow.FixedWidthDataType:
		bits := dt.BitWidth()
		if bits%8 != 0 || len(data.Children()) > 0 || arrow.IsNested(dt.ID()) || dt.ID() == arrow.DICTIONARY {
			release()
			return nil, false
		}
		w := bits / 8
		values := memory.NewResizableBuffer(mem)
		values.Resize(kept * w)
		src, dst := data.Buffers()[1].Bytes(), values.Bytes()
		if keep1 != nil {
			// One value more: compactValues writes one past the last.
			values.Resize((kept + 1) * w)
			dst = values.Bytes()
		}
		n := data.Len()
		switch {
		case w == 4 && keep1 != nil:
			compactValues(arrow.Uint32Traits.CastFromBytes(dst), arrow.Uint32Traits.CastFromBytes(src)[off:off+n], keep1)
		case w == 8 && keep1 != nil:
			compactValues(arrow.Uint64Traits.CastFromBytes(dst), arrow.Uint64Traits.CastFromBytes(src)[off:off+n], keep1)
		case w == 16 && keep1 != nil:
			compactValues(arrow.Decimal128Traits.CastFromBytes(dst), arrow.Decimal128Traits.CastFromBytes(src)[off:off+n], keep1)
		case w == 4:
			copyRuns(arrow.Uint32Traits.CastFromBytes(dst), arrow.Uint32Traits.CastFromBytes(src)[off:], runs)
		case w == 8:
			copyRuns(arrow.Uint64Traits.CastFromBytes(dst), arrow.Uint64Traits.CastFromBytes(src)[off:], runs)
		case w == 16:
			copyRuns(arrow.Decimal128Traits.CastFromBytes(dst), arrow.Decimal128Traits.CastFromBytes(src)[off:], runs)
		default:
			k := 0
			for _, r := range runs {
				k += copy(dst[k:], src[(off+r[0])*w:(off+r[1])*w])
			}
		}
		d := array.NewData(a.DataType(), kept, []*memory.Buffer{validity, values}, nil, nulls, 0)
		out = array.MakeFromData(d)
		d.Release()
		values.Release()
		release()
		return out, true
	}
	switch a.DataType().ID() {
	case arrow.STRING, arrow.BINARY:
		offs := arrow.Int32Traits.CastFromBytes(data.Buffers()[1].Bytes())[off : off+data.Len()+1]
		var src []byte
		if b := data.Buffers()[2]; b != nil {
			src = b.Bytes()
		}
		total := 0
		for _, r := range runs {
			total += int(offs[r[1]] - offs[r[0]])
		}
		offBuf := memory.NewResizableBuffer(mem)
		offBuf.Resize((kept + 1) * 4)
		newOffs := arrow.Int32Traits.CastFromBytes(offBuf.Bytes())
		dataBuf := memory.NewResizableBuffer(mem)
		dataBuf.Resize(total)
		dst := dataBuf.Bytes()
		k, pos := 0, int32(0)
		for _, r := range runs {
			base := offs[r[0]]
			for i := r[0]; i < r[1]; i++ {
				newOffs[k] = pos + offs[i] - base
				k++
			}
			n := copy(dst[pos:], src[base:offs[r[1]]])
			pos += int32(n)
		}
		newOffs[k] = pos
		d := array.NewData(a.DataType(), kept, []*memory.Buffer{validity, offBuf, dataBuf}, nil, nulls, 0)
		out = array.MakeFromData(d)
		d.Release()
		offBuf.Release()
		dataBuf.Release()
		release()
		return out, true
	}
	release()
	return nil, false
}

// copyRuns copies the values of src in runs, in order, to dst: a short
// run value by value (a call of memmove costs more than the copy of a few
// values; runs average ten rows at a tenth of rows deleted at random), a
// long one at once.
func copyRuns[T any](dst, src []T, runs [][2]int) {
	k := 0
	for _, r := range runs {
		a, b := r[0], r[1]
		if b-a > 16 {
			k += copy(dst[k:], src[a:b])
			continue
		}
		d, s := dst[k:k+b-a], src[a:b]
		for i := range s {
			d[i] = s[i]
		}
		k += b - a
	}
}

// compactValues writes the values of src whose keep1 byte is 1 (each is 0
// or 1; len(keep1) = len(src)), in order, to dst, which has room for one
// more: every value is stored and the index advances past the kept ones
// only, so no branch depends on the data.
func compactValues[T any](dst, src []T, keep1 []uint8) {
	keep1 = keep1[:len(src)]
	k := 0
	for i, v := range src {
		dst[k] = v
		k += int(keep1[i])
	}
}

// compactTable[b<<8|m] holds the bits of byte b where mask m is set,
// packed from bit 0 (low byte), and their number (high byte).
var compactTable = func() *[1 << 16]uint16 {
	var t [1 << 16]uint16
	for b := 0; b < 256; b++ {
		for m := 0; m < 256; m++ {
			v, n := 0, 0
			for k := 0; k < 8; k++ {
				if m&(1<<k) != 0 {
					v |= (b >> k & 1) << n
					n++
				}
			}
			t[b<<8|m] = uint16(n)<<8 | uint16(v)
		}
	}
	return &t
}()

// copyBits writes the bits of src from bit off that keep (a bitmap of the
// rows from 0, no bit set past the last row) marks, in order, to dst from
// bit 0, and returns how many are set. Sixty-four rows at a time: all
// kept, copied whole; a few dropped (position deletes, a tenth of rows),
// the dropped bits squeezed out one by one; else a byte of eight rows at a
// time through compactTable.
func copyBits(dst, src []byte, off int, keep []byte) int {
	var w bitWriter
	w.dst = dst
	sh := uint(off & 7)
	base := off >> 3
	j := 0
	// Whole words of keep whose source bytes (one more when shifted) lie
	// in src.
	for ; j+8 <= len(keep) && base+j+9 <= len(src); j += 8 {
		m := binary.LittleEndian.Uint64(keep[j:])
		if m == 0 {
			continue
		}
		v := binary.LittleEndian.Uint64(src[base+j:])
		if sh != 0 {
			v = v>>sh | uint64(src[base+j+8])<<(64-sh)
		}
		if gone := ^m; gone != 0 {
			if bits.OnesCount64(gone) > 12 {
				for b := 0; b < 8; b++ {
					e := compactTable[int(byte(v>>(8*b)))<<8|int(byte(m>>(8*b)))]
					w.put(uint64(e&0xff), uint(e>>8))
				}
				continue
			}
			for gone != 0 {
				p := uint(63 - bits.LeadingZeros64(gone))
				v = v&(1<<p-1) | v>>(p+1)<<p
				gone &^= 1 << p
			}
		}
		w.put(v, uint(bits.OnesCount64(m)))
	}
	for ; j < len(keep); j++ {
		m := keep[j]
		if m == 0 {
			continue
		}
		b := src[base+j] >> sh
		if sh != 0 && base+j+1 < len(src) {
			b |= src[base+j+1] << (8 - sh)
		}
		e := compactTable[int(b)<<8|int(m)]
		w.put(uint64(e&0xff), uint(e>>8))
	}
	w.flush()
	return w.set
}

// bitWriter appends runs of bits to dst from bit 0, a word at a time.
type bitWriter struct {
	dst []byte
	k   int    // bytes written
	acc uint64 // bits not yet written, from bit 0
	n   uint   // their number, < 64
	set int    // bits set among those put
}

// put appends the low cnt bits of v (cnt <= 64; no bit above them set).
// dst has room for every bit put, rounded up to a byte.
func (w *bitWriter) put(v uint64, cnt uint) {
	w.set += bits.OnesCount64(v)
	w.acc |= v << w.n
	if w.n+cnt < 64 {
		w.n += cnt
		return
	}
	binary.LittleEndian.PutUint64(w.dst[w.k:], w.acc)
	w.k += 8
	w.acc = v >> (64 - w.n) // 0 when n is 0
	w.n = w.n + cnt - 64
}

// flush writes the bits left.
func (w *bitWriter) flush() {
	for w.n > 0 {
		w.dst[w.k] = byte(w.acc)
		w.acc >>= 8
		w.k++
		w.n -= min(w.n, 8)
	}
}
