package schema

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/lakecat/lakecat/internal/jsonutil"
)

// This file implements the single-value JSON serialization of the Iceberg
// table spec, Appendix D, used for initial-default and write-default. The Go
// form of each type is the one documented on [Field].
//
//	boolean                  true / false
//	tinyint, smallint, int   JSON integer
//	long                     JSON integer
//	float16, float, double   JSON number ("NaN", "Infinity", "-Infinity" as strings)
//	decimal(P,S)             JSON string with exactly S fraction digits: "14.20"
//	date                     "2017-11-16"
//	time                     "22:31:08.123456"
//	timestamp                "2017-11-16T22:31:08.123456"
//	timestamptz              "2017-11-16T22:31:08.123456+00:00"
//	timestamp_ns             "2017-11-16T22:31:08.123456789"
//	timestamptz_ns           "2017-11-16T22:31:08.123456789+00:00"
//	string, char, varchar    JSON string
//	uuid                     "f79c3e09-677c-4bbd-a479-3f349cb785e7"
//	fixed[L], binary         hexadecimal string "000102ff"
//	struct                   object keyed by field id: {"1": 1, "2": "bar"}
//	list                     array: [1, 2, 3]
//	map                      {"keys": ["a", "b"], "values": [1, 2]}
//
// The parser also accepts decimals with fewer fraction digits than the scale
// ("1.5" for decimal(9,2)) or in scientific notation, fraction digits 0–9 in
// time and timestamp strings, "Z" or any offset on the tz types (converted to
// UTC), and a number for a decimal. JSON null is the Go nil.

const literalCodec = "literal"

func litErr(t Type, raw []byte, msg string) error {
	s := string(raw)
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return &SchemaError{Codec: literalCodec, Msg: fmt.Sprintf("%s for %s: %s", msg, typeName(t), s)}
}

func typeName(t Type) string {
	if t == nil {
		return "<nil type>"
	}
	return t.String()
}

// ParseLiteral decodes a single value of type t from its Appendix D JSON
// form into the Go form documented on [Field]. JSON null (or empty input)
// gives nil. A value that does not fit t is an error matching
// [ErrInvalidSchema].
func ParseLiteral(t Type, raw json.RawMessage) (any, error) {
	return parseLiteral(t, raw, 0)
}

