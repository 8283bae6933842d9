package expr

import (
	"bytes"
	"cmp"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/lakecat/lakecat/schema"
)

// typedLits holds a predicate's literals in the form its column's Arrow
// values are compared in.
type typedLits struct {
	ints   []int64
	floats []float64
	strs   []string // strings, binary and fixed bytes
	decs   []decimal128.Num
	bools  []bool
}

func typeLits(t schema.PrimitiveType, vals []any) typedLits {
	var tl typedLits
	for _, v := range vals {
		switch x := v.(type) {
		case int8:
			tl.ints = append(tl.ints, int64(x))
		case int16:
			tl.ints = append(tl.ints, int64(x))
		case int32:
			tl.ints = append(tl.ints, int64(x))
		case int64:
			tl.ints = append(tl.ints, x)
		case float32:
			tl.floats = append(tl.floats, float64(x))
		case float64:
			tl.floats = append(tl.floats, x)
		case string:
			tl.strs = append(tl.strs, x)
		case []byte:
			tl.strs = append(tl.strs, string(x))
		case [16]byte:
			tl.strs = append(tl.strs, string(x[:]))
		case schema.DecimalValue:
			tl.decs = append(tl.decs, decimal128.New(x.Hi, x.Lo))
		case bool:
			tl.bools = append(tl.bools, x)
		}
	}
	return tl
}

// Select evaluates the expression on every row of rec, a batch in the
// Arrow form of the bound read schema ([schema.ToArrowSchema]), and returns
// the selection as a bitmap (bit i set: row i matches; LSB bit order, as
// Arrow validity bitmaps) and the number of rows selected. The result is
// exact.
//
// An error means rec does not have the bound schema's layout (a column
// missing or of another Arrow type).
func (b *Bound) Select(rec arrow.RecordBatch) ([]byte, int, error) {
	n := int(rec.NumRows())
	sel, err := b.eval(b.root, rec, n)
	if err != nil {
		return nil, 0, err
	}
	return sel, bitutil.CountSetBits(sel, 0, n), nil
}

func (b *Bound) eval(nd node, rec arrow.RecordBatch, n int) ([]byte, error) {
	switch x := nd.(type) {
	case constNode:
		out := make([]byte, bitutil.BytesForBits(int64(n)))
		if x {
			bitutil.SetBitsTo(out, 0, int64(n), true)
		}
		return out, nil
	case andNode, orNode:
		var l, r node
		isAnd := false
		if a, ok := x.(andNode); ok {
			l, r, isAnd = a.l, a.r, true
		} else {
			o := x.(orNode)
			l, r = o.l, o.r
		}
		lb, err := b.eval(l, rec, n)
		if err != nil {
			return nil, err
		}
		rb, err := b.eval(r, rec, n)
		if err != nil {
			return nil, err
		}
		for i := range lb {
			if isAnd {
				lb[i] &= rb[i]
			} else {
				lb[i] |= rb[i]
			}
		}
		return lb, nil
	case *leaf:
		return evalLeaf(x, rec, n)
	}
	return nil, fmt.Errorf("expr: unknown node %T", nd)
}

// column returns the arrays from the top-level column down to the leaf's
// field.
func column(l *leaf, rec arrow.RecordBatch) ([]arrow.Array, error) {
	if l.path[0] >= int(rec.NumCols()) {
		return nil, fmt.Errorf("expr: batch has no column %d for field %d (%s)", l.path[0], l.field.ID, l.column)
	}
	chain := []arrow.Array{rec.Column(l.path[0])}
	for _, i := range l.path[1:] {
		st, ok := chain[len(chain)-1].(*array.Struct)
		if !ok || i >= st.NumField() {
			return nil, fmt.Errorf("expr: batch column for field %d (%s) is not the bound struct", l.field.ID, l.column)
		}
		chain = append(chain, st.Field(i))
	}
	return chain, nil
}

