package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/lakecat/lakecat/internal/jsonutil"
)

// This file implements Paimon's data type grammar (Paimon docs, "Data
// Types"; the JSON form of DataType in schema-N files): the string form
// ("BIGINT NOT NULL", "DECIMAL(10, 2)", "TIMESTAMP(3) WITH LOCAL TIME ZONE",
// "ARRAY<INT>", "ROW<a INT, b STRING>") and the JSON object form that Paimon
// writes for nested types ({"type":"ARRAY","element":…},
// {"type":"MAP","key":…,"value":…}, {"type":"MULTISET","element":…},
// {"type":"ROW","fields":[DataField…]}, {"type":"VECTOR","element":…,"length":n}).
//
// The mapping to the internal types keeps every width and length:
//
//	Paimon                                  internal
//	BOOLEAN                                 boolean
//	TINYINT, SMALLINT                       tinyint, smallint
//	INT / INTEGER, BIGINT                   int, long
//	FLOAT, DOUBLE [PRECISION]               float, double
//	DECIMAL(P, S) / DEC / NUMERIC           decimal(P, S)   (default DECIMAL(10, 0))
//	DATE                                    date
//	TIME(p)                                 time, Precision p (default 0)
//	TIMESTAMP(p), p ≤ 6                     timestamp, Precision p (default 6)
//	TIMESTAMP(p), p > 6                     timestamp_ns, Precision p
//	TIMESTAMP(p) WITH LOCAL TIME ZONE       timestamptz / timestamptz_ns, Precision p
//	  (also TIMESTAMP_LTZ(p))
//	CHAR(n)                                 char(n)         (default 1)
//	VARCHAR(n)                              varchar(n)      (default 1)
//	VARCHAR(2147483647), STRING             string
//	BINARY(n)                               fixed[n]        (default 1)
//	VARBINARY(n)                            binary, Length n
//	VARBINARY(2147483647), BYTES, BLOB      binary
//	ARRAY<T>                                list<T>
//	MAP<K, V>                               map<K, V>
//	MULTISET<T>                             map<T, int required>
//	VECTOR<T, n>                            list<T>
//	ROW<…>                                  struct<…>, fields with their own ids
//	NOT NULL                                the field is required
//
// A map key is always required in the internal tree, whatever the Paimon type
// says. List elements and map keys and values get [NoID]: schema-N files do
// not hold the ids Paimon derives for them (and case A24 shows that readers
// must not rely on them).

const paimonTypeCodec = "paimon type"

// ParsePaimonType decodes one Paimon data type: a JSON string
// (`"BIGINT NOT NULL"`), a JSON object (`{"type":"ARRAY","element":"INT"}`),
// or a bare string without quotes (`DECIMAL(10, 2)`). notNull reports a NOT
// NULL suffix. An unknown type is an error matching [ErrUnknownType] and
// [ErrInvalidSchema].
func ParsePaimonType(data []byte) (t Type, notNull bool, err error) {
	data = bytes.TrimSpace(data)
	d := paimonDecoder{}
	if len(data) > 0 && (data[0] == '"' || data[0] == '{') {
		return d.typ(data, "")
	}
	return d.typeString(string(data), "")
}

type paimonDecoder struct {
	depth int
}

