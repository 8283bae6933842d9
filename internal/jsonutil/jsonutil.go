// Package jsonutil holds the small JSON helpers shared by lakecat's
// metadata codecs (schema JSON, Paimon schema-N, name mappings, Iceberg table
// metadata): strict scalar decoding of raw values and a writer of compact
// JSON with keys in a chosen order.
package jsonutil

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"reflect"
	"sort"
	"strconv"
)

// ErrNotInteger is returned by [Int] for a value that is not a JSON integer.
var ErrNotInteger = errors.New("not a JSON integer")

// Object decodes raw as a JSON object into its keys and raw values.
func Object(raw []byte) (map[string]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, errors.New("not a JSON object")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	return m, nil
}

// IsNull reports whether raw is absent or the JSON null.
func IsNull(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}

// Int decodes raw as a JSON integer that fits a signed integer of bits
// bits. A number with a
// fraction or an exponent ("5.0", "5e0") is refused: ids and counts are
// integers (see case A22 in the evolution cases).
func Int(raw json.RawMessage, bits int) (int64, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0, ErrNotInteger
	}
	if c := raw[0]; c != '-' && (c < '0' || c > '9') {
		return 0, ErrNotInteger
	}
	v, err := strconv.ParseInt(string(raw), 10, bits)
	if err != nil {
		return 0, ErrNotInteger
	}
	return v, nil
}

// String decodes raw as a JSON string.
func String(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return "", errors.New("not a JSON string")
	}
	if PlainString(raw) {
		return string(raw[1 : len(raw)-1]), nil
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}

// PlainString reports whether raw is a quoted JSON string of printable
// ASCII without escapes, whose value is the bytes between the quotes.
func PlainString(raw []byte) bool {
	if len(raw) < 2 || raw[len(raw)-1] != '"' {
		return false
	}
	for _, c := range raw[1 : len(raw)-1] {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// Bool decodes raw as a JSON boolean.
func Bool(raw json.RawMessage) (bool, error) {
	switch string(bytes.TrimSpace(raw)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, errors.New("not a JSON boolean")
}

// Array decodes raw as a JSON array of raw values; null gives nil.
func Array(raw json.RawMessage) ([]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if string(raw) == "null" {
		return nil, nil
	}
	if len(raw) == 0 || raw[0] != '[' {
		return nil, errors.New("not a JSON array")
	}
	var a []json.RawMessage
	err := json.Unmarshal(raw, &a)
	return a, err
}

// Writer builds compact JSON with keys in a chosen order.
type Writer struct {
	bytes.Buffer
	first []bool // per open object/array: no element written yet
}

// Open writes c ('{' or '[') and starts a new object or array.
func (w *Writer) Open(c byte) {
	w.WriteByte(c)
	w.first = append(w.first, true)
}

// Close writes c ('}' or ']') and ends the innermost object or array.
func (w *Writer) Close(c byte) {
	w.WriteByte(c)
	w.first = w.first[:len(w.first)-1]
}

func (w *Writer) sep() {
	if n := len(w.first); n > 0 {
		if !w.first[n-1] {
			w.WriteByte(',')
		}
		w.first[n-1] = false
	}
}

// Key writes the separator and "k":.
func (w *Writer) Key(k string) {
	w.sep()
	w.Quote(k)
	w.WriteByte(':')
}

// Elem writes the separator before an array element.
func (w *Writer) Elem() { w.sep() }

// Quote writes s as a JSON string (HTML characters not escaped).
func (w *Writer) Quote(s string) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	w.Write(bytes.TrimRight(b.Bytes(), "\n"))
}

// Str writes the member k with the string value v.
func (w *Writer) Str(k, v string) {
	w.Key(k)
	w.Quote(v)
}

// Int writes the member k with the integer value v.
func (w *Writer) Int(k string, v int64) {
	w.Key(k)
	w.WriteString(strconv.FormatInt(v, 10))
}

// Bool writes the member k with the boolean value v.
func (w *Writer) Bool(k string, v bool) {
	w.Key(k)
	w.WriteString(strconv.FormatBool(v))
}

// Raw writes the member k with the JSON value v, compacted.
func (w *Writer) Raw(k string, v []byte) {
	w.Key(k)
	w.Write(Compact(v))
}

// StrMap writes the member k, a JSON object of strings with sorted keys.
func (w *Writer) StrMap(k string, m map[string]string) {
	w.Key(k)
	w.StrMapValue(m)
}

// StrMapValue writes a JSON object of strings with sorted keys.
func (w *Writer) StrMapValue(m map[string]string) {
	keys := make([]string, 0, len(m))
	for s := range m {
		keys = append(keys, s)
	}
	sort.Strings(keys)
	w.Open('{')
	for _, s := range keys {
		w.Str(s, m[s])
	}
	w.Close('}')
}

// StrList writes the member k, a JSON array of strings ([] for nil).
func (w *Writer) StrList(k string, l []string) {
	w.Key(k)
	w.Open('[')
	for _, s := range l {
		w.Elem()
		w.Quote(s)
	}
	w.Close(']')
}

// Compact returns v without insignificant white space (v itself when it
// cannot be compacted).
func Compact(v []byte) []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, v); err != nil {
		return v
	}
	return b.Bytes()
}

// StringMap decodes a JSON object of strings; null gives nil.
func StringMap(raw json.RawMessage) (map[string]string, error) {
	if IsNull(raw) {
		return nil, nil
	}
	m, err := Object(raw)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		s, err := String(v)
		if err != nil {
			return nil, err
		}
		out[k] = s
	}
	return out, nil
}

// StringList decodes a JSON array of strings; null gives nil.
func StringList(raw json.RawMessage) ([]string, error) {
	if IsNull(raw) {
		return nil, nil
	}
	a, err := Array(raw)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(a))
	for _, v := range a {
		s, err := String(v)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// NilIfEmpty returns o, or nil when o has no members: the form codecs keep
// for "no unknown keys".
func NilIfEmpty(o map[string]json.RawMessage) map[string]json.RawMessage {
	if len(o) == 0 {
		return nil
	}
	return o
}

// RawMembers writes the members of extra, keys sorted, values compacted:
// the keys a codec does not decode, kept so that a rewrite loses nothing.
func (w *Writer) RawMembers(extra map[string]json.RawMessage) {
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		w.Raw(k, extra[k])
	}
}

// Equal reports whether a and b hold the same JSON value: objects compare
// by their members in any order, numbers by value (1, 1.0 and 1e0 are
// equal; the number 1 and the string "1" are not). An error is returned
// when a or b is not one JSON value.
func Equal(a, b []byte) (bool, error) {
	va, err := numberValue(a)
	if err != nil {
		return false, err
	}
	vb, err := numberValue(b)
	if err != nil {
		return false, err
	}
	return reflect.DeepEqual(va, vb), nil
}

// number is a JSON number in a normal form, distinct from a JSON string.
type number string

// numberValue decodes b into a generic value whose numbers are numbers.
func numberValue(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON value")
	}
	return normNumbers(v), nil
}

func normNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, _, err := big.ParseFloat(string(x), 10, 200, big.ToNearestEven)
		if err != nil {
			return string(x)
		}
		return number(f.Text('g', 40))
	case map[string]any:
		for k, e := range x {
			x[k] = normNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normNumbers(e)
		}
	}
	return v
}
