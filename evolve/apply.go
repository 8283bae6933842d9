package evolve

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/lakecat/lakecat/schema"
)

// Apply applies the recorded changes, in order, to base and returns the new
// schema and the new last-column-id. base is not modified. New field ids
// start above max(lastColumnID, base's highest field id) and the returned
// last-column-id is the highest id handed out (or lastColumnID when there is
// none). The new schema keeps base's schema id and identifier field ids: the
// commit functions assign the schema id.
//
// Apply applies every change it can and returns all the failures at once,
// joined ([errors.Join]); each is a [*ChangeError] naming the change and
// the path. When there is any failure the schema returned is nil.
func (u *UpdateSchema) Apply(base *schema.Schema, lastColumnID int) (*schema.Schema, int, error) {
	a := newApplier(u, base, lastColumnID)
	var errs []error
	for i := range u.changes {
		err := a.apply(&u.changes[i])
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			errs = append(errs, j.Unwrap()...)
		} else if err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, 0, errors.Join(errs...)
	}
	out := &schema.Schema{ID: base.ID, Fields: a.prune(a.root.Fields)}
	out.IdentifierFieldIDs = append([]int(nil), base.IdentifierFieldIDs...)
	last := lastColumnID
	if a.next > last {
		last = a.next
	}
	return out, last, nil
}

// loc is a resolved column: the field, the struct holding it (nil for a list
// element or a map key or value) and the field whose type holds it (nil at
// the top level).
type loc struct {
	f      *schema.Field
	parent *schema.StructType
	owner  *schema.Field
}

type applier struct {
	u           *UpdateSchema
	root        *schema.StructType
	next        int                      // highest id handed out so far
	orig        map[*schema.Field]string // base fields → their original names
	gone        map[*schema.Field]bool   // deleted fields (and their descendants)
	identifiers map[int]bool
	partition   map[int][]string // source field id → transforms
	keys        map[string]bool  // Paimon partition and primary keys
}

func newApplier(u *UpdateSchema, base *schema.Schema, last int) *applier {
	a := &applier{
		u:           u,
		root:        schema.CloneType(base.AsStruct()).(*schema.StructType),
		next:        max(last, base.HighestFieldID()),
		orig:        make(map[*schema.Field]string),
		gone:        make(map[*schema.Field]bool),
		identifiers: make(map[int]bool),
		partition:   make(map[int][]string),
		keys:        make(map[string]bool),
	}
	schema.Walk(a.root.Fields, func(_ []string, f *schema.Field) bool {
		a.orig[f] = f.Name
		return true
	})
	for _, id := range base.IdentifierFieldIDs {
		a.identifiers[id] = true
	}
	for _, p := range u.partition {
		a.partition[p.SourceID] = append(a.partition[p.SourceID], p.Transform)
	}
	for _, k := range u.keyNames {
		a.keys[k] = true
	}
	return a
}

func (a *applier) eq(x, y string) bool {
	if a.u.caseInsensitive {
		return strings.EqualFold(x, y)
	}
	return x == y
}

func (a *applier) fail(c *change, err error, detail string, args ...any) error {
	return &ChangeError{Op: opNames[c.op], Path: c.displayPath(), Err: err, Detail: fmt.Sprintf(detail, args...)}
}

// resolve finds the one live column that path names (see the package doc,
// "How names in one update are resolved").
func (a *applier) resolve(path string) (loc, error) {
	var all []loc
	a.resolveIn(a.root.Fields, a.root, nil, path, &all)
	var live []loc
	for _, l := range all {
		if !a.gone[l.f] && !slices.ContainsFunc(live, func(m loc) bool { return m.f == l.f }) {
			live = append(live, l)
		}
	}
	switch {
	case len(live) == 1:
		return live[0], nil
	case len(live) > 1:
		names := make([]string, len(live))
		for i, l := range live {
			names[i] = fmt.Sprintf("%s#%d", l.f.Name, l.f.ID)
		}
		return loc{}, &ChangeError{Err: ErrAmbiguous, Detail: "matches " + strings.Join(names, " and ")}
	case len(all) > 0:
		return loc{}, &ChangeError{Err: ErrDeleted}
	}
	return loc{}, &ChangeError{Err: ErrNotFound}
}