func parseLiteral(t Type, raw json.RawMessage, depth int) (any, error) {
	raw = bytes.TrimSpace(raw)
	if jsonutil.IsNull(raw) {
		return nil, nil
	}
	if depth > maxTypeDepth {
		return nil, litErr(t, raw, "value nested too deeply")
	}
	switch tt := t.(type) {
	case PrimitiveType:
		return parsePrimitiveLiteral(tt, raw)
	case *StructType:
		m, err := jsonutil.Object(raw)
		if err != nil {
			return nil, litErr(t, raw, "not a struct object")
		}
		out := make(map[int]any, len(m))
		for k, v := range m {
			id, err := strconv.Atoi(k)
			if err != nil {
				return nil, litErr(t, raw, "struct key is not a field id")
			}
			f := tt.Field(id)
			if f == nil {
				return nil, litErr(t, raw, fmt.Sprintf("struct has no field id %d", id))
			}
			x, err := parseLiteral(f.Type, v, depth+1)
			if err != nil {
				return nil, err
			}
			out[id] = x
		}
		return out, nil
	case *ListType:
		a, err := jsonutil.Array(raw)
		if err != nil {
			return nil, litErr(t, raw, "not a list array")
		}
		out := make([]any, len(a))
		for i, v := range a {
			if out[i], err = parseLiteral(tt.Element.Type, v, depth+1); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *MapType:
		m, err := jsonutil.Object(raw)
		if err != nil {
			return nil, litErr(t, raw, "not a map object")
		}
		ks, err1 := jsonutil.Array(m["keys"])
		vs, err2 := jsonutil.Array(m["values"])
		if err1 != nil || err2 != nil || len(ks) != len(vs) || len(m) != 2 {
			return nil, litErr(t, raw, `map must hold "keys" and "values" arrays of equal length`)
		}
		mv := MapValue{Keys: make([]any, len(ks)), Values: make([]any, len(vs))}
		for i := range ks {
			if mv.Keys[i], err = parseLiteral(tt.Key.Type, ks[i], depth+1); err != nil {
				return nil, err
			}
			if mv.Values[i], err = parseLiteral(tt.Value.Type, vs[i], depth+1); err != nil {
				return nil, err
			}
		}
		return mv, nil
	}
	return nil, litErr(t, raw, "no type")
}

func parsePrimitiveLiteral(p PrimitiveType, raw []byte) (any, error) {
	bad := func(msg string) (any, error) { return nil, litErr(p, raw, msg) }
	switch p.K {
	case KindUnknown:
		return bad("unknown type holds only null")
	case KindBoolean:
		b, err := jsonutil.Bool(raw)
		if err != nil {
			return bad("not a boolean")
		}
		return b, nil
	case KindTinyInt, KindSmallInt, KindInt, KindLong:
		bits := map[Kind]int{KindTinyInt: 8, KindSmallInt: 16, KindInt: 32, KindLong: 64}[p.K]
		v, err := jsonutil.Int(raw, bits)
		if err != nil {
			return bad("not an integer in range")
		}
		switch p.K {
		case KindTinyInt:
			return int8(v), nil
		case KindSmallInt:
			return int16(v), nil
		case KindInt:
			return int32(v), nil
		}
		return v, nil
	case KindFloat16, KindFloat, KindDouble:
		bits := 64
		if p.K != KindDouble {
			bits = 32
		}
		var f float64
		var err error
		if raw[0] == '"' {
			s, _ := jsonutil.String(raw)
			switch s {
			case "NaN":
				f = math.NaN()
			case "Infinity":
				f = math.Inf(1)
			case "-Infinity":
				f = math.Inf(-1)
			default:
				return bad("not a number")
			}
		} else {
			if !isJSONNumber(raw) {
				return bad("not a number")
			}
			f, err = strconv.ParseFloat(string(raw), bits)
			if err != nil {
				return bad("number out of range")
			}
		}
		if bits == 32 {
			return float32(f), nil
		}
		return f, nil
	case KindDecimal:
		var s string
		if raw[0] == '"' {
			s, _ = jsonutil.String(raw)
		} else if isJSONNumber(raw) {
			s = string(raw)
		} else {
			return bad("not a decimal string")
		}
		d, err := parseDecimal(s, p.Precision, p.Scale)
		if err != nil {
			return bad(err.Error())
		}
		return d, nil
	}
	s, err := jsonutil.String(raw)
	if err != nil {
		return bad("not a string")
	}
	switch p.K {
	case KindString, KindChar, KindVarchar:
		return s, nil
	case KindDate:
		days, ok := parseDate(s)
		if !ok || days < math.MinInt32 || days > math.MaxInt32 {
			return bad("not a date yyyy-mm-dd")
		}
		return int32(days), nil
	case KindTime:
		ns, ok := parseTimeOfDay(s)
		if !ok || ns%1000 != 0 {
			return bad("not a time hh:mm:ss[.ffffff]")
		}
		return ns / 1000, nil
	case KindTimestamp, KindTimestampTz, KindTimestampNs, KindTimestampTzNs:
		tz := p.K == KindTimestampTz || p.K == KindTimestampTzNs
		nanos := p.K == KindTimestampNs || p.K == KindTimestampTzNs
		v, ok := parseTimestamp(s, tz, nanos)
		if !ok {
			return bad("not a timestamp")
		}
		return v, nil
	case KindUUID:
		u, ok := parseUUID(s)
		if !ok {
			return bad("not a uuid")
		}
		return u, nil
	case KindFixed, KindBinary:
		b, err := hex.DecodeString(s)
		if err != nil {
			return bad("not a hexadecimal string")
		}
		if p.K == KindFixed && len(b) != p.Length {
			return bad(fmt.Sprintf("fixed value of %d bytes", len(b)))
		}
		return b, nil
	}
	return bad("unsupported type")
}

// isJSONNumber reports whether b is a JSON number.
func isJSONNumber(b []byte) bool {
	if len(b) == 0 || (b[0] != '-' && (b[0] < '0' || b[0] > '9')) {
		return false
	}
	return json.Valid(b)
}

var (
	tenBig  = big.NewInt(10)
	max128  = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 127), big.NewInt(1))
	min128  = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 127))
	two64   = new(big.Int).Lsh(big.NewInt(1), 64)
	mask64  = new(big.Int).Sub(two64, big.NewInt(1))
	errDec  = errors.New("not a decimal")
	errPrec = errors.New("decimal value does not fit the precision or scale")
)

