package schema

import (
	"fmt"
	"strconv"
)

// checkUnique returns a [*SchemaError] for the first field id used twice
// anywhere in fields (struct fields, list elements, map keys and values, at
// any depth) and the first name used by two fields of one struct. The
// Iceberg spec requires both ("Schemas and Data Types": field ids are
// unique in a table schema; a struct's field names are unique); Paimon's
// schema-N assigns ids and names the same way. Without the check, two read
// fields of one id both take the same file column.
func checkUnique(codec string, fields []*Field) error {
	seen := map[int]string{}
	var walk func(fields []*Field, parent string) error
	walk = func(fields []*Field, parent string) error {
		names := make(map[string]bool, len(fields))
		for _, f := range fields {
			p := pathJoin(parent, f.Name)
			if names[f.Name] {
				return &SchemaError{Codec: codec, Path: p, Msg: "duplicate field name"}
			}
			names[f.Name] = true
			if f.ID != NoID {
				if prev, ok := seen[f.ID]; ok {
					return &SchemaError{Codec: codec, Path: p, Msg: fmt.Sprintf("duplicate field id %d (also field %q)", f.ID, prev)}
				}
				seen[f.ID] = p
			}
			if err := walk(Children(f.Type), p); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(fields, "")
}

// checkUniqueMapping returns a [*SchemaError] for two entries of one level of
// a name mapping with the same field id or a name in common (Iceberg spec,
// "Column Projection": a name maps to one id, and an id has one entry per
// level).
func checkUniqueMapping(m []MappedField, parent string) error {
	ids := map[int]bool{}
	names := map[string]bool{}
	for i, mf := range m {
		p := pathJoin(parent, "["+strconv.Itoa(i)+"]")
		if len(mf.Names) > 0 {
			p = pathJoin(parent, mf.Names[0])
		}
		if mf.FieldID != nil {
			if ids[*mf.FieldID] {
				return &SchemaError{Codec: nameMappingCodec, Path: p, Msg: fmt.Sprintf("duplicate field id %d", *mf.FieldID)}
			}
			ids[*mf.FieldID] = true
		}
		for _, n := range mf.Names {
			if names[n] {
				return &SchemaError{Codec: nameMappingCodec, Path: pathJoin(parent, n), Msg: "name mapped twice"}
			}
			names[n] = true
		}
		if err := checkUniqueMapping(mf.Fields, p); err != nil {
			return err
		}
	}
	return nil
}
