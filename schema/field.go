package schema

import (
	"fmt"
	"reflect"
	"strings"
)

// NoID is the ID of a field read from a file written without field ids.
// Field ids are otherwise ≥ 0 (Paimon's start at 0, Iceberg's at 1).
const NoID = -1

// Field is one node of the tree: a struct field, a list element, a map key or
// a map value.
//
// InitialDefault and WriteDefault (Iceberg table spec, "Default values") hold
// nil for "no default", or a value in the Go form of its type:
//
//	boolean                  bool
//	tinyint, smallint        int8, int16
//	int, date                int32 (date: days since 1970-01-01)
//	long, time               int64 (time: microseconds since midnight)
//	timestamp, timestamptz   int64 microseconds since 1970-01-01T00:00Z
//	timestamp*_ns            int64 nanoseconds since 1970-01-01T00:00Z
//	float16, float           float32
//	double                   float64
//	decimal(P,S)             DecimalValue (unscaled value; the scale is the type's)
//	string, char, varchar    string
//	uuid                     [16]byte
//	fixed[L], binary         []byte
//	struct                   map[int]any keyed by child field id
//	list                     []any
//	map                      MapValue
type Field struct {
	ID             int
	Name           string
	Type           Type
	Required       bool
	Doc            string
	InitialDefault any
	WriteDefault   any
}

// String returns "id:name: [required ]type".
func (f *Field) String() string {
	var b strings.Builder
	if f.ID != NoID {
		fmt.Fprintf(&b, "%d:", f.ID)
	}
	b.WriteString(f.Name)
	b.WriteString(": ")
	if f.Required {
		b.WriteString("required ")
	}
	b.WriteString(f.Type.String())
	return b.String()
}

// Equal reports whether f and g have the same id, name, type, requiredness,
// doc and defaults.
func (f *Field) Equal(g *Field) bool {
	if f == nil || g == nil {
		return f == nil && g == nil
	}
	return f.ID == g.ID && f.Name == g.Name && f.Required == g.Required && f.Doc == g.Doc &&
		reflect.DeepEqual(f.InitialDefault, g.InitialDefault) &&
		reflect.DeepEqual(f.WriteDefault, g.WriteDefault) &&
		Equal(f.Type, g.Type)
}

// Clone returns a deep copy of f (default values are shared: they are never
// mutated).
func (f *Field) Clone() *Field {
	if f == nil {
		return nil
	}
	c := *f
	c.Type = CloneType(f.Type)
	return &c
}

// CloneType returns a deep copy of t.
func CloneType(t Type) Type {
	switch tt := t.(type) {
	case *StructType:
		fs := make([]*Field, len(tt.Fields))
		for i, f := range tt.Fields {
			fs[i] = f.Clone()
		}
		return &StructType{Fields: fs}
	case *ListType:
		return &ListType{Element: tt.Element.Clone()}
	case *MapType:
		return &MapType{Key: tt.Key.Clone(), Value: tt.Value.Clone()}
	}
	return t
}

// DecimalValue is the Go form of a decimal value: the unscaled integer as a
// 128-bit two's complement number (Hi holds the high 64 bits, sign included).
// The scale is the scale of the value's type.
type DecimalValue struct {
	Hi int64
	Lo uint64
}

// MapValue is the Go form of a map value: keys and values at the same index
// form one entry.
type MapValue struct {
	Keys   []any
	Values []any
}