// parseDecimal parses "[-+]digits[.digits][E[+-]digits]" into the unscaled
// value at the given scale; digits beyond the scale must be zeros and the
// value must fit the precision (0 precision: 38).
func parseDecimal(s string, precision, scale int) (DecimalValue, error) {
	if len(s) == 0 || len(s) > 200 {
		return DecimalValue{}, errDec
	}
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e > 100 || e < -100 {
			return DecimalValue{}, errDec
		}
		mant, exp = s[:i], e
	}
	neg := false
	if mant != "" && (mant[0] == '-' || mant[0] == '+') {
		neg = mant[0] == '-'
		mant = mant[1:]
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := intPart + frac
	if digits == "" {
		return DecimalValue{}, errDec
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return DecimalValue{}, errDec
		}
	}
	v, _ := new(big.Int).SetString(digits, 10)
	sc := len(frac) - exp // v × 10^-sc
	if sc < scale {
		v.Mul(v, new(big.Int).Exp(tenBig, big.NewInt(int64(scale-sc)), nil))
	} else if sc > scale {
		q, r := new(big.Int).QuoRem(v, new(big.Int).Exp(tenBig, big.NewInt(int64(sc-scale)), nil), new(big.Int))
		if r.Sign() != 0 {
			return DecimalValue{}, errPrec
		}
		v = q
	}
	if precision <= 0 {
		precision = 38
	}
	if len(v.String()) > precision && v.Sign() != 0 {
		return DecimalValue{}, errPrec
	}
	if neg {
		v.Neg(v)
	}
	return decimalFromBig(v)
}

// decimalFromBig converts v to a 128-bit two's complement DecimalValue.
func decimalFromBig(v *big.Int) (DecimalValue, error) {
	if v.Cmp(max128) > 0 || v.Cmp(min128) < 0 {
		return DecimalValue{}, errPrec
	}
	u := new(big.Int).Set(v)
	if u.Sign() < 0 {
		u.Add(u, new(big.Int).Lsh(big.NewInt(1), 128))
	}
	lo := new(big.Int).And(u, mask64).Uint64()
	hi := new(big.Int).Rsh(u, 64).Uint64()
	return DecimalValue{Hi: int64(hi), Lo: lo}, nil
}

// Big returns the unscaled value as a big integer.
func (d DecimalValue) Big() *big.Int {
	v := new(big.Int).SetInt64(d.Hi)
	v.Lsh(v, 64)
	return v.Add(v, new(big.Int).SetUint64(d.Lo))
}

// DecimalString formats the unscaled value d at the given scale ("14.20" for
// 1420 at scale 2), as Appendix D writes decimals.
func DecimalString(d DecimalValue, scale int) string {
	v := d.Big()
	neg := v.Sign() < 0
	s := new(big.Int).Abs(v).String()
	if scale > 0 {
		if len(s) <= scale {
			s = strings.Repeat("0", scale-len(s)+1) + s
		}
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	} else if scale < 0 {
		s += "E+" + strconv.Itoa(-scale)
	}
	if neg {
		s = "-" + s
	}
	return s
}

func atoiN(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
		if n > 1e9 {
			return 0, false
		}
	}
	return n, true
}

