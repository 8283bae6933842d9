package evolve

import "github.com/lakecat/lakecat/schema"

type opKind uint8

const (
	opAdd opKind = iota
	opRename
	opOptional
	opType
	opDoc
	opDelete
	opMove
	opUnion
)

var opNames = [...]string{
	opAdd:      "add",
	opRename:   "rename",
	opOptional: "make optional",
	opType:     "update type",
	opDoc:      "update doc",
	opDelete:   "delete",
	opMove:     "move",
	opUnion:    "union by name",
}

type moveKind uint8

const (
	moveFirst moveKind = iota
	moveBefore
	moveAfter
)

// change is one recorded change. path is the column's path (for an add, the
// parent's path, "" for the top level).
type change struct {
	op             opKind
	path           string
	name           string // add: the new column's name; rename: the new name
	typ            schema.Type
	doc            string
	required       bool
	initialDefault any
	writeDefault   any
	move           moveKind
	ref            string // move: the reference column's path
	union          *schema.Schema
}

// displayPath is the path named in an error for c.
func (c *change) displayPath() string {
	if c.op == opAdd {
		if c.path == "" {
			return c.name
		}
		return c.path + "." + c.name
	}
	return c.path
}

// UpdateSchema is a list of schema changes, recorded now and applied later
// by [UpdateSchema.Apply] to whatever schema is current then. A commit that
// loses a race applies the same changes again to the schema that won, so
// every change names columns by path, never by position.
//
// The methods that record a change return the receiver, so that calls can be
// chained; mistakes are reported by Apply, not when recorded. An
// UpdateSchema is not safe for concurrent modification; Apply does not
// modify it and may be called from several goroutines at once.
//
// The zero value is an empty update for an Iceberg v1/v2 table with
// case-sensitive names; [NewUpdate] returns the same.
type UpdateSchema struct {
	changes           []change
	caseInsensitive   bool
	allowIncompatible bool
	format            Format
	partition         []PartitionSource
	keyNames          []string // Paimon partition keys and primary keys
}

// NewUpdate returns an empty update for an Iceberg v1/v2 table with
// case-sensitive names.
func NewUpdate() *UpdateSchema { return &UpdateSchema{} }

// Len returns the number of changes recorded.
func (u *UpdateSchema) Len() int { return len(u.changes) }

// CaseInsensitive sets whether paths and names are matched without regard to
// case (default: case-sensitive). Names are stored as given either way.
func (u *UpdateSchema) CaseInsensitive(on bool) *UpdateSchema {
	u.caseInsensitive = on
	return u
}

// AllowIncompatibleChanges lets a required column be added without an
// initial-default. Data files written before the change lack the column, so
// reading them under the new schema fails: use it only for a table without
// data files, or one about to be rewritten.
func (u *UpdateSchema) AllowIncompatibleChanges() *UpdateSchema {
	u.allowIncompatible = true
	return u
}

// ForFormat sets the table format whose rules [UpdateSchema.Apply] follows
// (default [IcebergV2]). The commit functions of this package set it from the
// table themselves.
func (u *UpdateSchema) ForFormat(f Format) *UpdateSchema {
	u.format = f
	return u
}

// WithPartitionSources sets the partition fields whose source columns
// [UpdateSchema.Apply] protects: such a column cannot be deleted, and its
// type cannot change in a way that changes the transform's result. The
// Iceberg commit functions pass the table's partition specs themselves.
func (u *UpdateSchema) WithPartitionSources(sources ...PartitionSource) *UpdateSchema {
	u.partition = append([]PartitionSource(nil), sources...)
	return u
}

// ColumnOption sets a property of a column being added.
type ColumnOption func(*change)

// Required makes the added column required. Apply refuses it unless the
// column has an initial-default on an Iceberg v3 table, or incompatible
// changes are allowed.
func Required() ColumnOption { return func(c *change) { c.required = true } }

// WithInitialDefault sets the added column's initial-default (the value rows
// written before the column existed read as) and its write-default, in the
// Go form [schema.Field] documents. Iceberg supports defaults from format
// version 3 on ("Default values").
func WithInitialDefault(v any) ColumnOption {
	return func(c *change) {
		c.initialDefault = v
		if c.writeDefault == nil {
			c.writeDefault = v
		}
	}
}

