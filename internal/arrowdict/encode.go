// Package arrowdict dictionary-encodes Arrow string and binary arrays:
// the output encoding of a read with dictionary arrays, shared by the
// reader and the Parquet decoder (for the batches whose values do not come
// from one column chunk's dictionary).
package arrowdict

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Encode returns arr (string or binary) as a dictionary array of
// type dt: the indices share arr's validity bitmap, the dictionary holds
// each distinct value once, in order of first appearance.
func Encode(mem memory.Allocator, dt *arrow.DictionaryType, arr arrow.Array) (arrow.Array, error) {
	if !arrow.TypeEqual(arr.DataType(), dt.ValueType) {
		return nil, fmt.Errorf("batch column is %s, the schema says %s", arr.DataType(), dt.ValueType)
	}
	var offsets []int32
	var data []byte
	switch a := arr.(type) {
	case *array.String:
		offsets, data = a.ValueOffsets(), a.ValueBytes()
	case *array.Binary:
		offsets, data = a.ValueOffsets(), a.ValueBytes()
	default:
		return nil, fmt.Errorf("batch column is %T, not a string or binary array", arr)
	}
	n := arr.Len()
	// offsets holds n+1 entries relative to the start of data: ValueBytes
	// starts at the array's first value.
	if len(offsets) < n+1 {
		return nil, fmt.Errorf("string column of %d rows has %d offsets", n, len(offsets))
	}
	base := offsets[0]
	// The indices keep arr's offset, so that they share its validity
	// bitmap as it is.
	off := arr.Data().Offset()
	idx := memory.NewResizableBuffer(mem)
	idx.Resize((off + n) * arrow.Int32SizeBytes)
	ids := arrow.Int32Traits.CastFromBytes(idx.Bytes())[off:]
	seen := make(map[string]int32)
	dictOff := []int32{0}
	var dictData []byte
	for i := 0; i < n; i++ {
		if arr.IsNull(i) {
			ids[i] = 0
			continue
		}
		lo, hi := offsets[i]-base, offsets[i+1]-base
		if lo < 0 || lo > hi || int(hi) > len(data) {
			idx.Release()
			return nil, fmt.Errorf("row %d: value offsets %d..%d outside the %d value bytes", i, lo, hi, len(data))
		}
		v := data[lo:hi]
		id, ok := seen[string(v)]
		if !ok {
			id = int32(len(dictOff) - 1)
			seen[string(v)] = id
			dictData = append(dictData, v...)
			dictOff = append(dictOff, int32(len(dictData)))
		}
		ids[i] = id
	}
	var validity *memory.Buffer
	if arr.NullN() > 0 {
		validity = arr.Data().Buffers()[0]
	}
	indices := array.NewData(dt.IndexType, n, []*memory.Buffer{validity, idx}, nil, arr.NullN(), off)
	idx.Release()
	defer indices.Release()
	idxArr := array.MakeFromData(indices)
	defer idxArr.Release()
	offBuf := memory.NewResizableBuffer(mem)
	offBuf.Resize(len(dictOff) * arrow.Int32SizeBytes)
	copy(arrow.Int32Traits.CastFromBytes(offBuf.Bytes()), dictOff)
	dataBuf := memory.NewResizableBuffer(mem)
	dataBuf.Resize(len(dictData))
	copy(dataBuf.Bytes(), dictData)
	values := array.NewData(dt.ValueType, len(dictOff)-1, []*memory.Buffer{nil, offBuf, dataBuf}, nil, 0, 0)
	offBuf.Release()
	dataBuf.Release()
	dict := array.MakeFromData(values)
	values.Release()
	defer dict.Release()
	return array.NewDictionaryArray(dt, idxArr, dict), nil
}
