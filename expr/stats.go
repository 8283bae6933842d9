package expr

import (
	"bytes"
	"math"
	"strings"

	"github.com/lakecat/lakecat/schema"
)

// Stats is what is known of one field's values in a unit of a read (a
// file, a partition, a row group, a stripe), in the Go form of the bound
// read field's type ([schema.Field]). Unknown counts are -1 and unknown
// bounds nil; a unit with unknown statistics may match any filter.
type Stats struct {
	// Rows is the number of values (rows) in the unit.
	Rows int64
	// Nulls and NaNs count null and NaN values.
	Nulls, NaNs int64
	// Lower and Upper bound the non-null, non-NaN values, inclusively
	// (a Lower greater than Upper makes the whole Stats unknown). A
	// truncated string bound is still a bound (Iceberg truncates a lower
	// bound to a prefix and increments an upper one), so it is used as is;
	// a source whose bounds may not bound (Parquet's deprecated min/max on
	// strings) must not fill them.
	Lower, Upper any
	// Constant: every value of the unit is Lower (or null when Nulls ==
	// Rows): a column the file lacks, filled with null, its initial-default
	// or an identity-partition value.
	Constant bool
}

// ConstantStats returns the [Stats] of a unit of rows rows whose values are
// all v (nil: all null); rows < 0 means a number of rows not known (but
// at least one).
func ConstantStats(v any, rows int64) Stats {
	if rows < 0 {
		rows = 1
	}
	if v == nil {
		return Stats{Rows: rows, Nulls: rows, NaNs: 0, Constant: true}
	}
	s := Stats{Rows: rows, Nulls: 0, NaNs: 0, Lower: v, Upper: v, Constant: true}
	if isNaNValue(v) {
		s.NaNs, s.Lower, s.Upper = rows, nil, nil
	}
	return s
}

// UnknownStats is the [Stats] of a field nothing is known of.
var UnknownStats = Stats{Rows: -1, Nulls: -1, NaNs: -1}

// StatsFunc returns the statistics of a field, by field id, in one unit;
// false means nothing is known.
type StatsFunc func(fieldID int) (Stats, bool)

// MayMatch reports whether a unit described by stats may hold a row the
// expression selects: false only when no row can match (Iceberg spec,
// "Scan Planning"; the rules of Iceberg's InclusiveMetricsEvaluator). A
// field stats knows nothing of may match anything.
func (b *Bound) MayMatch(stats StatsFunc) bool { return mayMatch(b.root, stats) }

func mayMatch(n node, stats StatsFunc) bool {
	switch x := n.(type) {
	case constNode:
		return bool(x)
	case andNode:
		return mayMatch(x.l, stats) && mayMatch(x.r, stats)
	case orNode:
		return mayMatch(x.l, stats) || mayMatch(x.r, stats)
	case *leaf:
		s, ok := stats(x.field.ID)
		if !ok {
			return true
		}
		return leafMayMatch(x, s)
	}
	return true
}

func known(n int64) bool { return n >= 0 }

