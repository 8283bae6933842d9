package hudilog

import (
	"encoding/binary"
	"math"
)

// AvroContainer returns the records of an Avro data block as an Avro
// object container file (uncompressed, one data block) whose schema is
// schemaJSON, the block's SCHEMA header: the records stay as written, for an
// Avro decoder to read. name and the block's content offset place errors.
// It also returns the number of records. The content must be whole: its
// record lengths must add up to its size ([*CorruptError] otherwise).
func AvroContainer(b *Block, name string) (file []byte, records int64, err error) {
	schemaJSON, ok := b.Header[Schema]
	if !ok || schemaJSON == "" {
		return nil, 0, corruptf(name, b.Offset, "avro data block", "no SCHEMA header")
	}
	c := cursor{b: b.Content, base: b.ContentOffset, name: name}
	c.int32("avro data block") // the data block version: every version has a record count
	n := c.int32("avro data block")
	if c.err != nil {
		return nil, 0, c.err
	}
	if n < 0 || int64(n) > int64(len(c.b)-c.off)/4 {
		return nil, 0, corruptf(name, c.base+4, "avro data block", "%d records cannot fit in %d bytes", n, len(c.b)-c.off)
	}
	// The records, without their length prefixes.
	body := make([]byte, 0, len(c.b)-c.off-4*int(n))
	for i := int32(0); i < n; i++ {
		l := c.int32("avro data block")
		if c.err != nil {
			return nil, 0, c.err
		}
		if l < 0 || int(l) > len(c.b)-c.off {
			return nil, 0, corruptf(name, c.base+int64(c.off)-4, "avro data block", "record %d of %d bytes, %d left", i, l, len(c.b)-c.off)
		}
		body = append(body, c.b[c.off:c.off+int(l)]...)
		c.off += int(l)
	}
	if c.off != len(c.b) {
		return nil, 0, corruptf(name, c.base+int64(c.off), "avro data block", "%d bytes after the last of %d records", len(c.b)-c.off, n)
	}
	var sync [16]byte
	copy(sync[:], "hudilog-records!")
	out := make([]byte, 0, len(body)+len(schemaJSON)+96)
	out = append(out, "Obj\x01"...)
	out = appendLong(out, 2)
	out = appendBytes(out, []byte("avro.schema"))
	out = appendBytes(out, []byte(schemaJSON))
	out = appendBytes(out, []byte("avro.codec"))
	out = appendBytes(out, []byte("null"))
	out = appendLong(out, 0)
	out = append(out, sync[:]...)
	if n > 0 {
		out = appendLong(out, int64(n))
		out = appendLong(out, int64(len(body)))
		out = append(out, body...)
		out = append(out, sync[:]...)
	}
	return out, int64(n), nil
}

func appendLong(b []byte, v int64) []byte {
	return binary.AppendUvarint(b, uint64(v<<1)^uint64(v>>63))
}

func appendBytes(b []byte, p []byte) []byte {
	return append(appendLong(b, int64(len(p))), p...)
}

// OrderingKind is the type of a delete record's ordering value: the
// wrapper record of HoodieDeleteRecord.orderingVal's union.
type OrderingKind uint8

// The ordering value kinds, in the order of the union's branches.
const (
	OrderingNull OrderingKind = iota
	OrderingBoolean
	OrderingInt
	OrderingLong
	OrderingFloat
	OrderingDouble
	OrderingBytes
	OrderingString
	OrderingDate            // days since 1970-01-01, in Int
	OrderingDecimal         // unscaled two's complement big-endian in Bytes, scale 15
	OrderingTimeMicros      // in Int
	OrderingTimestampMicros // in Int
)

// DecimalOrderingScale is the scale of an [OrderingDecimal] value
// (DecimalWrapper is decimal(30, 15)).
const DecimalOrderingScale = 15

// Ordering is a delete record's ordering value. Booleans, ints, longs,
// dates, times and timestamps are in Int (a boolean as 0 or 1), floats
// and doubles in Float, bytes, strings and decimals in Bytes.
type Ordering struct {
	Kind  OrderingKind
	Int   int64
	Float float64
	Bytes []byte
}

// DeleteRecord is one record of a delete block.
type DeleteRecord struct {
	// Key is the record key (_hoodie_record_key).
	Key string
	// Partition is the partition path.
	Partition string
	// Ordering is the ordering value the delete carries.
	Ordering Ordering
}

