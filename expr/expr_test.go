package expr

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/schema"
)

func testSchema() *schema.Schema {
	return schema.New(0,
		&schema.Field{ID: 1, Name: "id", Type: schema.PrimitiveType{K: schema.KindLong}, Required: true},
		&schema.Field{ID: 2, Name: "region", Type: schema.PrimitiveType{K: schema.KindString}},
		&schema.Field{ID: 3, Name: "amount", Type: schema.PrimitiveType{K: schema.KindDouble}},
		&schema.Field{ID: 4, Name: "ts", Type: schema.PrimitiveType{K: schema.KindTimestampTz}},
		&schema.Field{ID: 5, Name: "addr", Type: &schema.StructType{Fields: []*schema.Field{
			{ID: 6, Name: "zip", Type: schema.PrimitiveType{K: schema.KindInt}},
		}}},
	)
}

func TestParseErrorsPointAtCharacter(t *testing.T) {
	for _, c := range []struct {
		in  string
		pos int
	}{
		{"region = ", 9},
		{"region = 'eu' and", 17},
		{"region ~ 'eu'", 7},
		{"(a = 1", 6},
		{"a in (1, 2", 10},
		{"a = 'x", 4},
		{"a = null", 4},
		{"a is maybe", 5},
		{"a = 1 b = 2", 6},
	} {
		_, err := Parse(c.in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("%q: %v, want a SyntaxError", c.in, err)
		}
		if se.Pos != c.pos {
			t.Errorf("%q: pos %d, want %d (%v)", c.in, se.Pos, c.pos, err)
		}
		if !errors.Is(err, ErrSyntax) || !errors.Is(err, lakecat.ErrInvalidArgument) {
			t.Errorf("%q: %v does not match ErrSyntax / ErrInvalidArgument", c.in, err)
		}
	}
}

func TestParseBindString(t *testing.T) {
	s := testSchema()
	for in, want := range map[string]string{
		"region = 'eu' and ts >= '2024-01-01' and amount > 10.5": "((2:region = 'eu' AND 4:ts >= '2024-01-01T00:00:00.000000+00:00') AND 3:amount > 10.5)",
		"not (id < 5 or region in ('a', 'b'))":                   "(1:id >= 5 AND 2:region NOT IN ('a', 'b'))",
		"NOT region STARTS WITH 'x' OR addr.zip IS NULL":         "(2:region NOT STARTS WITH 'x' OR 6:addr.zip IS NULL)",
		"not amount is nan":                                      "3:amount IS NOT NAN",
		"true and id = 3":                                        "1:id = 3",
		`"region" <> 'it''s'`:                                    "2:region != 'it''s'",
	} {
		b, err := ParseBind(in, s)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if got := b.String(); got != want {
			t.Errorf("%q:\n got %s\nwant %s", in, got, want)
		}
	}
}

func TestBindErrors(t *testing.T) {
	s := testSchema()
	for in, class := range map[string]error{
		"region > 5":           ErrType,
		"id = 'x'":             ErrType,
		"id = 1.5":             ErrType,
		"region is nan":        ErrType,
		"id starts with 'a'":   ErrType,
		"ts > 'yesterday'":     ErrType,
		"nope = 1":             ErrUnknownColumn,
		"addr.nope = 1":        ErrUnknownColumn,
		"addr = 1":             ErrType,
		"addr.zip = 1.5":       ErrType,
		"addr.zip = '300'":     ErrType, // a literal of the wrong kind, even out of range
		"addr.zip in (1, 'x')": ErrType,
	} {
		_, err := ParseBind(in, s)
		if !errors.Is(err, class) {
			t.Errorf("%q: %v, want %v", in, err, class)
		}
	}
	_, err := ParseBind("region > 5", s)
	var te *TypeError
	if !errors.As(err, &te) || te.FieldID != 2 || te.Type != "string" || !strings.Contains(err.Error(), "region > 5") {
		t.Errorf("type error %v does not name the predicate, field and type", err)
	}
	if _, err := ParseBind("nope = 1", s); !errors.Is(err, lakecat.ErrNotFound) {
		t.Errorf("unknown column %v is not of class not found", err)
	}
}

