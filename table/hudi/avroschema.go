package hudi

import (
	"fmt"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/formats/avro"
	"github.com/lakecat/lakecat/schema"
)

// ErrUnsupportedSchema is matched by errors for schemas that cannot be
// mapped: an Avro schema with a union of several non-null types or a top
// level that is not a record, or a malformed schema history.
var ErrUnsupportedSchema = lakecat.NewSentinel(lakecat.ErrUnsupported, "hudi: unsupported schema")

// ConvertAvroSchema converts a Hudi table's Avro schema (the JSON of
// extraMetadata.schema or hoodie.table.create.schema) into the internal
// schema, with field ids assigned as described on [AssignIDs]. The mapping:
// a union with null makes the field optional (any branch order); boolean,
// int, long, float, double, string (and enum) and bytes map to the same
// kinds; fixed(L) to fixed[L]; the logical types decimal(P,S) (on bytes or
// fixed) to decimal(P,S), date to date, time-millis and time-micros to time,
// timestamp-millis and timestamp-micros to timestamptz (Spark's TIMESTAMP is
// an instant), local-timestamp-millis/micros to timestamp, uuid to string;
// array to list; map to map with string keys; record to struct.
func ConvertAvroSchema(avroJSON string, ids *IDs) (*schema.Schema, error) {
	s, err := avro.ParseSchema(avroJSON)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnsupportedSchema, err)
	}
	if s.Type != "record" {
		return nil, fmt.Errorf("%w: top level is %s, not a record", ErrUnsupportedSchema, s.Type)
	}
	budget := maxAvroFields
	fields, err := convertFields(s, "", 0, &budget)
	if err != nil {
		return nil, err
	}
	sch := schema.New(0, fields...)
	if ids == nil {
		ids = &IDs{}
	}
	ids.assign(sch)
	return sch, nil
}

func convertFields(rs *avro.Schema, path string, depth int, budget *int) ([]*schema.Field, error) {
	out := make([]*schema.Field, 0, len(rs.Fields))
	for _, f := range rs.Fields {
		t, required, err := convertType(f.Type, path+f.Name, depth+1, budget)
		if err != nil {
			return nil, err
		}
		out = append(out, &schema.Field{ID: schema.NoID, Name: f.Name, Type: t, Required: required, Doc: f.Doc})
	}
	return out, nil
}

// maxAvroDepth bounds the nesting of a converted schema, so a recursive
// record is refused rather than followed; maxAvroFields bounds its fields
// with every reference to a named type expanded.
const (
	maxAvroDepth  = 128
	maxAvroFields = 1 << 20
)

