package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
)

// Helpers shared by the JSON codecs of this package.

var errNotInteger = errors.New("not a JSON integer")

// jsonObject decodes raw as a JSON object into its keys and raw values.
func jsonObject(raw []byte) (map[string]json.RawMessage, error) {
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

// isNull reports whether raw is absent or the JSON null.
func isNull(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}

// jsonInt decodes raw as a JSON integer in [lo, hi]. A number with a
// fraction or an exponent ("5.0", "5e0") is refused: ids and counts are
// integers (see case A22 in the evolution cases).
func jsonInt(raw json.RawMessage, bits int) (int64, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0, errNotInteger
	}
	if c := raw[0]; c != '-' && (c < '0' || c > '9') {
		return 0, errNotInteger
	}
	v, err := strconv.ParseInt(string(raw), 10, bits)
	if err != nil {
		return 0, errNotInteger
	}
	return v, nil
}

// jsonString decodes raw as a JSON string.
func jsonString(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return "", errors.New("not a JSON string")
	}
	if plainString(raw) {
		return string(raw[1 : len(raw)-1]), nil
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}

// plainString reports whether raw is a quoted JSON string of printable
// ASCII without escapes, whose value is the bytes between the quotes.
func plainString(raw []byte) bool {
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

// jsonBool decodes raw as a JSON boolean.
func jsonBool(raw json.RawMessage) (bool, error) {
	switch string(bytes.TrimSpace(raw)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, errors.New("not a JSON boolean")
}

// jsonArray decodes raw as a JSON array of raw values; null gives nil.
func jsonArray(raw json.RawMessage) ([]json.RawMessage, error) {
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

// jsonWriter builds compact JSON with keys in a chosen order.
type jsonWriter struct {
	bytes.Buffer
	first []bool // per open object/array: no element written yet
}

func (w *jsonWriter) open(c byte) {
	w.WriteByte(c)
	w.first = append(w.first, true)
}

func (w *jsonWriter) close(c byte) {
	w.WriteByte(c)
	w.first = w.first[:len(w.first)-1]
}

func (w *jsonWriter) sep() {
	if n := len(w.first); n > 0 {
		if !w.first[n-1] {
			w.WriteByte(',')
		}
		w.first[n-1] = false
	}
}

// key writes the separator and "k":.
func (w *jsonWriter) key(k string) {
	w.sep()
	w.writeString(k)
	w.WriteByte(':')
}

// elem writes the separator before an array element.
func (w *jsonWriter) elem() { w.sep() }

func (w *jsonWriter) writeString(s string) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	w.Write(bytes.TrimRight(b.Bytes(), "\n"))
}

func (w *jsonWriter) str(k, v string) {
	w.key(k)
	w.writeString(v)
}

func (w *jsonWriter) int(k string, v int64) {
	w.key(k)
	w.WriteString(strconv.FormatInt(v, 10))
}

func (w *jsonWriter) bool(k string, v bool) {
	w.key(k)
	w.WriteString(strconv.FormatBool(v))
}

func (w *jsonWriter) raw(k string, v []byte) {
	w.key(k)
	w.Write(compactJSON(v))
}

// strMap writes a JSON object of strings with sorted keys.
func (w *jsonWriter) strMap(k string, m map[string]string) {
	w.key(k)
	w.strMapValue(m)
}

// strMapValue writes a JSON object of strings with sorted keys.
func (w *jsonWriter) strMapValue(m map[string]string) {
	keys := make([]string, 0, len(m))
	for s := range m {
		keys = append(keys, s)
	}
	sort.Strings(keys)
	w.open('{')
	for _, s := range keys {
		w.str(s, m[s])
	}
	w.close('}')
}

// strList writes a JSON array of strings ([] for nil).
func (w *jsonWriter) strList(k string, l []string) {
	w.key(k)
	w.open('[')
	for _, s := range l {
		w.elem()
		w.writeString(s)
	}
	w.close(']')
}

// compactJSON returns v without insignificant white space (v itself when it
// cannot be compacted).
func compactJSON(v []byte) []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, v); err != nil {
		return v
	}
	return b.Bytes()
}

// decodeStringMap decodes a JSON object of strings.
func decodeStringMap(raw json.RawMessage) (map[string]string, error) {
	if isNull(raw) {
		return nil, nil
	}
	m, err := jsonObject(raw)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		s, err := jsonString(v)
		if err != nil {
			return nil, err
		}
		out[k] = s
	}
	return out, nil
}

// decodeStringList decodes a JSON array of strings.
func decodeStringList(raw json.RawMessage) ([]string, error) {
	if isNull(raw) {
		return nil, nil
	}
	a, err := jsonArray(raw)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(a))
	for _, v := range a {
		s, err := jsonString(v)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}
