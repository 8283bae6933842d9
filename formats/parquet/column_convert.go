package parquet

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
)

// convOp names how page values of a column become Arrow values.
type convOp uint8

const (
	opRefuse                convOp = iota // the column cannot be read (message in converter.msg)
	opBool                                // BOOLEAN bits → one byte per value (packed at the end)
	opCopy                                // same width in and out (INT32, INT64, FLOAT, DOUBLE)
	opInt32To8                            // INT(8) in INT32 → int8
	opInt32To16                           // INT(16) in INT32 → int16
	opUint8To16                           // UINT(8) in INT32 → int16
	opUint16To32                          // UINT(16) in INT32 → int32
	opUint32To64                          // UINT(32) in INT32 → int64
	opInt32MillisTo64Micros               // TIME(MILLIS) in INT32 → int64 microseconds
	opUint64                              // UINT(64) in INT64 → int64, refusing values above 2^63-1
	opMul1000                             // INT64 milliseconds → microseconds
	opFloorDiv1000                        // INT64 nanoseconds → microseconds, floored
	opInt96                               // INT96 (Julian day + nanoseconds) → int64 microseconds
	opInt96Nanos                          // INT96 → int64 nanoseconds (WithInt96Nanos)
	opDecInt32                            // DECIMAL in INT32 → decimal128
	opDecInt64                            // DECIMAL in INT64 → decimal128
	opDecBytes                            // DECIMAL in BYTE_ARRAY (big-endian two's complement) → decimal128
	opDecFixed                            // DECIMAL in FIXED_LEN_BYTE_ARRAY(1..16) → decimal128
	opFixed                               // FIXED_LEN_BYTE_ARRAY(L) copied
	opBytes                               // BYTE_ARRAY → Arrow offsets + data
)

// converter describes one leaf column's value conversion. width is the
// number of bytes per converted value (0 for variable-length output);
// inWidth is the FIXED_LEN_BYTE_ARRAY length of the input.
type converter struct {
	op      convOp
	width   int
	inWidth int
	path    string
	msg     string
}

func refuse(msg string) *converter { return &converter{op: opRefuse, msg: msg} }

func (c *converter) variable() bool { return c.op == opBytes }

// physWidth is the byte width of one plain input value (0 for BYTE_ARRAY and
// BOOLEAN).
func (c *converter) physWidth() int {
	switch c.op {
	case opCopy:
		return c.width
	case opInt32To8, opInt32To16, opUint8To16, opUint16To32, opUint32To64, opInt32MillisTo64Micros, opDecInt32:
		return 4
	case opUint64, opMul1000, opFloorDiv1000, opDecInt64:
		return 8
	case opInt96, opInt96Nanos:
		return 12
	case opDecFixed, opFixed:
		return c.inWidth
	}
	return 0
}

var errShortPage = errors.New("page holds fewer values than its levels say")

