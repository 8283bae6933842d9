package parquet

import (
	"fmt"

	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"

	"github.com/lakecat/lakecat/schema"
)

// node is one schema element of the footer, rebuilt into a tree.
type node struct {
	el       *schemaElement
	children []*node
	// defLevel and repLevel are the maximum definition and repetition levels
	// of this node: the number of optional-or-repeated and of repeated nodes
	// from the root down to and including it.
	defLevel, repLevel int
	column             int // leaf column index in file order; -1 for groups
	path               string
}

func (n *node) repetition() format.FieldRepetitionType {
	if !n.el.RepetitionType.Valid {
		return format.Required
	}
	return n.el.RepetitionType.V
}

func (n *node) id() int {
	if n.el.FieldID.Valid {
		return int(n.el.FieldID.V)
	}
	return schema.NoID
}

// lnode is a node of the logical tree: one per [schema.Field] of
// [File.Schema]. It carries what decoding needs: which levels make a slot
// of this node exist, and which make it non-null.
//
// A value slot of the node exists at a (rep, def) level entry when
// rep <= r and def >= p; the slot is non-null when def >= d. For lists and
// maps, an element (entry) slot exists when rep <= er and def >= e.
type lnode struct {
	field    *schema.Field
	kind     schema.Kind // KindStruct, KindList, KindMap or a primitive kind
	children []*lnode    // struct fields; list: [element]; map: [key, value]
	r, p, d  int
	er, e    int
	phys     *node // leaf: the column's schema element
	conv     *converter
	top      bool // a child of the root
}

// buildSchema checks the flat element list and converts it.
func (f *File) buildSchema() error {
	els := f.meta.Schema
	if len(els) == 0 {
		return corruptf(f.name, -1, "schema", "footer has no schema elements")
	}
	if len(els) > maxSchemaElements {
		return corruptf(f.name, -1, "schema", "%d schema elements (cap %d)", len(els), maxSchemaElements)
	}
	pos := 0
	root, err := f.buildNode(els, &pos, nil, 0)
	if err != nil {
		return err
	}
	if pos != len(els) {
		return corruptf(f.name, -1, "schema", "%d schema elements left after the root's children", len(els)-pos)
	}
	f.root = root
	fields := make([]*schema.Field, 0, len(root.children))
	lroot := &lnode{kind: schema.KindStruct}
	for _, c := range root.children {
		fld, ln, err := f.convert(c, 0, 0, false)
		if err != nil {
			return err
		}
		fields = append(fields, fld)
		ln.top = true
		lroot.children = append(lroot.children, ln)
	}
	f.schema = schema.New(0, fields...)
	f.lroot = lroot
	return nil
}

func (f *File) buildNode(els []schemaElement, pos *int, parent *node, depth int) (*node, error) {
	if depth > maxNestingDepth {
		return nil, corruptf(f.name, -1, "schema", "schema nested deeper than %d", maxNestingDepth)
	}
	if *pos >= len(els) {
		return nil, corruptf(f.name, -1, "schema", "schema elements end inside a group")
	}
	el := &els[*pos]
	*pos++
	n := &node{el: el, column: -1}
	if parent != nil {
		n.defLevel, n.repLevel = parent.defLevel, parent.repLevel
		switch n.repetition() {
		case format.Optional:
			n.defLevel++
		case format.Repeated:
			n.defLevel++
			n.repLevel++
		}
		if parent.path == "" {
			n.path = el.Name
		} else {
			n.path = parent.path + "." + el.Name
		}
	}
	nc := 0
	if el.NumChildren.Valid {
		nc = int(el.NumChildren.V)
	}
	if nc < 0 || nc > len(els)-*pos {
		return nil, corruptf(f.name, -1, "schema", "element %q claims %d children, %d elements remain", el.Name, nc, len(els)-*pos)
	}
	if parent == nil && nc == 0 && el.Type.Valid {
		return nil, corruptf(f.name, -1, "schema", "root element %q is a primitive", el.Name)
	}
	if nc == 0 && parent != nil {
		if !el.Type.Valid {
			// A group with no children (Spark writes empty structs this way
			// sometimes): keep it as an empty struct.
			return n, nil
		}
		n.column = len(f.leaves)
		f.leaves = append(f.leaves, n)
		return n, nil
	}
	n.children = make([]*node, 0, nc)
	seen := make(map[string]bool, nc)
	for i := 0; i < nc; i++ {
		c, err := f.buildNode(els, pos, n, depth+1)
		if err != nil {
			return nil, err
		}
		// Projections are matched by name path, so sibling names must be
		// unique (writers such as Spark refuse duplicates anyway).
		if seen[c.el.Name] {
			return nil, corruptf(f.name, -1, "schema", "group %q has two fields named %q", el.Name, c.el.Name)
		}
		seen[c.el.Name] = true
		n.children = append(n.children, c)
	}
	return n, nil
}