func (d *paimonDecoder) typ(raw json.RawMessage, path string) (Type, bool, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		s, err := jsonutil.String(raw)
		if err != nil {
			return nil, false, &SchemaError{Codec: paimonTypeCodec, Path: path, Msg: "bad type", Err: err}
		}
		return d.typeString(s, path)
	}
	o, err := jsonutil.Object(raw)
	if err != nil {
		return nil, false, &SchemaError{Codec: paimonTypeCodec, Path: path, Msg: "type is neither a string nor an object", Err: err}
	}
	d.depth++
	defer func() { d.depth-- }()
	if d.depth > maxTypeDepth {
		return nil, false, &SchemaError{Codec: paimonTypeCodec, Path: path, Msg: "types nested too deeply"}
	}
	ts, err := jsonutil.String(o["type"])
	if err != nil {
		return nil, false, &SchemaError{Codec: paimonTypeCodec, Path: path, Msg: `type object without a string "type"`, Err: err}
	}
	kw, notNull, ok := splitNullability(ts)
	if !ok {
		return nil, false, &SchemaError{Codec: paimonTypeCodec, Path: path, Msg: "unknown type", Type: ts, Err: ErrUnknownType}
	}
	switch kw {
	case "ARRAY", "VECTOR":
		et, enn, err := d.typ(o["element"], pathJoin(path, ElementName))
		if err != nil {
			return nil, false, err
		}
		if kw == "VECTOR" {
			if _, err := jsonutil.Int(o["length"], 32); err != nil {
				return nil, false, &SchemaError{Codec: paimonTypeCodec, Path: path, Msg: `VECTOR without an integer "length"`, Err: err}
			}
		}
		return NewList(NoID, et, enn), notNull, nil
	case "MULTISET":
		et, _, err := d.typ(o["element"], pathJoin(path, KeyName))
		if err != nil {
			return nil, false, err
		}
		return NewMap(NoID, et, NoID, Int, true), notNull, nil
	case "MAP":
		kt, _, err := d.typ(o["key"], pathJoin(path, KeyName))
		if err != nil {
			return nil, false, err
		}
		vt, vnn, err := d.typ(o["value"], pathJoin(path, ValueName))
		if err != nil {
			return nil, false, err
		}
		return NewMap(NoID, kt, NoID, vt, vnn), notNull, nil
	case "ROW":
		a, err := jsonutil.Array(o["fields"])
		if err != nil || a == nil {
			return nil, false, &SchemaError{Codec: paimonTypeCodec, Path: path, Msg: `ROW without a "fields" array`, Err: err}
		}
		fs := make([]*Field, 0, len(a))
		for _, r := range a {
			f, _, err := d.dataField(r, path)
			if err != nil {
				return nil, false, err
			}
			fs = append(fs, f)
		}
		return &StructType{Fields: fs}, notNull, nil
	}
	// An atomic type spelled as an object ({"type":"INT NOT NULL"}).
	return d.typeString(ts, path)
}

// dataField decodes a Paimon DataField: {"id","name","type","description",
// "defaultValue"}. It returns the raw defaultValue, if any.
func (d *paimonDecoder) dataField(raw json.RawMessage, parent string) (*Field, json.RawMessage, error) {
	o, err := jsonutil.Object(raw)
	if err != nil {
		return nil, nil, &SchemaError{Codec: paimonTypeCodec, Path: parent, Msg: "field is not an object", Err: err}
	}
	name, err := jsonutil.String(o["name"])
	if err != nil {
		return nil, nil, &SchemaError{Codec: paimonTypeCodec, Path: parent, Msg: `field without a string "name"`, Err: err}
	}
	path := pathJoin(parent, name)
	id, err := jsonutil.Int(o["id"], 32)
	if err != nil || id < 0 {
		if err == nil {
			err = jsonutil.ErrNotInteger
		}
		return nil, nil, &SchemaError{Codec: paimonTypeCodec, Path: path, Msg: `bad or missing "id"`, Err: err}
	}
	traw, ok := o["type"]
	if !ok {
		return nil, nil, &SchemaError{Codec: paimonTypeCodec, Path: path, Msg: `missing "type"`}
	}
	t, notNull, err := d.typ(traw, path)
	if err != nil {
		return nil, nil, err
	}
	f := &Field{ID: int(id), Name: name, Type: t, Required: notNull}
	if r, ok := o["description"]; ok && !jsonutil.IsNull(r) {
		if f.Doc, err = jsonutil.String(r); err != nil {
			return nil, nil, &SchemaError{Codec: paimonTypeCodec, Path: path, Msg: `bad "description"`, Err: err}
		}
	}
	var def json.RawMessage
	if r, ok := o["defaultValue"]; ok {
		def = r
	}
	return f, def, nil
}

// splitNullability splits "ARRAY NOT NULL" into "ARRAY" and true.
func splitNullability(s string) (string, bool, bool) {
	f := strings.Fields(strings.ToUpper(s))
	switch {
	case len(f) == 1:
		return f[0], false, true
	case len(f) == 2 && f[1] == "NULL":
		return f[0], false, true
	case len(f) == 3 && f[1] == "NOT" && f[2] == "NULL":
		return f[0], true, true
	}
	return "", false, false
}

