package schema

import (
	"fmt"
	"strings"

	"github.com/lakecat/lakecat"
)

// ErrColumnNotFound is returned by [Select] for a path that names no field.
var ErrColumnNotFound = lakecat.NewSentinel(lakecat.ErrNotFound, "schema: column not found")

// ErrDuplicateColumn is returned by [Select] for a column named twice; it
// is of class [lakecat.ErrInvalidArgument]. A read schema holds each field
// id once, and an output of two columns of one name (a JSON object, a
// Parquet or CSV header) is ambiguous, so the mistake is refused rather
// than read once silently.
var ErrDuplicateColumn = lakecat.NewSentinel(lakecat.ErrInvalidArgument, "schema: column selected twice")

// Select returns a copy of s holding only the named columns, with their
// ancestors: the top-level fields in the order the paths first name them
// (see [OrderBy]), nested fields in s's order. A path is dotted
// ("addr.zip"); list elements and map keys and values are reached as
// "element", "key" and "value", and selecting a struct selects all of it.
// An unknown or empty path returns an error wrapping [ErrColumnNotFound]
// that names it and lists the columns there are at the level where it
// failed. Two paths that name the same field ("a,a", or "a,A" when
// caseInsensitive) return an error wrapping [ErrDuplicateColumn] that
// names both; a path inside a struct another path selects whole
// ("addr,addr.zip") is not a duplicate. The schema id is kept.
func Select(s *Schema, paths []string, caseInsensitive bool) (*Schema, error) {
	keep := make(map[*Field]bool)
	named := make(map[*Field]string, len(paths))
	for _, p := range paths {
		p = strings.TrimSpace(p)
		if p == "" {
			return nil, fmt.Errorf("%w: an empty column name (columns: %s)", ErrColumnNotFound, strings.Join(fieldNames(s.Fields), ", "))
		}
		f := markPath(s.Fields, p, caseInsensitive, keep)
		if prev, twice := named[f]; twice {
			if prev == p {
				return nil, fmt.Errorf("%w: %q", ErrDuplicateColumn, p)
			}
			return nil, fmt.Errorf("%w: %q and %q name the same column", ErrDuplicateColumn, prev, p)
		}
		if f == nil {
			at, names := available(s.Fields, p, caseInsensitive, "")
			where := "columns"
			if at != "" {
				where = "fields of " + at
			}
			return nil, fmt.Errorf("%w: %q (%s: %s)", ErrColumnNotFound, p, where, strings.Join(names, ", "))
		}
		named[f] = p
	}
	out := &Schema{ID: s.ID, IdentifierFieldIDs: append([]int(nil), s.IdentifierFieldIDs...)}
	out.Fields = prune(s.Fields, keep)
	return OrderBy(out, paths, caseInsensitive), nil
}

// OrderBy returns a copy of s (sharing its fields) whose top-level fields
// named by paths come first, in the order of their first mention; the
// others follow in s's order. A path names the top-level field it is, or
// the one it lies in ("addr.zip" names addr). Reordering costs a read
// nothing: columns are matched by field id.
func OrderBy(s *Schema, paths []string, caseInsensitive bool) *Schema {
	out := &Schema{ID: s.ID, IdentifierFieldIDs: s.IdentifierFieldIDs, Fields: make([]*Field, 0, len(s.Fields))}
	placed := make(map[*Field]bool, len(s.Fields))
	for _, p := range paths {
		if f := topLevel(s.Fields, strings.TrimSpace(p), caseInsensitive); f != nil && !placed[f] {
			placed[f] = true
			out.Fields = append(out.Fields, f)
		}
	}
	for _, f := range s.Fields {
		if !placed[f] {
			out.Fields = append(out.Fields, f)
		}
	}
	return out
}

// topLevel returns the field of fields that path is or lies in, as
// markPath matches it (a whole name first, then a dotted prefix).
func topLevel(fields []*Field, path string, ci bool) *Field {
	eq := func(a, b string) bool { return a == b || ci && strings.EqualFold(a, b) }
	for _, f := range fields {
		if eq(f.Name, path) {
			return f
		}
	}
	for _, f := range fields {
		if len(path) > len(f.Name) && path[len(f.Name)] == '.' && eq(path[:len(f.Name)], f.Name) {
			return f
		}
	}
	return nil
}

// available returns, for a path that names no field, the dotted path of the
// deepest field its prefix reaches ("" at the top level) and the names of
// the fields there.
func available(fields []*Field, path string, ci bool, at string) (string, []string) {
	for _, f := range fields {
		kids := Children(f.Type)
		if len(kids) > 0 && len(path) > len(f.Name) && path[len(f.Name)] == '.' &&
			(path[:len(f.Name)] == f.Name || ci && strings.EqualFold(path[:len(f.Name)], f.Name)) {
			return available(kids, path[len(f.Name)+1:], ci, strings.TrimPrefix(at+"."+f.Name, "."))
		}
	}
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name
	}
	return at, names
}

// markPath marks the field at path and all its ancestors in keep. A field
// marked itself (not only as an ancestor) is kept whole.
func markPath(fields []*Field, path string, ci bool, keep map[*Field]bool) *Field {
	eq := func(a, b string) bool {
		if ci {
			return strings.EqualFold(a, b)
		}
		return a == b
	}
	for _, f := range fields {
		if eq(f.Name, path) {
			keep[f] = true
			return f
		}
	}
	for _, f := range fields {
		if len(path) > len(f.Name) && path[len(f.Name)] == '.' && eq(path[:len(f.Name)], f.Name) {
			if leaf := markPath(Children(f.Type), path[len(f.Name)+1:], ci, keep); leaf != nil {
				if _, whole := keep[f]; !whole {
					keep[f] = false
				}
				return leaf
			}
		}
	}
	return nil
}

func prune(fields []*Field, keep map[*Field]bool) []*Field {
	var out []*Field
	for _, f := range fields {
		whole, ok := keep[f]
		switch {
		case !ok:
			continue
		case whole:
			out = append(out, f.Clone())
		default:
			c := *f
			switch t := f.Type.(type) {
			case *StructType:
				c.Type = &StructType{Fields: prune(t.Fields, keep)}
			case *ListType:
				el := prune([]*Field{t.Element}, keep)
				c.Type = &ListType{Element: el[0]}
			case *MapType:
				// A map keeps its key whole; the value may be pruned.
				v := t.Value.Clone()
				if kept := prune([]*Field{t.Value}, keep); len(kept) == 1 {
					v = kept[0]
				}
				c.Type = &MapType{Key: t.Key.Clone(), Value: v}
			}
			out = append(out, &c)
		}
	}
	return out
}

// fieldNames returns the names of fields, in order.
func fieldNames(fields []*Field) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.Name
	}
	return out
}