func isListAnnotated(el *schemaElement) bool {
	if el.LogicalType.Valid {
		if _, ok := el.LogicalType.V.Value.(*format.ListType); ok {
			return true
		}
	}
	return el.ConvertedType.Valid && el.ConvertedType.V == deprecated.List
}

func isMapAnnotated(el *schemaElement) bool {
	if el.LogicalType.Valid {
		if _, ok := el.LogicalType.V.Value.(*format.MapType); ok {
			return true
		}
	}
	return el.ConvertedType.Valid && (el.ConvertedType.V == deprecated.Map || el.ConvertedType.V == deprecated.MapKeyValue)
}

// convert maps node n, whose slots exist where rep <= r and def >= p, to a
// field. asElement means n's own repetition has been consumed by an enclosing
// list (a legacy layout where the repeated node is the element).
func (f *File) convert(n *node, r, p int, asElement bool) (*schema.Field, *lnode, error) {
	rep := n.repetition()
	if rep == format.Repeated && !asElement {
		// A repeated field outside a LIST/MAP group: a required list of
		// required elements (LogicalTypes.md, "Lists", backward-compatibility
		// rules: a repeated field that is neither contained by a LIST- or
		// MAP-annotated group nor annotated by LIST or MAP).
		elemField, elem, err := f.convert(n, n.repLevel, n.defLevel, true)
		if err != nil {
			return nil, nil, err
		}
		elemField.ID = schema.NoID
		elemField.Name = schema.ElementName
		fld := &schema.Field{ID: n.id(), Name: n.el.Name, Type: &schema.ListType{Element: elemField}, Required: true}
		ln := &lnode{field: fld, kind: schema.KindList, children: []*lnode{elem},
			r: r, p: p, d: n.defLevel - 1, er: n.repLevel, e: n.defLevel}
		return fld, ln, nil
	}
	required := rep == format.Required || asElement
	d := n.defLevel
	if n.column >= 0 {
		t, conv := leafType(n)
		if conv.op == opInt96 && f.int96Nanos {
			t, conv.op = schema.TimestampNs, opInt96Nanos
		}
		conv.path = n.path
		fld := &schema.Field{ID: n.id(), Name: n.el.Name, Type: t, Required: required}
		return fld, &lnode{field: fld, kind: t.K, r: r, p: p, d: d, phys: n, conv: conv}, nil
	}
	if isListAnnotated(n.el) && len(n.children) == 1 && n.children[0].repetition() == format.Repeated {
		// Also when n is itself a list's repeated element: in the legacy
		// layout "repeated group array (LIST) { repeated int32 array; }" the
		// element is the repeated group, converted by its own annotation to a
		// required list (LogicalTypes.md, "Lists", backward-compatibility
		// rules; parquet-testing's old_list_structure.parquet).
		return f.convertList(n, r, p, required)
	}
	if !asElement && isMapAnnotated(n.el) && len(n.children) == 1 && n.children[0].repetition() == format.Repeated &&
		n.children[0].column < 0 && len(n.children[0].children) == 1 {
		// A map whose key_value group has no value (parquet-rs writes these):
		// a list of keys, as arrow-cpp and arrow-go read it.
		return f.convertList(n, r, p, required)
	}
	if !asElement && isMapAnnotated(n.el) && len(n.children) == 1 && n.children[0].repetition() == format.Repeated &&
		n.children[0].column < 0 && len(n.children[0].children) == 2 {
		return f.convertMap(n, r, p, required)
	}
	// A plain group: a struct whose children share its slots.
	st := &schema.StructType{Fields: make([]*schema.Field, 0, len(n.children))}
	ln := &lnode{kind: schema.KindStruct, r: r, p: p, d: d}
	for _, c := range n.children {
		cf, cl, err := f.convert(c, r, p, false)
		if err != nil {
			return nil, nil, err
		}
		st.Fields = append(st.Fields, cf)
		ln.children = append(ln.children, cl)
	}
	fld := &schema.Field{ID: n.id(), Name: n.el.Name, Type: st, Required: required}
	ln.field = fld
	return fld, ln, nil
}

