// Package avrorec opens metadata Avro files with formats/avro ([Open]) and
// reads fields of their records (formats/avro.File.Records' map[string]any
// form, or the same form built from JSON or ORC rows) tolerantly, as the
// Iceberg, Paimon and Hudi readers need: a field may be missing (older
// format versions lack newer fields), a plain value or a one-entry union
// wrapper ({"long": 5}, as JSON encodings of Avro write it), and an int
// where another writer wrote a long.
package avrorec

import "fmt"

// Unwrap returns the value inside a generic nullable-union value of a
// primitive or array type ({"long": 5}), or v itself.
func Unwrap(v any) any {
	if m, ok := v.(map[string]any); ok && len(m) == 1 {
		for k, inner := range m {
			switch k {
			case "int", "long", "string", "bytes", "array", "boolean":
				return inner
			}
		}
	}
	return v
}

// Getter reads the fields of one record M. The first type error is kept
// in Err; later reads still return zero values.
type Getter struct {
	M   map[string]any
	Err error
}

// Fail records a problem with field key, unless one is already recorded.
func (g *Getter) Fail(key, format string, args ...any) {
	if g.Err == nil {
		g.Err = fmt.Errorf("field %s: "+format, append([]any{key}, args...)...)
	}
}

// Num returns the integer field key (int, int32 or int64) and whether it
// is present and not null.
func (g *Getter) Num(key string) (int64, bool) {
	v := Unwrap(g.M[key])
	switch n := v.(type) {
	case nil:
		return 0, false
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	case int64:
		return n, true
	}
	g.Fail(key, "not an integer but %T", v)
	return 0, false
}

// I64 returns the integer field key, or 0 when it is absent or null (an
// error when required).
func (g *Getter) I64(key string, required bool) int64 {
	n, ok := g.Num(key)
	if !ok && required {
		g.Fail(key, "missing")
	}
	return n
}

// Opt returns the integer field key, or nil when it is absent or null.
func (g *Getter) Opt(key string) *int64 {
	n, ok := g.Num(key)
	if !ok {
		return nil
	}
	return &n
}

// Str returns the string field key, or "" when it is absent or null (an
// error when required).
func (g *Getter) Str(key string, required bool) string {
	v := Unwrap(g.M[key])
	switch s := v.(type) {
	case string:
		return s
	case nil:
		if required {
			g.Fail(key, "missing")
		}
		return ""
	}
	g.Fail(key, "not a string but %T", v)
	return ""
}

// Bytes returns the bytes field key, or nil when it is absent or null.
func (g *Getter) Bytes(key string) []byte {
	v := Unwrap(g.M[key])
	switch b := v.(type) {
	case []byte:
		return b
	case nil:
		return nil
	}
	g.Fail(key, "not bytes but %T", v)
	return nil
}

// Rec returns the record field key (an error when it is missing).
func (g *Getter) Rec(key string) map[string]any {
	v, _ := g.M[key].(map[string]any)
	if v == nil {
		g.Fail(key, "missing record")
	}
	return v
}

// Strs returns the strings of the array field key (non-strings skipped).
func (g *Getter) Strs(key string) []string {
	arr, _ := Unwrap(g.M[key]).([]any)
	var out []string
	for _, x := range arr {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
