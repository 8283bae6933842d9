package schema

import (
	"fmt"
	"strings"
)

// Kind names a type of the internal type system: the Iceberg types, plus the
// few that Paimon and Hudi add (tinyint, smallint, char, varchar) and that
// Parquet can hold (float16).
type Kind uint8

// The kinds. Their order has no meaning.
const (
	KindUnknown       Kind = iota // Iceberg v3 "unknown": always null
	KindBoolean                   // boolean
	KindTinyInt                   // 8-bit signed integer (Paimon TINYINT, Parquet INT(8))
	KindSmallInt                  // 16-bit signed integer (Paimon SMALLINT, Parquet INT(16))
	KindInt                       // 32-bit signed integer
	KindLong                      // 64-bit signed integer
	KindFloat16                   // IEEE 754 half precision (Parquet FLOAT16)
	KindFloat                     // IEEE 754 single precision
	KindDouble                    // IEEE 754 double precision
	KindDecimal                   // decimal(P,S), P ≤ 38
	KindDate                      // days since 1970-01-01
	KindTime                      // time of day, microseconds since midnight
	KindTimestamp                 // microseconds since epoch, no zone
	KindTimestampTz               // microseconds since epoch, UTC instant
	KindTimestampNs               // nanoseconds since epoch, no zone
	KindTimestampTzNs             // nanoseconds since epoch, UTC instant
	KindString                    // UTF-8 string
	KindChar                      // Paimon/Hive CHAR(L): UTF-8, fixed length L
	KindVarchar                   // Paimon/Hive VARCHAR(L): UTF-8, at most L characters
	KindUUID                      // 16-byte UUID
	KindFixed                     // fixed[L] bytes
	KindBinary                    // variable-length bytes (Length > 0: Paimon VARBINARY(L))
	KindStruct                    // struct<...>
	KindList                      // list<element>
	KindMap                       // map<key, value>
)

// Type is a node of the type tree: a [PrimitiveType], a [*StructType], a
// [*ListType] or a [*MapType].
type Type interface {
	// Kind reports which kind of type this is.
	Kind() Kind
	// String returns the Iceberg spelling of the type ("long",
	// "decimal(10, 2)", "fixed[16]", "struct<...>").
	String() string
	isType()
}

// PrimitiveType is a type without children. Precision and Scale are set for
// decimals; Precision is also the fractional-second digits of a Paimon TIME(p)
// or TIMESTAMP(p) (0 when unspecified). Length is the byte length of fixed[L]
// and the declared length of char(L), varchar(L) and Paimon VARBINARY(L).
type PrimitiveType struct {
	K         Kind
	Precision int
	Scale     int
	Length    int
}

func (PrimitiveType) isType() {}

// Kind implements [Type].
func (p PrimitiveType) Kind() Kind { return p.K }

// The primitive types without parameters.
var (
	Unknown       = PrimitiveType{K: KindUnknown}
	Boolean       = PrimitiveType{K: KindBoolean}
	TinyInt       = PrimitiveType{K: KindTinyInt}
	SmallInt      = PrimitiveType{K: KindSmallInt}
	Int           = PrimitiveType{K: KindInt}
	Long          = PrimitiveType{K: KindLong}
	Float16       = PrimitiveType{K: KindFloat16}
	Float         = PrimitiveType{K: KindFloat}
	Double        = PrimitiveType{K: KindDouble}
	Date          = PrimitiveType{K: KindDate}
	Time          = PrimitiveType{K: KindTime}
	Timestamp     = PrimitiveType{K: KindTimestamp}
	TimestampTz   = PrimitiveType{K: KindTimestampTz}
	TimestampNs   = PrimitiveType{K: KindTimestampNs}
	TimestampTzNs = PrimitiveType{K: KindTimestampTzNs}
	String        = PrimitiveType{K: KindString}
	UUID          = PrimitiveType{K: KindUUID}
	Binary        = PrimitiveType{K: KindBinary}
)

// Decimal returns decimal(precision, scale).
func Decimal(precision, scale int) PrimitiveType {
	return PrimitiveType{K: KindDecimal, Precision: precision, Scale: scale}
}

// Fixed returns fixed[length]: length bytes per value.
func Fixed(length int) PrimitiveType { return PrimitiveType{K: KindFixed, Length: length} }

// Char returns char(length).
func Char(length int) PrimitiveType { return PrimitiveType{K: KindChar, Length: length} }

// Varchar returns varchar(length).
func Varchar(length int) PrimitiveType { return PrimitiveType{K: KindVarchar, Length: length} }

