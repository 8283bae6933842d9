package evolve

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/lakecat/lakecat/schema"
)

// WriteDiff writes the difference between two schemas of one table, old and
// new, matched by field id, one line per field in new's order (nested fields
// indented under their parent), then the deleted fields:
//
//	schema 1 → 2, last-column-id 5 → 6
//	  1 id: required long
//	~ 2 total: decimal(10, 2)  (renamed from amount)
//	~ 4 qty: long  (type int → long)
//	+ 6 note: string
//	- 3 old: string
//
// A line starts with "+" for an added field, "-" for a deleted one, "~" for
// a changed one (what changed in parentheses: renamed, type, now optional,
// now required, doc, moved) and a space otherwise. Pass lastColumnID values
// of -1 to leave the last-column-id out of the header.
func WriteDiff(w io.Writer, old, new *schema.Schema, oldLast, newLast int) error {
	var b strings.Builder
	fmt.Fprintf(&b, "schema %d → %d", old.ID, new.ID)
	if oldLast >= 0 && newLast >= 0 {
		fmt.Fprintf(&b, ", last-column-id %d → %d", oldLast, newLast)
	}
	b.WriteString("\n")
	oldByID := map[int]*schema.Field{}
	oldOrder := map[string][]int{} // parent key ("" top) → child ids in order
	var index func(parent string, fs []*schema.Field)
	index = func(parent string, fs []*schema.Field) {
		for _, f := range fs {
			if f.ID != schema.NoID {
				oldByID[f.ID] = f
				oldOrder[parent] = append(oldOrder[parent], f.ID)
			}
			index(childKey(parent, f), schema.Children(f.Type))
		}
	}
	index("", old.Fields)
	seen := map[int]bool{}
	var walk func(parent string, fs []*schema.Field, depth int, parentNew bool)
	walk = func(parent string, fs []*schema.Field, depth int, parentNew bool) {
		var order []int
		for _, f := range fs {
			if _, ok := oldByID[f.ID]; ok {
				order = append(order, f.ID)
			}
		}
		var oldKept []int
		for _, id := range oldOrder[parent] {
			if slices.Contains(order, id) {
				oldKept = append(oldKept, id)
			}
		}
		moved := !slices.Equal(order, oldKept)
		for _, f := range fs {
			seen[f.ID] = true
			o, existed := oldByID[f.ID]
			mark := " "
			var notes []string
			switch {
			case f.ID == schema.NoID:
				// A Paimon list element or map key or value: no id to match.
				if parentNew {
					mark = "+"
				}
			case !existed:
				mark = "+"
			default:
				if o.Name != f.Name {
					notes = append(notes, "renamed from "+o.Name)
				}
				if ot, nt := o.Type, f.Type; ot.Kind().IsPrimitive() && nt.Kind().IsPrimitive() && !schema.Equal(ot, nt) ||
					ot.Kind() != nt.Kind() {
					notes = append(notes, fmt.Sprintf("type %s → %s", ot, nt))
				}
				if o.Required && !f.Required {
					notes = append(notes, "now optional")
				} else if !o.Required && f.Required {
					notes = append(notes, "now required")
				}
				if o.Doc != f.Doc {
					notes = append(notes, fmt.Sprintf("doc %q", f.Doc))
				}
				if moved && neighbours(order, f.ID) != neighbours(oldKept, f.ID) &&
					!sameSide(order, oldKept, f.ID) {
					notes = append(notes, "moved")
				}
				if len(notes) > 0 {
					mark = "~"
				}
			}
			line(&b, mark, depth, f)
			if len(notes) > 0 {
				fmt.Fprintf(&b, "  (%s)", strings.Join(notes, ", "))
			}
			b.WriteString("\n")
			walk(childKey(parent, f), schema.Children(f.Type), depth+1, mark == "+")
		}
	}
	walk("", new.Fields, 0, false)
	var gone func(fs []*schema.Field, depth int)
	gone = func(fs []*schema.Field, depth int) {
		for _, f := range fs {
			if f.ID != schema.NoID && !seen[f.ID] {
				line(&b, "-", depth, f)
				b.WriteString("\n")
				continue
			}
			gone(schema.Children(f.Type), depth+1)
		}
	}
	gone(old.Fields, 0)
	_, err := io.WriteString(w, b.String())
	return err
}

// line writes "<mark> <indent><id> <name>: [required ]<type>" where a nested
// type is shown only by kind, its fields following on their own lines.
func line(b *strings.Builder, mark string, depth int, f *schema.Field) {
	t := f.Type.String()
	if !f.Type.Kind().IsPrimitive() {
		t = f.Type.Kind().String()
	}
	req := ""
	if f.Required {
		req = "required "
	}
	id := "-"
	if f.ID != schema.NoID {
		id = fmt.Sprint(f.ID)
	}
	fmt.Fprintf(b, "%s %s%s %s: %s%s", mark, strings.Repeat("  ", depth), id, f.Name, req, t)
}

// childKey identifies f under the parent key: by field id, or by name for a
// field without one.
func childKey(parent string, f *schema.Field) string {
	if f.ID == schema.NoID {
		return parent + "/" + f.Name
	}
	return parent + "/" + fmt.Sprint(f.ID)
}

// neighbours returns the ids before and after id in order (NoID at an end).
func neighbours(order []int, id int) [2]int {
	i := slices.Index(order, id)
	n := [2]int{schema.NoID, schema.NoID}
	if i > 0 {
		n[0] = order[i-1]
	}
	if i >= 0 && i < len(order)-1 {
		n[1] = order[i+1]
	}
	return n
}

// sameSide reports whether id kept its predecessor or its successor: then
// it is a neighbour of a moved field, not moved itself.
func sameSide(order, old []int, id int) bool {
	a, b := neighbours(order, id), neighbours(old, id)
	return a[0] == b[0] || a[1] == b[1]
}
