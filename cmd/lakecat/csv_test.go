package main

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestCSVNullAndEmptyString: NULL is an empty field, an empty string a
// quoted one (both were an empty field); quoting otherwise as RFC 4180.
func TestCSVNullAndEmptyString(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "n", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}, nil)
	sb := array.NewStringBuilder(mem)
	defer sb.Release()
	sb.AppendValues([]string{"", "", "a,b", `say "hi"`, " x", "two\nlines", "plain"}, []bool{true, false, true, true, true, true, true})
	nb := array.NewInt32Builder(mem)
	defer nb.Release()
	nb.AppendValues([]int32{1, 0, 3, 4, 5, 6, 7}, []bool{true, false, true, true, true, true, true})
	s, n := sb.NewArray(), nb.NewArray()
	defer s.Release()
	defer n.Release()
	rec := array.NewRecordBatch(sc, []arrow.Array{s, n}, 7)
	defer rec.Release()
	var out bytes.Buffer
	w, err := newBatchWriter(formatCSV, &out, sc, nil, mem)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := "s,n\n\"\",1\n,\n\"a,b\",3\n\"say \"\"hi\"\"\",4\n\" x\",5\n\"two\nlines\",6\nplain,7\n"
	if out.String() != want {
		t.Errorf("csv:\n%q\nwant\n%q", out.String(), want)
	}
}