// typeString parses the string form of a Paimon type.
func (d *paimonDecoder) typeString(s, path string) (Type, bool, error) {
	p := &paimonParser{src: s, path: path}
	p.next()
	t, notNull, err := p.parseType(0)
	if err == nil && p.tok.kind != tokEOF {
		err = p.fail("unexpected " + strconv.Quote(p.tok.text))
	}
	if err != nil {
		return nil, false, err
	}
	return t, notNull, nil
}

type tokKind int

const (
	tokEOF tokKind = iota
	tokWord
	tokNum
	tokSym
	tokQuoted // 'comment' or `name`
)

type token struct {
	kind tokKind
	text string
}

type paimonParser struct {
	src  string
	pos  int
	tok  token
	path string
	err  error
}

func (p *paimonParser) fail(msg string) error {
	if p.err == nil {
		p.err = &SchemaError{Codec: paimonTypeCodec, Path: p.path, Msg: msg + " in type", Type: p.src, Err: ErrUnknownType}
	}
	return p.err
}

func (p *paimonParser) next() {
	s := p.src
	for p.pos < len(s) && (s[p.pos] == ' ' || s[p.pos] == '\t' || s[p.pos] == '\n' || s[p.pos] == '\r') {
		p.pos++
	}
	if p.pos >= len(s) {
		p.tok = token{kind: tokEOF}
		return
	}
	c := s[p.pos]
	switch {
	case c >= '0' && c <= '9':
		st := p.pos
		for p.pos < len(s) && s[p.pos] >= '0' && s[p.pos] <= '9' {
			p.pos++
		}
		p.tok = token{tokNum, s[st:p.pos]}
	case c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z'):
		st := p.pos
		for p.pos < len(s) {
			c := s[p.pos]
			if c == '_' || c|0x20 >= 'a' && c|0x20 <= 'z' || c >= '0' && c <= '9' || c >= 0x80 {
				p.pos++
				continue
			}
			break
		}
		p.tok = token{tokWord, s[st:p.pos]}
	case c == '\'' || c == '`' || c == '"':
		q := c
		var b strings.Builder
		p.pos++
		for {
			if p.pos >= len(s) {
				p.fail("unterminated quote")
				p.tok = token{kind: tokEOF}
				return
			}
			if s[p.pos] == q {
				if p.pos+1 < len(s) && s[p.pos+1] == q { // doubled quote
					b.WriteByte(q)
					p.pos += 2
					continue
				}
				p.pos++
				break
			}
			b.WriteByte(s[p.pos])
			p.pos++
		}
		p.tok = token{tokQuoted, b.String()}
	default:
		p.pos++
		p.tok = token{tokSym, string(c)}
	}
}

func (p *paimonParser) isWord(w string) bool {
	return p.tok.kind == tokWord && strings.EqualFold(p.tok.text, w)
}

func (p *paimonParser) isSym(c string) bool { return p.tok.kind == tokSym && p.tok.text == c }

func (p *paimonParser) expectSym(c string) error {
	if !p.isSym(c) {
		return p.fail("expected " + strconv.Quote(c))
	}
	p.next()
	return nil
}

func (p *paimonParser) expectWord(w string) error {
	if !p.isWord(w) {
		return p.fail("expected " + w)
	}
	p.next()
	return nil
}

// optArgs parses an optional "(n[, m])" and returns the numbers.
func (p *paimonParser) optArgs(max int) ([]int, error) {
	if !p.isSym("(") {
		return nil, nil
	}
	p.next()
	var out []int
	for {
		if p.tok.kind != tokNum || len(p.tok.text) > 10 {
			return nil, p.fail("expected a number")
		}
		v, err := strconv.ParseInt(p.tok.text, 10, 64)
		if err != nil || v > 1<<31-1 {
			return nil, p.fail("number out of range")
		}
		out = append(out, int(v))
		p.next()
		if p.isSym(",") {
			p.next()
			continue
		}
		if err := p.expectSym(")"); err != nil {
			return nil, err
		}
		break
	}
	if len(out) > max {
		return nil, p.fail("too many parameters")
	}
	return out, nil
}

func argOr(args []int, i, def int) int {
	if i < len(args) {
		return args[i]
	}
	return def
}

// paimonMaxLength is Integer.MAX_VALUE: VARCHAR and VARBINARY of this
// length are STRING and BYTES.
const paimonMaxLength = 1<<31 - 1

