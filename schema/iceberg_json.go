package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/lakecat/lakecat/internal/jsonutil"
)

// This file implements the Iceberg schema JSON codec: Iceberg table spec,
// Appendix C "JSON serialization", section "Schemas", with default values in
// the single-value form of Appendix D (see literal.go).
//
// Type spellings: every Iceberg type ("boolean", "int", "long", "float",
// "double", "decimal(P,S)", "date", "time", "timestamp", "timestamptz",
// "timestamp_ns", "timestamptz_ns", "string", "uuid", "fixed[L]", "binary",
// "unknown") and, as lakecat extensions written by [MarshalIcebergSchema] for
// kinds Iceberg lacks, "tinyint", "smallint", "float16", "char(L)",
// "varchar(L)" and "varbinary(L)". Spellings are case-insensitive and may
// hold spaces ("decimal(10,2)" and "decimal(10, 2)" are the same type);
// [MarshalIcebergSchema] writes Java's spelling ("decimal(10, 2)").
//
// Iceberg's time and timestamp types have no precision: the Precision a
// Paimon TIME(p) or TIMESTAMP(p) carries is not written, and a parsed
// Iceberg time or timestamp has Precision 0.

const icebergSchemaCodec = "iceberg schema"

// ParseIcebergSchema decodes an Iceberg schema JSON object
// (`{"type":"struct","schema-id":0,"identifier-field-ids":[…],"fields":[…]}`).
// A missing "schema-id" gives schema id 0 (format v1 schemas have none).
//
// Errors match [ErrInvalidSchema] and are [*SchemaError] values naming the
// field path; an unknown type spelling also matches [ErrUnknownType] and the
// error names the type string. Field, element, key and value ids must be JSON
// integers, unique in the schema; field names unique in their struct.
func ParseIcebergSchema(data []byte) (*Schema, error) {
	return parseIcebergSchema(data, icebergSchemaCodec)
}

func parseIcebergSchema(data []byte, codec string) (*Schema, error) {
	m, err := jsonutil.Object(data)
	if err != nil {
		return nil, &SchemaError{Codec: codec, Msg: "not a schema object", Err: err}
	}
	if t, ok := m["type"]; ok {
		if s, err := jsonutil.String(t); err != nil || s != "struct" {
			return nil, &SchemaError{Codec: codec, Msg: `schema "type" must be "struct"`}
		}
	}
	s := &Schema{}
	if raw, ok := m["schema-id"]; ok && !jsonutil.IsNull(raw) {
		id, err := jsonutil.Int(raw, 32)
		if err != nil {
			return nil, &SchemaError{Codec: codec, Msg: "bad schema-id", Err: err}
		}
		s.ID = int(id)
	}
	if raw, ok := m["identifier-field-ids"]; ok && !jsonutil.IsNull(raw) {
		a, err := jsonutil.Array(raw)
		if err != nil {
			return nil, &SchemaError{Codec: codec, Msg: "bad identifier-field-ids", Err: err}
		}
		s.IdentifierFieldIDs = make([]int, 0, len(a))
		for _, v := range a {
			id, err := jsonutil.Int(v, 32)
			if err != nil {
				return nil, &SchemaError{Codec: codec, Msg: "bad identifier-field-ids", Err: err}
			}
			s.IdentifierFieldIDs = append(s.IdentifierFieldIDs, int(id))
		}
	}
	raw, ok := m["fields"]
	if !ok {
		return nil, &SchemaError{Codec: codec, Msg: `missing "fields"`}
	}
	d := icebergDecoder{codec: codec}
	fields, err := d.fields(raw, "")
	if err != nil {
		return nil, err
	}
	if err := checkUnique(codec, fields); err != nil {
		return nil, err
	}
	s.Fields = fields
	return s, nil
}

