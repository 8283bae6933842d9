package project

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The general cast: rare casts (Paimon narrowing, to and from string, decimal
// rescaling, Hudi numeric→decimal) go value by value through a small tagged
// value, never through interface{}. A value that does not fit, or a string
// that does not parse, stops the cast with a *castError naming the row.

type valKind uint8

const (
	vInt valKind = iota
	vFloat
	vDec
	vBool
	vStr
	vDate // i: days since epoch
	vTime // i: microseconds since midnight
	vTSus // i: microseconds since epoch
	vTSns // i: nanoseconds since epoch
)

type val struct {
	k valKind
	// inst marks a timestamp as an instant (TIMESTAMP WITH LOCAL TIME
	// ZONE, Arrow time zone set) rather than a wall clock; loc is the
	// session time zone that relates the two (nil: UTC).
	inst  bool
	loc   *time.Location
	i     int64
	f     float64
	d     decimal128.Num
	scale int32
	b     bool
	s     string
}

// reader returns a function that reads row i of arr as a val; loc is the
// session time zone (nil: UTC) and inst tells whether a timestamp column is
// an instant (the Arrow type does not tell: both carry "UTC").
func reader(arr arrow.Array, loc *time.Location, inst bool) (func(i int) val, error) {
	switch a := arr.(type) {
	case *array.Int8:
		return func(i int) val { return val{k: vInt, i: int64(a.Value(i))} }, nil
	case *array.Int16:
		return func(i int) val { return val{k: vInt, i: int64(a.Value(i))} }, nil
	case *array.Int32:
		return func(i int) val { return val{k: vInt, i: int64(a.Value(i))} }, nil
	case *array.Int64:
		return func(i int) val { return val{k: vInt, i: a.Value(i)} }, nil
	case *array.Float16:
		return func(i int) val { return val{k: vFloat, f: float64(a.Value(i).Float32())} }, nil
	case *array.Float32:
		return func(i int) val { return val{k: vFloat, f: float64(a.Value(i))} }, nil
	case *array.Float64:
		return func(i int) val { return val{k: vFloat, f: a.Value(i)} }, nil
	case *array.Boolean:
		return func(i int) val { return val{k: vBool, b: a.Value(i)} }, nil
	case *array.Decimal128:
		scale := a.DataType().(*arrow.Decimal128Type).Scale
		return func(i int) val { return val{k: vDec, d: a.Value(i), scale: scale} }, nil
	case *array.String:
		return func(i int) val { return val{k: vStr, s: a.Value(i)} }, nil
	case *array.Binary:
		return func(i int) val { return val{k: vStr, s: string(a.Value(i))} }, nil
	case *array.FixedSizeBinary:
		return func(i int) val { return val{k: vStr, s: string(a.Value(i))} }, nil
	case *array.Date32:
		return func(i int) val { return val{k: vDate, i: int64(a.Value(i))} }, nil
	case *array.Time64:
		return func(i int) val { return val{k: vTime, i: int64(a.Value(i))} }, nil
	case *array.Timestamp:
		dt := a.DataType().(*arrow.TimestampType)
		k := vTSus
		if dt.Unit == arrow.Nanosecond {
			k = vTSns
		}
		return func(i int) val { return val{k: k, i: int64(a.Value(i)), inst: inst, loc: loc} }, nil
	}
	return nil, fmt.Errorf("%w: no cast from %s", ErrIncompatibleType, arr.DataType())
}

// castSlow casts in to out value by value in UTC.
func castSlow(in arrow.ArrayData, out arrow.DataType, mem memory.Allocator) (arrow.ArrayData, error) {
	return castSlowIn(nil, false, false, in, out, mem)
}

// castSlowZone returns the value-by-value cast in the session time zone
// loc; fromInst and toInst tell whether the file and read timestamps are
// instants (TIMESTAMP WITH LOCAL TIME ZONE) or wall clocks.
func castSlowZone(loc *time.Location, fromInst, toInst bool) convFunc {
	return func(in arrow.ArrayData, out arrow.DataType, mem memory.Allocator) (arrow.ArrayData, error) {
		return castSlowIn(loc, fromInst, toInst, in, out, mem)
	}
}

// castSlowIn casts in to out value by value; loc is the session time zone
// of casts between wall-clock timestamps and instants (nil: UTC).
func castSlowIn(loc *time.Location, fromInst, toInst bool, in arrow.ArrayData, out arrow.DataType, mem memory.Allocator) (arrow.ArrayData, error) {
	arr := array.MakeFromData(in)
	defer arr.Release()
	read, err := reader(arr, loc, fromInst)
	if err != nil {
		return nil, err
	}
	bld := array.NewBuilder(mem, out)
	defer bld.Release()
	bld.Reserve(arr.Len())
	write, err := writer(bld, out, loc, toInst)
	if err != nil {
		return nil, err
	}
	for i := 0; i < arr.Len(); i++ {
		if arr.IsNull(i) {
			bld.AppendNull()
			continue
		}
		v := read(i)
		if err := write(v); err != nil {
			return nil, &castError{row: i, value: v.String(), err: err}
		}
	}
	res := bld.NewArray()
	defer res.Release()
	d := res.Data()
	d.Retain()
	return d, nil
}

// String formats v for error messages and for casts to string.
func (v val) String() string {
	switch v.k {
	case vInt:
		return strconv.FormatInt(v.i, 10)
	case vFloat:
		return formatFloat(v.f)
	case vDec:
		return v.d.ToString(v.scale)
	case vBool:
		return strconv.FormatBool(v.b)
	case vStr:
		return strconv.Quote(v.s)
	case vDate:
		return time.Unix(v.i*86400, 0).UTC().Format("2006-01-02")
	case vTime:
		return formatFraction(time.UnixMicro(v.i).UTC().Format("15:04:05.000000"))
	case vTSus:
		return formatFraction(time.UnixMicro(v.wall()).UTC().Format("2006-01-02 15:04:05.000000"))
	case vTSns:
		return formatFraction(time.Unix(0, v.wall()).UTC().Format("2006-01-02 15:04:05.000000000"))
	}
	return "?"
}

// perSecond is the number of a timestamp val's units in a second.
func (v val) perSecond() int64 {
	if v.k == vTSns {
		return 1_000_000_000
	}
	return 1_000_000
}

// wall returns a timestamp val as the wall clock of the session time zone
// (an instant is shifted by the zone's offset at that instant), in its unit.
func (v val) wall() int64 {
	if !v.inst {
		return v.i
	}
	per := v.perSecond()
	return v.i + zoneOffset(v.loc, floorDiv(v.i, per), false)*per
}

// instant returns a timestamp val as an instant (a wall clock is taken in
// the session time zone), in its unit.
func (v val) instant() int64 {
	if v.inst {
		return v.i
	}
	per := v.perSecond()
	return v.i - zoneOffset(v.loc, floorDiv(v.i, per), true)*per
}

// zoneOffset returns the offset of loc from UTC in seconds at secs, read as
// seconds since the epoch of a wall clock (wall) or of an instant. A wall
// clock that a transition skips or repeats takes the offset Go's time.Date
// picks. Nil or UTC: 0.
func zoneOffset(loc *time.Location, secs int64, wall bool) int64 {
	if loc == nil || loc == time.UTC {
		return 0
	}
	t := time.Unix(secs, 0).UTC()
	if wall {
		t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, loc)
	} else {
		t = t.In(loc)
	}
	_, off := t.Zone()
	return int64(off)
}

