package orc

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lakecat/lakecat/schema"
)

// node is one ORC column (a type in the footer's pre-order type list) with
// the lakecat field it is exposed as.
type node struct {
	col      int
	t        *orcType
	field    *schema.Field
	children []*node // struct fields, list element, map key and value, union variants
	// tsNanos is set for timestamp columns reported in nanoseconds.
	tsNanos bool
}

// Type attribute keys (set by Iceberg's and Paimon's ORC writers).
const (
	attrIcebergID       = "iceberg.id"
	attrIcebergRequired = "iceberg.required"
	attrIcebergLongType = "iceberg.long-type"
	attrIcebergBinType  = "iceberg.binary-type"
	attrIcebergLength   = "iceberg.length"
	attrIcebergTSUnit   = "iceberg.timestamp-unit"
	attrPaimonID        = "paimon.id"
)

// RootFieldName is the name of the single top-level field of a file whose
// root type is not a struct.
const RootFieldName = "_col0"

// buildTree converts the footer's type list into the node tree and the file
// schema. Types are in pre-order and every subtype id is greater than its
// parent's (spec section "Type Information").
func buildTree(types []orcType) (*node, *schema.Schema, error) {
	if len(types) == 0 {
		return nil, nil, fmt.Errorf("footer has no types")
	}
	seen := make([]bool, len(types))
	var build func(col int, name string, depth int) (*node, error)
	build = func(col int, name string, depth int) (*node, error) {
		if seen[col] {
			return nil, fmt.Errorf("type %d used twice", col)
		}
		seen[col] = true
		t := &types[col]
		n := &node{col: col, t: t}
		for _, s := range t.subtypes {
			if int(s) <= col || int(s) >= len(types) {
				return nil, fmt.Errorf("type %d has subtype %d out of order", col, s)
			}
		}
		want := -1
		switch t.kind {
		case kList:
			want = 1
		case kMap:
			want = 2
		case kStruct:
			if len(t.fieldNames) != len(t.subtypes) {
				return nil, fmt.Errorf("struct type %d has %d names for %d fields", col, len(t.fieldNames), len(t.subtypes))
			}
			// Fields are found by name: two of one name would make a
			// projection of the file's own schema pick the wrong column
			// (found by FuzzOpen).
			names := make(map[string]bool, len(t.fieldNames))
			for _, fn := range t.fieldNames {
				if names[fn] {
					return nil, fmt.Errorf("struct type %d has two fields named %q", col, fn)
				}
				names[fn] = true
			}
		case kUnion:
			if len(t.subtypes) == 0 || len(t.subtypes) > 256 {
				return nil, fmt.Errorf("union type %d has %d variants", col, len(t.subtypes))
			}
		default:
			want = 0
		}
		if want >= 0 && len(t.subtypes) != want {
			return nil, fmt.Errorf("%s type %d has %d subtypes", kindName(t.kind), col, len(t.subtypes))
		}
		for i, s := range t.subtypes {
			var cn string
			switch t.kind {
			case kStruct:
				cn = t.fieldNames[i]
			case kList:
				cn = schema.ElementName
			case kMap:
				cn = [2]string{schema.KeyName, schema.ValueName}[i]
			case kUnion:
				cn = "field" + strconv.Itoa(i)
			}
			c, err := build(int(s), cn, depth+1)
			if err != nil {
				return nil, err
			}
			n.children = append(n.children, c)
		}
		f, err := makeField(n, name)
		if err != nil {
			return nil, err
		}
		n.field = f
		return n, nil
	}
	root, err := build(0, RootFieldName, 0)
	if err != nil {
		return nil, nil, err
	}
	s := &schema.Schema{}
	if root.t.kind == kStruct {
		for _, c := range root.children {
			s.Fields = append(s.Fields, c.field)
		}
	} else {
		s.Fields = []*schema.Field{root.field}
	}
	return root, s, nil
}

