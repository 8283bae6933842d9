package iceberg

import (
	"strings"
	"unicode/utf8"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/schema"
)

// PartitionMayMatch reports whether data file f may hold a row the filter
// (bound to read) selects, judged from f's partition values through the
// transforms of its partition spec: the inclusive projection of each
// predicate on a source column onto the partition field (spec, "Scan
// Planning" and "Partition Transforms"). identity, truncate[W] (integers
// and strings), year, month, day and hour are projected; bucket[N] rules
// out a partition for = and IN when no literal hashes to its bucket
// (Appendix B's hash of the literal in the read type, used only when no
// schema of the table gives the source column a type that hashes
// differently); void says nothing, nor does a predicate on a column no
// partition field has as its source. A null partition value means a null
// source value.
func (s *Scan) PartitionMayMatch(f *DataFile, filter *expr.Bound, read *schema.Schema) bool {
	if filter == nil {
		return true
	}
	var fields []PartitionField
	for i := range s.Metadata.PartitionSpecs {
		if s.Metadata.PartitionSpecs[i].SpecID == f.SpecID {
			fields = s.Metadata.PartitionSpecs[i].Fields
		}
	}
	if len(fields) == 0 {
		return true
	}
	return filter.MayMatchLeaves(func(id int, op expr.Op, vals []any) (bool, bool) {
		src := read.FindByID(id)
		if src == nil {
			return true, false
		}
		st, _ := src.Type.(schema.PrimitiveType)
		for _, pf := range fields {
			if pf.SourceID != id {
				continue
			}
			p, ok := f.Partition[pf.FieldID]
			if !ok {
				continue
			}
			if n, ok := bucketCount(pf.Transform); ok {
				if !s.stableHash(id, st) {
					continue
				}
				if m, known := bucketMayMatch(n, st, p, op, vals); known && !m {
					return false, true
				}
				continue
			}
			if m, known := projected(pf.Transform, st, p, op, vals); known && !m {
				return false, true
			}
		}
		return true, false
	})
}

// projected decides source op vals for a partition of value p under an
// order-preserving transform (inclusive projection: x < v implies
// T(x) <= T(v), x = v implies T(x) = T(v), and so on).
func projected(transform string, st schema.PrimitiveType, p any, op expr.Op, vals []any) (mayMatch, known bool) {
	tf := transformFunc(transform, st)
	if tf == nil {
		return true, false
	}
	if p == nil {
		// Every row of the partition has a null source value.
		switch op {
		case expr.IsNull, expr.NotEq, expr.NotIn, expr.NotStartsWith, expr.NotNaN:
			return true, true
		}
		return false, true
	}
	switch op {
	case expr.IsNull:
		return false, true
	case expr.Eq, expr.In:
		for _, v := range vals {
			if tv, ok := tf(v); ok {
				if c, ok := cmpPart(p, tv); !ok || c == 0 {
					return true, true
				}
			} else {
				return true, false
			}
		}
		return false, true
	case expr.Lt, expr.LtEq:
		if tv, ok := tf(vals[0]); ok {
			if c, ok := cmpPart(p, tv); ok {
				return c <= 0, true
			}
		}
	case expr.Gt, expr.GtEq:
		if tv, ok := tf(vals[0]); ok {
			if c, ok := cmpPart(p, tv); ok {
				return c >= 0, true
			}
		}
	case expr.StartsWith:
		pre, ok1 := vals[0].(string)
		ps, ok2 := p.(string)
		w, ok3 := truncateWidth(transform)
		if !ok1 || !ok2 || !ok3 || st.K != schema.KindString {
			return true, false
		}
		if utf8.RuneCountInString(pre) >= w {
			return ps == truncateString(pre, w), true
		}
		return strings.HasPrefix(ps, pre), true
	}
	return true, false
}

func truncateWidth(transform string) (int, bool) {
	if !strings.HasPrefix(transform, "truncate[") || !strings.HasSuffix(transform, "]") {
		return 0, false
	}
	w := 0
	for _, c := range transform[len("truncate[") : len(transform)-1] {
		if c < '0' || c > '9' || w > 1<<30 {
			return 0, false
		}
		w = w*10 + int(c-'0')
	}
	return w, w > 0
}

func truncateString(s string, w int) string {
	n := 0
	for i := range s {
		if n == w {
			return s[:i]
		}
		n++
	}
	return s
}

// transformFunc returns the transform of a source value of type st (Go
// form) into the partition value, or nil for a transform that is not
// order-preserving or not known here.
func transformFunc(transform string, st schema.PrimitiveType) func(v any) (any, bool) {
	if transform == "identity" {
		return func(v any) (any, bool) { return v, true }
	}
	if w, ok := truncateWidth(transform); ok {
		switch st.K {
		case schema.KindInt, schema.KindLong:
			return func(v any) (any, bool) {
				i, ok := asInt64(v)
				if !ok {
					return nil, false
				}
				m := i % int64(w)
				if m < 0 {
					m += int64(w)
				}
				return i - m, true
			}
		case schema.KindString:
			return func(v any) (any, bool) {
				s, ok := v.(string)
				return truncateString(s, w), ok
			}
		}
		return nil
	}
	var unit int64 // source units per day
	switch st.K {
	case schema.KindDate:
		unit = 0
	case schema.KindTimestamp, schema.KindTimestampTz:
		unit = 86_400_000_000
	case schema.KindTimestampNs, schema.KindTimestampTzNs:
		unit = 86_400_000_000_000
	default:
		return nil
	}
	floorDiv := func(a, b int64) int64 {
		q := a / b
		if a%b != 0 && (a < 0) != (b < 0) {
			q--
		}
		return q
	}
	days := func(v any) (int64, bool) {
		i, ok := asInt64(v)
		if !ok {
			return 0, false
		}
		if unit == 0 {
			return i, true
		}
		return floorDiv(i, unit), true
	}
	switch transform {
	case "day":
		return func(v any) (any, bool) { d, ok := days(v); return d, ok }
	case "hour":
		if unit == 0 {
			return nil
		}
		return func(v any) (any, bool) {
			i, ok := asInt64(v)
			return floorDiv(i, unit/24), ok
		}
	case "month", "year":
		return func(v any) (any, bool) {
			d, ok := days(v)
			if !ok {
				return nil, false
			}
			y, m := civil(d)
			if transform == "year" {
				return y - 1970, true
			}
			return (y-1970)*12 + m - 1, true
		}
	}
	return nil
}

// civil returns the year and month (1-12) of a day count since 1970-01-01
// (the proleptic Gregorian calendar).
func civil(days int64) (year, month int64) {
	z := days + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	m := mp + 3
	if mp >= 10 {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return y, m
}

func asInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	}
	return 0, false
}

// cmpPart compares a partition value with a transformed literal (integers
// of any width among themselves, strings).
func cmpPart(p, v any) (int, bool) {
	if a, ok := asInt64(p); ok {
		if b, ok := asInt64(v); ok {
			switch {
			case a < b:
				return -1, true
			case a > b:
				return 1, true
			}
			return 0, true
		}
		return 0, false
	}
	if a, ok := p.(string); ok {
		if b, ok := v.(string); ok {
			return strings.Compare(a, b), true
		}
	}
	return 0, false
}
