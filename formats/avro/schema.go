package avro

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/lakecat/lakecat/schema"
)

// conv says how an Avro value becomes the Arrow value of its schema type.
type conv uint8

const (
	convPlain       conv = iota // same representation
	convMillis                  // long milliseconds → microseconds
	convUUIDString              // string uuid → 16 bytes
	convEnum                    // enum index → symbol string
	convDecimalFix              // fixed big-endian two's complement → decimal128
	convDecimalByte             // bytes big-endian two's complement → decimal128
)

// node is the file schema tree with what decoding needs of the Avro side.
type node struct {
	field    *schema.Field // the schema field (its Type mirrors the Avro type)
	avro     *Schema       // the non-null Avro schema
	nullIdx  int           // branch index of null in a ["null", T] union, -1 when not a union
	conv     conv
	children []*node // record fields; list: [element]; map: [key, value]
	arrayMap bool    // a map stored as an array of key/value records
}

// convertSchema turns the top-level record of an Avro schema into a
// schema.Schema and the decoding tree.
func convertSchema(s *Schema) (*schema.Schema, []*node, error) {
	if s.Type != "record" {
		return nil, nil, unsupportedf("top-level schema is %s, not a record", s.Type)
	}
	budget := maxFields
	nodes, err := convertRecord(s, "", 0, &budget)
	if err != nil {
		return nil, nil, err
	}
	fields := make([]*schema.Field, len(nodes))
	for i, n := range nodes {
		fields[i] = n.field
	}
	return schema.New(0, fields...), nodes, nil
}

