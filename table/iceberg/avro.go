package iceberg

import (
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"time"

	"github.com/hamba/avro/v2"

	"github.com/lakecat/lakecat/schema"
)

// This file turns generic Avro values (as hamba/avro decodes them into `any`)
// into the Go forms of schema values (see schema.Field), driven by the writer
// schema embedded in the file. Metadata only: not a hot path.

// avroFieldID returns the "field-id" property of an Avro record field, or
// schema.NoID.
func avroFieldID(f *avro.Field) int {
	return propInt(f.Prop("field-id"))
}

func propInt(v any) int {
	switch x := v.(type) {
	case float64:
		if x == float64(int(x)) {
			return int(x)
		}
	case int:
		return x
	case int64:
		return int(x)
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return int(n)
		}
	case string:
		if n, err := strconv.Atoi(x); err == nil {
			return n
		}
	}
	return schema.NoID
}

// recordField returns the field called name of the record schema s, or nil.
func recordField(s avro.Schema, name string) *avro.Field {
	rs, ok := derefSchema(s).(*avro.RecordSchema)
	if !ok {
		return nil
	}
	for _, f := range rs.Fields() {
		if f.Name() == name {
			return f
		}
	}
	return nil
}

func derefSchema(s avro.Schema) avro.Schema {
	for {
		switch t := s.(type) {
		case *avro.RefSchema:
			s = t.Schema()
		case *avro.UnionSchema:
			// A nullable type: look through to the non-null branch.
			var nn []avro.Schema
			for _, b := range t.Types() {
				if b.Type() != avro.Null {
					nn = append(nn, b)
				}
			}
			if len(nn) != 1 {
				return s
			}
			s = nn[0]
		default:
			return s
		}
	}
}

// unionBranch picks the branch of u that a generic union value {key: v}
// was decoded from.
func unionBranch(u *avro.UnionSchema, key string) avro.Schema {
	var nonNull []avro.Schema
	for _, b := range u.Types() {
		if b.Type() == avro.Null {
			continue
		}
		nonNull = append(nonNull, b)
		if n, ok := b.(avro.NamedSchema); ok && (n.FullName() == key || n.Name() == key) {
			return b
		}
		name := string(b.Type())
		if l, ok := b.(avro.LogicalTypeSchema); ok && l.Logical() != nil {
			if name+"."+string(l.Logical().Type()) == key {
				return b
			}
		}
		if name == key {
			return b
		}
	}
	if len(nonNull) == 1 {
		return nonNull[0]
	}
	return nil
}