// text is v as the string a cast to string produces (strings unquoted).
func (v val) text() string {
	if v.k == vStr {
		return v.s
	}
	return v.String()
}

// formatFraction trims trailing zeros of the fractional seconds and the dot
// when nothing is left ("12:00:00.500000" → "12:00:00.5").
func formatFraction(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	return s
}

// formatFloat formats like Java's Double.toString, which Paimon and Hudi
// (through Spark) use: plain notation with at least one fractional digit for
// 1e-3 ≤ |f| < 1e7, else computerized scientific notation ("1.0E10").
func formatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	a := math.Abs(f)
	if a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'E', -1, 64) // 1E+10, 1.5E-05
	mant, exp, _ := strings.Cut(s, "E")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}

var (
	errRange   = ErrValueOutOfRange
	errInvalid = ErrInvalidValue
)

// asInt64 converts v to an integer, truncating a fraction toward zero as
// Java's casts do.
func (v val) asInt64() (int64, error) {
	switch v.k {
	case vInt:
		return v.i, nil
	case vBool:
		if v.b {
			return 1, nil
		}
		return 0, nil
	case vFloat:
		if math.IsNaN(v.f) || v.f >= 9.223372036854775807e18 || v.f < -9.223372036854775808e18 {
			return 0, errRange
		}
		return int64(v.f), nil
	case vDec:
		bi := v.d.BigInt()
		bi.Quo(bi, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(v.scale)), nil))
		if !bi.IsInt64() {
			return 0, errRange
		}
		return bi.Int64(), nil
	case vStr:
		s := strings.TrimSpace(v.s)
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i, nil
		} else if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, errRange
		}
		return 0, errInvalid
	case vTSus, vTSns:
		// Paimon's TimestampToNumericPrimitiveCastRule: seconds since the
		// epoch of the instant (a wall clock in the session time zone).
		return floorDiv(v.instant(), v.perSecond()), nil
	}
	return 0, errInvalid
}