// parseDate parses "[-+]yyyy-mm-dd" into days since 1970-01-01.
func parseDate(s string) (int64, bool) {
	sign := 1
	if s != "" && (s[0] == '-' || s[0] == '+') {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	parts := strings.Split(s, "-")
	if len(parts) != 3 || len(parts[0]) < 4 || len(parts[0]) > 9 || len(parts[1]) != 2 || len(parts[2]) != 2 {
		return 0, false
	}
	y, ok1 := atoiN(parts[0])
	m, ok2 := atoiN(parts[1])
	d, ok3 := atoiN(parts[2])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 || d > 31 {
		return 0, false
	}
	t := time.Date(sign*y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d {
		return 0, false // 2023-02-30
	}
	return t.Unix() / 86400, true
}

// parseTimeOfDay parses "hh:mm[:ss[.f{1,9}]]" into nanoseconds since midnight.
func parseTimeOfDay(s string) (int64, bool) {
	main, frac, hasFrac := strings.Cut(s, ".")
	parts := strings.Split(main, ":")
	if len(parts) < 2 || len(parts) > 3 || (hasFrac && len(parts) != 3) {
		return 0, false
	}
	var hms [3]int
	for i, p := range parts {
		if len(p) != 2 {
			return 0, false
		}
		v, ok := atoiN(p)
		if !ok {
			return 0, false
		}
		hms[i] = v
	}
	if hms[0] > 23 || hms[1] > 59 || hms[2] > 59 {
		return 0, false
	}
	ns := int64(hms[0]*3600+hms[1]*60+hms[2]) * 1e9
	if hasFrac {
		if len(frac) == 0 || len(frac) > 9 {
			return 0, false
		}
		f, ok := atoiN(frac)
		if !ok {
			return 0, false
		}
		for i := len(frac); i < 9; i++ {
			f *= 10
		}
		ns += int64(f)
	}
	return ns, true
}

// parseTimestamp parses "date'T'time[offset]" into microseconds (or
// nanoseconds) since the epoch. The tz types need an offset ("+00:00", "Z",
// any ±hh:mm); the others refuse one.
func parseTimestamp(s string, tz, nanos bool) (int64, bool) {
	date, rest, ok := strings.Cut(s, "T")
	if !ok {
		date, rest, ok = strings.Cut(s, " ")
		if !ok {
			return 0, false
		}
	}
	days, ok := parseDate(date)
	if !ok {
		return 0, false
	}
	offset := int64(0)
	switch {
	case strings.HasSuffix(rest, "Z"):
		if !tz {
			return 0, false
		}
		rest = rest[:len(rest)-1]
	case len(rest) > 6 && (rest[len(rest)-6] == '+' || rest[len(rest)-6] == '-') && rest[len(rest)-3] == ':':
		if !tz {
			return 0, false
		}
		o := rest[len(rest)-6:]
		h, ok1 := atoiN(o[1:3])
		m, ok2 := atoiN(o[4:6])
		if !ok1 || !ok2 || h > 18 || m > 59 {
			return 0, false
		}
		offset = int64(h*3600+m*60) * 1e9
		if o[0] == '-' {
			offset = -offset
		}
		rest = rest[:len(rest)-6]
	default:
		if tz {
			return 0, false
		}
	}
	tod, ok := parseTimeOfDay(rest)
	if !ok {
		return 0, false
	}
	unit := int64(1000)
	if nanos {
		unit = 1
	} else if tod%1000 != 0 {
		return 0, false
	}
	perDay := int64(86400e9) / unit
	v := new(big.Int).Mul(big.NewInt(days), big.NewInt(perDay))
	v.Add(v, big.NewInt((tod-offset)/unit))
	if !v.IsInt64() {
		return 0, false
	}
	return v.Int64(), true
}

func parseUUID(s string) ([16]byte, bool) {
	var u [16]byte
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return u, false
	}
	h := s[0:8] + s[9:13] + s[14:18] + s[19:23] + s[24:36]
	b, err := hex.DecodeString(h)
	if err != nil {
		return u, false
	}
	copy(u[:], b)
	return u, true
}

// MarshalLiteral encodes v, a value of type t in the Go form documented on
// [Field], as Appendix D JSON. nil encodes as null. A Go value of the wrong
// form is an error matching [ErrInvalidSchema].
func MarshalLiteral(t Type, v any) (json.RawMessage, error) {
	var w jsonutil.Writer
	if err := writeLiteral(&w, t, v, 0); err != nil {
		return nil, err
	}
	return json.RawMessage(w.Bytes()), nil
}

func wrongForm(t Type, v any) error {
	return &SchemaError{Codec: literalCodec, Msg: fmt.Sprintf("Go value of type %T does not fit %s", v, typeName(t))}
}

func writeLiteral(w *jsonutil.Writer, t Type, v any, depth int) error {
	if v == nil {
		w.WriteString("null")
		return nil
	}
	if depth > maxTypeDepth {
		return wrongForm(t, v)
	}
	switch tt := t.(type) {
	case PrimitiveType:
		s, err := primitiveLiteral(tt, v)
		if err != nil {
			return err
		}
		w.WriteString(s)
		return nil
	case *StructType:
		m, ok := v.(map[int]any)
		if !ok {
			return wrongForm(t, v)
		}
		w.Open('{')
		n := 0
		for _, f := range tt.Fields {
			x, ok := m[f.ID]
			if !ok {
				continue
			}
			n++
			w.Key(strconv.Itoa(f.ID))
			if err := writeLiteral(w, f.Type, x, depth+1); err != nil {
				return err
			}
		}
		w.Close('}')
		if n != len(m) {
			return &SchemaError{Codec: literalCodec, Msg: fmt.Sprintf("struct value holds ids that %s does not have", typeName(t))}
		}
		return nil
	case *ListType:
		l, ok := v.([]any)
		if !ok {
			return wrongForm(t, v)
		}
		w.Open('[')
		for _, x := range l {
			w.Elem()
			if err := writeLiteral(w, tt.Element.Type, x, depth+1); err != nil {
				return err
			}
		}
		w.Close(']')
		return nil
	case *MapType:
		mv, ok := v.(MapValue)
		if !ok {
			if p, isPtr := v.(*MapValue); isPtr && p != nil {
				mv, ok = *p, true
			}
		}
		if !ok || len(mv.Keys) != len(mv.Values) {
			return wrongForm(t, v)
		}
		w.Open('{')
		for i, part := range [][]any{mv.Keys, mv.Values} {
			ft := tt.Key.Type
			if i == 1 {
				ft = tt.Value.Type
			}
			w.Key([]string{"keys", "values"}[i])
			w.Open('[')
			for _, x := range part {
				w.Elem()
				if err := writeLiteral(w, ft, x, depth+1); err != nil {
					return err
				}
			}
			w.Close(']')
		}
		w.Close('}')
		return nil
	}
	return wrongForm(t, v)
}

func quote(s string) string {
	var w jsonutil.Writer
	w.Quote(s)
	return w.String()
}

func formatFloat(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return `"NaN"`
	case math.IsInf(f, 1):
		return `"Infinity"`
	case math.IsInf(f, -1):
		return `"-Infinity"`
	}
	return strconv.FormatFloat(f, 'g', -1, bits)
}