// avroValue converts a generic Avro value v of Avro type s into the Go form
// of the corresponding internal type: int32, int64, float32, float64, bool,
// string, []byte, [16]byte (uuid), schema.DecimalValue, int32 days (date),
// int64 microseconds (timestamp, time). Records become map[string]any of
// converted values; arrays []any.
func avroValue(s avro.Schema, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	if r, ok := s.(*avro.RefSchema); ok {
		s = r.Schema()
	}
	if u, ok := s.(*avro.UnionSchema); ok {
		if m, ok := v.(map[string]any); ok && len(m) == 1 {
			for k, inner := range m {
				b := unionBranch(u, k)
				if b == nil {
					return nil, fmt.Errorf("avro union branch %q not in %s", k, u.String())
				}
				return avroValue(b, inner)
			}
		}
		// hamba may already have unwrapped a nullable union.
		b := derefSchema(u)
		if _, still := b.(*avro.UnionSchema); still {
			return nil, fmt.Errorf("avro union value %T not understood", v)
		}
		return avroValue(b, v)
	}
	var logical avro.LogicalType
	if l, ok := s.(avro.LogicalTypeSchema); ok && l.Logical() != nil {
		logical = l.Logical().Type()
	}
	switch x := v.(type) {
	case bool, float32, float64:
		return x, nil
	case int:
		if s.Type() == avro.Long {
			return int64(x), nil
		}
		return int32(x), nil
	case int32:
		return x, nil
	case int64:
		return x, nil
	case string:
		if logical == avro.UUID {
			return parseUUID(x)
		}
		return x, nil
	case []byte:
		return append([]byte(nil), x...), nil
	case time.Time:
		switch logical {
		case avro.Date:
			return int32(floorDiv(x.Unix(), 86400)), nil
		case avro.TimestampMillis, avro.LocalTimestampMillis:
			return x.UnixMilli() * 1000, nil
		default:
			return x.UnixMicro(), nil
		}
	case time.Duration:
		return x.Microseconds(), nil
	case *big.Rat:
		scale := 0
		if d, ok := s.(avro.LogicalTypeSchema).Logical().(*avro.DecimalLogicalSchema); ok {
			scale = d.Scale()
		}
		return decimalFromRat(x, scale)
	case map[string]any:
		rs, ok := s.(*avro.RecordSchema)
		if !ok {
			return x, nil
		}
		out := make(map[string]any, len(x))
		for _, f := range rs.Fields() {
			cv, err := avroValue(f.Type(), x[f.Name()])
			if err != nil {
				return nil, err
			}
			out[f.Name()] = cv
		}
		return out, nil
	case []any:
		as, ok := s.(*avro.ArraySchema)
		if !ok {
			return x, nil
		}
		out := make([]any, len(x))
		for i, e := range x {
			cv, err := avroValue(as.Items(), e)
			if err != nil {
				return nil, err
			}
			out[i] = cv
		}
		return out, nil
	}
	// A fixed decodes into a [N]byte array of its size.
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Array && rv.Type().Elem().Kind() == reflect.Uint8 {
		b := make([]byte, rv.Len())
		reflect.Copy(reflect.ValueOf(b), rv)
		if logical == avro.UUID && len(b) == 16 {
			var u [16]byte
			copy(u[:], b)
			return u, nil
		}
		return b, nil
	}
	return nil, fmt.Errorf("avro value of Go type %T not understood", v)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

var two128 = new(big.Int).Lsh(big.NewInt(1), 128)

// decimalFromRat returns the unscaled value of r at the given scale.
func decimalFromRat(r *big.Rat, scale int) (schema.DecimalValue, error) {
	num := new(big.Int).Mul(r.Num(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))
	q, m := new(big.Int).QuoRem(num, r.Denom(), new(big.Int))
	if m.Sign() != 0 {
		return schema.DecimalValue{}, fmt.Errorf("decimal %s is not exact at scale %d", r.RatString(), scale)
	}
	return decimalFromBig(q)
}

// decimalFromBig returns x as a 128-bit two's complement DecimalValue.
func decimalFromBig(x *big.Int) (schema.DecimalValue, error) {
	if x.BitLen() > 127 {
		return schema.DecimalValue{}, fmt.Errorf("decimal unscaled value %s does not fit 128 bits", x)
	}
	u := new(big.Int).Set(x)
	if u.Sign() < 0 {
		u.Add(u, two128)
	}
	lo := new(big.Int).And(u, new(big.Int).SetUint64(^uint64(0))).Uint64()
	hi := new(big.Int).Rsh(u, 64).Uint64()
	return schema.DecimalValue{Hi: int64(hi), Lo: lo}, nil
}

func parseUUID(s string) ([16]byte, error) {
	var u [16]byte
	j := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '-' {
			continue
		}
		if j >= 32 {
			return u, fmt.Errorf("uuid %q too long", s)
		}
		var n byte
		switch {
		case c >= '0' && c <= '9':
			n = c - '0'
		case c >= 'a' && c <= 'f':
			n = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			n = c - 'A' + 10
		default:
			return u, fmt.Errorf("uuid %q: bad character", s)
		}
		if j%2 == 0 {
			u[j/2] = n << 4
		} else {
			u[j/2] |= n
		}
		j++
	}
	if j != 32 {
		return u, fmt.Errorf("uuid %q too short", s)
	}
	return u, nil
}
