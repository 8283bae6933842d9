package reader

import (
	"fmt"
	"sync/atomic"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/formats/parquet"
	"github.com/lakecat/lakecat/internal/arrowdict"
	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/schema"
)

// DictionaryIndexType is the index type of the dictionary arrays a read
// with [Options.Dictionary] returns.
var DictionaryIndexType = parquet.DictionaryIndexType

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
		if arrow.TypeEqual(cols[i].DataType(), d.schema.Field(i).Type) {
			// The decoder returned the column's dictionary pages as they
			// are.
			continue
		}
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
// type dt ([arrowdict.Encode]).
func encodeDictionary(mem memory.Allocator, dt *arrow.DictionaryType, arr arrow.Array) (arrow.Array, error) {
	return arrowdict.Encode(mem, dt, arr)
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

// decoderDictionary returns the columns of the file projection the Parquet
// decoder returns as dictionary arrays for a read with
// [Options.Dictionary] (opts.dictDecode): those the plan takes as they are
// into a top-level string or binary read field ([project.Plan.DictionaryColumns]),
// when the read is Parquet without a residual filter, row selection in the
// decoder or equality deletes (row groups decoded in parallel each take
// them). It returns nil when the output encoding does it
// all. The other stages pass dictionary arrays through: position deletes
// take their indices, _pos replaces its own column.
func decoderDictionary(dec decoder, p *project.Plan, opts Options, filter *expr.Bound, skip *roaring64.Bitmap) []int {
	if !opts.dictDecode || filter != nil || skip != nil || opts.deletes != nil && opts.deletes.hasEquality() {
		return nil
	}
	if _, ok := dec.(parquetDecoder); !ok {
		return nil
	}
	cols := p.DictionaryColumns()
	if len(cols) == 0 {
		return nil
	}
	return cols
}

// dictionaryBatches returns the batches of the file's row groups opts
// selects with the columns cols as dictionary arrays, and the rows before
// the first row group.
func dictionaryBatches(d parquetDecoder, proj *schema.Schema, n int, mem memory.Allocator, opts Options, cols []int) (batchSource, int64, error) {
	var before int64
	for i := 0; i < opts.firstRowGroup && i < d.NumRowGroups(); i++ {
		before += d.RowGroupRows(i)
	}
	br, err := d.NewBatchReader(proj, parquet.BatchOptions{BatchRows: n, Allocator: mem,
		FirstRowGroup: opts.firstRowGroup, RowGroups: opts.rowGroups, DictionaryFields: cols})
	if err != nil {
		return nil, 0, err
	}
	return br, before, nil
}
