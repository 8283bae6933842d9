package iceberg

import (
	"encoding/binary"
	"math"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/schema"
)

// Metrics are a data file's column metrics as its manifest entry stores
// them (spec, "Manifests": value_counts, null_value_counts,
// nan_value_counts, lower_bounds, upper_bounds), keyed by field id. Bounds
// are in the single-value binary serialization (spec, Appendix D) of the
// field's type when the file was written.
type Metrics struct {
	ValueCounts, NullCounts, NaNCounts map[int]int64
	LowerBounds, UpperBounds           map[int][]byte
}

// decodeMetrics reads the metric maps of a data_file record; a map that is
// absent or malformed is left nil (a metric that is not known).
func decodeMetrics(dfm map[string]any) *Metrics {
	m := &Metrics{
		ValueCounts: countMap(dfm["value_counts"]),
		NullCounts:  countMap(dfm["null_value_counts"]),
		NaNCounts:   countMap(dfm["nan_value_counts"]),
		LowerBounds: boundMap(dfm["lower_bounds"]),
		UpperBounds: boundMap(dfm["upper_bounds"]),
	}
	if m.ValueCounts == nil && m.NullCounts == nil && m.NaNCounts == nil && m.LowerBounds == nil && m.UpperBounds == nil {
		return nil
	}
	return m
}

// kvArray returns an Iceberg map with int keys as formats/avro decodes it
// (an array of {key, value} records), or nil when v is null or not one.
func kvArray(v any) []any {
	arr, _ := v.([]any)
	return arr
}

func kvKey(rec map[string]any) (int, bool) {
	switch k := rec["key"].(type) {
	case int:
		return k, true
	case int32:
		return int(k), true
	case int64:
		return int(k), true
	}
	return 0, false
}

func countMap(v any) map[int]int64 {
	arr := kvArray(v)
	if arr == nil {
		return nil
	}
	out := make(map[int]int64, len(arr))
	for _, x := range arr {
		rec, _ := x.(map[string]any)
		k, ok := kvKey(rec)
		if !ok {
			return nil
		}
		switch n := rec["value"].(type) {
		case int64:
			out[k] = n
		case int32:
			out[k] = int64(n)
		case int:
			out[k] = int64(n)
		default:
			return nil
		}
	}
	return out
}

func boundMap(v any) map[int][]byte {
	arr := kvArray(v)
	if arr == nil {
		return nil
	}
	out := make(map[int][]byte, len(arr))
	for _, x := range arr {
		rec, _ := x.(map[string]any)
		k, ok := kvKey(rec)
		b, ok2 := rec["value"].([]byte)
		if !ok || !ok2 {
			return nil
		}
		out[k] = b
	}
	return out
}

// DecodeBound decodes a bound in the single-value binary serialization
// (spec, Appendix D) into the Go form of the read type t (schema.Field).
// A bound written under an older type of the field is converted where the
// promotion keeps order: an int (4 bytes) read as long, a float (4 bytes)
// read as double, a decimal of a smaller precision (same scale: the same
// unscaled bytes). It returns false for a bound it cannot use (another
// length, a type without bounds, a date read as timestamp).
func DecodeBound(t schema.PrimitiveType, b []byte) (any, bool) {
	le32 := func() (uint32, bool) {
		if len(b) != 4 {
			return 0, false
		}
		return binary.LittleEndian.Uint32(b), true
	}
	le64 := func() (uint64, bool) {
		if len(b) != 8 {
			return 0, false
		}
		return binary.LittleEndian.Uint64(b), true
	}
	switch t.K {
	case schema.KindBoolean:
		if len(b) == 1 {
			return b[0] != 0, true
		}
	case schema.KindInt, schema.KindDate:
		if v, ok := le32(); ok {
			return int32(v), true
		}
	case schema.KindLong:
		if v, ok := le32(); ok {
			return int64(int32(v)), true
		}
		if v, ok := le64(); ok {
			return int64(v), true
		}
	case schema.KindTime, schema.KindTimestamp, schema.KindTimestampTz, schema.KindTimestampNs, schema.KindTimestampTzNs:
		if v, ok := le64(); ok {
			return int64(v), true
		}
	case schema.KindFloat:
		if v, ok := le32(); ok {
			f := math.Float32frombits(v)
			return f, f == f
		}
	case schema.KindDouble:
		if v, ok := le32(); ok {
			f := math.Float32frombits(v)
			return float64(f), f == f
		}
		if v, ok := le64(); ok {
			f := math.Float64frombits(v)
			return f, f == f
		}
	case schema.KindString:
		return string(b), true
	case schema.KindBinary:
		return append([]byte(nil), b...), true
	case schema.KindFixed:
		if len(b) == t.Length {
			return append([]byte(nil), b...), true
		}
	case schema.KindUUID:
		if len(b) == 16 {
			var u [16]byte
			copy(u[:], b)
			return u, true
		}
	case schema.KindDecimal:
		if len(b) == 0 || len(b) > 16 {
			return nil, false
		}
		var full [16]byte
		if b[0]&0x80 != 0 {
			for i := range full {
				full[i] = 0xff
			}
		}
		copy(full[16-len(b):], b)
		return schema.DecimalValue{Hi: int64(binary.BigEndian.Uint64(full[:8])), Lo: binary.BigEndian.Uint64(full[8:])}, true
	}
	return nil, false
}

// MetricsStats returns the statistics of field id of read (a field outside
// lists and maps) from a data file's metrics, for [expr.Bound.MayMatch]. A
// field without any metric is unknown: the file may lack the column or
// the writer may have kept no metrics for it (metrics mode none), which
// the manifest does not tell apart.
func MetricsStats(m *Metrics, recordCount int64, f *schema.Field) (expr.Stats, bool) {
	if m == nil || f == nil {
		return expr.Stats{}, false
	}
	id := f.ID
	st := expr.Stats{Rows: -1, Nulls: -1, NaNs: -1}
	any := false
	if v, ok := m.ValueCounts[id]; ok {
		st.Rows, any = v, true
	}
	if v, ok := m.NullCounts[id]; ok {
		st.Nulls, any = v, true
	}
	if v, ok := m.NaNCounts[id]; ok {
		st.NaNs, any = v, true
	}
	if st.Rows < 0 && any && recordCount >= 0 {
		st.Rows = recordCount
	}
	if pt, ok := f.Type.(schema.PrimitiveType); ok {
		if b, ok := m.LowerBounds[id]; ok {
			if v, ok := DecodeBound(pt, b); ok {
				st.Lower, any = v, true
			}
		}
		if b, ok := m.UpperBounds[id]; ok {
			if v, ok := DecodeBound(pt, b); ok {
				st.Upper, any = v, true
			}
		}
	}
	return st, any
}