// ParseIcebergType decodes one Iceberg type: a JSON string (`"long"`), a JSON
// object (`{"type":"list",…}`), or a bare spelling without quotes (`long`,
// `decimal(10,2)`, `fixed[16]`). Errors are as for [ParseIcebergSchema].
func ParseIcebergType(data []byte) (Type, error) {
	data = bytes.TrimSpace(data)
	d := icebergDecoder{codec: icebergSchemaCodec}
	if len(data) > 0 && (data[0] == '"' || data[0] == '{') {
		return d.typ(data, "")
	}
	p, err := ParseIcebergPrimitive(string(data))
	if err != nil {
		return nil, err
	}
	return p, nil
}

// ParseIcebergPrimitive parses the spelling of a primitive Iceberg type
// ("long", "decimal(10, 2)", "fixed[16]", and the lakecat extensions listed
// in the package's codec notes). The error matches [ErrUnknownType].
func ParseIcebergPrimitive(s string) (PrimitiveType, error) {
	p, ok := parseIcebergPrimitive(s)
	if !ok {
		return PrimitiveType{}, &SchemaError{Codec: icebergSchemaCodec, Msg: "unknown type", Type: s, Err: ErrUnknownType}
	}
	return p, nil
}

var icebergPrimitives = map[string]PrimitiveType{
	"unknown":        Unknown,
	"boolean":        Boolean,
	"tinyint":        TinyInt,
	"smallint":       SmallInt,
	"int":            Int,
	"integer":        Int,
	"long":           Long,
	"float16":        Float16,
	"float":          Float,
	"double":         Double,
	"date":           Date,
	"time":           Time,
	"timestamp":      Timestamp,
	"timestamptz":    TimestampTz,
	"timestamp_ns":   TimestampNs,
	"timestamptz_ns": TimestampTzNs,
	"string":         String,
	"uuid":           UUID,
	"binary":         Binary,
}

func parseIcebergPrimitive(s string) (PrimitiveType, bool) {
	t := strings.ToLower(strings.Join(strings.Fields(s), ""))
	if p, ok := icebergPrimitives[t]; ok {
		return p, true
	}
	if args, ok := cutCall(t, "decimal(", ")"); ok {
		ps := strings.Split(args, ",")
		if len(ps) != 2 {
			return PrimitiveType{}, false
		}
		p, ok1 := smallUint(ps[0], 38)
		sc, ok2 := smallUint(ps[1], 38)
		if !ok1 || !ok2 || p < 1 || sc > p {
			return PrimitiveType{}, false
		}
		return Decimal(p, sc), true
	}
	if arg, ok := cutCall(t, "fixed[", "]"); ok {
		if l, ok := smallUint(arg, 1<<31-1); ok && l > 0 {
			return Fixed(l), true
		}
		return PrimitiveType{}, false
	}
	for _, c := range []struct {
		prefix string
		mk     func(int) PrimitiveType
	}{
		{"char(", Char},
		{"varchar(", Varchar},
		{"varbinary(", func(l int) PrimitiveType { return PrimitiveType{K: KindBinary, Length: l} }},
	} {
		if arg, ok := cutCall(t, c.prefix, ")"); ok {
			if l, ok := smallUint(arg, 1<<31-1); ok && l > 0 {
				return c.mk(l), true
			}
			return PrimitiveType{}, false
		}
	}
	return PrimitiveType{}, false
}

// cutCall returns the text between prefix and a final suffix.
func cutCall(s, prefix, suffix string) (string, bool) {
	if !strings.HasPrefix(s, prefix) || !strings.HasSuffix(s, suffix) || len(s) < len(prefix)+len(suffix) {
		return "", false
	}
	return s[len(prefix) : len(s)-len(suffix)], true
}

// smallUint parses a decimal number of at most 10 digits that is ≤ max.
func smallUint(s string, max int) (int, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 10 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.Atoi(s)
	if err != nil || v > max {
		return 0, false
	}
	return v, true
}

var errNegativeID = errors.New("negative field id")