// convertList converts a LIST-annotated group (LogicalTypes.md, "Lists").
func (f *File) convertList(n *node, r, p int, required bool) (*schema.Field, *lnode, error) {
	rg := n.children[0] // the repeated node
	var (
		elemField *schema.Field
		elem      *lnode
		err       error
	)
	switch {
	case rg.column >= 0, // repeated primitive: it is the element
		len(rg.children) > 1,             // repeated group of several fields: it is the element
		rg.el.Name == "array",            // Avro/parquet-avro 2-level list
		rg.el.Name == n.el.Name+"_tuple", // Thrift 2-level list
		len(rg.children) == 0:            // empty group: an empty struct element
		elemField, elem, err = f.convert(rg, rg.repLevel, rg.defLevel, true)
	default: // standard 3-level list (and "bag"/"item" element groups)
		elemField, elem, err = f.convert(rg.children[0], rg.repLevel, rg.defLevel, false)
	}
	if err != nil {
		return nil, nil, err
	}
	elemField.Name = schema.ElementName
	fld := &schema.Field{ID: n.id(), Name: n.el.Name, Type: &schema.ListType{Element: elemField}, Required: required}
	ln := &lnode{field: fld, kind: schema.KindList, children: []*lnode{elem},
		r: r, p: p, d: n.defLevel, er: rg.repLevel, e: rg.defLevel}
	return fld, ln, nil
}

// convertMap converts a MAP or MAP_KEY_VALUE group whose repeated child has
// two fields, key then value, whatever they are called (LogicalTypes.md,
// "Maps").
func (f *File) convertMap(n *node, r, p int, required bool) (*schema.Field, *lnode, error) {
	kv := n.children[0]
	kf, kl, err := f.convert(kv.children[0], kv.repLevel, kv.defLevel, false)
	if err != nil {
		return nil, nil, err
	}
	vf, vl, err := f.convert(kv.children[1], kv.repLevel, kv.defLevel, false)
	if err != nil {
		return nil, nil, err
	}
	kf.Name, vf.Name = schema.KeyName, schema.ValueName
	// Map keys are required (Presto/Trino write them optional; a null key
	// found while decoding is reported as corrupt).
	kf.Required = true
	fld := &schema.Field{ID: n.id(), Name: n.el.Name, Type: &schema.MapType{Key: kf, Value: vf}, Required: required}
	ln := &lnode{field: fld, kind: schema.KindMap, children: []*lnode{kl, vl},
		r: r, p: p, d: n.defLevel, er: kv.repLevel, e: kv.defLevel}
	return fld, ln, nil
}

