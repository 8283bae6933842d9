package project

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// DictionaryColumns returns, in order, the positions among the top-level
// fields of [Plan.FileProjection] of the string and binary columns the
// plan takes as they are (renamed or not) into a top-level read field. A
// decoder may hand [Plan.Apply] such a column as an Arrow dictionary array
// over the column's type; Apply passes it through, and the field of the
// result has that dictionary type. Every other column must have the type
// [Plan.FileProjection] gives it.
func (p *Plan) DictionaryColumns() []int {
	var out []int
	for _, n := range p.top {
		if dictionaryTake(n) {
			out = append(out, n.src)
		}
	}
	return out
}

// dictionaryTake reports whether node n takes a string or binary file
// column as it is, so that a dictionary array of it passes through.
func dictionaryTake(n *node) bool {
	if n.act != actTake || n.src < 0 || n.in == nil {
		return false
	}
	switch n.in.ID() {
	case arrow.STRING, arrow.BINARY:
		return true
	}
	return false
}

// dictionaryColumn reports whether got, the Arrow type of file projection
// column src, is a dictionary over want that the plan passes through.
func (p *Plan) dictionaryColumn(src int, got, want arrow.DataType) bool {
	dt, ok := got.(*arrow.DictionaryType)
	if !ok || !arrow.TypeEqual(dt.ValueType, want) {
		return false
	}
	for _, n := range p.top {
		if n.src == src && dictionaryTake(n) {
			return true
		}
	}
	return false
}

// dictSchema is an output schema with dictionary columns, for the column
// types in key (by output position; nil: as [Plan.ArrowSchema]).
type dictSchema struct {
	key []arrow.DataType
	sc  *arrow.Schema
}

// dictionaryOut returns the schema of Apply's result for rec, whose
// dictionary columns pass through: [Plan.ArrowSchema] with their types.
func (p *Plan) dictionaryOut(rec arrow.RecordBatch) *arrow.Schema {
	key := make([]arrow.DataType, len(p.top))
	for i, n := range p.top {
		if n.src >= 0 && dictionaryTake(n) {
			if t := rec.Column(n.src).DataType(); t.ID() == arrow.DICTIONARY {
				key[i] = t
			}
		}
	}
	if c := p.dictOut.Load(); c != nil && sameTypes(c.key, key) {
		return c.sc
	}
	fields := p.out.Fields()
	for i, t := range key {
		if t != nil {
			fields[i].Type = t
		}
	}
	md := p.out.Metadata()
	sc := arrow.NewSchema(fields, &md)
	p.dictOut.Store(&dictSchema{key: key, sc: sc})
	return sc
}

func sameTypes(a, b []arrow.DataType) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if (a[i] == nil) != (b[i] == nil) || a[i] != nil && !arrow.TypeEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}
