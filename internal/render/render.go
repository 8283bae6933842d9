// Package render turns Arrow values into the text and JSON forms lakecat
// prints (and its tests compare).
package render

import (
	"encoding/base64"
	"encoding/hex"
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakecat/lakecat/schema"
)

// Values are rendered the same way in every text format:
//
//	null                   null (JSON), empty (csv), NULL (table)
//	integers, floats       decimal digits; NaN and ±Inf as strings in JSON
//	decimal(P,S)           exactly S fraction digits, as a JSON string
//	date                   "2006-01-02"
//	time                   "15:04:05.000000"
//	timestamp              "2006-01-02T15:04:05.000000" (ns types: 9 digits)
//	timestamptz            the same with a "Z" suffix
//	string                 the string
//	binary, fixed          base64 (standard, padded)
//	uuid                   "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
//	struct                 JSON object in field order
//	list                   JSON array
//	map                    JSON object when the key type is a string,
//	                       else an array of {"key": …, "value": …}
//
// AppendJSON appends the JSON form of a[i]. hint (nil allowed) marks the
// fixed[16] columns that the read schema calls uuid.
func AppendJSON(b []byte, a arrow.Array, i int, hint *Hint) []byte {
	if a.IsNull(i) {
		return append(b, "null"...)
	}
	switch arr := a.(type) {
	case *array.Boolean:
		return strconv.AppendBool(b, arr.Value(i))
	case *array.Int8:
		return strconv.AppendInt(b, int64(arr.Value(i)), 10)
	case *array.Int16:
		return strconv.AppendInt(b, int64(arr.Value(i)), 10)
	case *array.Int32:
		return strconv.AppendInt(b, int64(arr.Value(i)), 10)
	case *array.Int64:
		return strconv.AppendInt(b, arr.Value(i), 10)
	case *array.Uint8:
		return strconv.AppendUint(b, uint64(arr.Value(i)), 10)
	case *array.Uint16:
		return strconv.AppendUint(b, uint64(arr.Value(i)), 10)
	case *array.Uint32:
		return strconv.AppendUint(b, uint64(arr.Value(i)), 10)
	case *array.Uint64:
		return strconv.AppendUint(b, arr.Value(i), 10)
	case *array.Float16:
		return appendFloat(b, float64(arr.Value(i).Float32()), 32)
	case *array.Float32:
		return appendFloat(b, float64(arr.Value(i)), 32)
	case *array.Float64:
		return appendFloat(b, arr.Value(i), 64)
	case *array.String, *array.Decimal128, *array.Date32, *array.Time64, *array.Timestamp,
		*array.Binary, *array.FixedSizeBinary, *array.LargeString, *array.LargeBinary, *array.Time32:
		return appendString(b, Text(a, i, hint))
	case *array.Struct:
		st := arr.DataType().(*arrow.StructType)
		b = append(b, '{')
		for j := 0; j < arr.NumField(); j++ {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendString(b, st.Field(j).Name)
			b = append(b, ':')
			b = AppendJSON(b, arr.Field(j), i, hint.child(j))
		}
		return append(b, '}')
	case *array.Map:
		start, end := arr.ValueOffsets(i)
		keys, items := arr.Keys(), arr.Items()
		stringKeys := keys.DataType().ID() == arrow.STRING
		if stringKeys {
			b = append(b, '{')
		} else {
			b = append(b, '[')
		}
		for j := start; j < end; j++ {
			if j > start {
				b = append(b, ',')
			}
			if stringKeys {
				b = appendString(b, keys.(*array.String).Value(int(j)))
				b = append(b, ':')
				b = AppendJSON(b, items, int(j), hint.child(1))
				continue
			}
			b = append(b, `{"key":`...)
			b = AppendJSON(b, keys, int(j), hint.child(0))
			b = append(b, `,"value":`...)
			b = AppendJSON(b, items, int(j), hint.child(1))
			b = append(b, '}')
		}
		if stringKeys {
			return append(b, '}')
		}
		return append(b, ']')
	case *array.List:
		start, end := arr.ValueOffsets(i)
		b = append(b, '[')
		for j := start; j < end; j++ {
			if j > start {
				b = append(b, ',')
			}
			b = AppendJSON(b, arr.ListValues(), int(j), hint.child(0))
		}
		return append(b, ']')
	case *array.Null:
		return append(b, "null"...)
	}
	return appendString(b, a.ValueStr(i))
}

// appendString appends s as a JSON string (RFC 8259 section 7): '"', '\\'
// and control characters escaped, each byte of invalid UTF-8 written as
// U+FFFD, as encoding/json does.
func appendString(b []byte, s string) []byte {
	const digits = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', digits[c>>4], digits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func appendFloat(b []byte, v float64, bits int) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return appendString(b, strconv.FormatFloat(v, 'g', -1, bits))
	}
	return strconv.AppendFloat(b, v, 'g', -1, bits)
}