// convertFixed converts n plain input values in src (the page's raw value
// bytes; offsets for BYTE_ARRAY input) into dst, which holds exactly
// n*c.width bytes.
func (c *converter) convertFixed(dst, src []byte, offs []uint32, n int) error {
	if n == 0 {
		return nil
	}
	if c.op == opBool {
		if len(src)*8 < n {
			return errShortPage
		}
		for i := 0; i < n; i++ {
			dst[i] = (src[i>>3] >> (i & 7)) & 1
		}
		return nil
	}
	if c.op == opDecBytes {
		if len(offs) < n+1 {
			return errShortPage
		}
		for i := 0; i < n; i++ {
			a, b := offs[i], offs[i+1]
			if a > b || int(b) > len(src) {
				return errShortPage
			}
			if b-a > 16 {
				return fmt.Errorf("decimal value of %d bytes in BYTE_ARRAY (at most 16 fit decimal128)", b-a)
			}
			putBigEndianDecimal(dst[i*16:i*16+16], src[a:b])
		}
		return nil
	}
	w := c.physWidth()
	if len(src) < n*w {
		return errShortPage
	}
	src = src[:n*w]
	dst = dst[:n*c.width]
	switch c.op {
	case opCopy, opFixed:
		copy(dst, src)
	case opInt32To8:
		in := arrow.Int32Traits.CastFromBytes(src)
		for i, v := range in {
			dst[i] = byte(int8(v))
		}
	case opInt32To16:
		in := arrow.Int32Traits.CastFromBytes(src)
		out := arrow.Int16Traits.CastFromBytes(dst)
		for i, v := range in {
			out[i] = int16(v)
		}
	case opUint8To16:
		in := arrow.Uint32Traits.CastFromBytes(src)
		out := arrow.Int16Traits.CastFromBytes(dst)
		for i, v := range in {
			out[i] = int16(uint8(v))
		}
	case opUint16To32:
		in := arrow.Uint32Traits.CastFromBytes(src)
		out := arrow.Int32Traits.CastFromBytes(dst)
		for i, v := range in {
			out[i] = int32(uint16(v))
		}
	case opUint32To64:
		in := arrow.Uint32Traits.CastFromBytes(src)
		out := arrow.Int64Traits.CastFromBytes(dst)
		for i, v := range in {
			out[i] = int64(v)
		}
	case opInt32MillisTo64Micros:
		in := arrow.Int32Traits.CastFromBytes(src)
		out := arrow.Int64Traits.CastFromBytes(dst)
		for i, v := range in {
			out[i] = int64(v) * 1000
		}
	case opUint64:
		in := arrow.Uint64Traits.CastFromBytes(src)
		var or uint64
		for _, v := range in {
			or |= v
		}
		if or>>63 != 0 {
			for _, v := range in {
				if v>>63 != 0 {
					return unsupportedf("column %s: UINT(64) value %d does not fit a long", c.path, v)
				}
			}
		}
		copy(dst, src)
	case opMul1000:
		in := arrow.Int64Traits.CastFromBytes(src)
		out := arrow.Int64Traits.CastFromBytes(dst)
		for i, v := range in {
			out[i] = v * 1000
		}
	case opFloorDiv1000:
		in := arrow.Int64Traits.CastFromBytes(src)
		out := arrow.Int64Traits.CastFromBytes(dst)
		for i, v := range in {
			q := v / 1000
			if v%1000 < 0 {
				q--
			}
			out[i] = q
		}
	case opInt96:
		out := arrow.Int64Traits.CastFromBytes(dst)
		for i := range out {
			b := src[i*12 : i*12+12]
			out[i] = int96ToMicros(b)
		}
	case opInt96Nanos:
		out := arrow.Int64Traits.CastFromBytes(dst)
		for i := range out {
			v, ok := int96ToNanos(src[i*12 : i*12+12])
			if !ok {
				return fmt.Errorf("%w: INT96 timestamp outside the range of int64 nanoseconds (1677-09-21 to 2262-04-11)", ErrUnsupported)
			}
			out[i] = v
		}
	case opDecInt32:
		in := arrow.Int32Traits.CastFromBytes(src)
		for i, v := range in {
			binary.LittleEndian.PutUint64(dst[i*16:], uint64(int64(v)))
			binary.LittleEndian.PutUint64(dst[i*16+8:], uint64(int64(v)>>63))
		}
	case opDecInt64:
		in := arrow.Int64Traits.CastFromBytes(src)
		for i, v := range in {
			binary.LittleEndian.PutUint64(dst[i*16:], uint64(v))
			binary.LittleEndian.PutUint64(dst[i*16+8:], uint64(v>>63))
		}
	case opDecFixed:
		for i := 0; i < n; i++ {
			putBigEndianDecimal(dst[i*16:i*16+16], src[i*w:i*w+w])
		}
	default:
		return fmt.Errorf("no fixed-width conversion for op %d", c.op)
	}
	return nil
}

// julianEpochDay is the Julian day number of 1970-01-01.
const julianEpochDay = 2440588

