package project

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakecat/lakecat/schema"
)

// TestApplyDictionaryColumns: string and binary columns the plan takes as
// they are (renamed or not) pass through Apply as dictionary arrays, the
// result's field taking the dictionary type; a promoted column and a
// dictionary where the plan does not take the column as it is are refused.
func TestApplyDictionaryColumns(t *testing.T) {
	mem := checkedMem(t)
	file := sch(fld(1, "id", schema.Int), fld(2, "name", schema.String), fld(3, "raw", schema.Binary), fld(4, "note", schema.String))
	read := sch(fld(3, "raw", schema.Binary), fld(1, "id", schema.Long), fld(2, "label", schema.String), fld(5, "added", schema.String))
	p := mustPlan(t, file, read, Options{})
	defer p.Release()
	if got := p.DictionaryColumns(); len(got) != 2 || got[0] != 2 || got[1] != 1 {
		t.Fatalf("DictionaryColumns %v, want [2 1] (raw, name in the file projection)", got)
	}
	rec := fileBatch(t, mem, p, `[{"id": 1, "name": "a", "raw": "eA=="}, {"id": 2, "name": null, "raw": "eQ=="}, {"id": 3, "name": "a", "raw": "eA=="}]`)
	defer rec.Release()
	dictOf := func(c int) arrow.Array {
		dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: rec.Column(c).DataType()}
		b := array.NewDictionaryBuilder(mem, dt)
		defer b.Release()
		if err := b.AppendArray(rec.Column(c)); err != nil {
			t.Fatal(err)
		}
		return b.NewArray()
	}
	cols := []arrow.Array{rec.Column(0), dictOf(1), dictOf(2)}
	defer cols[1].Release()
	defer cols[2].Release()
	fields := rec.Schema().Fields()
	fields[1].Type, fields[2].Type = cols[1].DataType(), cols[2].DataType()
	in := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, rec.NumRows())
	defer in.Release()
	out, err := p.Apply(in, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	wantTypes := []arrow.DataType{cols[2].DataType(), arrow.PrimitiveTypes.Int64, cols[1].DataType(), arrow.BinaryTypes.String}
	for i, w := range wantTypes {
		if got := out.Schema().Field(i).Type; !arrow.TypeEqual(got, w) || !arrow.TypeEqual(out.Column(i).DataType(), w) {
			t.Errorf("field %d (%s): type %s, want %s", i, out.Schema().Field(i).Name, got, w)
		}
	}
	if out.Column(2) != cols[1] && out.Column(2).Data() != cols[1].Data() {
		t.Errorf("label is not the dictionary array passed in")
	}
	if got, want := recString(out), "["+`{"added":null,"id":1,"label":"a","raw":"eA=="}`+"\n,"+`{"added":null,"id":2,"label":null,"raw":"eQ=="}`+"\n,"+`{"added":null,"id":3,"label":"a","raw":"eA=="}`+"\n]"; got != want {
		t.Errorf("rows %s\nwant %s", got, want)
	}
	// The schema is cached: a second batch gets the same one.
	out2, err := p.Apply(in, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer out2.Release()
	if out2.Schema() != out.Schema() {
		t.Errorf("a second batch has another schema")
	}

	// id is promoted: a dictionary there is not the file projection's
	// layout.
	idDict := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "id", Type: cols[1].DataType(), Nullable: true}, fields[1], fields[2]}, nil),
		[]arrow.Array{cols[1], cols[1], cols[2]}, rec.NumRows())
	defer idDict.Release()
	if _, err := p.Apply(idDict, mem); !errors.Is(err, ErrBatchLayout) {
		t.Fatalf("dictionary for a promoted column: err %v, want ErrBatchLayout", err)
	}
}
