package project

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lakecat/lakecat/schema"
)

// fill returns the node's all-null, default or constant array of length
// rows. The array is built once per length and cached on the node; every
// caller gets its own reference (Retain), so a run of equal-sized batches
// allocates it once.
func (n *node) fill(length int, mem memory.Allocator) (arrow.ArrayData, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.cacheData != nil && n.cacheLen == length {
		n.cacheData.Retain()
		return n.cacheData, nil
	}
	var d arrow.ArrayData
	if n.act == actNull {
		arr := array.MakeArrayOfNull(mem, n.out, length)
		d = arr.Data()
		d.Retain()
		arr.Release()
	} else {
		var err error
		d, err = buildConstant(mem, n.read.Type, n.out, n.value, length)
		if err != nil {
			return nil, err
		}
	}
	if n.cacheData != nil {
		n.cacheData.Release()
	}
	n.cacheData, n.cacheLen = d, length
	d.Retain()
	return d, nil
}

// checkValue reports whether v is a valid Go form of a value of type t (see
// [schema.Field]).
func checkValue(t schema.Type, out arrow.DataType, v any) error {
	d, err := buildConstant(memory.DefaultAllocator, t, out, v, 1)
	if err != nil {
		return err
	}
	d.Release()
	return nil
}

// buildConstant builds an array of length rows, each holding v.
func buildConstant(mem memory.Allocator, t schema.Type, out arrow.DataType, v any, length int) (arrow.ArrayData, error) {
	b := array.NewBuilder(mem, out)
	defer b.Release()
	b.Reserve(length)
	for i := 0; i < length; i++ {
		if err := appendGo(b, t, v); err != nil {
			return nil, err
		}
	}
	arr := b.NewArray()
	defer arr.Release()
	d := arr.Data()
	d.Retain()
	return d, nil
}

func asInt(v any, lo, hi int64) (int64, error) {
	var i int64
	switch x := v.(type) {
	case int:
		i = int64(x)
	case int8:
		i = int64(x)
	case int16:
		i = int64(x)
	case int32:
		i = int64(x)
	case int64:
		i = x
	default:
		return 0, fmt.Errorf("want an integer, got %T", v)
	}
	if i < lo || i > hi {
		return 0, fmt.Errorf("%d out of range", i)
	}
	return i, nil
}

func asFloat(v any) (float64, error) {
	switch x := v.(type) {
	case float32:
		return float64(x), nil
	case float64:
		return x, nil
	}
	return 0, fmt.Errorf("want a float, got %T", v)
}

// appendGo appends v, in the Go form of type t documented on
// [schema.Field], to b (nil appends null).
func appendGo(b array.Builder, t schema.Type, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	switch tt := t.(type) {
	case *schema.StructType:
		m, ok := v.(map[int]any)
		if !ok {
			return fmt.Errorf("want map[int]any for a struct, got %T", v)
		}
		sb := b.(*array.StructBuilder)
		sb.Append(true)
		for i, f := range tt.Fields {
			cv, ok := m[f.ID]
			if !ok {
				cv = f.InitialDefault
			}
			if err := appendGo(sb.FieldBuilder(i), f.Type, cv); err != nil {
				return fmt.Errorf("%s: %w", f.Name, err)
			}
		}
		return nil
	case *schema.ListType:
		l, ok := v.([]any)
		if !ok {
			return fmt.Errorf("want []any for a list, got %T", v)
		}
		lb := b.(*array.ListBuilder)
		lb.Append(true)
		for _, e := range l {
			if err := appendGo(lb.ValueBuilder(), tt.Element.Type, e); err != nil {
				return err
			}
		}
		return nil
	case *schema.MapType:
		m, ok := v.(schema.MapValue)
		if !ok || len(m.Keys) != len(m.Values) {
			return fmt.Errorf("want schema.MapValue with as many keys as values for a map, got %T", v)
		}
		mb := b.(*array.MapBuilder)
		mb.Append(true)
		for i := range m.Keys {
			if m.Keys[i] == nil {
				return fmt.Errorf("a map key cannot be null")
			}
			if err := appendGo(mb.KeyBuilder(), tt.Key.Type, m.Keys[i]); err != nil {
				return err
			}
			if err := appendGo(mb.ItemBuilder(), tt.Value.Type, m.Values[i]); err != nil {
				return err
			}
		}
		return nil
	case schema.PrimitiveType:
		return appendPrimitive(b, tt, v)
	}
	return fmt.Errorf("unknown type %v", t)
}

