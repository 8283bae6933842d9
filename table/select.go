package table

import (
	"strings"

	"github.com/lakecat/lakecat/schema"
)

// SelectForFilter narrows read to the columns cols (dotted paths, as
// [schema.Select] takes them) for a read whose filter uses the fields
// filterIDs (from [expr.Bound.ColumnIDs], the filter bound to read before
// it is narrowed). sel is the schema to read: cols, then the paths of the
// filter's fields cols leaves out. out is the schema to return, cols
// alone, when sel holds more (nil when sel is what is returned); the
// columns read only for the filter are dropped from the filtered rows.
// Errors are those of [schema.Select].
func SelectForFilter(read *schema.Schema, cols []string, filterIDs []int) (sel, out *schema.Schema, err error) {
	sel, err = schema.Select(read, cols, false)
	if err != nil {
		return nil, nil, err
	}
	extra := missingPaths(read, sel, filterIDs)
	if len(extra) == 0 {
		return sel, nil, nil
	}
	out = sel
	if sel, err = schema.Select(read, append(append([]string(nil), cols...), extra...), false); err != nil {
		return nil, nil, err
	}
	return sel, out, nil
}

// missingPaths returns the dotted paths (in full) of the fields among ids
// that sel, a selection of full, lacks.
func missingPaths(full, sel *schema.Schema, ids []int) []string {
	var out []string
	for _, id := range ids {
		if sel.FindByID(id) != nil {
			continue
		}
		schema.Walk(full.Fields, func(path []string, f *schema.Field) bool {
			if f.ID == id {
				out = append(out, strings.Join(path, "."))
				return false
			}
			return true
		})
	}
	return out
}
