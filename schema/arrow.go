package schema

import (
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
)

// FieldIDKey is the Arrow field metadata key that carries a field id, as
// arrow-go's pqarrow and PyArrow write and read it.
const FieldIDKey = "PARQUET:field_id"

// ToArrowSchema converts s to an Arrow schema. Every field, at any depth
// (struct children, list elements, map keys and values), carries its field id
// under [FieldIDKey]; fields with [NoID] carry none. An Arrow field is
// nullable exactly when the schema field is optional.
//
// The type mapping (one table for the whole project):
//
//	Iceberg / internal      Arrow
//	unknown                 null
//	boolean                 bool
//	tinyint, smallint       int8, int16
//	int, long               int32, int64
//	float16                 float16
//	float, double           float32, float64
//	decimal(P,S)            decimal128(P,S)   (P 0, from old ORC files: 38)
//	date                    date32 (days)
//	time                    time64[us]
//	timestamp               timestamp[us]          (no zone: wall-clock)
//	timestamptz             timestamp[us, tz=UTC]  (an instant)
//	timestamp_ns            timestamp[ns]          (no zone: wall-clock)
//	timestamptz_ns          timestamp[ns, tz=UTC]  (an instant)
//	string, char, varchar   utf8
//	uuid                    fixed_size_binary(16), the 16 bytes in RFC 4122 order
//	fixed[L]                fixed_size_binary(L)
//	binary                  binary
//	struct                  struct
//	list                    list (child "element")
//	map                     map (children "key", "value"; keys not sorted)
func ToArrowSchema(s *Schema) *arrow.Schema {
	return arrow.NewSchema(ToArrowFields(s.Fields), nil)
}

// ToArrowFields converts fields to Arrow fields as [ToArrowSchema] does.
func ToArrowFields(fields []*Field) []arrow.Field {
	out := make([]arrow.Field, len(fields))
	for i, f := range fields {
		out[i] = ToArrowField(f)
	}
	return out
}

// ToArrowField converts one field as [ToArrowSchema] does.
func ToArrowField(f *Field) arrow.Field {
	af := arrow.Field{Name: f.Name, Type: ToArrowType(f.Type), Nullable: !f.Required}
	if f.ID != NoID {
		af.Metadata = arrow.NewMetadata([]string{FieldIDKey}, []string{strconv.Itoa(f.ID)})
	}
	return af
}

// ToArrowType converts a type by the table in [ToArrowSchema].
func ToArrowType(t Type) arrow.DataType {
	switch tt := t.(type) {
	case *StructType:
		return arrow.StructOf(ToArrowFields(tt.Fields)...)
	case *ListType:
		return arrow.ListOfField(ToArrowField(tt.Element))
	case *MapType:
		k, v := ToArrowField(tt.Key), ToArrowField(tt.Value)
		k.Nullable = false
		return arrow.MapOfFields(k, v)
	case PrimitiveType:
		return primitiveToArrow(tt)
	}
	panic(fmt.Sprintf("schema: unknown type %T", t))
}

// The timestamp types. A wall-clock timestamp (Iceberg timestamp and
// timestamp_ns, Paimon TIMESTAMP(p), ORC timestamp) has no zone, so Arrow
// consumers read it as local date-time; an instant (timestamptz, Paimon
// TIMESTAMP WITH LOCAL TIME ZONE, ORC timestamp with local time zone) carries
// "UTC". arrow-go's arrow.FixedWidthTypes.Timestamp_* all carry "UTC", so
// they are not used for wall-clock values.
var (
	wallMicros = &arrow.TimestampType{Unit: arrow.Microsecond}
	wallNanos  = &arrow.TimestampType{Unit: arrow.Nanosecond}
	utcMicros  = &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	utcNanos   = &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}
	uuidArrow  = &arrow.FixedSizeBinaryType{ByteWidth: 16}
)

func primitiveToArrow(p PrimitiveType) arrow.DataType {
	switch p.K {
	case KindUnknown:
		return arrow.Null
	case KindBoolean:
		return arrow.FixedWidthTypes.Boolean
	case KindTinyInt:
		return arrow.PrimitiveTypes.Int8
	case KindSmallInt:
		return arrow.PrimitiveTypes.Int16
	case KindInt:
		return arrow.PrimitiveTypes.Int32
	case KindLong:
		return arrow.PrimitiveTypes.Int64
	case KindFloat16:
		return arrow.FixedWidthTypes.Float16
	case KindFloat:
		return arrow.PrimitiveTypes.Float32
	case KindDouble:
		return arrow.PrimitiveTypes.Float64
	case KindDecimal:
		prec := p.Precision
		if prec <= 0 || prec > 38 {
			prec = 38
		}
		return &arrow.Decimal128Type{Precision: int32(prec), Scale: int32(p.Scale)}
	case KindDate:
		return arrow.FixedWidthTypes.Date32
	case KindTime:
		return arrow.FixedWidthTypes.Time64us
	case KindTimestamp:
		return wallMicros
	case KindTimestampTz:
		return utcMicros
	case KindTimestampNs:
		return wallNanos
	case KindTimestampTzNs:
		return utcNanos
	case KindString, KindChar, KindVarchar:
		return arrow.BinaryTypes.String
	case KindUUID:
		return uuidArrow
	case KindFixed:
		return &arrow.FixedSizeBinaryType{ByteWidth: p.Length}
	case KindBinary:
		return arrow.BinaryTypes.Binary
	}
	panic(fmt.Sprintf("schema: unknown kind %v", p.K))
}

// FieldIDOf returns the field id an Arrow field carries under [FieldIDKey],
// or [NoID].
func FieldIDOf(f arrow.Field) int {
	if i := f.Metadata.FindKey(FieldIDKey); i >= 0 {
		if id, err := strconv.Atoi(f.Metadata.Values()[i]); err == nil {
			return id
		}
	}
	return NoID
}
