package merge

import (
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// gather copies the values refs name (a source batch's column in parts,
// and a row; src -1: null) into a new array of type dt, for fixed-width
// numbers and temporals and for strings and binaries with 32-bit offsets;
// it reports false for other types (and strings past 2 GiB), which take
// handles. It copies only the rows it outputs, where take would first
// concatenate every held batch.
func gather(mem memory.Allocator, dt arrow.DataType, parts []arrow.Array, refs []ref) (arrow.Array, bool) {
	switch dt.ID() {
	case arrow.INT8, arrow.UINT8:
		return gatherFixed[uint8](mem, dt, parts, refs), true
	case arrow.INT16, arrow.UINT16:
		return gatherFixed[uint16](mem, dt, parts, refs), true
	case arrow.INT32, arrow.UINT32, arrow.FLOAT32, arrow.DATE32, arrow.TIME32:
		return gatherFixed[uint32](mem, dt, parts, refs), true
	case arrow.INT64, arrow.UINT64, arrow.FLOAT64, arrow.DATE64, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION:
		return gatherFixed[uint64](mem, dt, parts, refs), true
	case arrow.STRING, arrow.BINARY:
		return gatherBinary(mem, dt, parts, refs)
	}
	return nil, false
}

// validity returns the output's validity bitmap (nil when every value is
// valid) and its null count.
func validity(mem memory.Allocator, parts []arrow.Array, refs []ref) (*memory.Buffer, int) {
	has := false
	for _, x := range refs {
		if x.src < 0 {
			has = true
			break
		}
	}
	for _, p := range parts {
		has = has || p.NullN() > 0
	}
	if !has {
		return nil, 0
	}
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(bitutil.BytesForBits(int64(len(refs)))))
	bits := buf.Bytes()
	nulls := 0
	for i, x := range refs {
		if x.src < 0 || parts[x.src].IsNull(int(x.row)) {
			bitutil.ClearBit(bits, i)
			nulls++
		} else {
			bitutil.SetBit(bits, i)
		}
	}
	return buf, nulls
}

func gatherFixed[T uint8 | uint16 | uint32 | uint64](mem memory.Allocator, dt arrow.DataType, parts []arrow.Array, refs []ref) arrow.Array {
	src := make([][]T, len(parts))
	for i, p := range parts {
		src[i] = arrow.GetValues[T](p.Data(), 1)
	}
	valid, nulls := validity(mem, parts, refs)
	vals := memory.NewResizableBuffer(mem)
	var zero T
	vals.Resize(len(refs) * int(unsafe.Sizeof(zero)))
	out := arrow.GetData[T](vals.Bytes())[:len(refs)]
	for i, x := range refs {
		if x.src < 0 {
			out[i] = 0
			continue
		}
		out[i] = src[x.src][x.row]
	}
	return makeArray(dt, len(refs), []*memory.Buffer{valid, vals}, nulls)
}

func gatherBinary(mem memory.Allocator, dt arrow.DataType, parts []arrow.Array, refs []ref) (arrow.Array, bool) {
	offs := make([][]int32, len(parts))
	data := make([][]byte, len(parts))
	for i, p := range parts {
		d := p.Data()
		if d.Len() == 0 {
			continue
		}
		offs[i] = arrow.GetOffsets[int32](d, 1)
		if b := d.Buffers()[2]; b != nil {
			data[i] = b.Bytes()
		}
	}
	total := 0
	for _, x := range refs {
		if x.src >= 0 {
			o := offs[x.src]
			total += int(o[x.row+1] - o[x.row])
		}
	}
	if total > math.MaxInt32 {
		return nil, false
	}
	valid, nulls := validity(mem, parts, refs)
	ob := memory.NewResizableBuffer(mem)
	ob.Resize((len(refs) + 1) * 4)
	outOffs := arrow.GetData[int32](ob.Bytes())[:len(refs)+1]
	vb := memory.NewResizableBuffer(mem)
	vb.Resize(total)
	out := vb.Bytes()[:total]
	at := int32(0)
	outOffs[0] = 0
	for i, x := range refs {
		if x.src >= 0 {
			o := offs[x.src]
			at += int32(copy(out[at:], data[x.src][o[x.row]:o[x.row+1]]))
		}
		outOffs[i+1] = at
	}
	return makeArray(dt, len(refs), []*memory.Buffer{valid, ob, vb}, nulls), true
}

func makeArray(dt arrow.DataType, n int, bufs []*memory.Buffer, nulls int) arrow.Array {
	d := array.NewData(dt, n, bufs, nil, nulls, 0)
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
	a := array.MakeFromData(d)
	d.Release()
	return a
}