// leafType maps a primitive element to its schema type and the converter
// that turns its page values into the Arrow layout of that type.
func leafType(n *node) (schema.PrimitiveType, *converter) {
	el := n.el
	phys := el.Type.V
	var lt format.LogicalTypeValue
	if el.LogicalType.Valid {
		lt = el.LogicalType.V.Value
	}
	ct := deprecated.ConvertedType(-1)
	if el.ConvertedType.Valid {
		ct = el.ConvertedType.V
	}
	// Translate the legacy converted type into a logical type when the
	// element has none (LogicalTypes.md, "Backward compatibility").
	if lt == nil {
		lt = fromConverted(ct, el)
	}
	flen := 0
	if el.TypeLength.Valid {
		flen = int(el.TypeLength.V)
	}
	if dt, ok := lt.(*format.DecimalType); ok {
		prec, scale := int(dt.Precision), int(dt.Scale)
		t := schema.Decimal(prec, scale)
		switch {
		case prec < 1 || scale < 0 || scale > prec:
			return t, refuse(fmt.Sprintf("column %s: invalid decimal(%d, %d)", n.path, prec, scale))
		case prec > 38:
			return t, refuse(fmt.Sprintf("column %s: decimal precision %d is over 38", n.path, prec))
		}
		switch phys {
		case format.Int32:
			return t, &converter{op: opDecInt32, width: 16}
		case format.Int64:
			return t, &converter{op: opDecInt64, width: 16}
		case format.ByteArray:
			return t, &converter{op: opDecBytes, width: 16}
		case format.FixedLenByteArray:
			if flen < 1 || flen > 16 {
				return t, refuse(fmt.Sprintf("column %s: decimal in FIXED_LEN_BYTE_ARRAY(%d) (1..16 supported)", n.path, flen))
			}
			return t, &converter{op: opDecFixed, width: 16, inWidth: flen}
		}
		lt = nil // a decimal annotation on another physical type: read physically
	}
	switch phys {
	case format.Boolean:
		return schema.Boolean, &converter{op: opBool, width: 0}
	case format.Int32:
		switch t := lt.(type) {
		case *format.IntType:
			switch {
			case t.IsSigned && t.BitWidth == 8:
				return schema.TinyInt, &converter{op: opInt32To8, width: 1}
			case t.IsSigned && t.BitWidth == 16:
				return schema.SmallInt, &converter{op: opInt32To16, width: 2}
			case !t.IsSigned && t.BitWidth == 8:
				return schema.SmallInt, &converter{op: opUint8To16, width: 2}
			case !t.IsSigned && t.BitWidth == 16:
				return schema.Int, &converter{op: opUint16To32, width: 4}
			case !t.IsSigned && t.BitWidth == 32:
				return schema.Long, &converter{op: opUint32To64, width: 8}
			}
		case *format.DateType:
			return schema.Date, &converter{op: opCopy, width: 4}
		case *format.TimeType:
			if _, ok := t.Unit.Value.(*format.MilliSeconds); ok {
				return schema.Time, &converter{op: opInt32MillisTo64Micros, width: 8}
			}
		}
		return schema.Int, &converter{op: opCopy, width: 4}
	case format.Int64:
		switch t := lt.(type) {
		case *format.IntType:
			if !t.IsSigned && t.BitWidth == 64 {
				return schema.Long, &converter{op: opUint64, width: 8, path: n.path}
			}
		case *format.TimeType:
			switch t.Unit.Value.(type) {
			case *format.MicroSeconds:
				return schema.Time, &converter{op: opCopy, width: 8}
			case *format.NanoSeconds:
				return schema.Time, &converter{op: opFloorDiv1000, width: 8}
			case *format.MilliSeconds:
				return schema.Time, &converter{op: opMul1000, width: 8}
			}
		case *format.TimestampType:
			switch t.Unit.Value.(type) {
			case *format.MilliSeconds:
				return tsType(t.IsAdjustedToUTC, false), &converter{op: opMul1000, width: 8}
			case *format.MicroSeconds:
				return tsType(t.IsAdjustedToUTC, false), &converter{op: opCopy, width: 8}
			case *format.NanoSeconds:
				return tsType(t.IsAdjustedToUTC, true), &converter{op: opCopy, width: 8}
			}
		}
		return schema.Long, &converter{op: opCopy, width: 8}
	case format.Int96:
		return schema.Timestamp, &converter{op: opInt96, width: 8}
	case format.Float:
		return schema.Float, &converter{op: opCopy, width: 4}
	case format.Double:
		return schema.Double, &converter{op: opCopy, width: 8}
	case format.ByteArray:
		switch lt.(type) {
		case *format.StringType, *format.EnumType, *format.JsonType:
			return schema.String, &converter{op: opBytes}
		}
		return schema.Binary, &converter{op: opBytes}
	case format.FixedLenByteArray:
		if flen < 1 || flen > maxFixedLength {
			return schema.Fixed(flen), refuse(fmt.Sprintf("column %s: FIXED_LEN_BYTE_ARRAY length %d", n.path, flen))
		}
		switch lt.(type) {
		case *format.UUIDType:
			if flen == 16 {
				return schema.UUID, &converter{op: opFixed, width: 16, inWidth: 16}
			}
		case *format.Float16Type:
			if flen == 2 {
				return schema.Float16, &converter{op: opFixed, width: 2, inWidth: 2}
			}
		}
		return schema.Fixed(flen), &converter{op: opFixed, width: flen, inWidth: flen}
	}
	return schema.Binary, refuse(fmt.Sprintf("column %s: unknown physical type %d", n.path, phys))
}

