package merge

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// computed reports whether function f builds new values (rather than
// choosing one record's value).
func computed(f string) bool {
	switch f {
	case "sum", "product", "count", "bool_and", "bool_or", "listagg":
		return true
	}
	return false
}

func isInteger(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		return true
	}
	return false
}

func isFloat(t arrow.DataType) bool { return t.ID() == arrow.FLOAT32 || t.ID() == arrow.FLOAT64 }

// checkAggregateType reports whether f applies to a column of type t
// (Paimon docs, "Aggregation": sum and product on numbers, count on
// integers, bool_and and bool_or on booleans, listagg on strings, min and
// max on ordered types, the value functions on any type).
func checkAggregateType(f string, t arrow.DataType) error {
	switch f {
	case "sum", "product":
		if !isInteger(t) && !isFloat(t) {
			return fmt.Errorf("needs a numeric column, not %s", t)
		}
	case "count":
		if t.ID() != arrow.INT32 && t.ID() != arrow.INT64 {
			return fmt.Errorf("needs an int or bigint column, not %s", t)
		}
	case "bool_and", "bool_or":
		if t.ID() != arrow.BOOL {
			return fmt.Errorf("needs a boolean column, not %s", t)
		}
	case "listagg":
		if t.ID() != arrow.STRING && t.ID() != arrow.LARGE_STRING {
			return fmt.Errorf("needs a string column, not %s", t)
		}
	case "min", "max":
		if _, err := comparator(t); err != nil {
			return err
		}
	}
	return nil
}

// accumulator folds the values of one computed column over a key group.
type accumulator struct {
	agg   Aggregate
	valid bool
	i     int64
	f     float64
	b     bool
	s     strings.Builder
}

func (a *accumulator) reset() {
	a.valid, a.i, a.f, a.b = false, 0, 0, false
	a.s.Reset()
}

func intValue(x arrow.Array, i int) int64 {
	switch v := x.(type) {
	case *array.Int8:
		return int64(v.Value(i))
	case *array.Int16:
		return int64(v.Value(i))
	case *array.Int32:
		return int64(v.Value(i))
	case *array.Int64:
		return v.Value(i)
	}
	return 0
}

func floatValue(x arrow.Array, i int) float64 {
	switch v := x.(type) {
	case *array.Float32:
		return float64(v.Value(i))
	case *array.Float64:
		return v.Value(i)
	}
	return 0
}

func stringValue(x arrow.Array, i int) string {
	switch v := x.(type) {
	case *array.String:
		return v.Value(i)
	case *array.LargeString:
		return v.Value(i)
	}
	return ""
}

// add folds row i of x in; retract subtracts it (sum, count) and reports
// false for a function that cannot retract.
func (a *accumulator) add(x arrow.Array, i int, retract bool) bool {
	null := x.IsNull(i)
	switch a.agg.Function {
	case "count":
		if null {
			if !a.valid {
				a.valid = true
			}
			return true
		}
		a.valid = true
		if retract {
			a.i--
		} else {
			a.i++
		}
		return true
	}
	if retract && a.agg.Function != "sum" {
		return false
	}
	if null {
		return true
	}
	switch a.agg.Function {
	case "sum":
		if isFloat(x.DataType()) {
			v := floatValue(x, i)
			if retract {
				v = -v
			}
			a.f += v
		} else {
			v := intValue(x, i)
			if retract {
				v = -v
			}
			a.i += v
		}
	case "product":
		if isFloat(x.DataType()) {
			if !a.valid {
				a.f = 1
			}
			a.f *= floatValue(x, i)
		} else {
			if !a.valid {
				a.i = 1
			}
			a.i *= intValue(x, i)
		}
	case "bool_and":
		v := x.(*array.Boolean).Value(i)
		a.b = v && (a.b || !a.valid)
	case "bool_or":
		a.b = a.b || x.(*array.Boolean).Value(i)
	case "listagg":
		if a.valid {
			d := a.agg.Delimiter
			if d == "" {
				d = ","
			}
			a.s.WriteString(d)
		}
		a.s.WriteString(stringValue(x, i))
	}
	a.valid = true
	return true
}

// appendTo appends the folded value (null when no value was folded) to b,
// a builder of the column's type.
func (a *accumulator) appendTo(b array.Builder) {
	if !a.valid {
		b.AppendNull()
		return
	}
	switch bb := b.(type) {
	case *array.Int8Builder:
		bb.Append(int8(a.i))
	case *array.Int16Builder:
		bb.Append(int16(a.i))
	case *array.Int32Builder:
		bb.Append(int32(a.i))
	case *array.Int64Builder:
		bb.Append(a.i)
	case *array.Float32Builder:
		bb.Append(float32(a.f))
	case *array.Float64Builder:
		bb.Append(a.f)
	case *array.BooleanBuilder:
		bb.Append(a.b)
	case *array.StringBuilder:
		bb.Append(a.s.String())
	case *array.LargeStringBuilder:
		bb.Append(a.s.String())
	default:
		b.AppendNull()
	}
}