func (p *paimonParser) parseType(depth int) (Type, bool, error) {
	if depth > maxTypeDepth {
		return nil, false, p.fail("types nested too deeply")
	}
	t, err := p.parseBase(depth)
	if err != nil {
		return nil, false, err
	}
	notNull := false
	if p.isWord("NOT") {
		p.next()
		if err := p.expectWord("NULL"); err != nil {
			return nil, false, err
		}
		notNull = true
	} else if p.isWord("NULL") {
		p.next()
	}
	return t, notNull, nil
}

func (p *paimonParser) parseBase(depth int) (Type, error) {
	if p.tok.kind != tokWord {
		return nil, p.fail("expected a type name")
	}
	kw := strings.ToUpper(p.tok.text)
	p.next()
	switch kw {
	case "BOOLEAN":
		return Boolean, nil
	case "TINYINT":
		return TinyInt, nil
	case "SMALLINT":
		return SmallInt, nil
	case "INT", "INTEGER":
		return Int, nil
	case "BIGINT":
		return Long, nil
	case "FLOAT":
		return Float, nil
	case "DOUBLE":
		if p.isWord("PRECISION") {
			p.next()
		}
		return Double, nil
	case "DATE":
		return Date, nil
	case "STRING":
		return String, nil
	case "BYTES", "BLOB":
		return Binary, nil
	case "DECIMAL", "DEC", "NUMERIC":
		args, err := p.optArgs(2)
		if err != nil {
			return nil, err
		}
		prec, scale := argOr(args, 0, 10), argOr(args, 1, 0)
		if prec < 1 || prec > 38 || scale > prec {
			return nil, p.fail("decimal precision or scale out of range")
		}
		return Decimal(prec, scale), nil
	case "CHAR", "VARCHAR", "BINARY", "VARBINARY":
		args, err := p.optArgs(1)
		if err != nil {
			return nil, err
		}
		n := argOr(args, 0, 1)
		if n < 1 {
			return nil, p.fail("length must be positive")
		}
		switch kw {
		case "CHAR":
			return Char(n), nil
		case "VARCHAR":
			if n == paimonMaxLength {
				return String, nil
			}
			return Varchar(n), nil
		case "BINARY":
			return Fixed(n), nil
		}
		if n == paimonMaxLength {
			return Binary, nil
		}
		return PrimitiveType{K: KindBinary, Length: n}, nil
	case "TIME":
		args, err := p.optArgs(1)
		if err != nil {
			return nil, err
		}
		prec := argOr(args, 0, 0)
		if prec > 9 {
			return nil, p.fail("time precision out of range")
		}
		if p.isWord("WITHOUT") {
			p.next()
			if err := p.zone(); err != nil {
				return nil, err
			}
		}
		return PrimitiveType{K: KindTime, Precision: prec}, nil
	case "TIMESTAMP", "TIMESTAMP_LTZ":
		args, err := p.optArgs(1)
		if err != nil {
			return nil, err
		}
		prec := argOr(args, 0, 6)
		if prec > 9 {
			return nil, p.fail("timestamp precision out of range")
		}
		ltz := kw == "TIMESTAMP_LTZ"
		if !ltz && p.isWord("WITHOUT") {
			p.next()
			if err := p.zone(); err != nil {
				return nil, err
			}
		} else if !ltz && p.isWord("WITH") {
			p.next()
			if err := p.expectWord("LOCAL"); err != nil {
				return nil, err
			}
			if err := p.zone(); err != nil {
				return nil, err
			}
			ltz = true
		}
		k := KindTimestamp
		switch {
		case ltz && prec > 6:
			k = KindTimestampTzNs
		case ltz:
			k = KindTimestampTz
		case prec > 6:
			k = KindTimestampNs
		}
		return PrimitiveType{K: k, Precision: prec}, nil
	case "ARRAY", "MULTISET":
		if err := p.expectSym("<"); err != nil {
			return nil, err
		}
		et, enn, err := p.parseType(depth + 1)
		if err != nil {
			return nil, err
		}
		if err := p.expectSym(">"); err != nil {
			return nil, err
		}
		if kw == "MULTISET" {
			return NewMap(NoID, et, NoID, Int, true), nil
		}
		return NewList(NoID, et, enn), nil
	case "VECTOR":
		if err := p.expectSym("<"); err != nil {
			return nil, err
		}
		et, enn, err := p.parseType(depth + 1)
		if err != nil {
			return nil, err
		}
		if err := p.expectSym(","); err != nil {
			return nil, err
		}
		if p.tok.kind != tokNum {
			return nil, p.fail("expected a vector length")
		}
		p.next()
		if err := p.expectSym(">"); err != nil {
			return nil, err
		}
		return NewList(NoID, et, enn), nil
	case "MAP":
		if err := p.expectSym("<"); err != nil {
			return nil, err
		}
		kt, _, err := p.parseType(depth + 1)
		if err != nil {
			return nil, err
		}
		if err := p.expectSym(","); err != nil {
			return nil, err
		}
		vt, vnn, err := p.parseType(depth + 1)
		if err != nil {
			return nil, err
		}
		if err := p.expectSym(">"); err != nil {
			return nil, err
		}
		return NewMap(NoID, kt, NoID, vt, vnn), nil
	case "ROW":
		closer := ">"
		if p.isSym("(") {
			closer = ")"
		} else if !p.isSym("<") {
			return nil, p.fail(`expected "<"`)
		}
		p.next()
		var fs []*Field
		for !p.isSym(closer) {
			if len(fs) > 0 {
				if err := p.expectSym(","); err != nil {
					return nil, err
				}
			}
			if p.tok.kind != tokWord && p.tok.kind != tokQuoted {
				return nil, p.fail("expected a field name")
			}
			name := p.tok.text
			p.next()
			ft, fnn, err := p.parseType(depth + 1)
			if err != nil {
				return nil, err
			}
			f := &Field{ID: NoID, Name: name, Type: ft, Required: fnn}
			if p.tok.kind == tokQuoted {
				f.Doc = p.tok.text
				p.next()
			}
			fs = append(fs, f)
		}
		p.next()
		return &StructType{Fields: fs}, nil
	}
	return nil, p.fail("unknown type name " + strconv.Quote(kw))
}

