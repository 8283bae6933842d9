package iceberg

import (
	"math"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/schema"
)

// ManifestMayMatch reports whether the manifest mf may list a data file
// holding a row the filter (bound to read) selects, judged from the
// manifest list's partition field summaries (Iceberg spec, "Manifest
// Lists" field_summary; "Scan Planning"): each predicate on the source of
// a partition field is projected through the transform, as
// [Scan.PartitionMayMatch] does for one file, and compared with the
// field's lower and upper bounds (decoded in the field's result type from
// the read schema, an older int bound read as long, or not used) and its
// contains_null flag. A manifest without summaries, of an unknown spec or
// of a delete content may match; a summary with lower > upper says
// nothing ([expr.BoundsInverted]).
func (s *Scan) ManifestMayMatch(mf ManifestFile, filter *expr.Bound, read *schema.Schema) bool {
	if filter == nil || mf.Content != 0 || mf.SpecID < 0 {
		return true
	}
	var fields []PartitionField
	found := false
	for i := range s.Metadata.PartitionSpecs {
		if s.Metadata.PartitionSpecs[i].SpecID == mf.SpecID {
			fields, found = s.Metadata.PartitionSpecs[i].Fields, true
		}
	}
	if !found || len(fields) == 0 || len(mf.Partitions) != len(fields) {
		return true
	}
	return filter.MayMatchLeaves(func(id int, op expr.Op, vals []any) (bool, bool) {
		src := read.FindByID(id)
		if src == nil {
			return true, false
		}
		st, ok := src.Type.(schema.PrimitiveType)
		if !ok {
			return true, false
		}
		for k, pf := range fields {
			if pf.SourceID != id {
				continue
			}
			if m, known := s.summaryMayMatch(pf, mf.Partitions[k], id, st, op, vals); known && !m {
				return false, true
			}
		}
		return true, false
	})
}

// summaryMayMatch decides source op vals for the files a field summary
// covers, for partition field pf over the source field id of read type st.
//
// A summary whose lower bound is greater than its upper one (compared in
// the field's result type by [expr.BoundsInverted], the rule every other
// statistics source follows) bounds nothing: it is unknown, its
// contains_null flag included.
func (s *Scan) summaryMayMatch(pf PartitionField, sum FieldSummary, id int, st schema.PrimitiveType, op expr.Op, vals []any) (mayMatch, known bool) {
	rt, okType := summaryType(pf.Transform, st)
	var lo, hi any
	okLo, okHi := false, false
	if okType {
		lo, okLo = DecodeBound(rt, sum.Lower)
		hi, okHi = DecodeBound(rt, sum.Upper)
		if okLo && okHi && expr.BoundsInverted(lo, hi) {
			return true, false
		}
	}
	if op == expr.IsNull {
		// A null source value gives a null partition value (every
		// transform but void, whose values are all null).
		if pf.Transform == "void" {
			return true, false
		}
		return sum.ContainsNull, true
	}
	var tf func(any) (any, bool)
	if n, ok := bucketCount(pf.Transform); ok {
		if op != expr.Eq && op != expr.In || !s.stableHash(id, st) {
			return true, false
		}
		tf = func(v any) (any, bool) { return bucketOf(st, v, n) }
	} else {
		switch op {
		case expr.Eq, expr.In, expr.Lt, expr.LtEq, expr.Gt, expr.GtEq:
		default:
			return true, false
		}
		if tf = transformFunc(pf.Transform, st); tf == nil || !okType {
			return true, false
		}
	}
	if sum.Lower == nil && sum.Upper == nil {
		// Null values and no bounds: only nulls, which no comparison
		// selects (as Iceberg Java reads it). Without nulls the bounds
		// were not written: say nothing.
		return !sum.ContainsNull, sum.ContainsNull
	}
	// inRange reports whether the transformed literal tv may lie in
	// [lo, hi]; known false when a comparison is not possible.
	geLo := func(tv any) (bool, bool) {
		if !okLo {
			return true, false
		}
		c, ok := cmpPart(lo, tv)
		return c <= 0, ok
	}
	leHi := func(tv any) (bool, bool) {
		if !okHi {
			return true, false
		}
		c, ok := cmpPart(hi, tv)
		return c >= 0, ok
	}
	switch op {
	case expr.Eq, expr.In:
		for _, v := range vals {
			tv, ok := tf(v)
			if !ok {
				return true, false
			}
			a, ka := geLo(tv)
			b, kb := leHi(tv)
			if (!ka || a) && (!kb || b) {
				return true, ka && kb
			}
		}
		return false, true
	case expr.Lt, expr.LtEq:
		// Inclusive projection: x <= v implies T(x) <= T(v); for an
		// integral source x < v is x <= v-1.
		v := vals[0]
		if op == expr.Lt {
			v = step(v, -1)
		}
		if tv, ok := tf(v); ok {
			return geLo(tv)
		}
	case expr.Gt, expr.GtEq:
		v := vals[0]
		if op == expr.Gt {
			v = step(v, 1)
		}
		if tv, ok := tf(v); ok {
			return leHi(tv)
		}
	}
	return true, false
}

// summaryType returns the result type of the partition transform over a
// source of type st (Iceberg spec, "Partition Transforms"), the type its
// field summary bounds are in; false for void and transforms not known.
func summaryType(transform string, st schema.PrimitiveType) (schema.PrimitiveType, bool) {
	if _, ok := bucketCount(transform); ok {
		return schema.Int, true
	}
	if _, ok := truncateWidth(transform); ok {
		return st, true
	}
	switch transform {
	case "identity":
		return st, true
	case "year", "month", "hour":
		return schema.Int, true
	case "day":
		return schema.Date, true
	}
	return schema.PrimitiveType{}, false
}

// step returns the integral value v (int32 or int64: ints, dates, times,
// timestamps) moved by d (1 or -1), or v itself when that would overflow
// or v is not integral: x < v is then judged as x <= v, which may match
// more but never less.
func step(v any, d int64) any {
	switch x := v.(type) {
	case int32:
		if (d < 0 && x == math.MinInt32) || (d > 0 && x == math.MaxInt32) {
			return v
		}
		return x + int32(d)
	case int64:
		if (d < 0 && x == math.MinInt64) || (d > 0 && x == math.MaxInt64) {
			return v
		}
		return x + d
	}
	return v
}

// pruneManifests returns the manifests that may match filter (all without
// one, or when it does not bind to the read schema) and records the rest
// in s.SkippedManifests.
func (s *Scan) pruneManifests(manifests []ManifestFile, filter expr.Expr) []ManifestFile {
	if filter == nil {
		return manifests
	}
	b, err := expr.Bind(filter, s.ReadSchema)
	if err != nil {
		return manifests
	}
	kept := manifests[:0:0]
	for _, mf := range manifests {
		if s.ManifestMayMatch(mf, b, s.ReadSchema) {
			kept = append(kept, mf)
		} else {
			s.SkippedManifests = append(s.SkippedManifests, mf)
		}
	}
	return kept
}