func convertRecord(rs *Schema, path string, depth int, budget *int) ([]*node, error) {
	var out []*node
	for _, f := range rs.Fields {
		p := f.Name
		if path != "" {
			p = path + "." + p
		}
		n, err := convertNode(f.Type, f.Name, propID(f.Prop("field-id")), p, depth+1, budget)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// propID reads an id property (a JSON number, or a string holding one), or
// returns schema.NoID.
func propID(v any) int {
	switch x := v.(type) {
	case float64:
		if x == float64(int32(x)) && x >= 0 {
			return int(x)
		}
	case int:
		if x >= 0 {
			return x
		}
	case int64:
		if x >= 0 && x <= 1<<31-1 {
			return int(x)
		}
	case json.Number:
		if n, err := strconv.ParseInt(string(x), 10, 32); err == nil && n >= 0 {
			return int(n)
		}
	case string:
		if n, err := strconv.ParseInt(x, 10, 32); err == nil && n >= 0 {
			return int(n)
		}
	}
	return schema.NoID
}

// shortPath returns path cut to its first three segments, so an error
// about a deep or recursive schema stays one short line.
func shortPath(path string) string {
	segs := strings.SplitN(path, ".", 4)
	if len(segs) < 4 {
		return path
	}
	return strings.Join(segs[:3], ".") + ".…"
}

// convertNode converts one Avro type at path into a node whose field has
// the given name and id.
func convertNode(s *Schema, name string, id int, path string, depth int, budget *int) (*node, error) {
	if depth > maxDepth {
		return nil, unsupportedf("%s: schema nested deeper than %d levels (or recursive)", shortPath(path), maxDepth)
	}
	if *budget--; *budget < 0 {
		return nil, unsupportedf("%s: schema has more than %d fields (named types referenced many times over)", path, maxFields)
	}
	n := &node{nullIdx: -1}
	required := true
	if s.Type == "union" {
		types := s.Branches
		switch {
		case len(types) == 2 && types[0].Type == "null" && types[1].Type != "null":
			n.nullIdx, s = 0, types[1]
		case len(types) == 2 && types[1].Type == "null" && types[0].Type != "null":
			n.nullIdx, s = 1, types[0]
		case len(types) == 1 && types[0].Type != "null":
			s = types[0]   // index 0 is always read
			n.nullIdx = -2 // a union index to read, never null
		default:
			return nil, unsupportedf("%s: union %s (only a union of null and one type is read)", path, s)
		}
		if n.nullIdx >= 0 {
			required = false
		}
	}
	n.avro = s
	f := &schema.Field{ID: id, Name: name, Required: required}
	n.field = f
	switch s.Type {
	case "null":
		f.Type, f.Required = schema.Unknown, false // Iceberg v3 unknown
	case "boolean", "int", "long", "float", "double", "bytes", "string":
		typ, c, err := primitiveType(s, path)
		if err != nil {
			return nil, err
		}
		f.Type, n.conv = typ, c
	case "fixed":
		switch {
		case s.Logical == "decimal":
			if s.Precision > 38 || s.Size > 16 {
				return nil, unsupportedf("%s: decimal(%d, %d) in fixed[%d] is wider than 38 digits", path, s.Precision, s.Scale, s.Size)
			}
			f.Type, n.conv = schema.Decimal(s.Precision, s.Scale), convDecimalFix
		case s.Size == 16 && s.Logical == "uuid":
			f.Type = schema.UUID
		default:
			f.Type = schema.Fixed(s.Size)
		}
	case "enum":
		f.Type, n.conv = schema.String, convEnum
	case "record":
		kids, err := convertRecord(s, path, depth, budget)
		if err != nil {
			return nil, err
		}
		st := &schema.StructType{}
		for _, k := range kids {
			st.Fields = append(st.Fields, k.field)
		}
		f.Type, n.children = st, kids
	case "array":
		if items := s.Items; items.Type == "record" && isKeyValueRecord(items, s) {
			fs := items.Fields
			k, err := convertNode(fs[0].Type, "key", propID(fs[0].Prop("field-id")), path+".key", depth+1, budget)
			if err != nil {
				return nil, err
			}
			v, err := convertNode(fs[1].Type, "value", propID(fs[1].Prop("field-id")), path+".value", depth+1, budget)
			if err != nil {
				return nil, err
			}
			if !k.field.Required {
				return nil, unsupportedf("%s: map with optional keys", path)
			}
			f.Type, n.children, n.arrayMap = &schema.MapType{Key: k.field, Value: v.field}, []*node{k, v}, true
			break
		}
		e, err := convertNode(s.Items, "element", propID(s.Prop("element-id")), path+".element", depth+1, budget)
		if err != nil {
			return nil, err
		}
		f.Type, n.children = &schema.ListType{Element: e.field}, []*node{e}
	case "map":
		k := &node{nullIdx: -1, field: &schema.Field{ID: propID(s.Prop("key-id")), Name: "key", Type: schema.String, Required: true}}
		v, err := convertNode(s.Values, "value", propID(s.Prop("value-id")), path+".value", depth+1, budget)
		if err != nil {
			return nil, err
		}
		f.Type, n.children = &schema.MapType{Key: k.field, Value: v.field}, []*node{k, v}
	default:
		return nil, unsupportedf("%s: Avro type %s", path, s.Type)
	}
	return n, nil
}

// isKeyValueRecord reports whether an array's items are the key/value
// records of an Iceberg map with non-string keys (Iceberg spec, Appendix A:
// logicalType "map" on the array, a record with fields "key" and "value").
func isKeyValueRecord(rs, arr *Schema) bool {
	fs := rs.Fields
	if len(fs) != 2 || fs[0].Name != "key" || fs[1].Name != "value" {
		return false
	}
	if arr.Logical != "" {
		return arr.Logical == "map"
	}
	// A writer that drops the logicalType still names the record
	// k<key-id>_v<value-id> (Iceberg's writers do).
	name := rs.Name[strings.LastIndexByte(rs.Name, '.')+1:]
	return name == fmt.Sprintf("k%d_v%d", propID(fs[0].Prop("field-id")), propID(fs[1].Prop("field-id")))
}

func primitiveType(t *Schema, path string) (schema.Type, conv, error) {
	lt := t.Logical
	utc := true
	if v, ok := t.Prop("adjust-to-utc").(bool); ok {
		utc = v
	}
	switch t.Type {
	case "boolean":
		return schema.Boolean, convPlain, nil
	case "int":
		if lt == "date" {
			return schema.Date, convPlain, nil
		}
		if lt == "time-millis" {
			return nil, 0, unsupportedf("%s: int/time-millis", path)
		}
		return schema.Int, convPlain, nil
	case "long":
		switch lt {
		case "time-micros":
			return schema.Time, convPlain, nil
		case "timestamp-micros":
			return pick(utc, schema.TimestampTz, schema.Timestamp), convPlain, nil
		case "local-timestamp-micros":
			return schema.Timestamp, convPlain, nil
		case "timestamp-millis":
			return pick(utc, schema.TimestampTz, schema.Timestamp), convMillis, nil
		case "local-timestamp-millis":
			return schema.Timestamp, convMillis, nil
		case "timestamp-nanos":
			return pick(utc, schema.TimestampTzNs, schema.TimestampNs), convPlain, nil
		case "local-timestamp-nanos":
			return schema.TimestampNs, convPlain, nil
		}
		return schema.Long, convPlain, nil
	case "float":
		return schema.Float, convPlain, nil
	case "double":
		return schema.Double, convPlain, nil
	case "string":
		if lt == "uuid" {
			return schema.UUID, convUUIDString, nil
		}
		return schema.String, convPlain, nil
	case "bytes":
		if lt == "decimal" {
			if t.Precision > 38 {
				return nil, 0, unsupportedf("%s: decimal(%d, %d) is wider than 38 digits", path, t.Precision, t.Scale)
			}
			return schema.Decimal(t.Precision, t.Scale), convDecimalByte, nil
		}
		return schema.Binary, convPlain, nil
	}
	return nil, 0, unsupportedf("%s: Avro type %s", path, t.Type)
}

func pick(c bool, a, b schema.PrimitiveType) schema.PrimitiveType {
	if c {
		return a
	}
	return b
}

// minBytes is the fewest bytes a value of s takes in Avro's binary
// encoding (Avro spec, "Binary Encoding"): null 0, boolean 1, a varint 1,
// float 4, double 8, bytes/string 1 (the length), fixed its size, union 1
// plus its smallest branch, array/map 1 (an empty block list), record the
// sum of its fields. depth bounds recursive named types.
func minBytes(s *Schema, depth int) int {
	return minBytesMemo(s, depth, map[*Schema]int{})
}

// minBytesMemo computes minBytes once per record type, so a schema that
// references a named type many times over costs linear time; a recursive
// reference counts 0.
func minBytesMemo(s *Schema, depth int, memo map[*Schema]int) int {
	if depth > maxDepth {
		return 0
	}
	switch s.Type {
	case "null":
		return 0
	case "float":
		return 4
	case "double":
		return 8
	case "fixed":
		return s.Size
	case "union":
		least := -1
		for _, b := range s.Branches {
			if n := minBytesMemo(b, depth+1, memo); least < 0 || n < least {
				least = n
			}
		}
		return 1 + max(least, 0)
	case "record":
		if n, ok := memo[s]; ok {
			return n
		}
		memo[s] = 0
		n := 0
		for _, f := range s.Fields {
			n = min(n+minBytesMemo(f.Type, depth+1, memo), maxHeaderBytes)
		}
		memo[s] = n
		return n
	}
	return 1 // boolean, int, long, bytes, string, enum, array, map
}
