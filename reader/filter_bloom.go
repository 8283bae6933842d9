package reader

import (
	"context"
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/formats/parquet"
	"github.com/lakecat/lakecat/schema"
)

// hasEqualities reports whether the filter has an = or IN predicate, the
// only ones a bloom filter can decide.
func hasEqualities(f *expr.Bound) bool {
	found := false
	f.MayMatchLeaves(func(_ int, op expr.Op, _ []any) (bool, bool) {
		if op == expr.Eq || op == expr.In {
			found = true
		}
		return true, false
	})
	return found
}

// bloomMayMatch evaluates the filter on row group i's statistics and bloom
// filters together (Parquet format, BloomFilter.md), after the statistics
// alone let the group through: a predicate holds only where both allow it,
// and an = or IN predicate whose every literal the column's bloom filter
// rules out cannot hold in the group. Each literal is first put in
// the file's type ([bloomLiteral]): the file's own column, matched by field
// id (or by name through the resolved schema), promotion undone. A column
// the file lacks is decided by its constant (the statistics did that); a
// column without a filter, or a literal without one plain form in the
// file, may match. A filter is read only when a predicate asks for it, at
// most once per column and group; a corrupt one is an error, never a skip.
func (g *rowGroupFilter) bloomMayMatch(i int) (bool, error) {
	if !g.equalities {
		return true, nil
	}
	var filters map[*schema.Field]*parquet.BloomFilter
	var err error
	ok := g.filter.MayMatchBoth(g.statsOf(i), func(id int, op expr.Op, vals []any) (bool, bool) {
		if err != nil || (op != expr.Eq && op != expr.In) || g.resolvedByID[id] == nil {
			return true, false
		}
		rf, ff := g.readByID[id], g.fields[id]
		if rf == nil || ff == nil {
			return true, false
		}
		rt, ok1 := rf.Type.(schema.PrimitiveType)
		ft, ok2 := ff.Type.(schema.PrimitiveType)
		if !ok1 || !ok2 {
			return true, false
		}
		bf, seen := filters[ff]
		if !seen {
			bf, err = g.file.BloomFilterOf(i, ff)
			if err != nil {
				return true, false
			}
			if filters == nil {
				filters = map[*schema.Field]*parquet.BloomFilter{}
			}
			filters[ff] = bf
		}
		if bf == nil {
			return true, false
		}
		for _, v := range vals {
			fv, st := bloomLiteral(v, rt, ft)
			switch st {
			case literalUnknown:
				return true, true
			case literalInFile:
				if bf.MayContain(fv) {
					return true, true
				}
			}
		}
		return false, true
	})
	if err != nil {
		return true, err
	}
	return ok, nil
}

// literalState says what a literal of the read type is in a file's type.
type literalState uint8

const (
	literalInFile  literalState = iota // the value below, in the file's type
	literalAbsent                      // no value of the file's type promotes to it
	literalUnknown                     // no one value: may match
)

// bloomLiteral converts v, a literal in the Go form of the read type read,
// to the file's type file: the value that promotes to v. The promotions
// are those [expr.PromoteBound] trusts (Iceberg spec, "Schema Evolution":
// int to long, float to double, decimal precision widening; Paimon's
// integer widenings): a long literal outside the int range of an int
// column, or a double without an exact float form, is absent from the
// file. Any other change of type is unknown, as is a NaN.
func bloomLiteral(v any, read, file schema.PrimitiveType) (any, literalState) {
	if v == nil {
		return nil, literalUnknown
	}
	if read.K == file.K && (read.K != schema.KindDecimal || read.Scale == file.Scale) {
		return v, literalInFile
	}
	if isStringKind(read.K) && isStringKind(file.K) {
		return v, literalInFile
	}
	switch read.K {
	case schema.KindSmallInt, schema.KindInt, schema.KindLong:
		var x int64
		switch n := v.(type) {
		case int16:
			x = int64(n)
		case int32:
			x = int64(n)
		case int64:
			x = n
		default:
			return nil, literalUnknown
		}
		switch file.K {
		case schema.KindTinyInt:
			if x < math.MinInt8 || x > math.MaxInt8 {
				return nil, literalAbsent
			}
			return int8(x), literalInFile
		case schema.KindSmallInt:
			if x < math.MinInt16 || x > math.MaxInt16 {
				return nil, literalAbsent
			}
			return int16(x), literalInFile
		case schema.KindInt:
			if x < math.MinInt32 || x > math.MaxInt32 {
				return nil, literalAbsent
			}
			return int32(x), literalInFile
		}
	case schema.KindDouble:
		d, ok := v.(float64)
		if !ok || file.K != schema.KindFloat || d != d {
			return nil, literalUnknown
		}
		f := float32(d)
		if float64(f) != d {
			return nil, literalAbsent
		}
		return f, literalInFile
	}
	return nil, literalUnknown
}

func isStringKind(k schema.Kind) bool {
	return k == schema.KindString || k == schema.KindChar || k == schema.KindVarchar
}

// errSource is a batch source whose first Next fails with err: a file whose
// row groups could not be chosen (a corrupt bloom filter).
type errSource struct{ err error }

func (s errSource) Next(context.Context) (arrow.RecordBatch, error) { return nil, s.err }
func (errSource) Close() error                                      { return nil }
