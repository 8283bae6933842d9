package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/lakecat/lakecat/internal/jsonutil"
)

// This file implements Iceberg name mappings (Iceberg table spec, "Column
// Projection" and Appendix C "Name Mapping Serialization"): the fallback
// field ids for data files written without ids, such as files migrated from
// Hive tables.

const nameMappingCodec = "name mapping"

// MappedField is one entry of a name mapping: the field id given to a file
// column whose name is one of Names. FieldID is nil for an entry that maps
// names to no id (such a column is ignored, as if the mapping did not name
// it). Fields map the children of a struct, list or map; a list's element is
// named "element" and a map's key and value "key" and "value".
type MappedField struct {
	FieldID *int
	Names   []string
	Fields  []MappedField
}

// NameMapping is a table's name mapping: the entries for the top-level
// columns.
type NameMapping []MappedField

// ParseNameMapping decodes a name-mapping JSON array. Entries without
// "field-id", with empty or absent "names", and names containing dots (a
// literal name, never a path) are accepted; two entries of one level with the
// same field id or a name in common are not. Errors match [ErrInvalidSchema].
func ParseNameMapping(data []byte) (NameMapping, error) {
	m, err := parseMappedFields(data, "", 0)
	if err != nil {
		return nil, err
	}
	if err := checkUniqueMapping(m, ""); err != nil {
		return nil, err
	}
	if m == nil {
		m = []MappedField{}
	}
	return NameMapping(m), nil
}

func parseMappedFields(raw []byte, path string, depth int) ([]MappedField, error) {
	raw = bytes.TrimSpace(raw)
	if depth > maxTypeDepth {
		return nil, &SchemaError{Codec: nameMappingCodec, Path: path, Msg: "nested too deeply"}
	}
	if depth > 0 && jsonutil.IsNull(raw) {
		return nil, nil
	}
	a, err := jsonutil.Array(raw)
	if err != nil || (depth == 0 && a == nil && string(raw) != "[]") {
		if err == nil {
			err = fmt.Errorf("not a JSON array")
		}
		return nil, &SchemaError{Codec: nameMappingCodec, Path: path, Msg: "fields are not an array", Err: err}
	}
	out := make([]MappedField, 0, len(a))
	for i, r := range a {
		o, err := jsonutil.Object(r)
		if err != nil {
			return nil, &SchemaError{Codec: nameMappingCodec, Path: pathJoin(path, "["+strconv.Itoa(i)+"]"), Msg: "entry is not an object", Err: err}
		}
		var mf MappedField
		if r, ok := o["names"]; ok && !jsonutil.IsNull(r) {
			if mf.Names, err = jsonutil.StringList(r); err != nil {
				return nil, &SchemaError{Codec: nameMappingCodec, Path: path, Msg: `bad "names"`, Err: err}
			}
		}
		if mf.Names == nil {
			mf.Names = []string{}
		}
		name := "[" + strconv.Itoa(i) + "]"
		if len(mf.Names) > 0 {
			name = mf.Names[0]
		}
		if r, ok := o["field-id"]; ok && !jsonutil.IsNull(r) {
			v, err := jsonutil.Int(r, 32)
			if err != nil {
				return nil, &SchemaError{Codec: nameMappingCodec, Path: pathJoin(path, name), Msg: `bad "field-id"`, Err: err}
			}
			id := int(v)
			mf.FieldID = &id
		}
		if r, ok := o["fields"]; ok {
			if mf.Fields, err = parseMappedFields(r, pathJoin(path, name), depth+1); err != nil {
				return nil, err
			}
			if len(mf.Fields) == 0 {
				mf.Fields = nil // "fields": [] is the same as no fields
			}
		}
		out = append(out, mf)
	}
	return out, nil
}

// MarshalNameMapping encodes m as a name-mapping JSON array; each entry's
// keys in the order "field-id" (when set), "names", "fields" (when there are
// children).
func MarshalNameMapping(m NameMapping) ([]byte, error) {
	var w jsonutil.Writer
	writeMappedFields(&w, m)
	return w.Bytes(), nil
}

func writeMappedFields(w *jsonutil.Writer, fs []MappedField) {
	w.Open('[')
	for _, f := range fs {
		w.Elem()
		w.Open('{')
		if f.FieldID != nil {
			w.Int("field-id", int64(*f.FieldID))
		}
		w.StrList("names", f.Names)
		if len(f.Fields) > 0 {
			w.Key("fields")
			writeMappedFields(w, f.Fields)
		}
		w.Close('}')
	}
	w.Close(']')
}