func batch(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	sc := schema.ToArrowSchema(testSchema())
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	ids := b.Field(0).(*array.Int64Builder)
	reg := b.Field(1).(*array.StringBuilder)
	amt := b.Field(2).(*array.Float64Builder)
	ts := b.Field(3).(*array.TimestampBuilder)
	addr := b.Field(4).(*array.StructBuilder)
	zip := addr.FieldBuilder(0).(*array.Int32Builder)
	regions := []any{"eu", "us", nil, "eu-west", "asia"}
	amounts := []any{1.0, math.NaN(), 20.0, nil, 10.5}
	zips := []any{100, nil, 300, "structnull", 500}
	for i := 0; i < 5; i++ {
		ids.Append(int64(i))
		if r, ok := regions[i].(string); ok {
			reg.Append(r)
		} else {
			reg.AppendNull()
		}
		if a, ok := amounts[i].(float64); ok {
			amt.Append(a)
		} else {
			amt.AppendNull()
		}
		ts.Append(arrow.Timestamp(int64(i) * 86400_000_000))
		switch z := zips[i].(type) {
		case int:
			addr.Append(true)
			zip.Append(int32(z))
		case nil:
			addr.Append(true)
			zip.AppendNull()
		default:
			addr.AppendNull() // appends a null to zip too
		}
	}
	return b.NewRecordBatch()
}

func selected(sel []byte, n int) []int {
	var out []int
	for i := 0; i < n; i++ {
		if sel[i/8]&(1<<(i%8)) != 0 {
			out = append(out, i)
		}
	}
	return out
}

func TestSelect(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := batch(t, mem)
	defer rec.Release()
	for in, want := range map[string][]int{
		"region = 'eu'":                       {0},
		"region != 'eu'":                      {1, 2, 3, 4}, // null != 'eu' holds (Iceberg)
		"not region = 'eu'":                   {1, 2, 3, 4},
		"region < 'eu-west'":                  {0, 4},
		"not region < 'eu-west'":              {3, 1}, // >=: null rows fail
		"region starts with 'eu'":             {0, 3},
		"region not starts with 'eu'":         {1, 2, 4},
		"region in ('us', 'asia')":            {1, 4},
		"region not in ('us', 'asia')":        {0, 2, 3},
		"region is null":                      {2},
		"amount > 5":                          {2, 4}, // NaN is not > 5
		"amount != 1":                         {1, 2, 3, 4},
		"amount is nan":                       {1},
		"amount is not nan":                   {0, 2, 3, 4},
		"ts >= '1970-01-03'":                  {2, 3, 4},
		"ts < '1970-01-02 00:00:01'":          {0, 1},
		"addr.zip > 150":                      {2, 4},
		"addr.zip is null":                    {1, 3},
		"addr is null":                        {3},
		"id = 1 or id = 3 and region is null": {1},
		"false or id in (0, 4)":               {0, 4},
	} {
		b, err := ParseBind(in, testSchema())
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		sel, n, err := b.Select(rec)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		got := selected(sel, 5)
		w := append([]int(nil), want...)
		sortInts(w)
		if n != len(w) || !equalInts(got, w) {
			t.Errorf("%q: rows %v (count %d), want %v", in, got, n, w)
		}
	}
}