// fieldID decodes a field id: a JSON integer ≥ 0.
func fieldID(raw json.RawMessage) (int64, error) {
	v, err := jsonutil.Int(raw, 32)
	if err == nil && v < 0 {
		err = errNegativeID
	}
	return v, err
}

type icebergDecoder struct {
	codec string
	depth int
}

// maxTypeDepth caps the nesting of types a decoder accepts, so that hostile
// input cannot exhaust the stack.
const maxTypeDepth = 256

func (d *icebergDecoder) err(path, msg string, err error) error {
	return &SchemaError{Codec: d.codec, Path: path, Msg: msg, Err: err}
}

func (d *icebergDecoder) fields(raw json.RawMessage, parent string) ([]*Field, error) {
	a, err := jsonutil.Array(raw)
	if err != nil {
		return nil, d.err(parent, `bad "fields"`, err)
	}
	out := make([]*Field, 0, len(a))
	for i, v := range a {
		f, err := d.field(v, parent, i)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

func (d *icebergDecoder) field(raw json.RawMessage, parent string, index int) (*Field, error) {
	m, err := jsonutil.Object(raw)
	if err != nil {
		return nil, d.err(pathJoin(parent, fmt.Sprintf("[%d]", index)), "field is not an object", err)
	}
	f := &Field{}
	nraw, ok := m["name"]
	if !ok {
		return nil, d.err(pathJoin(parent, fmt.Sprintf("[%d]", index)), `missing "name"`, nil)
	}
	if f.Name, err = jsonutil.String(nraw); err != nil {
		return nil, d.err(pathJoin(parent, fmt.Sprintf("[%d]", index)), `bad "name"`, err)
	}
	path := pathJoin(parent, f.Name)
	id, err := fieldID(m["id"])
	if err != nil {
		return nil, d.err(path, `bad or missing "id"`, err)
	}
	f.ID = int(id)
	if r, ok := m["required"]; ok {
		if f.Required, err = jsonutil.Bool(r); err != nil {
			return nil, d.err(path, `bad "required"`, err)
		}
	} else {
		return nil, d.err(path, `missing "required"`, nil)
	}
	traw, ok := m["type"]
	if !ok {
		return nil, d.err(path, `missing "type"`, nil)
	}
	if f.Type, err = d.typ(traw, path); err != nil {
		return nil, err
	}
	if r, ok := m["doc"]; ok && !jsonutil.IsNull(r) {
		if f.Doc, err = jsonutil.String(r); err != nil {
			return nil, d.err(path, `bad "doc"`, err)
		}
	}
	if r, ok := m["initial-default"]; ok {
		if f.InitialDefault, err = ParseLiteral(f.Type, r); err != nil {
			return nil, d.err(path, `bad "initial-default"`, err)
		}
	}
	if r, ok := m["write-default"]; ok {
		if f.WriteDefault, err = ParseLiteral(f.Type, r); err != nil {
			return nil, d.err(path, `bad "write-default"`, err)
		}
	}
	return f, nil
}

func (d *icebergDecoder) typ(raw json.RawMessage, path string) (Type, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		s, err := jsonutil.String(raw)
		if err != nil {
			return nil, d.err(path, "bad type", err)
		}
		p, ok := parseIcebergPrimitive(s)
		if !ok {
			return nil, &SchemaError{Codec: d.codec, Path: path, Msg: "unknown type", Type: s, Err: ErrUnknownType}
		}
		return p, nil
	}
	m, err := jsonutil.Object(raw)
	if err != nil {
		return nil, d.err(path, "type is neither a string nor an object", err)
	}
	d.depth++
	defer func() { d.depth-- }()
	if d.depth > maxTypeDepth {
		return nil, d.err(path, "types nested too deeply", nil)
	}
	kind, err := jsonutil.String(m["type"])
	if err != nil {
		return nil, d.err(path, `type object without a string "type"`, err)
	}
	switch kind {
	case "struct":
		fs, err := d.fields(m["fields"], path)
		if err != nil {
			return nil, err
		}
		return &StructType{Fields: fs}, nil
	case "list":
		eid, err := fieldID(m["element-id"])
		if err != nil {
			return nil, d.err(path, `bad or missing "element-id"`, err)
		}
		req, err := jsonutil.Bool(m["element-required"])
		if err != nil {
			return nil, d.err(path, `bad or missing "element-required"`, err)
		}
		et, err := d.typ(m["element"], pathJoin(path, ElementName))
		if err != nil {
			return nil, err
		}
		return NewList(int(eid), et, req), nil
	case "map":
		kid, err := fieldID(m["key-id"])
		if err != nil {
			return nil, d.err(path, `bad or missing "key-id"`, err)
		}
		vid, err := fieldID(m["value-id"])
		if err != nil {
			return nil, d.err(path, `bad or missing "value-id"`, err)
		}
		req, err := jsonutil.Bool(m["value-required"])
		if err != nil {
			return nil, d.err(path, `bad or missing "value-required"`, err)
		}
		kt, err := d.typ(m["key"], pathJoin(path, KeyName))
		if err != nil {
			return nil, err
		}
		vt, err := d.typ(m["value"], pathJoin(path, ValueName))
		if err != nil {
			return nil, err
		}
		return NewMap(int(kid), kt, int(vid), vt, req), nil
	}
	return nil, &SchemaError{Codec: d.codec, Path: path, Msg: "unknown type", Type: kind, Err: ErrUnknownType}
}

// MarshalIcebergSchema encodes s as an Iceberg schema JSON object, keys in
// the order of the spec's examples: "type", "schema-id",
// "identifier-field-ids" (only when there are any), "fields"; each field as
// "id", "name", "required", "type", "doc", "initial-default",
// "write-default" (the last three only when set). Ids are written as JSON
// integers. A field with [NoID], a nil type or a default that does not fit its
// type is an error matching [ErrInvalidSchema].
func MarshalIcebergSchema(s *Schema) ([]byte, error) {
	return marshalIcebergSchema(s, false)
}

// MarshalIcebergSchemaNoIDs is [MarshalIcebergSchema] for a schema that may
// lack field ids, such as that of a Parquet or ORC file written without
// them: a field, list element, map key or value with [NoID] is written with
// id -1 (its "id", "element-id", "key-id" or "value-id") instead of being
// refused. The output is for display; an Iceberg reader refuses it as a
// table schema. Other errors are those of MarshalIcebergSchema.
func MarshalIcebergSchemaNoIDs(s *Schema) ([]byte, error) {
	return marshalIcebergSchema(s, true)
}

func marshalIcebergSchema(s *Schema, noIDs bool) ([]byte, error) {
	var w jsonutil.Writer
	if err := writeIcebergSchema(&w, s, noIDs); err != nil {
		return nil, err
	}
	return w.Bytes(), nil
}

// badID reports an id MarshalIcebergSchema cannot write: a negative one,
// except [NoID] when noIDs allows it.
func badID(id int, noIDs bool) bool {
	return id < 0 && !(noIDs && id == NoID)
}

func writeIcebergSchema(w *jsonutil.Writer, s *Schema, noIDs bool) error {
	w.Open('{')
	w.Str("type", "struct")
	w.Int("schema-id", int64(s.ID))
	if len(s.IdentifierFieldIDs) > 0 {
		w.Key("identifier-field-ids")
		w.Open('[')
		for _, id := range s.IdentifierFieldIDs {
			w.Elem()
			w.WriteString(strconv.Itoa(id))
		}
		w.Close(']')
	}
	if err := writeIcebergFields(w, s.Fields, "", noIDs); err != nil {
		return err
	}
	w.Close('}')
	return nil
}

// MarshalIcebergType encodes t as an Iceberg type JSON value: a JSON string
// for a primitive, an object for struct, list and map.
func MarshalIcebergType(t Type) ([]byte, error) {
	var w jsonutil.Writer
	if err := writeIcebergType(&w, t, "", false); err != nil {
		return nil, err
	}
	return w.Bytes(), nil
}

func writeIcebergFields(w *jsonutil.Writer, fields []*Field, parent string, noIDs bool) error {
	w.Key("fields")
	w.Open('[')
	for _, f := range fields {
		if f == nil {
			return &SchemaError{Codec: icebergSchemaCodec, Path: parent, Msg: "nil field"}
		}
		path := pathJoin(parent, f.Name)
		if badID(f.ID, noIDs) {
			return &SchemaError{Codec: icebergSchemaCodec, Path: path, Msg: "field without a field id"}
		}
		w.Elem()
		w.Open('{')
		w.Int("id", int64(f.ID))
		w.Str("name", f.Name)
		w.Bool("required", f.Required)
		w.Key("type")
		if err := writeIcebergType(w, f.Type, path, noIDs); err != nil {
			return err
		}
		if f.Doc != "" {
			w.Str("doc", f.Doc)
		}
		if f.InitialDefault != nil {
			v, err := MarshalLiteral(f.Type, f.InitialDefault)
			if err != nil {
				return &SchemaError{Codec: icebergSchemaCodec, Path: path, Msg: `bad "initial-default"`, Err: err}
			}
			w.Raw("initial-default", v)
		}
		if f.WriteDefault != nil {
			v, err := MarshalLiteral(f.Type, f.WriteDefault)
			if err != nil {
				return &SchemaError{Codec: icebergSchemaCodec, Path: path, Msg: `bad "write-default"`, Err: err}
			}
			w.Raw("write-default", v)
		}
		w.Close('}')
	}
	w.Close(']')
	return nil
}

func writeIcebergType(w *jsonutil.Writer, t Type, path string, noIDs bool) error {
	switch tt := t.(type) {
	case PrimitiveType:
		if int(tt.K) >= len(kindNames) || !tt.K.IsPrimitive() {
			return &SchemaError{Codec: icebergSchemaCodec, Path: path, Msg: "bad primitive kind"}
		}
		w.Quote(tt.String())
		return nil
	case *StructType:
		w.Open('{')
		w.Str("type", "struct")
		if err := writeIcebergFields(w, tt.Fields, path, noIDs); err != nil {
			return err
		}
		w.Close('}')
		return nil
	case *ListType:
		if tt.Element == nil || badID(tt.Element.ID, noIDs) {
			return &SchemaError{Codec: icebergSchemaCodec, Path: path, Msg: "list element without a field id"}
		}
		w.Open('{')
		w.Str("type", "list")
		w.Int("element-id", int64(tt.Element.ID))
		w.Key("element")
		if err := writeIcebergType(w, tt.Element.Type, pathJoin(path, ElementName), noIDs); err != nil {
			return err
		}
		w.Bool("element-required", tt.Element.Required)
		w.Close('}')
		return nil
	case *MapType:
		if tt.Key == nil || tt.Value == nil || badID(tt.Key.ID, noIDs) || badID(tt.Value.ID, noIDs) {
			return &SchemaError{Codec: icebergSchemaCodec, Path: path, Msg: "map key or value without a field id"}
		}
		w.Open('{')
		w.Str("type", "map")
		w.Int("key-id", int64(tt.Key.ID))
		w.Key("key")
		if err := writeIcebergType(w, tt.Key.Type, pathJoin(path, KeyName), noIDs); err != nil {
			return err
		}
		w.Int("value-id", int64(tt.Value.ID))
		w.Key("value")
		if err := writeIcebergType(w, tt.Value.Type, pathJoin(path, ValueName), noIDs); err != nil {
			return err
		}
		w.Bool("value-required", tt.Value.Required)
		w.Close('}')
		return nil
	}
	return &SchemaError{Codec: icebergSchemaCodec, Path: path, Msg: "nil or foreign type"}
}