func leafMayMatch(l *leaf, s Stats) bool {
	if inverted(s) {
		return true
	}
	allNull := known(s.Nulls) && known(s.Rows) && s.Nulls == s.Rows
	noNull := known(s.Nulls) && s.Nulls == 0
	allNaN := known(s.NaNs) && known(s.Rows) && s.NaNs == s.Rows
	if known(s.Rows) && s.Rows == 0 {
		return false
	}
	switch l.op {
	case IsNull:
		return !noNull
	case NotNull:
		return !allNull
	case IsNaN:
		return !(allNull || (known(s.NaNs) && s.NaNs == 0))
	case NotNaN:
		return !allNaN
	}
	noValues := known(s.Nulls) && known(s.NaNs) && known(s.Rows) && s.Nulls+s.NaNs == s.Rows
	if allNull || allNaN || noValues {
		// Only the negated predicates hold on a null; NaN is unequal to
		// everything.
		switch l.op {
		case NotEq, NotIn, NotStartsWith:
			return true
		}
		return false
	}
	lo, hi := usable(s.Lower), usable(s.Upper)
	// below(b, v): the bound b is known and b op v holds, for the ops that
	// can rule a unit out.
	lt := func(b, v any) bool { c, ok := compare(b, v); return b != nil && ok && c < 0 }
	gt := func(b, v any) bool { c, ok := compare(b, v); return b != nil && ok && c > 0 }
	switch l.op {
	case Lt, LtEq, Gt, GtEq, Eq:
		v := l.vals[0]
		switch l.op {
		case Lt: // cannot match when lower >= v
			return !(gt(lo, v) || eqb(lo, v))
		case LtEq: // cannot match when lower > v
			return !gt(lo, v)
		case Gt: // cannot match when upper <= v
			return !(lt(hi, v) || eqb(hi, v))
		case GtEq: // cannot match when upper < v
			return !lt(hi, v)
		}
		return !gt(lo, v) && !lt(hi, v)
	case In:
		for _, v := range l.vals {
			if !gt(lo, v) && !lt(hi, v) {
				return true
			}
		}
		return false
	case NotEq, NotIn:
		// Only a constant unit without nulls equal to a literal cannot
		// match; bounds say nothing.
		if !s.Constant || !noNull || lo == nil {
			return true
		}
		for _, v := range l.vals {
			if eqb(lo, v) {
				return false
			}
		}
		return true
	case StartsWith:
		p, ok := l.vals[0].(string)
		if !ok {
			return true
		}
		if ls, ok := lo.(string); ok && strings.Compare(truncate(ls, len(p)), p) > 0 {
			return false
		}
		if hs, ok := hi.(string); ok && strings.Compare(truncate(hs, len(p)), p) < 0 {
			return false
		}
		return true
	case NotStartsWith:
		p, ok := l.vals[0].(string)
		if !ok || !s.Constant || !noNull {
			return true
		}
		ls, ok := lo.(string)
		return !ok || !strings.HasPrefix(ls, p)
	}
	return true
}

// inverted reports whether the bounds of s are inverted ([BoundsInverted]):
// such statistics bound nothing (a damaged or wrongly written file, a
// bound converted badly) and none of them, counts included, may rule a
// unit out. Every statistics source (Parquet row groups and page index,
// ORC stripes and row index, Iceberg metrics, Paimon stats) passes here.
func inverted(s Stats) bool { return BoundsInverted(s.Lower, s.Upper) }

// BoundsInverted reports whether lower and upper, Go-form values of one
// field's type (as in [Stats]), are both known and lower is greater than
// upper. Statistics with inverted bounds are unknown: [Bound.MayMatch]
// treats them so, and a source that compares bounds itself (Iceberg's
// manifest-list partition summaries) must ask here and rule nothing out
// with them, counts and null flags included. A NaN bound, or bounds of
// forms that do not compare, are not inverted.
func BoundsInverted(lower, upper any) bool {
	lo, hi := usable(lower), usable(upper)
	if lo == nil || hi == nil {
		return false
	}
	c, ok := compare(lo, hi)
	return ok && c > 0
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// usable returns a bound, or nil for none or a NaN (a writer that put NaN
// in a bound has bounds that order nothing).
func usable(v any) any {
	if v == nil || isNaNValue(v) {
		return nil
	}
	return v
}

func isNaNValue(v any) bool {
	switch x := v.(type) {
	case float32:
		return x != x
	case float64:
		return math.IsNaN(x)
	}
	return false
}

// eqb reports whether the bound b is known and equal to v.
func eqb(b, v any) bool {
	c, ok := compare(b, v)
	return b != nil && ok && c == 0
}

// compare orders two Go-form values of one type: integers of any width
// among themselves, floats among themselves and with integers, decimals
// (same scale), strings, bytes, UUIDs and booleans. ok is false for values
// of unrelated forms, which no check may use to skip.
func compare(a, b any) (c int, ok bool) {
	if ai, ok := asInt(a); ok {
		if bi, ok := asInt(b); ok {
			return cmp3(ai, bi), true
		}
	}
	if af, ok := asFloat(a); ok {
		if bf, ok := asFloat(b); ok {
			return cmp3(af, bf), true
		}
	}
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y), true
		}
	case []byte:
		if y, ok := b.([]byte); ok {
			return bytes.Compare(x, y), true
		}
	case [16]byte:
		if y, ok := b.([16]byte); ok {
			return bytes.Compare(x[:], y[:]), true
		}
	case schema.DecimalValue:
		if y, ok := b.(schema.DecimalValue); ok {
			if x.Hi != y.Hi {
				return cmp3(x.Hi, y.Hi), true
			}
			return cmp3(x.Lo, y.Lo), true
		}
	case bool:
		if y, ok := b.(bool); ok {
			return cmpBool(x, y), true
		}
	}
	return 0, false
}