func sortInts(a []int) {
	for i := range a {
		for j := i + 1; j < len(a); j++ {
			if a[j] < a[i] {
				a[i], a[j] = a[j], a[i]
			}
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestMayMatch(t *testing.T) {
	s := testSchema()
	rng := func(lo, hi any, nulls int64) StatsFunc {
		return func(id int) (Stats, bool) {
			return Stats{Rows: 10, Nulls: nulls, NaNs: -1, Lower: lo, Upper: hi}, true
		}
	}
	cases := []struct {
		f     string
		stats StatsFunc
		want  bool
	}{
		{"id = 5", rng(int64(1), int64(4), 0), false},
		{"id = 4", rng(int64(1), int64(4), 0), true},
		{"id > 4", rng(int64(1), int64(4), 0), false},
		{"id >= 4", rng(int64(1), int64(4), 0), true},
		{"id < 1", rng(int64(1), int64(4), 0), false},
		{"id <= 1", rng(int64(1), int64(4), 0), true},
		{"id in (0, 9)", rng(int64(1), int64(4), 0), false},
		{"id in (0, 3)", rng(int64(1), int64(4), 0), true},
		{"id != 3", rng(int64(1), int64(4), 0), true},
		{"id is null", rng(int64(1), int64(4), 0), false},
		{"id is not null", rng(nil, nil, 10), false},
		{"id != 3", rng(nil, nil, 10), true},
		{"id = 3", rng(nil, nil, 10), false},
		{"id = 3", func(int) (Stats, bool) { return UnknownStats, true }, true},
		{"id = 3", func(int) (Stats, bool) { return Stats{}, false }, true},
		// a promoted int column's stats come as int32: compared as integers
		{"id = 5", rng(int32(1), int32(4), 0), false},
		// constants
		{"id != 3", func(int) (Stats, bool) { return ConstantStats(int64(3), 5), true }, false},
		{"id != 3", func(int) (Stats, bool) { return ConstantStats(int64(4), 5), true }, true},
		{"id is null", func(int) (Stats, bool) { return ConstantStats(nil, 5), true }, true},
		{"id = 5", func(int) (Stats, bool) { return ConstantStats(nil, 5), true }, false},
		// truncated string bounds: "ab" .. "ac" for values like "abz"
		{"region starts with 'abz'", rng("ab", "ac", 0), true},
		{"region starts with 'ad'", rng("ab", "ac", 0), false},
		{"region starts with 'aa'", rng("ab", "ac", 0), false},
		{"region = 'abzzz'", rng("ab", "ac", 0), true},
		// a bound of another form is never used to skip
		{"region = 'x'", rng(int64(1), int64(2), 0), true},
		{"amount > 5", rng(math.NaN(), math.NaN(), 0), true},
		// a lower bound above the upper one bounds nothing: unknown, in
		// every op and in the counts (a damaged file's min/max)
		{"region = 'Hello'", rng("\xb7ello", "Hello", 0), true},
		{"region starts with 'He'", rng("\xb7ello", "Hello", 0), true},
		{"id = 5", rng(int64(9), int64(1), 0), true},
		{"id < 2", rng(int64(9), int64(1), 0), true},
		{"id > 8", rng(int64(9), int64(1), 0), true},
		{"id in (0, 20)", rng(int64(9), int64(1), 0), true},
		{"id is null", rng(int64(9), int64(1), 0), true},
		{"amount < 1", rng(2.5, 1.5, 0), true},
		// lower == upper is a valid (single-value) range
		{"id = 5", rng(int64(4), int64(4), 0), false},
	}
	for _, c := range cases {
		b := MustParseBind(c.f, s)
		if got := b.MayMatch(c.stats); got != c.want {
			t.Errorf("%q: MayMatch %v, want %v", c.f, got, c.want)
		}
	}
}

func TestPromoteBound(t *testing.T) {
	i32 := schema.PrimitiveType{K: schema.KindInt}
	i64 := schema.PrimitiveType{K: schema.KindLong}
	f32 := schema.PrimitiveType{K: schema.KindFloat}
	f64 := schema.PrimitiveType{K: schema.KindDouble}
	str := schema.PrimitiveType{K: schema.KindString}
	if v, ok := PromoteBound(int32(7), i32, i64); !ok || v != int64(7) {
		t.Errorf("int→long: %v %v", v, ok)
	}
	if v, ok := PromoteBound(float32(1.5), f32, f64); !ok || v != 1.5 {
		t.Errorf("float→double: %v %v", v, ok)
	}
	if _, ok := PromoteBound(int32(7), i32, str); ok {
		t.Error("int→string stats must be ignored")
	}
	if _, ok := PromoteBound(schema.DecimalValue{Lo: 5}, schema.Decimal(9, 2), schema.Decimal(12, 3)); ok {
		t.Error("decimal scale change must be ignored")
	}
	if v, ok := PromoteBound(schema.DecimalValue{Lo: 5}, schema.Decimal(9, 2), schema.Decimal(12, 2)); !ok || v != (schema.DecimalValue{Lo: 5}) {
		t.Errorf("decimal precision: %v %v", v, ok)
	}
}

// TestBindOutOfRange: a literal outside the integer type's range binds as
// Iceberg binds it, above max or below min: a constant, or IS NOT NULL for
// an ordering comparison that holds for every value (a null row fails it).
// addr.zip (int) is 100, null, 300, null (struct null), 500.
func TestBindOutOfRange(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := batch(t, mem)
	defer rec.Release()
	for _, c := range []struct {
		in, bound string
		want      []int
	}{
		{"addr.zip < 99999999999", "6:addr.zip IS NOT NULL", []int{0, 2, 4}},
		{"addr.zip <= 99999999999", "6:addr.zip IS NOT NULL", []int{0, 2, 4}},
		{"addr.zip > 99999999999", "false", nil},
		{"addr.zip >= 99999999999", "false", nil},
		{"addr.zip = 99999999999", "false", nil},
		{"addr.zip != 99999999999", "true", []int{0, 1, 2, 3, 4}}, // as != holds for null
		{"addr.zip > -99999999999", "6:addr.zip IS NOT NULL", []int{0, 2, 4}},
		{"addr.zip < -99999999999", "false", nil},
		{"not addr.zip < 99999999999", "false", nil},
		{"addr.zip < 1e30", "6:addr.zip IS NOT NULL", []int{0, 2, 4}},
		{"addr.zip in (300, 99999999999, -99999999999)", "6:addr.zip IN (300)", []int{2}},
		{"addr.zip in (99999999999)", "false", nil},
		{"addr.zip not in (99999999999, 100)", "6:addr.zip NOT IN (100)", []int{1, 2, 3, 4}},
		{"addr.zip not in (99999999999)", "true", []int{0, 1, 2, 3, 4}},
		{"id > 9223372036854775808 or addr.zip = 500", "6:addr.zip = 500", []int{4}},
		{"id < 9223372036854775808", "1:id IS NOT NULL", []int{0, 1, 2, 3, 4}},
	} {
		b, err := ParseBind(c.in, testSchema())
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if b.String() != c.bound {
			t.Errorf("%q: bound %s, want %s", c.in, b, c.bound)
		}
		sel, n, err := b.Select(rec)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if got := selected(sel, 5); n != len(c.want) || !equalInts(got, c.want) {
			t.Errorf("%q: rows %v (count %d), want %v", c.in, got, n, c.want)
		}
	}
}

func TestColumnIDs(t *testing.T) {
	s := testSchema()
	for _, c := range []struct {
		in          string
		fields, all []int
	}{
		{"amount = 1e400", nil, []int{3}},
		{"id > 9223372036854775808 or addr.zip = 500", []int{6}, []int{1, 6}},
		{"addr.zip in (99999999999) and region = 'x'", nil, []int{6, 2}},
		{"not (REGION = 'x' or id < 3) and region != 'y'", []int{2, 1}, []int{2, 1}},
	} {
		b := MustParseBind(c.in, s)
		if got := b.FieldIDs(); !slices.Equal(got, c.fields) {
			t.Errorf("%s: FieldIDs %v, want %v", c.in, got, c.fields)
		}
		if got := b.ColumnIDs(); !slices.Equal(got, c.all) {
			t.Errorf("%s: ColumnIDs %v, want %v", c.in, got, c.all)
		}
	}
}

func TestBindColumnErrors(t *testing.T) {
	s := schema.New(0,
		&schema.Field{ID: 1, Name: "user_id", Type: schema.PrimitiveType{K: schema.KindLong}},
		&schema.Field{ID: 2, Name: "uSeR_Id", Type: schema.PrimitiveType{K: schema.KindString}},
		&schema.Field{ID: 3, Name: "s", Type: &schema.StructType{Fields: []*schema.Field{
			{ID: 4, Name: "a", Type: schema.PrimitiveType{K: schema.KindInt}},
			{ID: 5, Name: "A", Type: schema.PrimitiveType{K: schema.KindInt}},
		}}},
	)
	for _, c := range []struct {
		in   string
		is   error
		want string
	}{
		{"USER_ID = 1", ErrAmbiguousColumn, `expr: ambiguous column "USER_ID" in USER_ID = 1: it matches user_id and uSeR_Id case-insensitively; write one of them exactly`},
		{"S.a2 = 1 or S.A > 1", ErrUnknownColumn, `expr: unknown column "S.a2" in S.a2 = 1 (the read schema has user_id, uSeR_Id, s)`},
		{"s.a = 1 and S.A > 1", ErrAmbiguousColumn, `expr: ambiguous column "S.A" in S.A > 1: it matches s.a and s.A case-insensitively; write one of them exactly`},
		{"s.a = 1 and s.A > 1 and user_id = 2", nil, ""},
	} {
		_, err := ParseBind(c.in, s)
		if c.is == nil {
			if err != nil {
				t.Errorf("%s: %v", c.in, err)
			}
			continue
		}
		var ce *ColumnError
		if !errors.Is(err, c.is) || !errors.As(err, &ce) || err.Error() != c.want {
			t.Errorf("%s: %v, want %q matching %v", c.in, err, c.want, c.is)
		}
	}
}

// TestBindDecimalOutOfRange: a number beyond ±10^(P-S) on a decimal(P, S)
// binds as an integer one beyond its type's range; inside the range, more
// fraction digits than S is a type error.
func TestBindDecimalOutOfRange(t *testing.T) {
	s := schema.New(0, &schema.Field{ID: 1, Name: "d", Type: schema.PrimitiveType{K: schema.KindDecimal, Precision: 5, Scale: 2}})
	for _, c := range []struct{ in, bound string }{
		{"d = 1000", "false"},
		{"d = 1e3", "false"},
		{"d != 1000.5", "true"},
		{"d < 1e400", "1:d IS NOT NULL"},
		{"d <= 12345678901234567890.123", "1:d IS NOT NULL"},
		{"d > 1000", "false"},
		{"d > -1000", "1:d IS NOT NULL"},
		{"d < -0.1e4", "false"},
		{"d in (1e3, 1.5)", "1:d IN ('1.50')"},
		{"not d >= 1000", "1:d IS NOT NULL"},
		{"d = 999.99", "1:d = '999.99'"},
		{"d = 0.0009999e6", "1:d = '999.90'"},
	} {
		b, err := ParseBind(c.in, s)
		if err != nil || b.String() != c.bound {
			t.Errorf("%q: bound %v (%v), want %s", c.in, b, err, c.bound)
		}
	}
	for _, in := range []string{"d = 999.999", "d = 1e-400", "d = 0.001"} {
		if _, err := ParseBind(in, s); !errors.Is(err, ErrType) {
			t.Errorf("%q: %v, want ErrType", in, err)
		}
	}
}