func (a *applier) names(f *schema.Field) []string {
	if o, ok := a.orig[f]; ok && o != f.Name {
		return []string{f.Name, o}
	}
	return []string{f.Name}
}

func (a *applier) resolveIn(fields []*schema.Field, parent *schema.StructType, owner *schema.Field, path string, out *[]loc) {
	for _, f := range fields {
		for _, n := range a.names(f) {
			if a.eq(n, path) {
				*out = append(*out, loc{f: f, parent: parent, owner: owner})
			} else if len(path) > len(n) && path[len(n)] == '.' && a.eq(path[:len(n)], n) {
				a.descend(f, path[len(n)+1:], out)
			}
		}
	}
}

// descend resolves rest inside f's type. A list's element struct and a
// map's value struct are entered with or without naming "element" or
// "value".
func (a *applier) descend(f *schema.Field, rest string, out *[]loc) {
	switch t := f.Type.(type) {
	case *schema.StructType:
		a.resolveIn(t.Fields, t, f, rest, out)
	case *schema.ListType:
		a.resolveIn([]*schema.Field{t.Element}, nil, f, rest, out)
		if st, ok := t.Element.Type.(*schema.StructType); ok {
			a.resolveIn(st.Fields, st, t.Element, rest, out)
		}
	case *schema.MapType:
		a.resolveIn([]*schema.Field{t.Key, t.Value}, nil, f, rest, out)
		if st, ok := t.Value.Type.(*schema.StructType); ok {
			a.resolveIn(st.Fields, st, t.Value, rest, out)
		}
	}
}

// resolveFor resolves c's path and turns a failure into c's error.
func (a *applier) resolveFor(c *change, path string) (loc, error) {
	l, err := a.resolve(path)
	if err != nil {
		ce := err.(*ChangeError)
		ce.Op, ce.Path = opNames[c.op], path
		return loc{}, ce
	}
	return l, nil
}

func (a *applier) nextID() int {
	a.next++
	return a.next
}

// assignIDs gives fresh ids to everything inside t. Iceberg (Java's
// AssignFreshIds): a struct's fields in order, then the fields inside each
// of them; a list's element, then inside it; a map's key and value, then
// inside the key, then inside the value. Paimon (its ReassignFieldId): each
// ROW field, then everything inside it, before the next field; list
// elements and map keys and values carry no id (NoID).
func (a *applier) assignIDs(t schema.Type) {
	paimon := a.u.format == Paimon
	switch tt := t.(type) {
	case *schema.StructType:
		for _, f := range tt.Fields {
			f.ID = a.nextID()
			if paimon {
				a.assignIDs(f.Type)
			}
		}
		if !paimon {
			for _, f := range tt.Fields {
				a.assignIDs(f.Type)
			}
		}
	case *schema.ListType:
		tt.Element.ID = a.containerID()
		tt.Element.Name = schema.ElementName
		a.assignIDs(tt.Element.Type)
	case *schema.MapType:
		tt.Key.ID = a.containerID()
		tt.Key.Name = schema.KeyName
		tt.Key.Required = true
		tt.Value.ID = a.containerID()
		tt.Value.Name = schema.ValueName
		a.assignIDs(tt.Key.Type)
		a.assignIDs(tt.Value.Type)
	}
}

// containerID is the id of a new list element or map key or value.
func (a *applier) containerID() int {
	if a.u.format == Paimon {
		return schema.NoID
	}
	return a.nextID()
}

// sibling returns a live field of st other than self named name, or nil.
func (a *applier) sibling(st *schema.StructType, name string, self *schema.Field) *schema.Field {
	for _, f := range st.Fields {
		if f != self && !a.gone[f] && a.eq(f.Name, name) {
			return f
		}
	}
	return nil
}

