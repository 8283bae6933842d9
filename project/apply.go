package project

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Apply executes the plan on one record batch decoded from the file. rec must
// be laid out as [schema.ToArrowSchema] of [Plan.FileProjection] (same
// columns in the same order, same Arrow types; field metadata is not
// checked). The result has [Plan.ArrowSchema] and as many rows as rec.
//
// Renamed and reordered columns share rec's buffers (zero copy); promoted
// columns are new buffers allocated from mem (nil means
// memory.DefaultAllocator); null, default and constant columns are arrays
// cached on the plan per batch length and shared between batches. The caller
// releases both rec and the result.
//
// A string or binary column [Plan.DictionaryColumns] lists may come as an
// Arrow dictionary array over its type: it passes through, and the
// result's field has the dictionary type.
//
// Apply returns an error matching [ErrBatchLayout] when rec does not match the
// file projection, and a *[ValueError] when a cast meets a value that does
// not fit (the casts of the Paimon and Hudi rules, and a date after
// 2262-04-11 read as timestamp_ns; no other Iceberg promotion can fail).
func (p *Plan) Apply(rec arrow.RecordBatch, mem memory.Allocator) (arrow.RecordBatch, error) {
	mem = defaultAllocator(mem)
	dict, err := p.checkLayout(rec)
	if err != nil {
		return nil, err
	}
	out := p.out
	if dict {
		out = p.dictionaryOut(rec)
	}
	nrows := rec.NumRows()
	if p.passThrough {
		return array.NewRecordBatch(out, rec.Columns(), nrows), nil
	}
	cols := make([]arrow.Array, len(p.top))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, n := range p.top {
		var in arrow.ArrayData
		if n.src >= 0 {
			in = rec.Column(n.src).Data()
		}
		d, err := p.exec(n, in, int(nrows), mem)
		if err == nil {
			err = p.checkNulls(n, d, nil)
		}
		if err != nil {
			if d != nil {
				d.Release()
			}
			return nil, err
		}
		cols[i] = array.MakeFromData(d)
		d.Release()
	}
	return array.NewRecordBatch(out, cols, nrows), nil
}

// checkLayout checks rec against the file projection; dict reports
// dictionary columns the plan passes through ([Plan.DictionaryColumns]).
func (p *Plan) checkLayout(rec arrow.RecordBatch) (dict bool, err error) {
	want := p.projArrow.Fields()
	if int(rec.NumCols()) != len(want) {
		return false, fmt.Errorf("project: file %q: %w: %d columns, want %d", p.fileName, ErrBatchLayout, rec.NumCols(), len(want))
	}
	for i, f := range want {
		if got := rec.Column(i).DataType(); !arrow.TypeEqual(got, f.Type) {
			if p.dictionaryColumn(i, got, f.Type) {
				dict = true
				continue
			}
			return false, fmt.Errorf("project: file %q: %w: column %d (%s) is %s, want %s",
				p.fileName, ErrBatchLayout, i, f.Name, got, f.Type)
		}
	}
	return dict, nil
}

// exec runs node n on its input data in (nil when the field comes from no
// file column); length is the number of values to produce for a fill. The
// result is owned by the caller.
func (p *Plan) exec(n *node, in arrow.ArrayData, length int, mem memory.Allocator) (arrow.ArrayData, error) {
	switch n.act {
	case actTake:
		in.Retain()
		return in, nil
	case actRelabel:
		return array.NewData(n.out, in.Len(), in.Buffers(), in.Children(), in.NullN(), in.Offset()), nil
	case actCast:
		m := mem
		if n.pooled {
			m = p.pools.get(mem)
		}
		d, err := n.conv(in, n.out, m)
		if err != nil {
			var ce *castError
			if errors.As(err, &ce) {
				return nil, &ValueError{File: p.fileName, FieldID: n.read.ID, Path: n.path, Row: int64(ce.row),
					Value: ce.value, FileType: n.file.Type, ReadType: n.read.Type, Err: ce.err}
			}
			return nil, fmt.Errorf("project: file %q: field %d (%s): %w", p.fileName, n.read.ID, n.path, err)
		}
		return d, nil
	case actNull, actDefault, actConstant:
		return n.fill(length, mem)
	case actStruct:
		// Children are indexed from the struct's own offset: fill them to
		// offset+length.
		kids, err := p.children(n.children, in.Children(), in.Offset()+in.Len(), mem, in)
		if err != nil {
			return nil, err
		}
		maskFills(n.children, kids, in)
		d := array.NewData(n.out, in.Len(), in.Buffers()[:1], kids, in.NullN(), in.Offset())
		releaseAll(kids)
		return d, nil
	case actList:
		// Offsets index the element array from its own start: fill to its
		// length.
		el := in.Children()[0]
		kids, err := p.children(n.children, in.Children(), el.Len(), mem, nil)
		if err != nil {
			return nil, err
		}
		d := array.NewData(n.out, in.Len(), in.Buffers(), kids, in.NullN(), in.Offset())
		releaseAll(kids)
		return d, nil
	case actMap:
		entries := in.Children()[0]
		kids, err := p.children(n.children, entries.Children(), entries.Offset()+entries.Len(), mem, nil)
		if err != nil {
			return nil, err
		}
		mt := n.out.(*arrow.MapType)
		e := array.NewData(mt.Elem(), entries.Len(), entries.Buffers(), kids, entries.NullN(), entries.Offset())
		releaseAll(kids)
		d := array.NewData(n.out, in.Len(), in.Buffers(), []arrow.ArrayData{e}, in.NullN(), in.Offset())
		e.Release()
		return d, nil
	}
	return nil, fmt.Errorf("project: unknown action %d", n.act)
}

