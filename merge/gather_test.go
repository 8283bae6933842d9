package merge

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestGather gathers rows of two sliced parts, nulls (from a part and
// src -1) included, and compares with the expected arrays, types and all.
func TestGather(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ts := &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	build := func(dt arrow.DataType, vals []any) arrow.Array {
		b := array.NewBuilder(mem, dt)
		defer b.Release()
		for _, v := range vals {
			switch x := v.(type) {
			case nil:
				b.AppendNull()
			case string:
				b.(*array.StringBuilder).Append(x)
			case int64:
				b.(*array.TimestampBuilder).Append(arrow.Timestamp(x))
			case int16:
				b.(*array.Int16Builder).Append(x)
			}
		}
		return b.NewArray()
	}
	refs := []ref{{1, 0}, {0, 2}, {-1, 0}, {0, 0}, {1, 1}}
	for _, tc := range []struct {
		dt     arrow.DataType
		p0, p1 []any
		want   []any
	}{
		{arrow.BinaryTypes.String, []any{"skip", "a", nil, "bc"}, []any{"skip", "x", "yz"}, []any{"x", "bc", nil, "a", "yz"}},
		{ts, []any{int64(0), int64(1), int64(2), nil}, []any{int64(0), int64(7), int64(8)}, []any{int64(7), nil, nil, int64(1), int64(8)}},
		{arrow.PrimitiveTypes.Int16, []any{int16(0), int16(1), int16(2), int16(3)}, []any{int16(0), int16(-7), int16(8)}, []any{int16(-7), int16(3), nil, int16(1), int16(8)}},
	} {
		a0, a1 := build(tc.dt, tc.p0), build(tc.dt, tc.p1)
		s0, s1 := array.NewSlice(a0, 1, int64(len(tc.p0))), array.NewSlice(a1, 1, int64(len(tc.p1)))
		a0.Release()
		a1.Release()
		got, ok := gather(mem, tc.dt, []arrow.Array{s0, s1}, refs)
		if !ok {
			t.Fatalf("%s: not gathered", tc.dt)
		}
		want := build(tc.dt, tc.want)
		if !arrow.TypeEqual(got.DataType(), tc.dt) || !array.Equal(got, want) || got.NullN() != want.NullN() {
			t.Errorf("%s: got %v (%s, %d nulls), want %v", tc.dt, got, got.DataType(), got.NullN(), want)
		}
		for _, a := range []arrow.Array{got, want, s0, s1} {
			a.Release()
		}
	}
	if _, ok := gather(mem, arrow.FixedWidthTypes.Boolean, nil, refs); ok {
		t.Error("bool gathered; want take")
	}
}