func tsType(utc, nanos bool) schema.PrimitiveType {
	switch {
	case utc && nanos:
		return schema.TimestampTzNs
	case nanos:
		return schema.TimestampNs
	case utc:
		return schema.TimestampTz
	}
	return schema.Timestamp
}

// fromConverted maps a legacy ConvertedType to the LogicalType it stands for.
func fromConverted(ct deprecated.ConvertedType, el *schemaElement) format.LogicalTypeValue {
	switch ct {
	case deprecated.UTF8:
		return &format.StringType{}
	case deprecated.Enum:
		return &format.EnumType{}
	case deprecated.Json:
		return &format.JsonType{}
	case deprecated.Bson:
		return &format.BsonType{}
	case deprecated.Date:
		return &format.DateType{}
	case deprecated.Decimal:
		return &format.DecimalType{Precision: el.Precision.V, Scale: el.Scale.V}
	case deprecated.TimeMillis:
		return &format.TimeType{IsAdjustedToUTC: true, Unit: format.TimeUnit{Value: &format.MilliSeconds{}}}
	case deprecated.TimeMicros:
		return &format.TimeType{IsAdjustedToUTC: true, Unit: format.TimeUnit{Value: &format.MicroSeconds{}}}
	case deprecated.TimestampMillis:
		return &format.TimestampType{IsAdjustedToUTC: true, Unit: format.TimeUnit{Value: &format.MilliSeconds{}}}
	case deprecated.TimestampMicros:
		return &format.TimestampType{IsAdjustedToUTC: true, Unit: format.TimeUnit{Value: &format.MicroSeconds{}}}
	case deprecated.Int8:
		return &format.IntType{BitWidth: 8, IsSigned: true}
	case deprecated.Int16:
		return &format.IntType{BitWidth: 16, IsSigned: true}
	case deprecated.Int32:
		return &format.IntType{BitWidth: 32, IsSigned: true}
	case deprecated.Int64:
		return &format.IntType{BitWidth: 64, IsSigned: true}
	case deprecated.Uint8:
		return &format.IntType{BitWidth: 8}
	case deprecated.Uint16:
		return &format.IntType{BitWidth: 16}
	case deprecated.Uint32:
		return &format.IntType{BitWidth: 32}
	case deprecated.Uint64:
		return &format.IntType{BitWidth: 64}
	}
	return nil
}