// convertType returns the internal type of s and whether it is required
// (not a union with null).
func convertType(s *avro.Schema, path string, depth int, budget *int) (schema.Type, bool, error) {
	if depth > maxAvroDepth {
		return nil, false, fmt.Errorf("%w: field %s: nested deeper than %d levels (a recursive type?)", ErrUnsupportedSchema, path, maxAvroDepth)
	}
	if *budget--; *budget < 0 {
		return nil, false, fmt.Errorf("%w: field %s: more than %d fields (named types referenced many times over)", ErrUnsupportedSchema, path, maxAvroFields)
	}
	if s.Type == "union" {
		var nonNull []*avro.Schema
		for _, b := range s.Branches {
			if b.Type != "null" {
				nonNull = append(nonNull, b)
			}
		}
		if len(nonNull) != 1 {
			return nil, false, fmt.Errorf("%w: field %s: union %s", ErrUnsupportedSchema, path, s)
		}
		t, _, err := convertType(nonNull[0], path, depth, budget)
		return t, len(nonNull) == len(s.Branches), err
	}
	if s.Logical == "decimal" {
		return schema.Decimal(s.Precision, s.Scale), true, nil
	}
	switch s.Type {
	case "boolean":
		return schema.Boolean, true, nil
	case "int":
		switch s.Logical {
		case "date":
			return schema.Date, true, nil
		case "time-millis":
			return schema.Time, true, nil
		}
		return schema.Int, true, nil
	case "long":
		switch s.Logical {
		case "time-micros":
			return schema.Time, true, nil
		case "timestamp-millis", "timestamp-micros":
			return schema.TimestampTz, true, nil
		case "local-timestamp-millis", "local-timestamp-micros":
			return schema.Timestamp, true, nil
		}
		return schema.Long, true, nil
	case "float":
		return schema.Float, true, nil
	case "double":
		return schema.Double, true, nil
	case "string", "enum":
		return schema.String, true, nil
	case "bytes":
		return schema.Binary, true, nil
	case "fixed":
		return schema.Fixed(s.Size), true, nil
	case "array":
		et, ereq, err := convertType(s.Items, path+".element", depth+1, budget)
		if err != nil {
			return nil, false, err
		}
		return schema.NewList(schema.NoID, et, ereq), true, nil
	case "map":
		vt, vreq, err := convertType(s.Values, path+".value", depth+1, budget)
		if err != nil {
			return nil, false, err
		}
		return schema.NewMap(schema.NoID, schema.String, schema.NoID, vt, vreq), true, nil
	case "record":
		fs, err := convertFields(s, path+".", depth, budget)
		if err != nil {
			return nil, false, err
		}
		return &schema.StructType{Fields: fs}, true, nil
	}
	return nil, false, fmt.Errorf("%w: field %s: type %s", ErrUnsupportedSchema, path, s.Type)
}

// IDs assigns field ids to converted Avro schemas consistently across the
// schemas of one table. Hudi schemas carry no field ids; Hudi resolves
// columns by name. The first schema given (the table's latest schema) gets
// ids 1, 2, … in Iceberg's order: the fields of a struct first, in order,
// then the children of each of them (breadth first per struct; a list's
// element, a map's key then value count as children). A later schema (an
// older writer schema) takes the id of the field with the same name path
// (dotted, "element"/"key"/"value" for list and map children) and gives a
// name path the table schema lacks a new id above every id given so far.
// The zero value is ready to use; an IDs is not safe for concurrent use.
type IDs struct {
	byPath map[string]int
	next   int
}

func (ids *IDs) assign(s *schema.Schema) {
	if ids.byPath == nil {
		ids.byPath = map[string]int{}
	}
	var visit func(fields []*schema.Field, parent string)
	visit = func(fields []*schema.Field, parent string) {
		for _, f := range fields {
			p := parent + f.Name
			id, ok := ids.byPath[p]
			if !ok {
				ids.next++
				id = ids.next
				ids.byPath[p] = id
			}
			f.ID = id
		}
		for _, f := range fields {
			if kids := schema.Children(f.Type); len(kids) > 0 {
				visit(kids, parent+f.Name+".")
			}
		}
	}
	visit(s.Fields, "")
}

// AlignAvroSchema converts the Avro schema avroJSON as [ConvertAvroSchema]
// does, with the ids of like's fields of the same name path (dotted,
// "element"/"key"/"value" for list and map children) and ids above every id
// of like for the paths like lacks: how a log block written by an instant
// the reader has no schema for (one older than the active timeline) is
// aligned to the table schema. Errors match [ErrUnsupportedSchema].
func AlignAvroSchema(avroJSON string, like *schema.Schema) (*schema.Schema, error) {
	ids := &IDs{byPath: map[string]int{}}
	if like != nil {
		var visit func(fields []*schema.Field, parent string)
		visit = func(fields []*schema.Field, parent string) {
			for _, f := range fields {
				ids.byPath[parent+f.Name] = f.ID
				ids.next = max(ids.next, f.ID)
				if kids := schema.Children(f.Type); len(kids) > 0 {
					visit(kids, parent+f.Name+".")
				}
			}
		}
		visit(like.Fields, "")
	}
	return ConvertAvroSchema(avroJSON, ids)
}
