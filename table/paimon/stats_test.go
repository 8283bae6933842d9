package paimon

import (
	"testing"

	"github.com/lakecat/lakecat/schema"
)

func TestTruncateLength(t *testing.T) {
	for _, c := range []struct {
		opts  map[string]string
		col   string
		level int
		want  int
	}{
		{nil, "s", 0, 16}, // Paimon's default, truncate(16)
		{map[string]string{"metadata.stats-mode": "full"}, "s", 0, 0},
		{map[string]string{"metadata.stats-mode": "counts"}, "s", 0, 0},
		{map[string]string{"metadata.stats-mode": "TRUNCATE(8)"}, "s", 0, 8},
		{map[string]string{"metadata.stats-mode": "truncate(x)"}, "s", 0, 16},
		{map[string]string{"metadata.stats-mode": "full", "fields.s.stats-mode": "truncate(4)"}, "s", 0, 4},
		{map[string]string{"metadata.stats-mode": "truncate(4)", "fields.s.stats-mode": "full"}, "s", 0, 0},
		{map[string]string{"metadata.stats-mode": "full", "fields.s.stats-mode": "truncate(4)"}, "t", 0, 0},
		{map[string]string{"metadata.stats-mode": "full", "metadata.stats-mode.per.level": "0:none, 1:truncate(5)"}, "s", 1, 5},
		{map[string]string{"metadata.stats-mode": "full", "metadata.stats-mode.per.level": "0:none, 1:truncate(5)"}, "s", 2, 0},
		{map[string]string{"metadata.stats-mode": "bogus"}, "s", 0, 16},
	} {
		ps := &schema.PaimonSchema{Options: c.opts}
		if got := truncateLength(ps, c.col, c.level); got != c.want {
			t.Errorf("%v, column %s, level %d: %d, want %d", c.opts, c.col, c.level, got, c.want)
		}
	}
}

func TestMaybeTruncated(t *testing.T) {
	if !maybeTruncated("ééééé", 5) || maybeTruncated("éééé", 5) || !maybeTruncated([]byte("abcde"), 5) || maybeTruncated(int32(123456), 1) {
		t.Error("maybeTruncated counts characters for strings, bytes for binary, nothing else")
	}
}

// TestDecodeStatsHostile: statistics that are missing, of the wrong shape
// or corrupt read as unknown bounds (a file may match), never as an error
// or a panic; recorded null counts stay.
func TestDecodeStatsHostile(t *testing.T) {
	for _, m := range []map[string]any{
		nil,
		{"_VALUE_STATS": "garbage"},
		{"_VALUE_STATS": map[string]any{"_MIN_VALUES": 5}},
	} {
		if st := decodeSimpleStats(m, "_VALUE_STATS"); st.Min != nil || st.Max != nil || st.NullCounts != nil {
			t.Errorf("%v: %+v, want none", m, st)
		}
	}
	st := decodeSimpleStats(map[string]any{"_VALUE_STATS": map[string]any{
		"_MIN_VALUES": []byte{0, 0, 0, 9}, "_MAX_VALUES": []byte{1, 2}, "_NULL_COUNTS": []any{int64(3), nil, "x"},
	}}, "_VALUE_STATS")
	cols := []*schema.Field{{ID: 0, Name: "a", Type: schema.Int}, {ID: 1, Name: "b", Type: schema.String}, {ID: 2, Name: "c", Type: schema.Long}}
	got := decodeStatsColumns(st, cols)
	if len(got) != 3 || got[0].nulls != 3 || got[1].nulls != -1 || got[2].nulls != -1 {
		t.Fatalf("null counts: %+v", got)
	}
	for _, c := range got {
		if c.min != nil || c.max != nil {
			t.Errorf("corrupt rows gave bounds %v, %v", c.min, c.max)
		}
	}
	// Null counts of another arity than the columns are not trusted.
	st.NullCounts = []int64{1}
	if got := decodeStatsColumns(st, cols); got[0].nulls != -1 {
		t.Errorf("null count of a 1-entry list for 3 columns: %d", got[0].nulls)
	}
}

func TestWidens(t *testing.T) {
	for _, c := range []struct {
		from, to schema.PrimitiveType
		want     bool
	}{
		{schema.Int, schema.Long, true},
		{schema.TinyInt, schema.Int, true},
		{schema.Long, schema.Int, false},
		{schema.Float, schema.Double, true},
		{schema.Double, schema.Int, false}, // Paimon's cast truncates
		{schema.Int, schema.String, false},
		{schema.Varchar(5), schema.String, true},
		{schema.PrimitiveType{K: schema.KindDecimal, Precision: 9, Scale: 2}, schema.PrimitiveType{K: schema.KindDecimal, Precision: 18, Scale: 2}, true},
		{schema.PrimitiveType{K: schema.KindDecimal, Precision: 9, Scale: 2}, schema.PrimitiveType{K: schema.KindDecimal, Precision: 18, Scale: 3}, false},
	} {
		if got := widens(c.from, c.to); got != c.want {
			t.Errorf("%v → %v: %v, want %v", c.from, c.to, got, c.want)
		}
	}
}