// String returns the Iceberg spelling of p. Kinds Iceberg lacks are spelled
// as Paimon and Hive spell them ("tinyint", "char(3)").
func (p PrimitiveType) String() string {
	switch p.K {
	case KindDecimal:
		return fmt.Sprintf("decimal(%d, %d)", p.Precision, p.Scale)
	case KindFixed:
		return fmt.Sprintf("fixed[%d]", p.Length)
	case KindChar:
		return fmt.Sprintf("char(%d)", p.Length)
	case KindVarchar:
		return fmt.Sprintf("varchar(%d)", p.Length)
	case KindBinary:
		if p.Length > 0 {
			return fmt.Sprintf("varbinary(%d)", p.Length)
		}
	}
	return kindNames[p.K]
}

var kindNames = [...]string{
	KindUnknown:       "unknown",
	KindBoolean:       "boolean",
	KindTinyInt:       "tinyint",
	KindSmallInt:      "smallint",
	KindInt:           "int",
	KindLong:          "long",
	KindFloat16:       "float16",
	KindFloat:         "float",
	KindDouble:        "double",
	KindDecimal:       "decimal",
	KindDate:          "date",
	KindTime:          "time",
	KindTimestamp:     "timestamp",
	KindTimestampTz:   "timestamptz",
	KindTimestampNs:   "timestamp_ns",
	KindTimestampTzNs: "timestamptz_ns",
	KindString:        "string",
	KindChar:          "char",
	KindVarchar:       "varchar",
	KindUUID:          "uuid",
	KindFixed:         "fixed",
	KindBinary:        "binary",
	KindStruct:        "struct",
	KindList:          "list",
	KindMap:           "map",
}

// String returns the kind's Iceberg name ("long", "decimal", "struct").
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// IsPrimitive reports whether k has no children.
func (k Kind) IsPrimitive() bool { return k < KindStruct }

// StructType is a struct: an ordered list of uniquely named fields.
type StructType struct {
	Fields []*Field
}

func (*StructType) isType() {}

// Kind implements [Type].
func (*StructType) Kind() Kind { return KindStruct }

// String returns "struct<id:name: type, ...>" with required fields marked.
func (s *StructType) String() string {
	var b strings.Builder
	b.WriteString("struct<")
	for i, f := range s.Fields {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.String())
	}
	b.WriteString(">")
	return b.String()
}

// Field returns the child with the given field id, or nil.
func (s *StructType) Field(id int) *Field {
	for _, f := range s.Fields {
		if f.ID == id {
			return f
		}
	}
	return nil
}

// FieldByName returns the child with the given name (case-sensitive), or nil.
func (s *StructType) FieldByName(name string) *Field {
	for _, f := range s.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// ListType is a list. Element is a field named "element" whose ID is the
// element-id and whose Required is element-required.
type ListType struct {
	Element *Field
}

func (*ListType) isType() {}

// Kind implements [Type].
func (*ListType) Kind() Kind { return KindList }

// String returns "list<type>".
func (l *ListType) String() string { return "list<" + l.Element.Type.String() + ">" }

// MapType is a map. Key and Value are fields named "key" and "value" holding
// key-id, value-id and value-required; a key is always required.
type MapType struct {
	Key   *Field
	Value *Field
}

func (*MapType) isType() {}

// Kind implements [Type].
func (*MapType) Kind() Kind { return KindMap }

// String returns "map<key, value>".
func (m *MapType) String() string {
	return "map<" + m.Key.Type.String() + ", " + m.Value.Type.String() + ">"
}

// NewList returns a list whose element has the given id, type and requiredness.
func NewList(elementID int, element Type, elementRequired bool) *ListType {
	return &ListType{Element: &Field{ID: elementID, Name: ElementName, Type: element, Required: elementRequired}}
}

// NewMap returns a map with the given key and value ids and types.
func NewMap(keyID int, key Type, valueID int, value Type, valueRequired bool) *MapType {
	return &MapType{
		Key:   &Field{ID: keyID, Name: KeyName, Type: key, Required: true},
		Value: &Field{ID: valueID, Name: ValueName, Type: value, Required: valueRequired},
	}
}

// The names given to list elements and map keys and values in the tree,
// whatever a file calls them.
const (
	ElementName = "element"
	KeyName     = "key"
	ValueName   = "value"
)

// Equal reports whether a and b are the same type, field ids, names,
// requiredness, docs and defaults included.
func Equal(a, b Type) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if a.Kind() != b.Kind() {
		return false
	}
	switch at := a.(type) {
	case PrimitiveType:
		return at == b.(PrimitiveType)
	case *StructType:
		bt := b.(*StructType)
		if len(at.Fields) != len(bt.Fields) {
			return false
		}
		for i := range at.Fields {
			if !at.Fields[i].Equal(bt.Fields[i]) {
				return false
			}
		}
		return true
	case *ListType:
		return at.Element.Equal(b.(*ListType).Element)
	case *MapType:
		bt := b.(*MapType)
		return at.Key.Equal(bt.Key) && at.Value.Equal(bt.Value)
	}
	return false
}