func (p *paimonParser) zone() error {
	if err := p.expectWord("TIME"); err != nil {
		return err
	}
	return p.expectWord("ZONE")
}

// MarshalPaimonType encodes t as a Paimon type JSON value: a JSON string for
// an atomic type ("BIGINT NOT NULL"), an object for ARRAY, MAP and ROW. A
// struct's fields must have field ids. Kinds Paimon lacks (uuid, float16,
// unknown) are an error matching [ErrInvalidSchema].
func MarshalPaimonType(t Type, notNull bool) ([]byte, error) {
	var w jsonutil.Writer
	if err := writePaimonType(&w, t, notNull, ""); err != nil {
		return nil, err
	}
	return w.Bytes(), nil
}

// PaimonTypeString returns the string form of an atomic type ("DECIMAL(10,
// 2) NOT NULL"). Nested types are an error: Paimon writes them as objects.
func PaimonTypeString(t Type, notNull bool) (string, error) {
	p, ok := t.(PrimitiveType)
	if !ok {
		return "", &SchemaError{Codec: paimonTypeCodec, Msg: "not an atomic type", Type: typeName(t)}
	}
	s, err := paimonAtomic(p)
	if err != nil {
		return "", err
	}
	if notNull {
		s += " NOT NULL"
	}
	return s, nil
}