// WithWriteDefault sets the added column's write-default (the value a writer
// uses when it does not supply one).
func WithWriteDefault(v any) ColumnOption { return func(c *change) { c.writeDefault = v } }

// AddColumn records adding a top-level column name of type typ with the
// given doc (may be empty). The column is optional unless [Required] is
// given. typ may be a primitive or a struct, list or map whose field ids are
// placeholders: fresh ids are assigned by Apply.
func (u *UpdateSchema) AddColumn(name string, typ schema.Type, doc string, opts ...ColumnOption) *UpdateSchema {
	return u.AddNestedColumn("", name, typ, doc, opts...)
}

// AddNestedColumn records adding column name to the struct at the dotted
// path parent ("addr", "a.b"; "" for the top level). A parent that is a list
// adds to its element struct, a parent that is a map to its value struct.
func (u *UpdateSchema) AddNestedColumn(parent, name string, typ schema.Type, doc string, opts ...ColumnOption) *UpdateSchema {
	c := change{op: opAdd, path: parent, name: name, typ: typ, doc: doc}
	for _, o := range opts {
		o(&c)
	}
	u.changes = append(u.changes, c)
	return u
}

// RenameColumn records renaming the column at path to newName (a name, not
// a path: the column stays in its struct). The field id, and so every data
// file, is unaffected.
func (u *UpdateSchema) RenameColumn(path, newName string) *UpdateSchema {
	u.changes = append(u.changes, change{op: opRename, path: path, name: newName})
	return u
}

// MakeColumnOptional records making the column at path optional. The path
// may name a list element ("tags.element") or a map value ("attrs.value").
func (u *UpdateSchema) MakeColumnOptional(path string) *UpdateSchema {
	u.changes = append(u.changes, change{op: opOptional, path: path})
	return u
}

// UpdateColumnType records changing the type of the column at path to
// newType, which must be a promotion the table format allows
// ([Format.CanPromote]).
func (u *UpdateSchema) UpdateColumnType(path string, newType schema.Type) *UpdateSchema {
	u.changes = append(u.changes, change{op: opType, path: path, typ: newType})
	return u
}

// UpdateColumnDoc records setting the doc of the column at path.
func (u *UpdateSchema) UpdateColumnDoc(path, doc string) *UpdateSchema {
	u.changes = append(u.changes, change{op: opDoc, path: path, doc: doc})
	return u
}

// DeleteColumn records deleting the column at path (and everything inside
// it). Its field ids are never handed out again.
func (u *UpdateSchema) DeleteColumn(path string) *UpdateSchema {
	u.changes = append(u.changes, change{op: opDelete, path: path})
	return u
}

// MoveFirst records moving the column at path to the front of its struct.
func (u *UpdateSchema) MoveFirst(path string) *UpdateSchema {
	u.changes = append(u.changes, change{op: opMove, path: path, move: moveFirst})
	return u
}

// MoveBefore records moving the column at path just before the column at
// ref, which must be in the same struct.
func (u *UpdateSchema) MoveBefore(path, ref string) *UpdateSchema {
	u.changes = append(u.changes, change{op: opMove, path: path, move: moveBefore, ref: ref})
	return u
}

// MoveAfter records moving the column at path just after the column at ref,
// which must be in the same struct.
func (u *UpdateSchema) MoveAfter(path, ref string) *UpdateSchema {
	u.changes = append(u.changes, change{op: opMove, path: path, move: moveAfter, ref: ref})
	return u
}

// UnionByName records merging every field of s into the schema, matching
// fields by name at any depth (struct fields, list elements, map keys and
// values): a field the schema lacks is added, as an optional column, with
// fresh ids; a field optional in s makes the matching column optional; a
// non-empty doc in s that differs replaces the column's doc; columns s does
// not mention are kept. A field whose type differs from the column's is
// refused with [ErrIncompatibleType]: there is no promotion and no
// replacement. The field ids in s are ignored.
func (u *UpdateSchema) UnionByName(s *schema.Schema) *UpdateSchema {
	u.changes = append(u.changes, change{op: opUnion, union: s})
	return u
}

// clone returns a copy of u sharing the recorded changes (which are never
// modified).
func (u *UpdateSchema) clone() *UpdateSchema {
	c := *u
	c.changes = u.changes[:len(u.changes):len(u.changes)]
	return &c
}
