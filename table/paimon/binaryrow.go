package paimon

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/schema"
)

// ErrUnsupportedPartition is matched by the error for a partition value of a
// type the BinaryRow decoder does not handle (ARRAY, MAP, ROW, …).
var ErrUnsupportedPartition = lakecat.NewSentinel(lakecat.ErrUnsupported, "paimon: unsupported partition type")

// maxPartitionFields caps the arity of a serialized partition row.
const maxPartitionFields = 1 << 10

// DecodeBinaryRow decodes a serialized Paimon BinaryRow (the _PARTITION bytes
// of a manifest entry: a 4-byte big-endian arity, then the row) whose fields
// have the given types, into values in the Go form of schema.Field (nil for
// null).
//
// Layout (Paimon's BinaryRow): a null bit set of ((arity+63+8)/64)*8 bytes
// whose first 8 bits are the row kind header; then one 8-byte little-endian
// slot per field; then the variable-length part. Fixed-size values sit in
// their slot. STRING/CHAR/VARCHAR/BINARY/VARBINARY values of up to 7 bytes
// sit in the slot with the length in the low 7 bits of its last byte (top bit
// set); longer ones are at (slot>>32) from the row start with length
// uint32(slot). DECIMAL(p ≤ 18) is the unscaled long; a wider DECIMAL is a
// variable-length big-endian two's complement integer. TIMESTAMP(p ≤ 3) is
// epoch milliseconds; a more precise one stores milliseconds at (slot>>32)
// and the nanoseconds within the millisecond in uint32(slot). TIME is
// milliseconds of the day. Supported types: boolean, tinyint, smallint, int,
// bigint, float, double, decimal, date, time, timestamp (all kinds), string,
// char, varchar, binary, fixed. Others yield [ErrUnsupportedPartition].
func DecodeBinaryRow(data []byte, types []schema.Type) ([]any, error) {
	if len(data) < 4 {
		return nil, fmt.Errorf("%w: partition row of %d bytes", ErrCorruptManifest, len(data))
	}
	arity := int(int32(binary.BigEndian.Uint32(data)))
	if arity < 0 || arity > maxPartitionFields {
		return nil, fmt.Errorf("%w: partition row arity %d", ErrCorruptManifest, arity)
	}
	if arity != len(types) {
		return nil, fmt.Errorf("%w: partition row has %d fields, the schema %d partition keys", ErrCorruptManifest, arity, len(types))
	}
	row := data[4:]
	nullBytes := ((arity + 63 + 8) / 64) * 8
	if len(row) < nullBytes+8*arity {
		return nil, fmt.Errorf("%w: partition row of %d bytes is shorter than its %d fields", ErrCorruptManifest, len(row), arity)
	}
	out := make([]any, arity)
	for i, t := range types {
		bit := i + 8
		if row[bit>>3]&(1<<(bit&7)) != 0 {
			continue
		}
		off := nullBytes + 8*i
		slot := row[off : off+8]
		word := binary.LittleEndian.Uint64(slot)
		varPart := func() ([]byte, error) {
			if word&(1<<63) != 0 { // inline, at most 7 bytes
				n := int((word >> 56) & 0x7f)
				if n > 7 {
					return nil, fmt.Errorf("%w: inline length %d", ErrCorruptManifest, n)
				}
				return slot[:n], nil
			}
			start, n := word>>32, uint64(uint32(word))
			if start > uint64(len(row)) || n > uint64(len(row))-start {
				return nil, fmt.Errorf("%w: partition field %d at %d+%d outside a %d-byte row", ErrCorruptManifest, i, start, n, len(row))
			}
			return row[start : start+n], nil
		}
		p, ok := t.(schema.PrimitiveType)
		if !ok {
			return nil, fmt.Errorf("%w: %s", ErrUnsupportedPartition, t)
		}
		switch p.K {
		case schema.KindBoolean:
			out[i] = slot[0] != 0
		case schema.KindTinyInt:
			out[i] = int8(slot[0])
		case schema.KindSmallInt:
			out[i] = int16(binary.LittleEndian.Uint16(slot))
		case schema.KindInt, schema.KindDate:
			out[i] = int32(binary.LittleEndian.Uint32(slot))
		case schema.KindTime:
			out[i] = int64(int32(binary.LittleEndian.Uint32(slot))) * 1000
		case schema.KindLong:
			out[i] = int64(word)
		case schema.KindFloat:
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(slot))
		case schema.KindDouble:
			out[i] = math.Float64frombits(word)
		case schema.KindDecimal:
			if p.Precision <= 18 {
				v := int64(word)
				hi := int64(0)
				if v < 0 {
					hi = -1
				}
				out[i] = schema.DecimalValue{Hi: hi, Lo: uint64(v)}
				continue
			}
			b, err := varPart()
			if err != nil {
				return nil, err
			}
			d, err := decimalFromBytes(b)
			if err != nil {
				return nil, err
			}
			out[i] = d
		case schema.KindTimestamp, schema.KindTimestampTz, schema.KindTimestampNs, schema.KindTimestampTzNs:
			ns := p.K == schema.KindTimestampNs || p.K == schema.KindTimestampTzNs
			var millis, nanos int64
			if p.Precision <= 3 {
				millis = int64(word)
			} else {
				start := word >> 32
				if start > uint64(len(row)) || uint64(len(row))-start < 8 {
					return nil, fmt.Errorf("%w: partition timestamp outside the row", ErrCorruptManifest)
				}
				millis = int64(binary.LittleEndian.Uint64(row[start:]))
				nanos = int64(uint32(word))
			}
			if ns {
				out[i] = millis*1_000_000 + nanos
			} else {
				out[i] = millis*1000 + nanos/1000
			}
		case schema.KindString, schema.KindChar, schema.KindVarchar:
			b, err := varPart()
			if err != nil {
				return nil, err
			}
			out[i] = string(b)
		case schema.KindBinary, schema.KindFixed:
			b, err := varPart()
			if err != nil {
				return nil, err
			}
			out[i] = append([]byte(nil), b...)
		default:
			return nil, fmt.Errorf("%w: %s", ErrUnsupportedPartition, t)
		}
	}
	return out, nil
}

var two128 = new(big.Int).Lsh(big.NewInt(1), 128)

// decimalFromBytes reads a big-endian two's complement integer (Java's
// BigInteger.toByteArray) as a DecimalValue.
func decimalFromBytes(b []byte) (schema.DecimalValue, error) {
	if len(b) == 0 || len(b) > 16 {
		return schema.DecimalValue{}, fmt.Errorf("%w: decimal of %d bytes", ErrCorruptManifest, len(b))
	}
	x := new(big.Int).SetBytes(b)
	if b[0]&0x80 != 0 {
		x.Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	u := new(big.Int).Set(x)
	if u.Sign() < 0 {
		u.Add(u, two128)
	}
	lo := new(big.Int).And(u, new(big.Int).SetUint64(^uint64(0))).Uint64()
	hi := new(big.Int).Rsh(u, 64).Uint64()
	return schema.DecimalValue{Hi: int64(hi), Lo: lo}, nil
}
