package merge

import (
	"bytes"
	"cmp"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// compareFunc compares row i of a with row j of b, two arrays of one type:
// negative, zero or positive. Nulls sort first.
type compareFunc func(a arrow.Array, i int, b arrow.Array, j int) int

func nullsFirst(a arrow.Array, i int, b arrow.Array, j int) (int, bool) {
	an, bn := a.IsNull(i), b.IsNull(j)
	switch {
	case an && bn:
		return 0, true
	case an:
		return -1, true
	case bn:
		return 1, true
	}
	return 0, false
}

func ordered[A interface {
	arrow.Array
	Value(int) T
}, T cmp.Ordered]() compareFunc {
	return func(a arrow.Array, i int, b arrow.Array, j int) int {
		if c, ok := nullsFirst(a, i, b, j); ok {
			return c
		}
		return cmp.Compare(a.(A).Value(i), b.(A).Value(j))
	}
}

// comparator returns the comparison of values of type t: numbers, dates,
// times and timestamps by value, strings and binaries bytewise (Paimon
// compares keys in their serialized order: BinaryString bytewise),
// booleans false first and decimals by value. Other types (nested, float16)
// are not key types and return an error.
func comparator(t arrow.DataType) (compareFunc, error) {
	switch t.ID() {
	case arrow.INT8:
		return ordered[*array.Int8, int8](), nil
	case arrow.INT16:
		return ordered[*array.Int16, int16](), nil
	case arrow.INT32:
		return ordered[*array.Int32, int32](), nil
	case arrow.INT64:
		return ordered[*array.Int64, int64](), nil
	case arrow.UINT8:
		return ordered[*array.Uint8, uint8](), nil
	case arrow.UINT16:
		return ordered[*array.Uint16, uint16](), nil
	case arrow.UINT32:
		return ordered[*array.Uint32, uint32](), nil
	case arrow.UINT64:
		return ordered[*array.Uint64, uint64](), nil
	case arrow.FLOAT32:
		return ordered[*array.Float32, float32](), nil
	case arrow.FLOAT64:
		return ordered[*array.Float64, float64](), nil
	case arrow.DATE32:
		return ordered[*array.Date32, arrow.Date32](), nil
	case arrow.DATE64:
		return ordered[*array.Date64, arrow.Date64](), nil
	case arrow.TIME32:
		return ordered[*array.Time32, arrow.Time32](), nil
	case arrow.TIME64:
		return ordered[*array.Time64, arrow.Time64](), nil
	case arrow.TIMESTAMP:
		return ordered[*array.Timestamp, arrow.Timestamp](), nil
	case arrow.STRING:
		return ordered[*array.String, string](), nil
	case arrow.LARGE_STRING:
		return ordered[*array.LargeString, string](), nil
	case arrow.BINARY, arrow.LARGE_BINARY, arrow.FIXED_SIZE_BINARY:
		return func(a arrow.Array, i int, b arrow.Array, j int) int {
			if c, ok := nullsFirst(a, i, b, j); ok {
				return c
			}
			return bytes.Compare(binaryValue(a, i), binaryValue(b, j))
		}, nil
	case arrow.BOOL:
		return func(a arrow.Array, i int, b arrow.Array, j int) int {
			if c, ok := nullsFirst(a, i, b, j); ok {
				return c
			}
			x, y := a.(*array.Boolean).Value(i), b.(*array.Boolean).Value(j)
			switch {
			case x == y:
				return 0
			case !x:
				return -1
			}
			return 1
		}, nil
	case arrow.DECIMAL128:
		return func(a arrow.Array, i int, b arrow.Array, j int) int {
			if c, ok := nullsFirst(a, i, b, j); ok {
				return c
			}
			x, y := a.(*array.Decimal128).Value(i), b.(*array.Decimal128).Value(j)
			return decimal128.Num.Cmp(x, y)
		}, nil
	}
	return nil, fmt.Errorf("%w: %s is not a comparable key or sequence type", ErrSpec, t)
}

func binaryValue(a arrow.Array, i int) []byte {
	switch x := a.(type) {
	case *array.Binary:
		return x.Value(i)
	case *array.LargeBinary:
		return x.Value(i)
	case *array.FixedSizeBinary:
		return x.Value(i)
	}
	return nil
}
