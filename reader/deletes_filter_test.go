package reader

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestFilterRuns: the run-copying filter gives what Arrow's filter kernel
// gives, on sliced arrays with nulls, for fixed-width and string columns.
func TestFilterRuns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ib := array.NewInt64Builder(mem)
	sb := array.NewStringBuilder(mem)
	for i := 0; i < 40; i++ {
		if i%5 == 2 {
			ib.AppendNull()
			sb.AppendNull()
			continue
		}
		ib.Append(int64(i * 3))
		sb.Append(string(rune('a'+i%26)) + "xyz"[:i%4])
	}
	ints, strs := ib.NewArray(), sb.NewArray()
	defer ints.Release()
	defer strs.Release()
	drop := make([]bool, 30)
	for i := range drop {
		drop[i] = i%7 == 0 || (i >= 10 && i < 14) || i == 29
	}
	kept := 0
	bb := array.NewBooleanBuilder(mem)
	for _, d := range drop {
		bb.Append(!d)
		if !d {
			kept++
		}
	}
	sel := bb.NewArray()
	defer sel.Release()
	runs := keptRuns(nil, drop)
	keep := make([]byte, 4)
	for i, d := range drop {
		if !d {
			keep[i/8] |= 1 << (i % 8)
		}
	}
	for _, a := range []arrow.Array{ints, strs} {
		s := array.NewSlice(a, 5, 35)
		got, ok := filterRuns(s, runs, keep, kept, mem)
		if !ok {
			t.Fatalf("%s: not filtered", a.DataType())
		}
		want, err := compute.FilterArray(context.Background(), s, sel, *compute.DefaultFilterOptions())
		if err != nil {
			t.Fatal(err)
		}
		if !array.Equal(got, want) || got.NullN() != want.NullN() {
			t.Errorf("%s:\n got %v\nwant %v", a.DataType(), got, want)
		}
		got.Release()
		want.Release()
		s.Release()
	}
}