// Text renders a primitive value as plain text (the table and csv
// forms; JSON quotes it).
func Text(a arrow.Array, i int, hint *Hint) string {
	switch arr := a.(type) {
	case *array.String:
		return arr.Value(i)
	case *array.LargeString:
		return arr.Value(i)
	case *array.Decimal128:
		return arr.Value(i).ToString(arr.DataType().(*arrow.Decimal128Type).Scale)
	case *array.Date32:
		return arr.Value(i).ToTime().Format("2006-01-02")
	case *array.Time64:
		unit := arr.DataType().(*arrow.Time64Type).Unit
		d := time.Duration(int64(arr.Value(i)) * int64(unit.Multiplier()))
		return time.Unix(0, 0).UTC().Add(d).Format("15:04:05.000000")
	case *array.Time32:
		return arr.ValueStr(i)
	case *array.Timestamp:
		tt := arr.DataType().(*arrow.TimestampType)
		t := tsTime(int64(arr.Value(i)), tt.Unit)
		layout := "2006-01-02T15:04:05.000000"
		if tt.Unit == arrow.Nanosecond {
			layout = "2006-01-02T15:04:05.000000000"
		}
		s := t.Format(layout)
		if tt.TimeZone != "" {
			s += "Z"
		}
		return s
	case *array.Binary:
		return base64.StdEncoding.EncodeToString(arr.Value(i))
	case *array.LargeBinary:
		return base64.StdEncoding.EncodeToString(arr.Value(i))
	case *array.FixedSizeBinary:
		v := arr.Value(i)
		if hint.isUUID() && len(v) == 16 {
			h := hex.EncodeToString(v)
			return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
		}
		return base64.StdEncoding.EncodeToString(v)
	case *array.Float16:
		return strconv.FormatFloat(float64(arr.Value(i).Float32()), 'g', -1, 32)
	case *array.Float32:
		return strconv.FormatFloat(float64(arr.Value(i)), 'g', -1, 32)
	case *array.Float64:
		return strconv.FormatFloat(arr.Value(i), 'g', -1, 64)
	case *array.Boolean, *array.Int8, *array.Int16, *array.Int32, *array.Int64,
		*array.Uint8, *array.Uint16, *array.Uint32, *array.Uint64:
		return string(AppendJSON(nil, a, i, hint))
	}
	return string(AppendJSON(nil, a, i, hint))
}

// tsTime converts a timestamp value in unit to a UTC time; values beyond
// time.Time's nanosecond range are still exact for micro- and milliseconds.
func tsTime(v int64, unit arrow.TimeUnit) time.Time {
	switch unit {
	case arrow.Second:
		return time.Unix(v, 0).UTC()
	case arrow.Millisecond:
		return time.Unix(floorDiv(v, 1e3), floorMod(v, 1e3)*1e6).UTC()
	case arrow.Microsecond:
		return time.Unix(floorDiv(v, 1e6), floorMod(v, 1e6)*1e3).UTC()
	}
	return time.Unix(floorDiv(v, 1e9), floorMod(v, 1e9)).UTC()
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// Hint carries what the Arrow type cannot say: which fixed[16] columns are
// uuids. A nil hint knows nothing. Children follow the schema tree (struct
// fields, list element, map key and value).
type Hint struct {
	uuid     bool
	children []*Hint
}

func (h *Hint) isUUID() bool { return h != nil && h.uuid }

func (h *Hint) child(i int) *Hint {
	if h == nil || i >= len(h.children) {
		return nil
	}
	return h.children[i]
}

// Hints returns one hint per top-level field of s (nil for a nil schema).
func Hints(s *schema.Schema) []*Hint {
	if s == nil {
		return nil
	}
	out := make([]*Hint, len(s.Fields))
	for i, f := range s.Fields {
		out[i] = hintFor(f)
	}
	return out
}

func hintFor(f *schema.Field) *Hint {
	h := &Hint{uuid: f.Type.Kind() == schema.KindUUID}
	for _, c := range schema.Children(f.Type) {
		h.children = append(h.children, hintFor(c))
	}
	return h
}

// At returns hints[i], or nil past the end.
func At(hints []*Hint, i int) *Hint {
	if i < len(hints) {
		return hints[i]
	}
	return nil
}

// AppendRow appends row r of rec as one JSON object with the columns in
// schema order, and no newline.
func AppendRow(b []byte, rec arrow.RecordBatch, r int, hints []*Hint) []byte {
	b = append(b, '{')
	for c := 0; c < int(rec.NumCols()); c++ {
		if c > 0 {
			b = append(b, ',')
		}
		b = appendString(b, rec.ColumnName(c))
		b = append(b, ':')
		b = AppendJSON(b, rec.Column(c), r, At(hints, c))
	}
	return append(b, '}')
}

// Cell is a value as the table and csv formats show it: primitives as plain
// text, nested values as JSON; ok is false for null.
func Cell(a arrow.Array, i int, h *Hint) (s string, ok bool) {
	if a.IsNull(i) {
		return "", false
	}
	switch a.DataType().ID() {
	case arrow.STRUCT, arrow.LIST, arrow.MAP:
		return string(AppendJSON(nil, a, i, h)), true
	}
	return Text(a, i, h), true
}