func (v val) asFloat64() (float64, error) {
	switch v.k {
	case vInt:
		return float64(v.i), nil
	case vFloat:
		return v.f, nil
	case vBool:
		if v.b {
			return 1, nil
		}
		return 0, nil
	case vDec:
		return v.d.ToFloat64(v.scale), nil
	case vStr:
		f, err := strconv.ParseFloat(strings.TrimSpace(v.s), 64)
		if err != nil {
			return 0, errInvalid
		}
		return f, nil
	}
	return 0, errInvalid
}

// asDecimal converts v to an unscaled value at precision p and scale s,
// rounding half away from zero when the scale shrinks.
func (v val) asDecimal(p, s int32) (decimal128.Num, error) {
	var bi *big.Int
	switch v.k {
	case vInt:
		bi = new(big.Int).Mul(big.NewInt(v.i), pow10(s))
	case vBool:
		bi = big.NewInt(0)
		if v.b {
			bi = pow10(s)
		}
	case vDec:
		bi = rescale(v.d.BigInt(), v.scale, s)
	case vFloat:
		// The shortest decimal that reads back as the same float, as Java's
		// new BigDecimal(Double.toString(f)) takes it: 1.005 → 1.01 at scale 2.
		if math.IsNaN(v.f) || math.IsInf(v.f, 0) {
			return decimal128.Num{}, errRange
		}
		r, _ := new(big.Rat).SetString(strconv.FormatFloat(v.f, 'g', -1, 64))
		r.Mul(r, new(big.Rat).SetInt(pow10(s)))
		bi = roundRat(r)
	case vStr:
		r, ok := new(big.Rat).SetString(strings.TrimSpace(v.s))
		if !ok {
			return decimal128.Num{}, errInvalid
		}
		r.Mul(r, new(big.Rat).SetInt(pow10(s)))
		bi = roundRat(r)
	default:
		return decimal128.Num{}, errInvalid
	}
	if new(big.Int).Abs(bi).Cmp(pow10(p)) >= 0 {
		return decimal128.Num{}, errRange
	}
	return decimal128.FromBigInt(bi), nil
}

func pow10(n int32) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

func rescale(bi *big.Int, from, to int32) *big.Int {
	if to >= from {
		return bi.Mul(bi, pow10(to-from))
	}
	return roundRat(new(big.Rat).SetFrac(bi, pow10(from-to)))
}