func paimonAtomic(p PrimitiveType) (string, error) {
	switch p.K {
	case KindBoolean:
		return "BOOLEAN", nil
	case KindTinyInt:
		return "TINYINT", nil
	case KindSmallInt:
		return "SMALLINT", nil
	case KindInt:
		return "INT", nil
	case KindLong:
		return "BIGINT", nil
	case KindFloat:
		return "FLOAT", nil
	case KindDouble:
		return "DOUBLE", nil
	case KindDecimal:
		return fmt.Sprintf("DECIMAL(%d, %d)", p.Precision, p.Scale), nil
	case KindDate:
		return "DATE", nil
	case KindTime:
		return fmt.Sprintf("TIME(%d)", p.Precision), nil
	case KindTimestamp, KindTimestampNs, KindTimestampTz, KindTimestampTzNs:
		prec := p.Precision
		if (p.K == KindTimestampNs || p.K == KindTimestampTzNs) && prec <= 6 {
			prec = 9
		}
		s := fmt.Sprintf("TIMESTAMP(%d)", prec)
		if p.K == KindTimestampTz || p.K == KindTimestampTzNs {
			s += " WITH LOCAL TIME ZONE"
		}
		return s, nil
	case KindString:
		return "STRING", nil
	case KindChar:
		return fmt.Sprintf("CHAR(%d)", p.Length), nil
	case KindVarchar:
		return fmt.Sprintf("VARCHAR(%d)", p.Length), nil
	case KindFixed:
		return fmt.Sprintf("BINARY(%d)", p.Length), nil
	case KindBinary:
		if p.Length > 0 {
			return fmt.Sprintf("VARBINARY(%d)", p.Length), nil
		}
		return "BYTES", nil
	}
	return "", &SchemaError{Codec: paimonTypeCodec, Msg: "Paimon has no type for", Type: p.String()}
}

func writePaimonType(w *jsonutil.Writer, t Type, notNull bool, path string) error {
	nn := ""
	if notNull {
		nn = " NOT NULL"
	}
	switch tt := t.(type) {
	case PrimitiveType:
		s, err := paimonAtomic(tt)
		if err != nil {
			err.(*SchemaError).Path = path
			return err
		}
		w.Quote(s + nn)
		return nil
	case *ListType:
		w.Open('{')
		w.Str("type", "ARRAY"+nn)
		w.Key("element")
		if err := writePaimonType(w, tt.Element.Type, tt.Element.Required, pathJoin(path, ElementName)); err != nil {
			return err
		}
		w.Close('}')
		return nil
	case *MapType:
		w.Open('{')
		w.Str("type", "MAP"+nn)
		w.Key("key")
		if err := writePaimonType(w, tt.Key.Type, false, pathJoin(path, KeyName)); err != nil {
			return err
		}
		w.Key("value")
		if err := writePaimonType(w, tt.Value.Type, tt.Value.Required, pathJoin(path, ValueName)); err != nil {
			return err
		}
		w.Close('}')
		return nil
	case *StructType:
		w.Open('{')
		w.Str("type", "ROW"+nn)
		w.Key("fields")
		w.Open('[')
		for _, f := range tt.Fields {
			w.Elem()
			if err := writePaimonField(w, f, nil, path); err != nil {
				return err
			}
		}
		w.Close(']')
		w.Close('}')
		return nil
	}
	return &SchemaError{Codec: paimonTypeCodec, Path: path, Msg: "nil or foreign type"}
}

// writePaimonField writes a DataField; typeRaw, when set, is written instead
// of encoding the field's type.
func writePaimonField(w *jsonutil.Writer, f *Field, extra *paimonFieldRaw, parent string) error {
	path := pathJoin(parent, f.Name)
	if f.ID < 0 {
		return &SchemaError{Codec: paimonTypeCodec, Path: path, Msg: "field without a field id"}
	}
	w.Open('{')
	w.Int("id", int64(f.ID))
	w.Str("name", f.Name)
	w.Key("type")
	if extra != nil && extra.typ != nil && extra.matches(f) {
		w.Write(jsonutil.Compact(extra.typ))
	} else if err := writePaimonType(w, f.Type, f.Required, path); err != nil {
		return err
	}
	if f.Doc != "" || (extra != nil && extra.hasDescription) {
		w.Str("description", f.Doc)
	}
	if extra != nil && extra.defaultValue != nil {
		w.Raw("defaultValue", extra.defaultValue)
	}
	w.Close('}')
	return nil
}

// paimonFieldRaw is what a decoded DataField looked like, so that a rewrite
// reproduces type spellings the internal tree does not tell apart (STRING vs
// VARCHAR(2147483647), MULTISET vs MAP, VECTOR vs ARRAY, a NOT NULL map key).
type paimonFieldRaw struct {
	typ            json.RawMessage
	parsed         Type // the type typ decoded to
	required       bool
	hasDescription bool
	defaultValue   json.RawMessage
}

// matches reports whether f still has the type the raw spelling decoded to.
func (r *paimonFieldRaw) matches(f *Field) bool {
	return r.required == f.Required && Equal(r.parsed, f.Type)
}