func primitiveLiteral(p PrimitiveType, v any) (string, error) {
	bad := func() (string, error) { return "", wrongForm(p, v) }
	switch p.K {
	case KindBoolean:
		if b, ok := v.(bool); ok {
			return strconv.FormatBool(b), nil
		}
	case KindTinyInt:
		if x, ok := v.(int8); ok {
			return strconv.FormatInt(int64(x), 10), nil
		}
	case KindSmallInt:
		if x, ok := v.(int16); ok {
			return strconv.FormatInt(int64(x), 10), nil
		}
	case KindInt:
		if x, ok := v.(int32); ok {
			return strconv.FormatInt(int64(x), 10), nil
		}
	case KindLong:
		if x, ok := v.(int64); ok {
			return strconv.FormatInt(x, 10), nil
		}
	case KindFloat16, KindFloat:
		if x, ok := v.(float32); ok {
			return formatFloat(float64(x), 32), nil
		}
	case KindDouble:
		if x, ok := v.(float64); ok {
			return formatFloat(x, 64), nil
		}
	case KindDecimal:
		if x, ok := v.(DecimalValue); ok {
			return quote(DecimalString(x, p.Scale)), nil
		}
	case KindString, KindChar, KindVarchar:
		if x, ok := v.(string); ok {
			return quote(x), nil
		}
	case KindDate:
		if x, ok := v.(int32); ok {
			return quote(formatDate(int64(x))), nil
		}
	case KindTime:
		if x, ok := v.(int64); ok && x >= 0 && x < 86400e6 {
			return quote(formatTimeOfDay(x*1000, 6)), nil
		}
	case KindTimestamp, KindTimestampTz, KindTimestampNs, KindTimestampTzNs:
		if x, ok := v.(int64); ok {
			unit, digits := int64(1e6), 6
			if p.K == KindTimestampNs || p.K == KindTimestampTzNs {
				unit, digits = 1e9, 9
			}
			secs, sub := x/unit, x%unit
			if sub < 0 {
				secs--
				sub += unit
			}
			days, sod := secs/86400, secs%86400
			if sod < 0 {
				days--
				sod += 86400
			}
			s := formatDate(days) + "T" + formatTimeOfDay(sod*1e9+sub*(1e9/unit), digits)
			if p.K == KindTimestampTz || p.K == KindTimestampTzNs {
				s += "+00:00"
			}
			return quote(s), nil
		}
	case KindUUID:
		if x, ok := v.([16]byte); ok {
			h := hex.EncodeToString(x[:])
			return quote(h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]), nil
		}
	case KindFixed, KindBinary:
		if x, ok := v.([]byte); ok {
			if p.K == KindFixed && len(x) != p.Length {
				return bad()
			}
			return quote(hex.EncodeToString(x)), nil
		}
	}
	return bad()
}

func formatDate(days int64) string {
	return time.Unix(days*86400, 0).UTC().Format("2006-01-02")
}

// formatTimeOfDay formats nanoseconds since midnight as hh:mm:ss.f with the
// given number of fraction digits (6 or 9).
func formatTimeOfDay(ns int64, digits int) string {
	sec := ns / 1e9
	frac := ns % 1e9
	s := fmt.Sprintf("%02d:%02d:%02d", sec/3600, sec/60%60, sec%60)
	if digits == 6 {
		return s + fmt.Sprintf(".%06d", frac/1000)
	}
	return s + fmt.Sprintf(".%09d", frac)
}
