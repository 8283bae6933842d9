package reader

import (
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

// filterRuns returns the rows of a in runs (kept rows in all; keep is the
// same as a bitmap), copying
// each run of values at once, for flat fixed-width types (whole bytes) and
// string and binary with 32-bit offsets; ok is false for another type, which
// the caller filters with Arrow's kernel.
func filterRuns(a arrow.Array, runs [][2]int, keep []byte, kept int, mem memory.Allocator) (out arrow.Array, ok bool) {
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
		k := 0
		for _, r := range runs {
			k += copy(dst[k:], src[(off+r[0])*w:(off+r[1])*w])
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
// bit 0, and returns how many are set: a byte of eight rows at a time
// through compactTable.
func copyBits(dst, src []byte, off int, keep []byte) int {
	var acc uint64
	nacc, k, set := 0, 0, 0
	sh := uint(off & 7)
	base := off >> 3
	for j, m := range keep {
		if m == 0 {
			continue
		}
		b := src[base+j] >> sh
		if sh != 0 && base+j+1 < len(src) {
			b |= src[base+j+1] << (8 - sh)
		}
		e := compactTable[int(b)<<8|int(m)]
		v := uint64(e & 0xff)
		set += bits.OnesCount64(v)
		acc |= v << nacc
		nacc += int(e >> 8)
		for nacc >= 8 {
			dst[k] = byte(acc)
			acc >>= 8
			nacc -= 8
			k++
		}
	}
	if nacc > 0 {
		dst[k] = byte(acc)
	}
	return set
}
