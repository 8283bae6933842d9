package evolve

import (
	"fmt"

	"github.com/lakecat/lakecat"
)

// The sentinel errors. A [*ChangeError] matches one of them under
// [errors.Is].
var (
	// ErrNotFound: the path names no column.
	ErrNotFound = lakecat.NewSentinel(lakecat.ErrNotFound, "column not found")
	// ErrDeleted: the path names a column deleted earlier in the same update.
	ErrDeleted = lakecat.NewSentinel(lakecat.ErrNotFound, "column is deleted")
	// ErrAmbiguous: the path names more than one column (an original name and
	// a pending new name, or two names under case-insensitive matching).
	ErrAmbiguous = lakecat.NewSentinel(lakecat.ErrInvalidArgument, "ambiguous column name")
	// ErrExists: an add or a rename would create a name that already exists
	// in the same struct.
	ErrExists = lakecat.NewSentinel(lakecat.ErrConflict, "column already exists")
	// ErrIdentifierField: the change would delete an identifier field or make
	// one optional.
	ErrIdentifierField = lakecat.NewSentinel(lakecat.ErrIncompatibleSchema, "column is an identifier field")
	// ErrPartitionSource: the change would delete a partition source column or
	// change its type so that its partition transform gives other values.
	ErrPartitionSource = lakecat.NewSentinel(lakecat.ErrIncompatibleSchema, "column is a partition source")
	// ErrKeyColumn: Paimon refuses renaming, deleting, retyping or loosening a
	// partition key or primary key column.
	ErrKeyColumn = lakecat.NewSentinel(lakecat.ErrIncompatibleSchema, "column is a partition key or primary key")
	// ErrIncompatibleType: the type change is not a promotion the table format
	// allows, or two types that must be equal differ.
	ErrIncompatibleType = lakecat.NewSentinel(lakecat.ErrIncompatibleSchema, "incompatible type change")
	// ErrRequiredColumn: a required column may be added only with an
	// initial-default (Iceberg format version 3) or when incompatible changes
	// are allowed.
	ErrRequiredColumn = lakecat.NewSentinel(lakecat.ErrIncompatibleSchema, "required column needs an initial-default")
	// ErrMoveSelf: a column moved before or after itself.
	ErrMoveSelf = lakecat.NewSentinel(lakecat.ErrInvalidArgument, "column moved relative to itself")
	// ErrMoveScope: a column moved relative to a column of another struct.
	ErrMoveScope = lakecat.NewSentinel(lakecat.ErrInvalidArgument, "columns of a move are in different structs")
	// ErrInvalidChange: the change is malformed (an empty name, a parent that
	// is not a struct, a nil type, a list element renamed).
	ErrInvalidChange = lakecat.NewSentinel(lakecat.ErrInvalidArgument, "invalid change")
)

// ChangeError is the error for one change of an [UpdateSchema] that cannot
// be applied. It matches its sentinel (Err) under [errors.Is].
type ChangeError struct {
	// Op names the change: "add", "rename", "make optional", "update type",
	// "update doc", "delete", "move", "union by name".
	Op string
	// Path is the column path as the caller gave it (for an add, the path of
	// the new column).
	Path string
	// Detail says more, or is empty.
	Detail string
	// Err is one of the package's sentinel errors.
	Err error
}

// Error returns "evolve: <op> <path>: <err>[: <detail>]".
func (e *ChangeError) Error() string {
	s := fmt.Sprintf("evolve: %s %q: %v", e.Op, e.Path, e.Err)
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Unwrap returns Err.
func (e *ChangeError) Unwrap() error { return e.Err }