// children runs the child nodes; parent is the struct whose children they
// are (nil for a list element or map key and value, whose every value
// exists).
func (p *Plan) children(nodes []*node, ins []arrow.ArrayData, length int, mem memory.Allocator, parent arrow.ArrayData) ([]arrow.ArrayData, error) {
	out := make([]arrow.ArrayData, len(nodes))
	for i, c := range nodes {
		var in arrow.ArrayData
		if c.src >= 0 {
			in = ins[c.src]
		}
		d, err := p.exec(c, in, length, mem)
		if err == nil {
			if err = p.checkNulls(c, d, parent); err != nil {
				d.Release()
			}
		}
		if err != nil {
			releaseAll(out[:i])
			return nil, err
		}
		out[i] = d
	}
	return out, nil
}

// checkNulls returns a *[ValueError] matching [ErrNullInRequiredField] for
// the first null of d, the values of node n, when n's read field is
// required and the file's optional. A struct child's value counts only
// where the struct (parent) is present: its children are indexed from the
// struct's offset, so child value j belongs to struct row j-offset.
func (p *Plan) checkNulls(n *node, d arrow.ArrayData, parent arrow.ArrayData) error {
	if !n.nullCheck || d.NullN() == 0 {
		return nil
	}
	first, last := 0, d.Len()
	if parent != nil {
		first, last = parent.Offset(), parent.Offset()+parent.Len()
	}
	for j := first; j < last && j < d.Len(); j++ {
		if !isNullAt(d, j) || parent != nil && isNullAt(parent, j-parent.Offset()) {
			continue
		}
		return &ValueError{File: p.fileName, FieldID: n.read.ID, Path: n.path, Row: int64(j - first), Value: "null",
			FileType: n.file.Type, ReadType: n.read.Type, Err: ErrNullInRequiredField}
	}
	return nil
}

// isNullAt reports whether value i of d (counted from d's offset) is null.
func isNullAt(d arrow.ArrayData, i int) bool {
	if d.DataType().ID() == arrow.NULL {
		return true
	}
	b := d.Buffers()
	if len(b) == 0 || b[0] == nil {
		return false
	}
	return !bitutil.BitIsSet(b[0].Bytes(), d.Offset()+i)
}

// maskFills gives the default and constant children of a struct the
// struct's own validity bitmap (shared, not copied), so that a null struct
// has null children too: an initial-default fills only where the parent is
// present.
func maskFills(nodes []*node, kids []arrow.ArrayData, parent arrow.ArrayData) {
	pb := parent.Buffers()
	if len(pb) == 0 || pb[0] == nil || parent.NullN() == 0 {
		return
	}
	for i, c := range nodes {
		if c.act != actDefault && c.act != actConstant {
			continue
		}
		k := kids[i]
		bufs := append([]*memory.Buffer{pb[0]}, k.Buffers()[1:]...)
		kids[i] = array.NewData(k.DataType(), k.Len(), bufs, k.Children(), array.UnknownNullCount, k.Offset())
		k.Release()
	}
}

func releaseAll(ds []arrow.ArrayData) {
	for _, d := range ds {
		if d != nil {
			d.Release()
		}
	}
}
