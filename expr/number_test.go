package expr

import (
	"errors"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/schema"
)

// TestNumberLiteralRange: a number literal is bound by its value, however
// it is spelt (1e2 is 100 on every numeric column; 1e400 on a long was
// above max while 1e2 was "not an integer"), and a value beyond the
// type's range binds as above max or below min on doubles and floats too
// (d = 1e400 was "not a number in the range of double" while d = 1e-400
// bound, and an exponent of 1e9 digits on a long was a type error while
// 1e400 was not). Rows: d and f are 1.5, +Inf, -Inf, NaN, null, and the
// type's greatest finite value; l is 1, 100, -2^63, 2^63-1, null, 0.
func TestNumberLiteralRange(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	s := schema.New(0,
		&schema.Field{ID: 1, Name: "d", Type: schema.PrimitiveType{K: schema.KindDouble}},
		&schema.Field{ID: 2, Name: "f", Type: schema.PrimitiveType{K: schema.KindFloat}},
		&schema.Field{ID: 3, Name: "l", Type: schema.PrimitiveType{K: schema.KindLong}},
		&schema.Field{ID: 4, Name: "m", Type: schema.Decimal(10, 2)},
	)
	b := array.NewRecordBuilder(mem, schema.ToArrowSchema(s))
	defer b.Release()
	ds := []float64{1.5, math.Inf(1), math.Inf(-1), math.NaN(), 0, math.MaxFloat64}
	fs := []float32{1.5, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 0, math.MaxFloat32}
	ls := []int64{1, 100, math.MinInt64, math.MaxInt64, 0, 0}
	for i := range ds {
		if i == 4 {
			b.Field(0).AppendNull()
			b.Field(1).AppendNull()
			b.Field(2).AppendNull()
		} else {
			b.Field(0).(*array.Float64Builder).Append(ds[i])
			b.Field(1).(*array.Float32Builder).Append(fs[i])
			b.Field(2).(*array.Int64Builder).Append(ls[i])
		}
		b.Field(3).AppendNull()
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	if rec.Schema().Field(0).Type.ID() != arrow.FLOAT64 || rec.Schema().Field(1).Type.ID() != arrow.FLOAT32 {
		t.Fatalf("schema %s", rec.Schema())
	}
	for _, c := range []struct {
		in, bound string
		want      []int
	}{
		{"d = 1e2", "1:d = 100", nil},
		{"d = 1e400", "false", nil},
		{"d = -1e400", "false", nil},
		{"d != 1e400", "true", []int{0, 1, 2, 3, 4, 5}},
		{"d < 1e400", "1:d <= 1.7976931348623157e+308", []int{0, 2, 5}},
		{"d <= 1e400", "1:d <= 1.7976931348623157e+308", []int{0, 2, 5}},
		{"d > 1e400", "1:d > 1.7976931348623157e+308", []int{1}},
		{"d >= 1e1000000000", "1:d > 1.7976931348623157e+308", []int{1}},
		{"not d < 1e400", "1:d > 1.7976931348623157e+308", []int{1}},
		{"d > -1e400", "1:d >= -1.7976931348623157e+308", []int{0, 1, 5}},
		{"d < -1e400", "1:d < -1.7976931348623157e+308", []int{2}},
		{"d in (1e400, 1.5)", "1:d IN (1.5)", []int{0}},
		{"d not in (1e400)", "true", []int{0, 1, 2, 3, 4, 5}},
		{"d = 1e-400", "1:d = 0", nil}, // an underflow is the nearest double, 0
		{"f = 1e39", "false", nil},
		{"f < 1e39", "2:f <= 3.4028235e+38", []int{0, 2, 5}},
		{"f > 1e39", "2:f > 3.4028235e+38", []int{1}},
		{"f >= -1e400", "2:f >= -3.4028235e+38", []int{0, 1, 5}},
		{"l = 1e2", "3:l = 100", []int{1}},
		{"l = 100.0", "3:l = 100", []int{1}},
		{"l in (1e2, 1e400, 10e-1)", "3:l IN (100, 1)", []int{0, 1}},
		{"l = 9.223372036854775807e18", "3:l = 9223372036854775807", []int{3}},
		{"l = 9.223372036854775808e18", "false", nil},
		{"l = 1e400", "false", nil},
		{"l < 1e1000000000", "3:l IS NOT NULL", []int{0, 1, 2, 3, 5}},
		{"l > -9223372036854775809", "3:l IS NOT NULL", []int{0, 1, 2, 3, 5}},
		{"l = -9.223372036854775808e18", "3:l = -9223372036854775808", []int{2}},
		{"l = 0e99999999999999999999", "3:l = 0", []int{5}},
	} {
		bd, err := ParseBind(c.in, s)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if bd.String() != c.bound {
			t.Errorf("%q: bound %s, want %s", c.in, bd, c.bound)
		}
		sel, n, err := bd.Select(rec)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if got := selected(sel, 6); n != len(c.want) || !equalInts(got, c.want) {
			t.Errorf("%q: rows %v (count %d), want %v", c.in, got, n, c.want)
		}
	}
	// Statistics: a unit of finite values holds no row above the
	// greatest double; one whose upper bound is +Inf may.
	rng := func(lo, hi float64) StatsFunc {
		return func(int) (Stats, bool) { return Stats{Rows: 3, Nulls: 0, NaNs: 0, Lower: lo, Upper: hi}, true }
	}
	if MustParseBind("d > 1e400", s).MayMatch(rng(1, 2)) || !MustParseBind("d > 1e400", s).MayMatch(rng(1, math.Inf(1))) ||
		!MustParseBind("d < 1e400", s).MayMatch(rng(1, 2)) {
		t.Error("MayMatch of d beyond the double range")
	}
	// A fraction on an integer column, or more fraction digits than a
	// decimal's scale (inside its range; beyond it, see
	// TestBindDecimalOutOfRange), stays a type error naming the literal.
	for in, msg := range map[string]string{
		"l = 1.5":                     "expr: l = 1.5: field l (id 3, long): literal 1.5 is not an integer in the range of long",
		"l = 15e-1":                   "expr: l = 15e-1: field l (id 3, long): literal 15e-1 is not an integer in the range of long",
		"l = 1e-99999999999999999999": "expr: l = 1e-99999999999999999999: field l (id 3, long): literal 1e-99999999999999999999 is not an integer in the range of long",
		"m = 1.234":                   "expr: m = 1.234: field m (id 4, decimal(10, 2)): literal 1.234 is not a decimal with at most 2 fraction digits fitting decimal(10, 2)",
	} {
		_, err := ParseBind(in, s)
		var te *TypeError
		if !errors.Is(err, ErrType) || !errors.As(err, &te) || err.Error() != msg {
			t.Errorf("%q: %v, want %s", in, err, msg)
		}
	}
}

func TestIntegerValue(t *testing.T) {
	for _, c := range []struct {
		text string
		n    int64
		side int
		ok   bool
	}{
		{"0", 0, 0, true}, {"-0.000", 0, 0, true}, {"+12", 12, 0, true}, {"1.2e1", 12, 0, true}, {"1200e-2", 12, 0, true},
		{"1.25e1", 0, 0, false}, {".5", 0, 0, false}, {"5.", 5, 0, true}, {"-9223372036854775808", math.MinInt64, 0, true},
		{"9223372036854775808", 0, 1, true}, {"-9223372036854775809", 0, -1, true}, {"1E20", 0, 1, true},
		{"-1e99999999999999999999", 0, -1, true}, {"100000000000000000000e-1", 0, 1, true}, {"1e-99999999999999999999", 0, 0, false},
	} {
		n, side, ok := integerValue(c.text)
		if n != c.n || side != c.side || ok != c.ok {
			t.Errorf("integerValue(%q) = %d, %d, %v; want %d, %d, %v", c.text, n, side, ok, c.n, c.side, c.ok)
		}
	}
}
