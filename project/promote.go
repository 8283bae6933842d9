package project

import (
	"reflect"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lakecat/lakecat/schema"
)

// convFunc converts one array's data to the read Arrow type. The result is
// owned by the caller. A bad value is reported as a *castError.
type convFunc func(in arrow.ArrayData, out arrow.DataType, mem memory.Allocator) (arrow.ArrayData, error)

// chooseConversion picks how a file column of type f (Arrow type in) becomes
// read type t (Arrow type out), once the rules allowed it: no work when the
// Arrow types are equal, new type over the same buffers when only the type's
// label changes (decimal precision widening, binary↔string, time zone), a
// tight loop over the values buffer for the hot widenings, and the general
// per-value cast otherwise.
//
// loc is the session time zone (nil: UTC); outside UTC a change between a
// wall clock and an instant moves the value, so it is a cast.
func chooseConversion(f, t schema.PrimitiveType, in, out arrow.DataType, loc *time.Location) (action, convFunc) {
	if loc != nil {
		fi, ti := isInstant(f.K), isInstant(t.K)
		switch {
		case isTimestamp(f.K) && (!isTimestamp(t.K) || fi != ti),
			ti && (f.K == schema.KindDate || f.K == schema.KindTime || isString(f.K)),
			isInt(f.K) && isTimestamp(t.K):
			return actCast, castSlowZone(loc, fi, ti)
		}
	}
	if arrow.TypeEqual(in, out) {
		return actTake, nil
	}
	switch {
	case f.K == schema.KindDecimal && t.K == schema.KindDecimal && f.Scale == t.Scale && t.Precision >= f.Precision:
		return actRelabel, nil
	case isString(f.K) && t.K == schema.KindBinary, f.K == schema.KindBinary && isString(t.K):
		return actRelabel, nil
	case isTimestamp(f.K) && isTimestamp(t.K) && in.(*arrow.TimestampType).Unit == out.(*arrow.TimestampType).Unit:
		return actRelabel, nil
	}
	if c := numericLoop(in.ID(), out.ID()); c != nil {
		return actCast, c
	}
	if f.K == schema.KindDate && isTimestamp(t.K) {
		mult := int64(86400_000_000)
		if out.(*arrow.TimestampType).Unit == arrow.Nanosecond {
			mult = 86400_000_000_000
		}
		return actCast, func(in arrow.ArrayData, out arrow.DataType, mem memory.Allocator) (arrow.ArrayData, error) {
			return dateToTimestamp(in, out, mem, mult)
		}
	}
	return actCast, castSlow
}

// isSlow reports whether c is the general per-value cast (which builds with
// builders and is not pooled).
func isSlow(c convFunc) bool {
	p := reflect.ValueOf(c).Pointer()
	// The session-time-zone casts (castSlowZone closures) are per-value too.
	return p == reflect.ValueOf(convFunc(castSlow)).Pointer() || p == slowZonePtr
}

var slowZonePtr = reflect.ValueOf(castSlowZone(nil, false, false)).Pointer()

// isInstant reports whether k is a timestamp with local time zone (an
// instant) rather than a wall clock.
func isInstant(k schema.Kind) bool {
	return k == schema.KindTimestampTz || k == schema.KindTimestampTzNs
}

// numericLoop returns the tight loop for a lossless-by-rule widening between
// fixed-width numeric Arrow types, or nil.
func numericLoop(from, to arrow.Type) convFunc {
	switch from {
	case arrow.INT8:
		return widenFrom[int8](to)
	case arrow.INT16:
		return widenFrom[int16](to)
	case arrow.INT32:
		return widenFrom[int32](to)
	case arrow.INT64:
		switch to {
		case arrow.FLOAT32:
			return loop[int64, float32]
		case arrow.FLOAT64:
			return loop[int64, float64]
		}
	case arrow.FLOAT32:
		if to == arrow.FLOAT64 {
			return loop[float32, float64]
		}
	}
	return nil
}

