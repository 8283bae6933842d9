package schema

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// Schema is a table's or a data file's schema: a struct of fields with a
// schema id. The zero ID is schema id 0; files have no schema id and leave it
// 0.
type Schema struct {
	// ID is the schema id (Iceberg "schema-id", Paimon "id" of schema-N).
	ID int
	// Fields are the top-level columns in order.
	Fields []*Field
	// IdentifierFieldIDs are the Iceberg identifier field ids (row identity).
	IdentifierFieldIDs []int

	// byID holds the map[int]*Field index built on the first FindByID; an
	// atomic.Value, so concurrent first lookups (a scan's workers share
	// one read schema) do not race: each may build it, one is kept.
	byID atomic.Value
}

// New returns a schema with the given id and top-level fields.
func New(id int, fields ...*Field) *Schema {
	return &Schema{ID: id, Fields: fields}
}

// AsStruct returns the schema's top level as a struct type sharing its fields.
func (s *Schema) AsStruct() *StructType { return &StructType{Fields: s.Fields} }

// String returns "table { fields }", one field per line.
func (s *Schema) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "table {\n")
	for _, f := range s.Fields {
		fmt.Fprintf(&b, "  %s\n", f)
	}
	b.WriteString("}")
	return b.String()
}

// Equal reports whether s and o have equal fields and identifier field ids
// (the schema id is not compared).
func (s *Schema) Equal(o *Schema) bool {
	if len(s.IdentifierFieldIDs) != len(o.IdentifierFieldIDs) {
		return false
	}
	for i := range s.IdentifierFieldIDs {
		if s.IdentifierFieldIDs[i] != o.IdentifierFieldIDs[i] {
			return false
		}
	}
	return Equal(s.AsStruct(), o.AsStruct())
}

// Clone returns a deep copy of s.
func (s *Schema) Clone() *Schema {
	c := &Schema{ID: s.ID, Fields: CloneType(s.AsStruct()).(*StructType).Fields}
	c.IdentifierFieldIDs = append([]int(nil), s.IdentifierFieldIDs...)
	return c
}

// FindByID returns the field with the given field id at any depth (struct
// fields, list elements, map keys and values), or nil. A schema must not be
// changed after its first lookup. It is safe for concurrent use.
func (s *Schema) FindByID(id int) *Field {
	m, _ := s.byID.Load().(map[int]*Field)
	if m == nil {
		m = s.FieldsByID()
		s.byID.Store(m)
	}
	return m[id]
}

// FieldsByID returns a new map of the field ids of s, at any depth (struct
// fields, list elements, map keys and values), to their fields: the first
// in pre-order of a duplicated id; fields without an id are left out. It
// reads s only (no cache, unlike [Schema.FindByID]), so it sees s as it is
// now, and the caller owns the map.
func (s *Schema) FieldsByID() map[int]*Field {
	m := make(map[int]*Field)
	Walk(s.Fields, func(_ []string, f *Field) bool {
		if f.ID != NoID {
			if _, dup := m[f.ID]; !dup {
				m[f.ID] = f
			}
		}
		return true
	})
	return m
}

// FindByName returns the field at a dotted path ("addr.zip"), or nil. A list's
// element is reached as "element" and a map's key and value as "key" and
// "value" ("tags.value.element"); a name that itself contains a dot is found
// too, since whole field names are tried before splitting. Matching is
// case-sensitive unless caseInsensitive is set.
func (s *Schema) FindByName(path string, caseInsensitive bool) *Field {
	return findByName(s.Fields, path, caseInsensitive)
}

func findByName(fields []*Field, path string, ci bool) *Field {
	eq := func(a, b string) bool {
		if ci {
			return strings.EqualFold(a, b)
		}
		return a == b
	}
	for _, f := range fields {
		if eq(f.Name, path) {
			return f
		}
	}
	for _, f := range fields {
		if len(path) > len(f.Name) && path[len(f.Name)] == '.' && eq(path[:len(f.Name)], f.Name) {
			if r := findByName(Children(f.Type), path[len(f.Name)+1:], ci); r != nil {
				return r
			}
		}
	}
	return nil
}

// Children returns the child fields of a type: a struct's fields, a list's
// element, a map's key and value; nil for a primitive.
func Children(t Type) []*Field {
	switch tt := t.(type) {
	case *StructType:
		return tt.Fields
	case *ListType:
		return []*Field{tt.Element}
	case *MapType:
		return []*Field{tt.Key, tt.Value}
	}
	return nil
}

// Walk calls fn for every field in pre-order (a parent before its children),
// with the path of names from the top (list elements as "element", map keys
// and values as "key" and "value"). Returning false skips the field's
// children. The path slice is reused between calls.
func Walk(fields []*Field, fn func(path []string, f *Field) bool) {
	var path []string
	var walk func([]*Field)
	walk = func(fs []*Field) {
		for _, f := range fs {
			path = append(path, f.Name)
			if fn(path, f) {
				walk(Children(f.Type))
			}
			path = path[:len(path)-1]
		}
	}
	walk(fields)
}

// HighestFieldID returns the largest field id at any depth, or NoID when the
// schema has none. For a table it is a lower bound of last-column-id
// (Paimon: highestFieldId).
func (s *Schema) HighestFieldID() int {
	hi := NoID
	Walk(s.Fields, func(_ []string, f *Field) bool {
		if f.ID > hi {
			hi = f.ID
		}
		return true
	})
	return hi
}

// HasIDs reports whether any field at any depth has a field id.
func (s *Schema) HasIDs() bool { return s.HighestFieldID() != NoID }