// DeleteRecords decodes a delete block's records (block version 3: Avro
// HoodieDeleteRecordList). Versions 1 and 2 (Java serialization) return an
// error matching [ErrUnsupported]; malformed bytes a [*CorruptError].
func DeleteRecords(b *Block, name string) ([]DeleteRecord, error) {
	c := cursor{b: b.Content, base: b.ContentOffset, name: name}
	version := c.int32("delete block")
	n := c.int32("delete block")
	if c.err != nil {
		return nil, c.err
	}
	if version < 3 {
		return nil, unsupportedf(name, b.Offset, "delete block version %d (Java serialization)", version)
	}
	if n < 0 || int(n) != len(c.b)-c.off {
		return nil, corruptf(name, c.base+4, "delete block", "data of %d bytes, %d left in the block", n, len(c.b)-c.off)
	}
	a := avroCursor{b: c.b[c.off:], base: c.base + int64(c.off), name: name}
	var out []DeleteRecord
	for {
		cnt := a.long()
		if a.err != nil {
			return nil, a.err
		}
		if cnt == 0 {
			break
		}
		if cnt < 0 {
			if cnt == math.MinInt64 {
				a.fail("array block count %d", cnt)
				return nil, a.err
			}
			cnt = -cnt
			a.long() // the block's byte size
		}
		// A record takes at least three bytes (three union indexes).
		if cnt > int64(len(a.b)-a.off)/3 || int64(len(out))+cnt > maxDeleteRecords {
			a.fail("%d delete records cannot fit in %d bytes (or exceed %d)", cnt, len(a.b)-a.off, maxDeleteRecords)
			return nil, a.err
		}
		for i := int64(0); i < cnt; i++ {
			var d DeleteRecord
			d.Key, _ = a.optString()
			d.Partition, _ = a.optString()
			d.Ordering = a.ordering()
			if a.err != nil {
				return nil, a.err
			}
			out = append(out, d)
		}
	}
	if a.off != len(a.b) {
		a.fail("%d bytes after the delete record list", len(a.b)-a.off)
		return nil, a.err
	}
	return out, nil
}

// avroCursor reads Avro binary values; the first failure sticks.
type avroCursor struct {
	b    []byte
	off  int
	base int64
	name string
	err  error
}

func (a *avroCursor) fail(format string, args ...any) {
	if a.err == nil {
		a.err = corruptf(a.name, a.base+int64(a.off), "delete block", format, args...)
	}
}

func (a *avroCursor) long() int64 {
	if a.err != nil {
		return 0
	}
	var u uint64
	for shift := uint(0); shift < 70; shift += 7 {
		if a.off >= len(a.b) {
			a.fail("data ends inside a varint")
			return 0
		}
		c := a.b[a.off]
		a.off++
		u |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return int64(u>>1) ^ -int64(u&1)
		}
	}
	a.fail("varint longer than 10 bytes")
	return 0
}

func (a *avroCursor) bytes(limit int) []byte {
	n := a.long()
	if a.err != nil {
		return nil
	}
	if n < 0 || n > int64(len(a.b)-a.off) || n > int64(limit) {
		a.fail("%d bytes, %d left (at most %d)", n, len(a.b)-a.off, limit)
		return nil
	}
	p := a.b[a.off : a.off+int(n) : a.off+int(n)]
	a.off += int(n)
	return p
}

func (a *avroCursor) fixed(n int) []byte {
	if a.err != nil {
		return nil
	}
	if len(a.b)-a.off < n {
		a.fail("data ends inside a %d-byte value", n)
		return nil
	}
	p := a.b[a.off : a.off+n]
	a.off += n
	return p
}

// optString reads a ["null", "string"] union.
func (a *avroCursor) optString() (string, bool) {
	switch a.long() {
	case 0:
		return "", false
	case 1:
		return string(a.bytes(len(a.b))), true
	default:
		a.fail("union index outside [\"null\", \"string\"]")
		return "", false
	}
}

func (a *avroCursor) ordering() Ordering {
	idx := a.long()
	if a.err != nil {
		return Ordering{}
	}
	if idx < 0 || idx > int64(OrderingTimestampMicros) {
		if idx == int64(OrderingTimestampMicros)+1 {
			a.err = unsupportedf(a.name, a.base+int64(a.off), "delete record ordering value of an array type")
			return Ordering{}
		}
		a.fail("ordering value union index %d", idx)
		return Ordering{}
	}
	o := Ordering{Kind: OrderingKind(idx)}
	switch o.Kind {
	case OrderingBoolean:
		p := a.fixed(1)
		if a.err == nil && p[0] > 1 {
			a.fail("boolean byte %d", p[0])
		}
		if a.err == nil {
			o.Int = int64(p[0])
		}
	case OrderingInt, OrderingDate:
		o.Int = a.long()
		if o.Int < math.MinInt32 || o.Int > math.MaxInt32 {
			a.fail("int %d out of range", o.Int)
		}
	case OrderingLong, OrderingTimeMicros, OrderingTimestampMicros:
		o.Int = a.long()
	case OrderingFloat:
		if p := a.fixed(4); a.err == nil {
			o.Float = float64(math.Float32frombits(binary.LittleEndian.Uint32(p)))
		}
	case OrderingDouble:
		if p := a.fixed(8); a.err == nil {
			o.Float = math.Float64frombits(binary.LittleEndian.Uint64(p))
		}
	case OrderingBytes, OrderingString, OrderingDecimal:
		o.Bytes = a.bytes(maxOrderingBytes)
	}
	return o
}