// NameMappingFromSchema returns the name mapping that maps each field of s
// by its current name to its field id, at every level (list elements as
// "element", map keys and values as "key" and "value"), as Iceberg builds the
// default mapping of a table. Fields with [NoID] get entries without a
// field id.
func NameMappingFromSchema(s *Schema) NameMapping {
	return NameMapping(mappedFieldsOf(s.Fields))
}

func mappedFieldsOf(fs []*Field) []MappedField {
	out := make([]MappedField, 0, len(fs))
	for _, f := range fs {
		mf := MappedField{Names: []string{f.Name}}
		if f.ID != NoID {
			id := f.ID
			mf.FieldID = &id
		}
		if ch := Children(f.Type); len(ch) > 0 {
			mf.Fields = mappedFieldsOf(ch)
		}
		out = append(out, mf)
	}
	return out
}

// Find returns the entry at the path of names (one name per level; a name
// containing a dot is one name), or nil.
func (m NameMapping) Find(names ...string) *MappedField {
	fs := []MappedField(m)
	var cur *MappedField
	for _, n := range names {
		cur = lookupMapped(fs, n)
		if cur == nil {
			return nil
		}
		fs = cur.Fields
	}
	return cur
}

func lookupMapped(fs []MappedField, name string) *MappedField {
	for i := range fs {
		for _, n := range fs[i].Names {
			if n == name {
				return &fs[i]
			}
		}
	}
	return nil
}

// Names that writers give a list's element (Parquet's LIST compatibility
// rules: "element" by the spec, "item" by Arrow and Spark 2-level lists,
// "array" by parquet-avro, "bag" by Hive), tried when a mapping does not name
// the element "element".
var legacyElementNames = []string{"item", "array", "bag", "list"}

// Apply returns a copy of file, a schema read from a data file, in which
// every field with [NoID] whose name the mapping names gets the mapping's
// field id, at every level. Ids the file already has are never changed. A
// struct field is matched by its name against the entry names of its level
// (names with dots literally). A list's element and a map's key and value
// (named "element", "key" and "value" in the tree, whatever the file calls
// them) are matched to the entries named "element", "key" and "value", or
// to the legacy element names "item", "array", "bag", "list" and
// "<list name>_tuple"; failing that, a lone child entry of a list is its
// element and the two child entries of a map are its key and value, by
// position. Fields the mapping does not name, and fields whose entry has no
// field id, keep [NoID]; neither is an error.
func (m NameMapping) Apply(file *Schema) *Schema {
	out := file.Clone()
	applyMappedFields(out.Fields, []MappedField(m))
	return out
}

func applyMappedFields(fields []*Field, mfs []MappedField) {
	for _, f := range fields {
		applyMapped(f, lookupMapped(mfs, f.Name))
	}
}

func applyMapped(f *Field, mf *MappedField) {
	if mf == nil {
		return
	}
	if f.ID == NoID && mf.FieldID != nil {
		f.ID = *mf.FieldID
	}
	switch t := f.Type.(type) {
	case *StructType:
		applyMappedFields(t.Fields, mf.Fields)
	case *ListType:
		e := lookupMapped(mf.Fields, ElementName)
		for _, n := range append(legacyElementNames, f.Name+"_tuple") {
			if e != nil {
				break
			}
			e = lookupMapped(mf.Fields, n)
		}
		if e == nil && len(mf.Fields) == 1 {
			e = &mf.Fields[0]
		}
		applyMapped(t.Element, e)
	case *MapType:
		k, v := lookupMapped(mf.Fields, KeyName), lookupMapped(mf.Fields, ValueName)
		if len(mf.Fields) == 2 {
			if k == nil && v != &mf.Fields[0] {
				k = &mf.Fields[0]
			}
			if v == nil && k != &mf.Fields[1] {
				v = &mf.Fields[1]
			}
		}
		applyMapped(t.Key, k)
		applyMapped(t.Value, v)
	}
}

// MarshalJSON implements [json.Marshaler] with [MarshalNameMapping], so that
// a name mapping can be stored in a table property.
func (m NameMapping) MarshalJSON() ([]byte, error) { return MarshalNameMapping(m) }

// UnmarshalJSON implements [json.Unmarshaler] with [ParseNameMapping].
func (m *NameMapping) UnmarshalJSON(b []byte) error {
	v, err := ParseNameMapping(b)
	if err != nil {
		return err
	}
	*m = v
	return nil
}

var _ json.Marshaler = NameMapping(nil)