// isKey reports whether l is a top-level Paimon partition or primary key.
func (a *applier) isKey(l loc) bool {
	if l.owner != nil || len(a.keys) == 0 {
		return false
	}
	n, ok := a.orig[l.f]
	return ok && a.keys[n]
}

// anyID reports whether f or anything inside it has an id in set.
func anyID[V any](f *schema.Field, set map[int]V) (int, bool) {
	found, hit := 0, false
	schema.Walk([]*schema.Field{f}, func(_ []string, g *schema.Field) bool {
		if _, ok := set[g.ID]; ok && !hit {
			found, hit = g.ID, true
		}
		return !hit
	})
	return found, hit
}

func (a *applier) apply(c *change) error {
	switch c.op {
	case opAdd:
		return a.add(c)
	case opUnion:
		if c.union == nil {
			return a.fail(c, ErrInvalidChange, "no schema")
		}
		var errs []error
		a.unionStruct(c, a.root, "", c.union.Fields, &errs)
		return errors.Join(errs...)
	}
	l, err := a.resolveFor(c, c.path)
	if err != nil {
		return err
	}
	f := l.f
	switch c.op {
	case opRename:
		if l.parent == nil {
			return a.fail(c, ErrInvalidChange, "a list element or map key or value cannot be renamed")
		}
		if c.name == "" {
			return a.fail(c, ErrInvalidChange, "empty name")
		}
		if s := a.sibling(l.parent, c.name, f); s != nil {
			return a.fail(c, ErrExists, "%s#%d", s.Name, s.ID)
		}
		if a.isKey(l) {
			return a.fail(c, ErrKeyColumn, "")
		}
		f.Name = c.name
	case opOptional:
		if a.identifiers[f.ID] {
			return a.fail(c, ErrIdentifierField, "field id %d", f.ID)
		}
		if mt, ok := ownerMap(l); ok && mt.Key == f {
			return a.fail(c, ErrInvalidChange, "a map key is always required")
		}
		if f.Required && a.isKey(l) {
			return a.fail(c, ErrKeyColumn, "")
		}
		f.Required = false
	case opType:
		return a.updateType(c, l)
	case opDoc:
		f.Doc = c.doc
	case opDelete:
		if l.parent == nil {
			return a.fail(c, ErrInvalidChange, "a list element or map key or value cannot be deleted")
		}
		if id, ok := anyID(f, a.identifiers); ok {
			return a.fail(c, ErrIdentifierField, "field id %d", id)
		}
		if id, ok := anyID(f, a.partition); ok {
			return a.fail(c, ErrPartitionSource, "field id %d", id)
		}
		if a.isKey(l) {
			return a.fail(c, ErrKeyColumn, "")
		}
		schema.Walk([]*schema.Field{f}, func(_ []string, g *schema.Field) bool {
			a.gone[g] = true
			return true
		})
	case opMove:
		return a.move(c, l)
	}
	return nil
}

func (a *applier) add(c *change) error {
	target := a.root
	if c.path != "" {
		l, err := a.resolveFor(c, c.path)
		if err != nil {
			err.(*ChangeError).Detail = "parent " + c.path
			return err
		}
		t := l.f.Type
		switch tt := t.(type) {
		case *schema.ListType:
			t = tt.Element.Type
		case *schema.MapType:
			t = tt.Value.Type
		}
		st, ok := t.(*schema.StructType)
		if !ok {
			return a.fail(c, ErrInvalidChange, "parent %s is a %s, not a struct", c.path, l.f.Type)
		}
		target = st
	}
	if c.name == "" {
		return a.fail(c, ErrInvalidChange, "empty name")
	}
	if c.typ == nil {
		return a.fail(c, ErrInvalidChange, "no type")
	}
	if s := a.sibling(target, c.name, nil); s != nil {
		return a.fail(c, ErrExists, "%s#%d", s.Name, s.ID)
	}
	f := a.u.format
	if c.initialDefault != nil && f != IcebergV3 {
		return a.fail(c, ErrInvalidChange, "initial-default needs Iceberg format version 3")
	}
	if c.required && !a.u.allowIncompatible && (f != IcebergV3 || c.initialDefault == nil) {
		return a.fail(c, ErrRequiredColumn, "")
	}
	nf := &schema.Field{
		ID: a.nextID(), Name: c.name, Type: schema.CloneType(c.typ), Required: c.required, Doc: c.doc,
		InitialDefault: c.initialDefault, WriteDefault: c.writeDefault,
	}
	a.assignIDs(nf.Type)
	target.Fields = append(target.Fields, nf)
	return nil
}