// nullResult is a predicate's value on a null: true for IS NULL and the
// negated predicates (Iceberg's Evaluator: != is NOT =, so it holds for a
// null), false for the others.
func nullResult(op Op) bool {
	switch op {
	case IsNull, NotEq, NotIn, NotStartsWith, NotNaN:
		return true
	}
	return false
}

func evalLeaf(l *leaf, rec arrow.RecordBatch, n int) ([]byte, error) {
	chain, err := column(l, rec)
	if err != nil {
		return nil, err
	}
	out := make([]byte, bitutil.BytesForBits(int64(n)))
	arr := chain[len(chain)-1]
	if arr.Len() != n {
		return nil, fmt.Errorf("expr: column for field %d has %d rows, batch %d", l.field.ID, arr.Len(), n)
	}
	switch l.op {
	case IsNull, NotNull:
		// Values only matter through validity, fixed below.
		bitutil.SetBitsTo(out, 0, int64(n), l.op == NotNull)
	default:
		if err := evalValues(l, arr, out); err != nil {
			return nil, err
		}
	}
	nr := nullResult(l.op)
	for _, a := range chain {
		if a.NullN() == 0 {
			continue
		}
		for i := 0; i < n; i++ {
			if a.IsNull(i) {
				bitutil.SetBitTo(out, i, nr)
			}
		}
	}
	return out, nil
}