// makeField builds the lakecat field of n from its kind, its children's
// fields and its type attributes.
func makeField(n *node, name string) (*schema.Field, error) {
	t := n.t
	f := &schema.Field{ID: schema.NoID, Name: name}
	_, hasIceberg := t.attr(attrIcebergID)
	for _, k := range []string{attrIcebergID, attrPaimonID} {
		if v, ok := t.attr(k); ok {
			id, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || id < -1 {
				return nil, fmt.Errorf("type %d: attribute %s=%q is not a field id", n.col, k, v)
			}
			// Paimon ≥ 1.0 writes paimon.id="-1" on the fields of its ORC
			// manifests that have no field id: the same as no attribute.
			if id >= 0 {
				f.ID = id
			}
			break
		}
	}
	if v, ok := t.attr(attrIcebergRequired); ok {
		f.Required = strings.EqualFold(v, "true")
	}
	switch t.kind {
	case kBoolean:
		f.Type = schema.Boolean
	case kByte:
		f.Type = schema.TinyInt
	case kShort:
		f.Type = schema.SmallInt
	case kInt:
		f.Type = schema.Int
	case kLong:
		f.Type = schema.Long
		if v, _ := t.attr(attrIcebergLongType); strings.EqualFold(v, "TIME") {
			f.Type = schema.Time
		}
	case kFloat:
		f.Type = schema.Float
	case kDouble:
		f.Type = schema.Double
	case kString:
		f.Type = schema.String
	case kChar:
		f.Type = schema.Char(int(min(t.maxLength, 1<<31-1)))
	case kVarchar:
		f.Type = schema.Varchar(int(min(t.maxLength, 1<<31-1)))
	case kBinary:
		f.Type = schema.Binary
		switch v, _ := t.attr(attrIcebergBinType); strings.ToUpper(v) {
		case "UUID":
			f.Type = schema.UUID
		case "FIXED":
			lv, _ := t.attr(attrIcebergLength)
			l, err := strconv.Atoi(lv)
			if err != nil || l <= 0 || l > 1<<20 {
				return nil, fmt.Errorf("type %d: fixed binary with attribute %s=%q", n.col, attrIcebergLength, lv)
			}
			f.Type = schema.Fixed(l)
		}
	case kDate:
		f.Type = schema.Date
	case kDecimal:
		p, s := int(min(t.precision, 1000)), int(min(t.scale, 1000))
		if p == 0 {
			// Hive 0.11 wrote decimals without precision and scale, each
			// value carrying its own scale: read them as decimal(38,18).
			p, s = 38, 18
		}
		if p > 38 || s > p {
			return nil, fmt.Errorf("type %d: decimal(%d,%d) outside decimal(38)", n.col, p, s)
		}
		f.Type = schema.Decimal(p, s)
	case kTimestamp, kTimestampInstant:
		unit, hasUnit := t.attr(attrIcebergTSUnit)
		n.tsNanos = true
		switch {
		case hasUnit && strings.EqualFold(unit, "MICROS"):
			n.tsNanos = false
		case hasUnit && strings.EqualFold(unit, "NANOS"):
		case hasUnit:
			return nil, fmt.Errorf("type %d: attribute %s=%q", n.col, attrIcebergTSUnit, unit)
		case hasIceberg:
			n.tsNanos = false
		}
		switch {
		case t.kind == kTimestamp && n.tsNanos:
			f.Type = schema.TimestampNs
		case t.kind == kTimestamp:
			f.Type = schema.Timestamp
		case n.tsNanos:
			f.Type = schema.TimestampTzNs
		default:
			f.Type = schema.TimestampTz
		}
	case kStruct:
		st := &schema.StructType{}
		for _, c := range n.children {
			st.Fields = append(st.Fields, c.field)
		}
		f.Type = st
	case kList:
		f.Type = &schema.ListType{Element: n.children[0].field}
	case kMap:
		n.children[0].field.Required = true
		f.Type = &schema.MapType{Key: n.children[0].field, Value: n.children[1].field}
	case kUnion:
		// A Hive union is read as Trino and Spark expose it: a struct of
		// the variant's tag and one optional field per variant, of which
		// only the tagged one holds a value (see the package doc).
		st := &schema.StructType{Fields: []*schema.Field{{ID: schema.NoID, Name: UnionTagName, Type: schema.TinyInt}}}
		for _, c := range n.children {
			c.field.Required = false
			st.Fields = append(st.Fields, c.field)
		}
		f.Type = st
	default:
		return nil, fmt.Errorf("%w: type %d has unknown kind %d", ErrUnsupported, n.col, t.kind)
	}
	return f, nil
}