// int96ToMicros converts an INT96 timestamp (8 bytes of nanoseconds within
// the day, then a 4-byte Julian day, all little-endian; the layout Impala,
// Hive and Spark write) to microseconds since the epoch, without passing
// through nanoseconds so that dates outside 1677–2262 stay exact.
func int96ToMicros(b []byte) int64 {
	nanos := int64(binary.LittleEndian.Uint64(b[:8]))
	day := int64(int32(binary.LittleEndian.Uint32(b[8:12])))
	return (day-julianEpochDay)*86_400_000_000 + floorDiv(nanos, 1000)
}

// int96ToNanos converts an INT96 timestamp to nanoseconds since the epoch;
// ok is false when they do not fit an int64.
func int96ToNanos(b []byte) (int64, bool) {
	nanos := int64(binary.LittleEndian.Uint64(b[:8]))
	day := int64(int32(binary.LittleEndian.Uint32(b[8:12]))) - julianEpochDay
	const dayNanos = 86_400_000_000_000
	if day > math.MaxInt64/dayNanos || day < math.MinInt64/dayNanos {
		return 0, false
	}
	// Writers may store nanoseconds outside the day (Paimon does for some
	// pre-1900 values); the sum is what the INT96 means.
	base := day * dayNanos
	v := base + nanos
	if (nanos > 0 && v < base) || (nanos < 0 && v > base) {
		return 0, false
	}
	return v, true
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b < 0 {
		q--
	}
	return q
}

// putBigEndianDecimal writes the big-endian two's complement integer src
// (1..16 bytes) as a little-endian 128-bit integer into dst (16 bytes).
func putBigEndianDecimal(dst, src []byte) {
	var hi, lo uint64
	if len(src) > 0 && src[0]&0x80 != 0 {
		hi, lo = ^uint64(0), ^uint64(0)
	}
	for _, b := range src {
		hi = hi<<8 | lo>>56
		lo = lo<<8 | uint64(b)
	}
	binary.LittleEndian.PutUint64(dst[:8], lo)
	binary.LittleEndian.PutUint64(dst[8:16], hi)
}

// gatherFixed writes dict[idx[i]] (values of width w) into dst for every
// index. An index out of range is an error. Widths 4, 8 and 16 (int32 and
// float, int64 and double and timestamps, decimal128) move one machine
// value per index; other widths copy bytes.
func gatherFixed(dst, dict []byte, w int, idx []int32) error {
	switch w {
	case 4:
		return gather(arrow.Uint32Traits.CastFromBytes(dst[:len(idx)*4]), arrow.Uint32Traits.CastFromBytes(dict[:len(dict)/4*4]), idx)
	case 8:
		return gather(arrow.Uint64Traits.CastFromBytes(dst[:len(idx)*8]), arrow.Uint64Traits.CastFromBytes(dict[:len(dict)/8*8]), idx)
	case 16:
		return gather(arrow.Decimal128Traits.CastFromBytes(dst[:len(idx)*16]), arrow.Decimal128Traits.CastFromBytes(dict[:len(dict)/16*16]), idx)
	}
	nd := uint32(len(dict) / w)
	for i, x := range idx {
		if uint32(x) >= nd {
			return errDictIndex(x, nd)
		}
		copy(dst[i*w:i*w+w], dict[int(x)*w:int(x)*w+w])
	}
	return nil
}

// gather writes dict[idx[i]] into out[i] for every index (out holds at
// least len(idx) values).
func gather[T any](out, dict []T, idx []int32) error {
	nd := uint32(len(dict))
	out = out[:len(idx)]
	for i, x := range idx {
		if uint32(x) >= nd {
			return errDictIndex(x, nd)
		}
		out[i] = dict[x]
	}
	return nil
}

func errDictIndex(x int32, nd uint32) error {
	return fmt.Errorf("dictionary index %d out of range [0, %d)", x, nd)
}