func evalValues(l *leaf, arr arrow.Array, out []byte) error {
	tl := &l.typed
	switch a := arr.(type) {
	case *array.Int8:
		evalOrdered(a.Int8Values(), l.op, convertLits[int8](tl.ints), out)
	case *array.Int16:
		evalOrdered(a.Int16Values(), l.op, convertLits[int16](tl.ints), out)
	case *array.Int32:
		evalOrdered(a.Int32Values(), l.op, convertLits[int32](tl.ints), out)
	case *array.Int64:
		evalOrdered(a.Int64Values(), l.op, tl.ints, out)
	case *array.Date32:
		evalOrdered(a.Date32Values(), l.op, convertLits[arrow.Date32](tl.ints), out)
	case *array.Time64:
		evalOrdered(a.Time64Values(), l.op, convertLits[arrow.Time64](tl.ints), out)
	case *array.Timestamp:
		evalOrdered(a.TimestampValues(), l.op, convertLits[arrow.Timestamp](tl.ints), out)
	case *array.Float32:
		if l.op == IsNaN || l.op == NotNaN {
			evalNaN(a.Float32Values(), l.op == IsNaN, out)
			return nil
		}
		fs := make([]float32, len(tl.floats))
		for i, f := range tl.floats {
			fs[i] = float32(f)
		}
		evalOrdered(a.Float32Values(), l.op, fs, out)
	case *array.Float64:
		if l.op == IsNaN || l.op == NotNaN {
			evalNaN(a.Float64Values(), l.op == IsNaN, out)
			return nil
		}
		evalOrdered(a.Float64Values(), l.op, tl.floats, out)
	case *array.String:
		evalFunc(a.Len(), a.Value, l.op, tl.strs, strings.Compare, strings.HasPrefix, out)
	case *array.LargeString:
		evalFunc(a.Len(), a.Value, l.op, tl.strs, strings.Compare, strings.HasPrefix, out)
	case *array.Binary:
		lits := bytesLits(tl.strs)
		evalFunc(a.Len(), a.Value, l.op, lits, bytes.Compare, bytes.HasPrefix, out)
	case *array.FixedSizeBinary:
		lits := bytesLits(tl.strs)
		evalFunc(a.Len(), a.Value, l.op, lits, bytes.Compare, bytes.HasPrefix, out)
	case *array.Decimal128:
		evalFunc(a.Len(), a.Value, l.op, tl.decs, decimal128.Num.Cmp, nil, out)
	case *array.Boolean:
		evalFunc(a.Len(), a.Value, l.op, tl.bools, cmpBool, nil, out)
	default:
		return fmt.Errorf("expr: %s on field %d (%s): Arrow type %s not supported", l.op, l.field.ID, l.column, arr.DataType())
	}
	return nil
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

func bytesLits(s []string) [][]byte {
	out := make([][]byte, len(s))
	for i, x := range s {
		out[i] = []byte(x)
	}
	return out
}

func convertLits[T ~int8 | ~int16 | ~int32 | ~int64](ints []int64) []T {
	out := make([]T, len(ints))
	for i, v := range ints {
		out[i] = T(v)
	}
	return out
}

// setIf sets the bits of out where pred holds, eight rows per output byte.
func setIf(n int, out []byte, pred func(i int) bool) {
	for base := 0; base < n; base += 8 {
		var b byte
		end := min(base+8, n)
		for i := base; i < end; i++ {
			if pred(i) {
				b |= 1 << uint(i-base)
			}
		}
		out[base>>3] = b
	}
}

// evalOrdered compares fixed-width values with the literals; Go's
// comparisons give IEEE 754 semantics on floats (NaN is unordered and
// unequal).
func evalOrdered[T cmp.Ordered](vals []T, op Op, lits []T, out []byte) {
	n := len(vals)
	if len(lits) == 0 {
		return
	}
	v0 := lits[0]
	switch op {
	case Eq:
		setIf(n, out, func(i int) bool { return vals[i] == v0 })
	case NotEq:
		setIf(n, out, func(i int) bool { return !(vals[i] == v0) })
	case Lt:
		setIf(n, out, func(i int) bool { return vals[i] < v0 })
	case LtEq:
		setIf(n, out, func(i int) bool { return vals[i] <= v0 })
	case Gt:
		setIf(n, out, func(i int) bool { return vals[i] > v0 })
	case GtEq:
		setIf(n, out, func(i int) bool { return vals[i] >= v0 })
	case In, NotIn:
		want := op == In
		if len(lits) <= 8 {
			setIf(n, out, func(i int) bool {
				for _, l := range lits {
					if vals[i] == l {
						return want
					}
				}
				return !want
			})
			return
		}
		set := make(map[T]struct{}, len(lits))
		for _, l := range lits {
			set[l] = struct{}{}
		}
		setIf(n, out, func(i int) bool { _, ok := set[vals[i]]; return ok == want })
	}
}

func evalNaN[T float32 | float64](vals []T, want bool, out []byte) {
	setIf(len(vals), out, func(i int) bool { return (vals[i] != vals[i]) == want })
}

// evalFunc compares values read through get with the literals using cmpf;
// prefix (nil for types without STARTS WITH) tests a prefix.
func evalFunc[T any](n int, get func(int) T, op Op, lits []T, cmpf func(a, b T) int, prefix func(s, p T) bool, out []byte) {
	if len(lits) == 0 {
		return
	}
	v0 := lits[0]
	switch op {
	case Eq:
		setIf(n, out, func(i int) bool { return cmpf(get(i), v0) == 0 })
	case NotEq:
		setIf(n, out, func(i int) bool { return cmpf(get(i), v0) != 0 })
	case Lt:
		setIf(n, out, func(i int) bool { return cmpf(get(i), v0) < 0 })
	case LtEq:
		setIf(n, out, func(i int) bool { return cmpf(get(i), v0) <= 0 })
	case Gt:
		setIf(n, out, func(i int) bool { return cmpf(get(i), v0) > 0 })
	case GtEq:
		setIf(n, out, func(i int) bool { return cmpf(get(i), v0) >= 0 })
	case In, NotIn:
		want := op == In
		setIf(n, out, func(i int) bool {
			v := get(i)
			for _, l := range lits {
				if cmpf(v, l) == 0 {
					return want
				}
			}
			return !want
		})
	case StartsWith, NotStartsWith:
		if prefix != nil {
			want := op == StartsWith
			setIf(n, out, func(i int) bool { return prefix(get(i), v0) == want })
		}
	}
}
