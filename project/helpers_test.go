package project

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lakecat/lakecat/schema"
)

func checkedMem(t testing.TB) *memory.CheckedAllocator {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// fld returns an optional field.
func fld(id int, name string, typ schema.Type) *schema.Field {
	return &schema.Field{ID: id, Name: name, Type: typ}
}

// req returns a required field.
func req(id int, name string, typ schema.Type) *schema.Field {
	return &schema.Field{ID: id, Name: name, Type: typ, Required: true}
}

func sch(fields ...*schema.Field) *schema.Schema { return schema.New(0, fields...) }

func structOf(fields ...*schema.Field) *schema.StructType { return &schema.StructType{Fields: fields} }

// recordJSON builds a record batch of schema sc from JSON rows with arrow
// builders, as a decoder would hand it over.
func recordJSON(t testing.TB, mem memory.Allocator, sc *arrow.Schema, rows string) arrow.RecordBatch {
	t.Helper()
	rec, _, err := array.RecordFromJSON(mem, sc, strings.NewReader(rows))
	if err != nil {
		t.Fatalf("RecordFromJSON(%s): %v", sc, err)
	}
	return rec
}

// fileBatch builds the decoded file batch for plan p from JSON rows: laid out
// as schema.ToArrowSchema(p.FileProjection()).
func fileBatch(t testing.TB, mem memory.Allocator, p *Plan, rows string) arrow.RecordBatch {
	t.Helper()
	return recordJSON(t, mem, schema.ToArrowSchema(p.FileProjection()), rows)
}

// mustPlan builds a plan or fails the test.
func mustPlan(t testing.TB, file, read *schema.Schema, opts Options) *Plan {
	t.Helper()
	p, err := NewPlan(file, read, opts)
	if err != nil {
		t.Fatalf("NewPlan: %v", err)
	}
	return p
}

// applyJSON runs p on the file rows and compares the whole result with the
// expected rows (JSON in the read schema).
func applyJSON(t testing.TB, p *Plan, fileRows, wantRows string) {
	t.Helper()
	mem := checkedMem(t)
	in := fileBatch(t, mem, p, fileRows)
	defer in.Release()
	got, err := p.Apply(in, mem)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	defer got.Release()
	want := recordJSON(t, mem, p.ArrowSchema(), wantRows)
	defer want.Release()
	if !got.Schema().Equal(p.ArrowSchema()) {
		t.Errorf("schema:\n got %s\nwant %s", got.Schema(), p.ArrowSchema())
	}
	if !array.RecordEqual(got, want) {
		t.Errorf("batch mismatch\n got %s\nwant %s", recString(got), recString(want))
	}
	for i, c := range got.Columns() {
		if !arrow.TypeEqual(c.DataType(), p.ArrowSchema().Field(i).Type, arrow.CheckMetadata()) {
			t.Errorf("column %d type %s, want %s (with field ids)", i, c.DataType(), p.ArrowSchema().Field(i).Type)
		}
	}
	p.Release()
}

func recString(r arrow.RecordBatch) string {
	b, err := r.MarshalJSON()
	if err != nil {
		return err.Error()
	}
	return string(b)
}