// roundRat rounds half away from zero.
func roundRat(r *big.Rat) *big.Int {
	num, den := new(big.Int).Set(r.Num()), r.Denom()
	neg := num.Sign() < 0
	num.Abs(num)
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	if m.Mul(m, big.NewInt(2)).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if neg {
		q.Neg(q)
	}
	return q
}

const (
	microsPerDay = int64(86400_000_000)
)

// asMicros converts v to microseconds since the epoch (timestamps) or since
// midnight (times).
//
// inst tells whether the target is an instant (TIMESTAMP WITH LOCAL TIME
// ZONE) or a wall clock. Between the two, v.loc (the session time zone)
// relates them as in Paimon's casts: a wall clock is taken in the zone, an
// instant is seen in it. A date or a time of day is a wall clock; an
// integer is seconds since the epoch of an instant (Paimon's
// NumericPrimitiveToTimestamp).
func (v val) asTimestamp(unit arrow.TimeUnit, inst bool) (int64, error) {
	var us, ns int64
	wall := true
	switch v.k {
	case vDate:
		us = v.i * microsPerDay
		ns = us * 1000
		if unit == arrow.Nanosecond && (v.i > 106751 || v.i < -106752) {
			return 0, errRange
		}
	case vTSus:
		us = v.i
		wall = !v.inst
		if unit == arrow.Nanosecond && (us > math.MaxInt64/1000 || us < math.MinInt64/1000) {
			return 0, errRange
		}
		ns = us * 1000
	case vTSns:
		ns = v.i
		wall = !v.inst
		us = floorDiv(ns, 1000)
	case vTime:
		// A time of day is that time on 1970-01-01 (Paimon's TimeToTimestamp).
		us, ns = v.i, v.i*1000
	case vInt:
		per := int64(1_000_000)
		if unit == arrow.Nanosecond {
			per = 1_000_000_000
		}
		if v.i > math.MaxInt64/per-86400 || v.i < math.MinInt64/per+86400 {
			return 0, errRange
		}
		us = v.i * 1_000_000
		ns = us * 1000 // used only when unit is nanoseconds, where it fits
		wall = false
	case vStr:
		t, err := parseTimestamp(strings.TrimSpace(v.s))
		if err != nil {
			return 0, errInvalid
		}
		us, ns = t.UnixMicro(), t.UnixNano()
	default:
		return 0, errInvalid
	}
	if wall != !inst {
		// Shift between a wall clock and an instant in the session zone.
		off := zoneOffset(v.loc, floorDiv(us, 1_000_000), wall)
		if wall {
			off = -off
		}
		us += off * 1_000_000
		ns += off * 1_000_000_000
	}
	if unit == arrow.Nanosecond {
		return ns, nil
	}
	return us, nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

var timestampLayouts = []string{
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02",
}

func parseTimestamp(s string) (time.Time, error) {
	for _, l := range timestampLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, errInvalid
}

func (v val) asDate() (int32, error) {
	switch v.k {
	case vTSus:
		return int32(floorDiv(v.wall(), microsPerDay)), nil
	case vTSns:
		return int32(floorDiv(v.wall(), microsPerDay*1000)), nil
	case vStr:
		t, err := time.Parse("2006-01-02", strings.TrimSpace(v.s))
		if err != nil {
			return 0, errInvalid
		}
		return int32(floorDiv(t.Unix(), 86400)), nil
	}
	return 0, errInvalid
}

func (v val) asTime() (int64, error) {
	switch v.k {
	case vTSus:
		w := v.wall()
		return w - floorDiv(w, microsPerDay)*microsPerDay, nil
	case vTSns:
		us := floorDiv(v.wall(), 1000)
		return us - floorDiv(us, microsPerDay)*microsPerDay, nil
	case vStr:
		for _, l := range []string{"15:04:05.999999", "15:04"} {
			if t, err := time.Parse(l, strings.TrimSpace(v.s)); err == nil {
				return int64(t.Hour())*3600e6 + int64(t.Minute())*60e6 + int64(t.Second())*1e6 + int64(t.Nanosecond()/1000), nil
			}
		}
	}
	return 0, errInvalid
}

func (v val) asBool() (bool, error) {
	switch v.k {
	case vBool:
		return v.b, nil
	case vInt:
		return v.i != 0, nil
	case vFloat:
		return v.f != 0, nil
	case vDec:
		return v.d.Sign() != 0, nil
	case vStr:
		switch strings.ToLower(strings.TrimSpace(v.s)) {
		case "true", "t", "yes", "y", "1":
			return true, nil
		case "false", "f", "no", "n", "0":
			return false, nil
		}
	}
	return false, errInvalid
}

// writer returns a function that appends a val to bld as type out; loc is
// the session time zone (nil: UTC) and inst tells whether a timestamp
// target is an instant.
func writer(bld array.Builder, out arrow.DataType, loc *time.Location, inst bool) (func(val) error, error) {
	intW := func(lo, hi int64, app func(int64)) func(val) error {
		return func(v val) error {
			i, err := v.asInt64()
			if err != nil {
				return err
			}
			if i < lo || i > hi {
				return errRange
			}
			app(i)
			return nil
		}
	}
	switch b := bld.(type) {
	case *array.Int8Builder:
		return intW(math.MinInt8, math.MaxInt8, func(i int64) { b.Append(int8(i)) }), nil
	case *array.Int16Builder:
		return intW(math.MinInt16, math.MaxInt16, func(i int64) { b.Append(int16(i)) }), nil
	case *array.Int32Builder:
		return intW(math.MinInt32, math.MaxInt32, func(i int64) { b.Append(int32(i)) }), nil
	case *array.Int64Builder:
		return intW(math.MinInt64, math.MaxInt64, func(i int64) { b.Append(i) }), nil
	case *array.Float32Builder:
		return func(v val) error {
			f, err := v.asFloat64()
			if err != nil {
				return err
			}
			if !math.IsInf(f, 0) && !math.IsNaN(f) && math.Abs(f) > math.MaxFloat32 {
				return errRange
			}
			b.Append(float32(f))
			return nil
		}, nil
	case *array.Float64Builder:
		return func(v val) error {
			f, err := v.asFloat64()
			if err != nil {
				return err
			}
			b.Append(f)
			return nil
		}, nil
	case *array.BooleanBuilder:
		return func(v val) error {
			x, err := v.asBool()
			if err != nil {
				return err
			}
			b.Append(x)
			return nil
		}, nil
	case *array.Decimal128Builder:
		dt := out.(*arrow.Decimal128Type)
		return func(v val) error {
			n, err := v.asDecimal(dt.Precision, dt.Scale)
			if err != nil {
				return err
			}
			b.Append(n)
			return nil
		}, nil
	case *array.StringBuilder:
		return func(v val) error { b.Append(v.text()); return nil }, nil
	case *array.BinaryBuilder:
		return func(v val) error {
			if v.k != vStr {
				return errInvalid
			}
			b.AppendString(v.s)
			return nil
		}, nil
	case *array.Date32Builder:
		return func(v val) error {
			d, err := v.asDate()
			if err != nil {
				return err
			}
			b.Append(arrow.Date32(d))
			return nil
		}, nil
	case *array.Time64Builder:
		return func(v val) error {
			t, err := v.asTime()
			if err != nil {
				return err
			}
			b.Append(arrow.Time64(t))
			return nil
		}, nil
	case *array.TimestampBuilder:
		unit := out.(*arrow.TimestampType).Unit
		return func(v val) error {
			v.loc = loc
			t, err := v.asTimestamp(unit, inst)
			if err != nil {
				return err
			}
			b.Append(arrow.Timestamp(t))
			return nil
		}, nil
	}
	return nil, fmt.Errorf("%w: no cast to %s", ErrIncompatibleType, out)
}
