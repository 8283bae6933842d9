package evolve

import (
	"fmt"
	"strings"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/schema"
)

// ErrIncompatibleSchema is matched (with [errors.Is]) by the
// [*CompatibilityError] that [CheckWrite] and [CheckRead] return.
var ErrIncompatibleSchema = lakecat.NewSentinel(lakecat.ErrIncompatibleSchema, "incompatible schema")

// ProblemKind says what is wrong with one field.
type ProblemKind uint8

// The problem kinds.
const (
	// MissingRequired: a required field has no counterpart (and no
	// initial-default to read in its place).
	MissingRequired ProblemKind = iota
	// OptionalForRequired: optional data (which may hold nulls) for a
	// required field.
	OptionalForRequired
	// UnpromotableType: a primitive type that cannot be promoted to the
	// other under the format's rules.
	UnpromotableType
	// KindMismatch: a struct, list, map or primitive where another of these
	// is expected.
	KindMismatch
	// UnknownField: written data holds a field the table does not have.
	UnknownField
)

var problemNames = [...]string{
	MissingRequired:     "missing required field",
	OptionalForRequired: "optional data for a required field",
	UnpromotableType:    "type cannot be promoted",
	KindMismatch:        "kind mismatch",
	UnknownField:        "field not in table",
}

// String returns the kind in words.
func (k ProblemKind) String() string { return problemNames[k] }

// Problem is one incompatibility found by [CheckWrite] or [CheckRead].
type Problem struct {
	// Path is the dotted path of the field ("addr.zip", "tags.element") in
	// the table's (CheckWrite) or the read (CheckRead) schema; for an
	// UnknownField, in the incoming schema.
	Path string
	// FieldID is the field's id in that schema, or schema.NoID.
	FieldID int
	Kind    ProblemKind
	// Have is the type of the data (incoming or file), nil when missing.
	Have schema.Type
	// Want is the type of the table or read field, nil for UnknownField.
	Want schema.Type
}

// String returns "path (id N): what is wrong[: have → want]".
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.Path)
	if p.FieldID != schema.NoID {
		fmt.Fprintf(&b, " (id %d)", p.FieldID)
	}
	b.WriteString(": ")
	b.WriteString(p.Kind.String())
	if (p.Kind == UnpromotableType || p.Kind == KindMismatch) && p.Have != nil && p.Want != nil {
		fmt.Fprintf(&b, ": %s → %s", p.Have, p.Want)
	}
	return b.String()
}

// CompatibilityError lists every problem found by one check.
type CompatibilityError struct {
	// Op is "write" or "read".
	Op string
	// Rules are the promotion rules the check applied.
	Rules    project.Rules
	Problems []Problem
}

// Error returns "evolve: <op> incompatible (<rules>): p1; p2; …".
func (e *CompatibilityError) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = p.String()
	}
	return fmt.Sprintf("evolve: %s incompatible (%s): %s", e.Op, e.Rules, strings.Join(parts, "; "))
}

// Unwrap returns [ErrIncompatibleSchema].
func (e *CompatibilityError) Unwrap() error { return ErrIncompatibleSchema }

// CheckWrite checks that data of schema incoming can be written to a table
// of schema table under the promotion rules r (schema-on-write; for a
// table of [Format] f pass f.Rules()), and returns nil or a
// [*CompatibilityError] listing every problem: a required table field the
// data lacks, optional data for a required field, a type that cannot be
// promoted to the table's, a kind mismatch, a field the table lacks. Fields
// are matched by field id when incoming carries ids, else by name
// (case-sensitive). An optional table field the data lacks is fine (written
// as null).
func CheckWrite(table, incoming *schema.Schema, r project.Rules) error {
	c := checker{r: r, byID: incoming.HasIDs(), write: true}
	c.structs("", table.Fields, incoming.Fields)
	return c.result("write")
}

// CheckRead checks that a data file of schema file can be read as schema
// read under the promotion rules r, matching fields by field id, and returns nil or a
// [*CompatibilityError] listing every problem: a required read field the
// file lacks and that has no initial-default, optional file data for a
// required read field, a file type that cannot be promoted to the read type,
// a kind mismatch. File fields the read schema does not name are ignored.
func CheckRead(read, file *schema.Schema, r project.Rules) error {
	c := checker{r: r, byID: true}
	c.structs("", read.Fields, file.Fields)
	return c.result("read")
}

type checker struct {
	r        project.Rules
	byID     bool
	write    bool
	problems []Problem
}

func (c *checker) result(op string) error {
	if len(c.problems) == 0 {
		return nil
	}
	return &CompatibilityError{Op: op, Rules: c.r, Problems: c.problems}
}

func (c *checker) add(path string, id int, k ProblemKind, have, want schema.Type) {
	c.problems = append(c.problems, Problem{Path: path, FieldID: id, Kind: k, Have: have, Want: want})
}

// structs checks the fields want (table or read) against have (incoming or
// file) at one level.
func (c *checker) structs(path string, want, have []*schema.Field) {
	used := make(map[*schema.Field]bool)
	for _, w := range want {
		p := joinPath(path, w.Name)
		h := c.match(w, have)
		if h == nil {
			if w.Required && (c.write || w.InitialDefault == nil) {
				c.add(p, w.ID, MissingRequired, nil, w.Type)
			}
			continue
		}
		used[h] = true
		c.field(p, w, h)
	}
	if c.write {
		for _, h := range have {
			if !used[h] {
				c.add(joinPath(path, h.Name), h.ID, UnknownField, h.Type, nil)
			}
		}
	}
}

func (c *checker) match(w *schema.Field, have []*schema.Field) *schema.Field {
	for _, h := range have {
		if c.byID && h.ID == w.ID || !c.byID && h.Name == w.Name {
			return h
		}
	}
	return nil
}

func (c *checker) field(path string, w, h *schema.Field) {
	if w.Required && !h.Required {
		c.add(path, w.ID, OptionalForRequired, h.Type, w.Type)
	}
	wk, hk := w.Type.Kind(), h.Type.Kind()
	if wk.IsPrimitive() && hk.IsPrimitive() || hk == schema.KindUnknown {
		if !canPromote(c.r, h.Type, w.Type, !c.write) {
			c.add(path, w.ID, UnpromotableType, h.Type, w.Type)
		}
		return
	}
	if wk != hk {
		c.add(path, w.ID, KindMismatch, h.Type, w.Type)
		return
	}
	switch wt := w.Type.(type) {
	case *schema.StructType:
		c.structs(path, wt.Fields, h.Type.(*schema.StructType).Fields)
	case *schema.ListType:
		c.field(path+"."+schema.ElementName, wt.Element, h.Type.(*schema.ListType).Element)
	case *schema.MapType:
		ht := h.Type.(*schema.MapType)
		wkp, ok1 := wt.Key.Type.(schema.PrimitiveType)
		hkp, ok2 := ht.Key.Type.(schema.PrimitiveType)
		if ok1 && ok2 && !c.r.AllowsMapKey(hkp, wkp) {
			c.add(path+"."+schema.KeyName, wt.Key.ID, UnpromotableType, ht.Key.Type, wt.Key.Type)
		} else {
			c.field(path+"."+schema.KeyName, wt.Key, ht.Key)
		}
		c.field(path+"."+schema.ValueName, wt.Value, ht.Value)
	}
}
