package parquet

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// TestOldListStructure reads parquet-testing's old_list_structure.parquet,
// whose schema is the legacy
//
//	required group a (LIST) {
//	  repeated group array (LIST) {
//	    repeated int32 array;
//	  }
//	}
//
// By the LogicalTypes.md "Lists" backward-compatibility rules the repeated
// group named array is the element (so required), and being LIST-annotated it
// is itself a list whose repeated int32 is a required element: a is a
// required list<list<int32 not null> not null> holding [[1, 2], [3, 4]]
// (parquet-testing's README; DuckDB reads the same). arrow-go v18.8.0's
// pqarrow reads the inner list as a struct, so the differential test skips
// this file.
func TestOldListStructure(t *testing.T) {
	b := readReal(t, "parquet-testing/data/old_list_structure.parquet")
	f := openBytes(t, b)
	if got, want := f.Schema().String(), "table {\n  a: required list<list<int>>\n}"; got != want {
		t.Fatalf("schema\n%s\nwant\n%s", got, want)
	}
	wantType := arrow.ListOfField(arrow.Field{Name: "element", Nullable: false,
		Type: arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Int32, Nullable: false})})

	for _, batch := range []int{1, 0} {
		mem := newMem(t)
		br, err := f.NewBatchReader(f.Schema(), BatchOptions{BatchRows: batch, Allocator: mem})
		if err != nil {
			t.Fatal(err)
		}
		defer br.Close()
		rec, err := br.Next(context.Background())
		if err != nil {
			t.Fatalf("batch %d: %v", batch, err)
		}
		defer rec.Release()
		fld := rec.Schema().Field(0)
		if fld.Nullable || !arrow.TypeEqual(fld.Type, wantType) {
			t.Errorf("batch %d: field %s (nullable %v), want %s (not nullable)", batch, fld.Type, fld.Nullable, wantType)
		}
		if rec.NumRows() != 1 {
			t.Fatalf("batch %d: %d rows, want 1", batch, rec.NumRows())
		}
		outer := rec.Column(0).(*array.List)
		if outer.IsNull(0) {
			t.Fatalf("batch %d: row 0 is null", batch)
		}
		inner := outer.ListValues().(*array.List)
		vals := inner.ListValues().(*array.Int32)
		var got [][]int32
		ob, oe := outer.ValueOffsets(0)
		for i := int(ob); i < int(oe); i++ {
			if inner.IsNull(i) {
				t.Fatalf("batch %d: inner list %d is null", batch, i)
			}
			ib, ie := inner.ValueOffsets(i)
			got = append(got, append([]int32(nil), vals.Int32Values()[ib:ie]...))
		}
		if len(got) != 2 || len(got[0]) != 2 || len(got[1]) != 2 ||
			got[0][0] != 1 || got[0][1] != 2 || got[1][0] != 3 || got[1][1] != 4 {
			t.Errorf("batch %d: got %v, want [[1 2] [3 4]]", batch, got)
		}
		if vals.NullN() != 0 {
			t.Errorf("batch %d: %d null int32 values, want 0", batch, vals.NullN())
		}
		if _, err := br.Next(context.Background()); !errors.Is(err, io.EOF) {
			t.Errorf("batch %d: second Next: %v, want io.EOF", batch, err)
		}
	}
}
