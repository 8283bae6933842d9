package schema

import (
	"fmt"
	"strings"

	"github.com/lakecat/lakecat"
)

// ErrColumnNotFound is returned by [Select] for a path that names no field.
var ErrColumnNotFound = lakecat.NewSentinel(lakecat.ErrNotFound, "schema: column not found")

// Select returns a copy of s holding only the named columns, in s's order,
// with their ancestors. A path is dotted ("addr.zip"); list elements and
// map keys and values are reached as "element", "key" and "value", and
// selecting a struct selects all of it. An unknown path returns an error
// wrapping [ErrColumnNotFound] that names it. The schema id is kept.
func Select(s *Schema, paths []string, caseInsensitive bool) (*Schema, error) {
	keep := make(map[*Field]bool)
	for _, p := range paths {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if !markPath(s.Fields, p, caseInsensitive, keep) {
			return nil, fmt.Errorf("%w: %q", ErrColumnNotFound, p)
		}
	}
	out := &Schema{ID: s.ID, IdentifierFieldIDs: append([]int(nil), s.IdentifierFieldIDs...)}
	out.Fields = prune(s.Fields, keep)
	return out, nil
}

// markPath marks the field at path and all its ancestors in keep. A field
// marked itself (not only as an ancestor) is kept whole.
func markPath(fields []*Field, path string, ci bool, keep map[*Field]bool) bool {
	eq := func(a, b string) bool {
		if ci {
			return strings.EqualFold(a, b)
		}
		return a == b
	}
	for _, f := range fields {
		if eq(f.Name, path) {
			keep[f] = true
			return true
		}
	}
	for _, f := range fields {
		if len(path) > len(f.Name) && path[len(f.Name)] == '.' && eq(path[:len(f.Name)], f.Name) {
			if markPath(Children(f.Type), path[len(f.Name)+1:], ci, keep) {
				if _, whole := keep[f]; !whole {
					keep[f] = false
				}
				return true
			}
		}
	}
	return false
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