func cmp3[T int64 | uint64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func asInt(v any) (int64, bool) {
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

func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float32:
		return float64(x), true
	case float64:
		return x, true
	}
	if i, ok := asInt(v); ok {
		return float64(i), true
	}
	return 0, false
}

// PromoteBound converts a statistics value v stored under the file's type
// from to the read type to, for the promotions whose order is preserved:
// an integer to a wider integer, float to double, a decimal to a wider
// precision of the same scale (the unscaled value is unchanged), and any
// type to itself (char and varchar to string). It returns false when the
// value cannot be used under the read type — any other change (Paimon's
// casts between unrelated types, a scale change, a timestamp unit change) —
// and the caller must then treat the bound as unknown.
func PromoteBound(v any, from, to schema.PrimitiveType) (any, bool) {
	if v == nil {
		return nil, false
	}
	if from.K == to.K && (from.K != schema.KindDecimal || from.Scale == to.Scale) {
		return v, true
	}
	if isString(from.K) && isString(to.K) {
		return v, true
	}
	switch to.K {
	case schema.KindSmallInt, schema.KindInt, schema.KindLong:
		i, ok := asInt(v)
		if !ok {
			return nil, false
		}
		switch to.K {
		case schema.KindSmallInt:
			if from.K != schema.KindTinyInt {
				return nil, false
			}
			return int16(i), true
		case schema.KindInt:
			if from.K != schema.KindTinyInt && from.K != schema.KindSmallInt {
				return nil, false
			}
			return int32(i), true
		}
		return i, true
	case schema.KindDouble:
		if f, ok := v.(float32); ok && from.K == schema.KindFloat {
			return float64(f), true
		}
	case schema.KindDecimal:
		if d, ok := v.(schema.DecimalValue); ok && from.K == schema.KindDecimal && from.Scale == to.Scale {
			return d, true
		}
	}
	return nil, false
}

// LeafFunc decides one predicate for a unit of a read, from something
// other than per-field statistics (Iceberg partition values through their
// transforms): it returns known false when it cannot tell, and mayMatch
// false only when no row of the unit can satisfy field op values (values
// in the Go form of the bound field's type, empty for the unary
// operators).
type LeafFunc func(fieldID int, op Op, values []any) (mayMatch, known bool)

// MayMatchLeaves is [Bound.MayMatch] with each predicate decided by f.
func (b *Bound) MayMatchLeaves(f LeafFunc) bool { return mayMatchLeaves(b.root, f) }

func mayMatchLeaves(n node, f LeafFunc) bool {
	switch x := n.(type) {
	case constNode:
		return bool(x)
	case andNode:
		return mayMatchLeaves(x.l, f) && mayMatchLeaves(x.r, f)
	case orNode:
		return mayMatchLeaves(x.l, f) || mayMatchLeaves(x.r, f)
	case *leaf:
		m, ok := f(x.field.ID, x.op, x.vals)
		return !ok || m
	}
	return true
}

// MayMatchBoth is [Bound.MayMatch] where a predicate may hold only when
// its statistics and f ([Bound.MayMatchLeaves]) both allow it, so that in
// a OR b, a ruled out by the statistics and b by f rules the unit out. f
// is asked only about the predicates the statistics let through (a bloom
// filter is read only when it can decide something).
func (b *Bound) MayMatchBoth(stats StatsFunc, f LeafFunc) bool { return mayMatchBoth(b.root, stats, f) }

func mayMatchBoth(n node, stats StatsFunc, f LeafFunc) bool {
	switch x := n.(type) {
	case constNode:
		return bool(x)
	case andNode:
		return mayMatchBoth(x.l, stats, f) && mayMatchBoth(x.r, stats, f)
	case orNode:
		return mayMatchBoth(x.l, stats, f) || mayMatchBoth(x.r, stats, f)
	case *leaf:
		if s, ok := stats(x.field.ID); ok && !leafMayMatch(x, s) {
			return false
		}
		m, ok := f(x.field.ID, x.op, x.vals)
		return !ok || m
	}
	return true
}