func widenFrom[S int8 | int16 | int32](to arrow.Type) convFunc {
	switch to {
	case arrow.INT16:
		if unsafe.Sizeof(S(0)) < 2 {
			return loop[S, int16]
		}
	case arrow.INT32:
		if unsafe.Sizeof(S(0)) < 4 {
			return loop[S, int32]
		}
	case arrow.INT64:
		return loop[S, int64]
	case arrow.FLOAT32:
		return loop[S, float32]
	case arrow.FLOAT64:
		return loop[S, float64]
	}
	return nil
}

type number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~float32 | ~float64
}

// values returns the n values of a fixed-width array starting at its offset.
func values[T number](d arrow.ArrayData) []T {
	bufs := d.Buffers()
	if len(bufs) < 2 || bufs[1] == nil || d.Len() == 0 {
		return nil
	}
	b := bufs[1].Bytes()
	var z T
	all := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/int(unsafe.Sizeof(z)))
	return all[d.Offset() : d.Offset()+d.Len()]
}

// newValues allocates the values buffer of n values of T from mem.
func newValues[T number](mem memory.Allocator, n int) (*memory.Buffer, []T) {
	var z T
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * int(unsafe.Sizeof(z)))
	if n == 0 {
		return buf, nil
	}
	return buf, unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(buf.Bytes()))), n)
}

// validity returns the input's validity bitmap rebased to offset 0: the same
// buffer (retained) when the input starts at 0, else a copy.
func validity(in arrow.ArrayData, mem memory.Allocator) *memory.Buffer {
	bufs := in.Buffers()
	if len(bufs) == 0 || bufs[0] == nil || in.NullN() == 0 {
		return nil
	}
	if in.Offset() == 0 {
		bufs[0].Retain()
		return bufs[0]
	}
	out := memory.NewResizableBuffer(mem)
	out.Resize(int(bitutil.BytesForBits(int64(in.Len()))))
	bitutil.CopyBitmap(bufs[0].Bytes(), in.Offset(), in.Len(), out.Bytes(), 0)
	return out
}

// loop converts every value (nulls included: their slots hold whatever the
// decoder left, converted harmlessly) in one pass over the values buffer.
func loop[S, D number](in arrow.ArrayData, out arrow.DataType, mem memory.Allocator) (arrow.ArrayData, error) {
	n := in.Len()
	src := values[S](in)
	buf, dst := newValues[D](mem, n)
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = D(v)
	}
	return finish(in, out, mem, buf), nil
}

// maxNanosDays is the last day whose midnight fits int64 nanoseconds
// (2262-04-11).
const maxNanosDays = 106751

func dateToTimestamp(in arrow.ArrayData, out arrow.DataType, mem memory.Allocator, mult int64) (arrow.ArrayData, error) {
	src := values[int32](in)
	buf, dst := newValues[int64](mem, in.Len())
	dst = dst[:len(src)]
	var lo, hi int32
	for i, v := range src {
		dst[i] = int64(v) * mult
		lo, hi = min(lo, v), max(hi, v)
	}
	if mult > microsPerDay && (hi > maxNanosDays || lo < -maxNanosDays) {
		// Only a valid slot counts: a null slot may hold anything.
		arr := array.MakeFromData(in)
		defer arr.Release()
		for i, v := range src {
			if (v > maxNanosDays || v < -maxNanosDays) && arr.IsValid(i) {
				buf.Release()
				return nil, &castError{row: i, value: val{k: vDate, i: int64(v)}.String(), err: ErrValueOutOfRange}
			}
		}
	}
	return finish(in, out, mem, buf), nil
}

func finish(in arrow.ArrayData, out arrow.DataType, mem memory.Allocator, vals *memory.Buffer) arrow.ArrayData {
	valid := validity(in, mem)
	nulls := in.NullN()
	if valid == nil {
		nulls = 0
	}
	d := array.NewData(out, in.Len(), []*memory.Buffer{valid, vals}, nil, nulls, 0)
	if valid != nil {
		valid.Release()
	}
	vals.Release()
	return d
}
