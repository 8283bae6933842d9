package reader

import (
	"fmt"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// DictionaryIndexType is the index type of the dictionary arrays a read
// with [Options.Dictionary] returns.
var DictionaryIndexType = arrow.PrimitiveTypes.Int32

// DictionarySchema returns sc with every top-level string or binary field
// as a dictionary of [DictionaryIndexType] indices over that value type,
// the schema of a read with [Options.Dictionary]; the other fields, and
// strings nested in lists, maps and structs, are as in sc. Field names,
// nullability and metadata (field ids) are kept. sc itself is returned
// when it has no such field.
func DictionarySchema(sc *arrow.Schema) *arrow.Schema {
	var fields []arrow.Field
	for i, f := range sc.Fields() {
		if !dictionaryValueType(f.Type) {
			continue
		}
		if fields == nil {
			fields = append([]arrow.Field(nil), sc.Fields()...)
		}
		fields[i].Type = &arrow.DictionaryType{IndexType: DictionaryIndexType, ValueType: f.Type}
	}
	if fields == nil {
		return sc
	}
	md := sc.Metadata()
	return arrow.NewSchema(fields, &md)
}

// dictionaryValueType reports whether a top-level column of type t comes
// out dictionary-encoded with [Options.Dictionary].
func dictionaryValueType(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.STRING, arrow.BINARY:
		return true
	}
	return false
}

// dictReader yields the batches of src with its string and binary columns
// dictionary-encoded ([DictionarySchema]): each batch's column gets its own
// dictionary, the distinct values of that batch in order of first
// appearance; a null is a null index. Rows, values, nulls and the other
// columns are those of src, which has applied the projection, the deletes
// and the filter already.
type dictReader struct {
	refs   int64
	src    array.RecordReader
	schema *arrow.Schema
	mem    memory.Allocator
	cols   []int // indices of the columns encoded
	cur    arrow.RecordBatch
	err    error
}

// newDictReader wraps src; it takes over the caller's reference to src.
func newDictReader(src array.RecordReader, mem memory.Allocator) array.RecordReader {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	d := &dictReader{refs: 1, src: src, schema: DictionarySchema(src.Schema()), mem: mem}
	for i, f := range src.Schema().Fields() {
		if dictionaryValueType(f.Type) {
			d.cols = append(d.cols, i)
		}
	}
	return d
}

// unwrapDict returns the reader a dictReader wraps, or rr.
func unwrapDict(rr array.RecordReader) array.RecordReader {
	if d, ok := rr.(*dictReader); ok {
		return d.src
	}
	return rr
}

func (d *dictReader) Retain() { atomic.AddInt64(&d.refs, 1) }

func (d *dictReader) Release() {
	if atomic.AddInt64(&d.refs, -1) != 0 {
		return
	}
	d.releaseCur()
	if d.src != nil {
		d.src.Release()
		d.src = nil
	}
}

func (d *dictReader) releaseCur() {
	if d.cur != nil {
		d.cur.Release()
		d.cur = nil
	}
}

func (d *dictReader) Schema() *arrow.Schema { return d.schema }

// Next releases the previous batch and encodes the next one of the
// source.
func (d *dictReader) Next() bool {
	d.releaseCur()
	if d.err != nil || d.src == nil || !d.src.Next() {
		return false
	}
	rec := d.src.RecordBatch()
	if len(d.cols) == 0 {
		rec.Retain()
		d.cur = rec
		return true
	}
	cols := make([]arrow.Array, rec.NumCols())
	copy(cols, rec.Columns())
	var made []arrow.Array
	defer func() {
		for _, a := range made {
			a.Release()
		}
	}()
	for _, i := range d.cols {
		a, err := encodeDictionary(d.mem, d.schema.Field(i).Type.(*arrow.DictionaryType), cols[i])
		if err != nil {
			d.err = fmt.Errorf("reader: column %q: %w", d.schema.Field(i).Name, err)
			return false
		}
		made = append(made, a)
		cols[i] = a
	}
	d.cur = array.NewRecordBatch(d.schema, cols, rec.NumRows())
	return true
}

// encodeDictionary returns arr (string or binary) as a dictionary array of
// type dt: the indices share arr's validity bitmap, the dictionary holds
// each distinct value once, in order of first appearance.
func encodeDictionary(mem memory.Allocator, dt *arrow.DictionaryType, arr arrow.Array) (arrow.Array, error) {
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

func (d *dictReader) RecordBatch() arrow.RecordBatch { return d.cur }

// Record is RecordBatch, for the deprecated interface method.
func (d *dictReader) Record() arrow.RecordBatch { return d.cur }

// Err returns the source's error, or the encoding's.
func (d *dictReader) Err() error {
	if d.err != nil {
		return d.err
	}
	if d.src != nil {
		return d.src.Err()
	}
	return nil
}
