package iceberg

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/schema"
)

func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
func le64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

func TestDecodeBound(t *testing.T) {
	for _, c := range []struct {
		t    schema.PrimitiveType
		b    []byte
		want any
		ok   bool
	}{
		{schema.Int, le32(uint32(0xfffffff6)), int32(-10), true},
		{schema.Long, le32(uint32(0xfffffff6)), int64(-10), true}, // written as int, promoted
		{schema.Long, le64(1 << 40), int64(1 << 40), true},
		{schema.Double, le32(math.Float32bits(1.5)), 1.5, true}, // written as float
		{schema.Double, le64(math.Float64bits(2.25)), 2.25, true},
		{schema.Double, le64(math.Float64bits(math.NaN())), nil, false},
		{schema.String, []byte("abc"), "abc", true},
		{schema.Decimal(20, 2), []byte{0xff, 0x38}, schema.DecimalValue{Hi: -1, Lo: math.MaxUint64 - 199}, true}, // -2.00
		{schema.Timestamp, le32(5), nil, false},                                                                  // a date bound is not a timestamp bound
		{schema.Date, le32(19000), int32(19000), true},
		{schema.Boolean, []byte{1}, true, true},
	} {
		got, ok := DecodeBound(c.t, c.b)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("%s % x: %v %v, want %v %v", c.t, c.b, got, ok, c.want, c.ok)
		}
	}
}

// TestMetricsPruning: a file written while n was an int (4-byte bounds 0 and
// 999) and read with n a long; a renamed column's metrics by id; a column
// whose metrics the manifest lacks is unknown, never all null.
func TestMetricsPruning(t *testing.T) {
	read := schema.New(1,
		&schema.Field{ID: 1, Name: "n", Type: schema.Long},
		&schema.Field{ID: 2, Name: "renamed", Type: schema.String},
		&schema.Field{ID: 3, Name: "added", Type: schema.Long},
	)
	m := &Metrics{
		ValueCounts: map[int]int64{1: 1000, 2: 1000},
		NullCounts:  map[int]int64{1: 0, 2: 10},
		LowerBounds: map[int][]byte{1: le32(0), 2: []byte("b")},
		UpperBounds: map[int][]byte{1: le32(999), 2: []byte("d")},
	}
	for where, want := range map[string]bool{
		"n > 999":              false,
		"n >= 999":             true,
		"n < 3000000000":       true, // a naive reader narrowing the literal to int would skip
		"n > 3000000000":       false,
		"renamed = 'a'":        false,
		"renamed = 'c'":        true,
		"renamed is null":      true,
		"n is null":            false,
		"added = 5":            true, // no metrics for id 3: unknown
		"added is null":        true,
		"n > 999 or added = 1": true,
	} {
		b := expr.MustParseBind(where, read)
		got := b.MayMatch(func(id int) (expr.Stats, bool) { return MetricsStats(m, 1000, read.FindByID(id)) })
		if got != want {
			t.Errorf("%s: %v, want %v", where, got, want)
		}
	}
}