func appendPrimitive(b array.Builder, t schema.PrimitiveType, v any) error {
	switch t.K {
	case schema.KindBoolean:
		x, ok := v.(bool)
		if !ok {
			return fmt.Errorf("want bool, got %T", v)
		}
		b.(*array.BooleanBuilder).Append(x)
	case schema.KindTinyInt:
		i, err := asInt(v, math.MinInt8, math.MaxInt8)
		if err != nil {
			return err
		}
		b.(*array.Int8Builder).Append(int8(i))
	case schema.KindSmallInt:
		i, err := asInt(v, math.MinInt16, math.MaxInt16)
		if err != nil {
			return err
		}
		b.(*array.Int16Builder).Append(int16(i))
	case schema.KindInt:
		i, err := asInt(v, math.MinInt32, math.MaxInt32)
		if err != nil {
			return err
		}
		b.(*array.Int32Builder).Append(int32(i))
	case schema.KindDate:
		i, err := asInt(v, math.MinInt32, math.MaxInt32)
		if err != nil {
			return err
		}
		b.(*array.Date32Builder).Append(arrow.Date32(i))
	case schema.KindLong:
		i, err := asInt(v, math.MinInt64, math.MaxInt64)
		if err != nil {
			return err
		}
		b.(*array.Int64Builder).Append(i)
	case schema.KindTime:
		i, err := asInt(v, 0, microsPerDay-1)
		if err != nil {
			return err
		}
		b.(*array.Time64Builder).Append(arrow.Time64(i))
	case schema.KindTimestamp, schema.KindTimestampTz, schema.KindTimestampNs, schema.KindTimestampTzNs:
		i, err := asInt(v, math.MinInt64, math.MaxInt64)
		if err != nil {
			return err
		}
		b.(*array.TimestampBuilder).Append(arrow.Timestamp(i))
	case schema.KindFloat16:
		f, err := asFloat(v)
		if err != nil {
			return err
		}
		b.(*array.Float16Builder).Append(float16.New(float32(f)))
	case schema.KindFloat:
		f, err := asFloat(v)
		if err != nil {
			return err
		}
		b.(*array.Float32Builder).Append(float32(f))
	case schema.KindDouble:
		f, err := asFloat(v)
		if err != nil {
			return err
		}
		b.(*array.Float64Builder).Append(f)
	case schema.KindDecimal:
		d, ok := v.(schema.DecimalValue)
		if !ok {
			return fmt.Errorf("want schema.DecimalValue, got %T", v)
		}
		n := decimal128.New(d.Hi, d.Lo)
		dt := b.Type().(*arrow.Decimal128Type)
		if !n.FitsInPrecision(dt.Precision) {
			return fmt.Errorf("%s does not fit decimal(%d, %d)", n.ToString(dt.Scale), dt.Precision, dt.Scale)
		}
		b.(*array.Decimal128Builder).Append(n)
	case schema.KindString, schema.KindChar, schema.KindVarchar:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("want string, got %T", v)
		}
		b.(*array.StringBuilder).Append(s)
	case schema.KindUUID:
		u, ok := v.([16]byte)
		if !ok {
			return fmt.Errorf("want [16]byte, got %T", v)
		}
		b.(*array.FixedSizeBinaryBuilder).Append(u[:])
	case schema.KindFixed:
		p, ok := v.([]byte)
		if !ok || len(p) != t.Length {
			return fmt.Errorf("want []byte of length %d, got %T of length %d", t.Length, v, len(p))
		}
		b.(*array.FixedSizeBinaryBuilder).Append(p)
	case schema.KindBinary:
		p, ok := v.([]byte)
		if !ok {
			return fmt.Errorf("want []byte, got %T", v)
		}
		b.(*array.BinaryBuilder).Append(p)
	default:
		return fmt.Errorf("no value of type %s", t)
	}
	return nil
}