func (a *applier) updateType(c *change, l loc) error {
	f := l.f
	if c.typ == nil {
		return a.fail(c, ErrInvalidChange, "no type")
	}
	if schema.Equal(f.Type, c.typ) {
		return nil
	}
	if !f.Type.Kind().IsPrimitive() {
		return a.fail(c, ErrIncompatibleType, "%s is not a primitive type", f.Type)
	}
	if mt, ok := ownerMap(l); ok && mt.Key == f {
		fp, ok1 := f.Type.(schema.PrimitiveType)
		tp, ok2 := c.typ.(schema.PrimitiveType)
		if !ok1 || !ok2 || !a.u.format.Rules().AllowsMapKey(fp, tp) {
			return a.fail(c, ErrIncompatibleType, "a map key's type cannot change: %s → %s", f.Type, c.typ)
		}
	}
	if !a.u.format.CanPromote(f.Type, c.typ) {
		return a.fail(c, ErrIncompatibleType, "%s → %s is not a promotion the %s rules allow", f.Type, c.typ, a.u.format)
	}
	for _, tr := range a.partition[f.ID] {
		if !transformKeepsValues(tr, f.Type, c.typ) {
			return a.fail(c, ErrPartitionSource, "transform %s of %s differs for %s", tr, f.Type, c.typ)
		}
	}
	if a.isKey(l) {
		return a.fail(c, ErrKeyColumn, "")
	}
	f.Type = schema.CloneType(c.typ)
	a.assignIDs(f.Type)
	return nil
}

func (a *applier) move(c *change, l loc) error {
	if l.parent == nil {
		return a.fail(c, ErrInvalidChange, "a list element or map key or value cannot be moved")
	}
	fs := l.parent.Fields
	from := slices.Index(fs, l.f)
	if c.move == moveFirst {
		fs = slices.Delete(fs, from, from+1)
		l.parent.Fields = slices.Insert(fs, 0, l.f)
		return nil
	}
	r, err := a.resolveFor(c, c.ref)
	if err != nil {
		err.(*ChangeError).Path = c.path
		err.(*ChangeError).Detail = strings.TrimPrefix(err.(*ChangeError).Detail+"; reference column "+c.ref, "; ")
		return err
	}
	if r.f == l.f {
		return a.fail(c, ErrMoveSelf, "reference column %s", c.ref)
	}
	if r.parent != l.parent {
		return a.fail(c, ErrMoveScope, "reference column %s", c.ref)
	}
	fs = slices.Delete(fs, from, from+1)
	to := slices.Index(fs, r.f)
	if c.move == moveAfter {
		to++
	}
	l.parent.Fields = slices.Insert(fs, to, l.f)
	return nil
}

// prune returns fields without the deleted ones, at every depth.
func (a *applier) prune(fields []*schema.Field) []*schema.Field {
	out := fields[:0:0]
	for _, f := range fields {
		if a.gone[f] {
			continue
		}
		switch t := f.Type.(type) {
		case *schema.StructType:
			t.Fields = a.prune(t.Fields)
		case *schema.ListType:
			a.prune([]*schema.Field{t.Element})
		case *schema.MapType:
			a.prune([]*schema.Field{t.Key, t.Value})
		}
		out = append(out, f)
	}
	return out
}

// ownerMap returns the map type holding l, if l is a map key or value.
func ownerMap(l loc) (*schema.MapType, bool) {
	if l.owner == nil || l.parent != nil {
		return nil, false
	}
	mt, ok := l.owner.Type.(*schema.MapType)
	return mt, ok
}
