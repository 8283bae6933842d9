package hudi

import (
	"fmt"

	"github.com/hamba/avro/v2"

	"github.com/lakecat/lakecat"
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
	s, err := avro.Parse(avroJSON)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnsupportedSchema, err)
	}
	rs, ok := s.(*avro.RecordSchema)
	if !ok {
		return nil, fmt.Errorf("%w: top level is %s, not a record", ErrUnsupportedSchema, s.Type())
	}
	fields, err := convertFields(rs, "")
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

func convertFields(rs *avro.RecordSchema, path string) ([]*schema.Field, error) {
	out := make([]*schema.Field, 0, len(rs.Fields()))
	for _, f := range rs.Fields() {
		t, required, err := convertType(f.Type(), path+f.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, &schema.Field{ID: schema.NoID, Name: f.Name(), Type: t, Required: required, Doc: f.Doc()})
	}
	return out, nil
}

// convertType returns the internal type of s and whether it is required
// (not a union with null).
func convertType(s avro.Schema, path string) (schema.Type, bool, error) {
	if r, ok := s.(*avro.RefSchema); ok {
		s = r.Schema()
	}
	if u, ok := s.(*avro.UnionSchema); ok {
		var nonNull []avro.Schema
		for _, b := range u.Types() {
			if b.Type() != avro.Null {
				nonNull = append(nonNull, b)
			}
		}
		if len(nonNull) != 1 {
			return nil, false, fmt.Errorf("%w: field %s: union %s", ErrUnsupportedSchema, path, u.String())
		}
		t, _, err := convertType(nonNull[0], path)
		return t, len(nonNull) == len(u.Types()), err
	}
	var logical avro.LogicalType
	if l, ok := s.(avro.LogicalTypeSchema); ok && l.Logical() != nil {
		logical = l.Logical().Type()
		if d, ok := l.Logical().(*avro.DecimalLogicalSchema); ok {
			return schema.Decimal(d.Precision(), d.Scale()), true, nil
		}
	}
	switch s.Type() {
	case avro.Boolean:
		return schema.Boolean, true, nil
	case avro.Int:
		switch logical {
		case avro.Date:
			return schema.Date, true, nil
		case avro.TimeMillis:
			return schema.Time, true, nil
		}
		return schema.Int, true, nil
	case avro.Long:
		switch logical {
		case avro.TimeMicros:
			return schema.Time, true, nil
		case avro.TimestampMillis, avro.TimestampMicros:
			return schema.TimestampTz, true, nil
		case avro.LocalTimestampMillis, avro.LocalTimestampMicros:
			return schema.Timestamp, true, nil
		}
		return schema.Long, true, nil
	case avro.Float:
		return schema.Float, true, nil
	case avro.Double:
		return schema.Double, true, nil
	case avro.String, avro.Enum:
		return schema.String, true, nil
	case avro.Bytes:
		return schema.Binary, true, nil
	case avro.Fixed:
		return schema.Fixed(s.(*avro.FixedSchema).Size()), true, nil
	case avro.Array:
		et, ereq, err := convertType(s.(*avro.ArraySchema).Items(), path+".element")
		if err != nil {
			return nil, false, err
		}
		return schema.NewList(schema.NoID, et, ereq), true, nil
	case avro.Map:
		vt, vreq, err := convertType(s.(*avro.MapSchema).Values(), path+".value")
		if err != nil {
			return nil, false, err
		}
		return schema.NewMap(schema.NoID, schema.String, schema.NoID, vt, vreq), true, nil
	case avro.Record:
		fs, err := convertFields(s.(*avro.RecordSchema), path+".")
		if err != nil {
			return nil, false, err
		}
		return &schema.StructType{Fields: fs}, true, nil
	}
	return nil, false, fmt.Errorf("%w: field %s: type %s", ErrUnsupportedSchema, path, s.Type())
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
