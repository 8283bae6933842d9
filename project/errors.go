package project

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/schema"
)

// The sentinel errors of the package. Every error [NewPlan] and [Plan.Apply]
// return matches one of them under [errors.Is].
var (
	// ErrRequiredFieldMissing reports a required read field that the file
	// lacks and that has neither an initial-default nor a constant (Iceberg
	// table spec, "Default values": a required field added without an
	// initial-default cannot be read from older files).
	ErrRequiredFieldMissing = lakecat.NewSentinel(lakecat.ErrMissingRequiredField, "missing required field")
	// ErrIncompatibleType reports a file column whose type the read type
	// cannot be read from under the plan's [Rules].
	ErrIncompatibleType = lakecat.NewSentinel(lakecat.ErrIncompatibleSchema, "incompatible type")
	// ErrValueOutOfRange reports a value that does not fit the read type
	// (Paimon and Hudi casts that narrow or parse).
	ErrValueOutOfRange = lakecat.NewSentinel(lakecat.ErrIncompatibleSchema, "value does not fit the read type")
	// ErrInvalidValue reports a value a cast cannot parse (a string read as a
	// number, date or timestamp) or a default or constant of the wrong Go
	// form.
	ErrInvalidValue = lakecat.NewSentinel(lakecat.ErrIncompatibleSchema, "invalid value")
	// ErrNullInRequiredField reports a null value that a file holds for a
	// required read field: the file's field is optional (Iceberg Java
	// refuses such a read outright, whether or not a null occurs); lakecat
	// reads the field and fails at the first null, naming the file, the
	// field id and the row, so that a batch never carries a null in a
	// non-nullable Arrow field.
	ErrNullInRequiredField = lakecat.NewSentinel(lakecat.ErrMissingRequiredField, "null in a required field")
	// ErrBatchLayout reports a record batch handed to [Plan.Apply] that is
	// not laid out as [schema.ToArrowSchema] of [Plan.FileProjection].
	ErrBatchLayout = lakecat.NewSentinel(lakecat.ErrInvalidArgument, "record batch does not match the file projection")
)

// FieldError is the error [NewPlan] returns for one read field: the file, the
// field id and dotted path of the read field, the file type (nil when the
// file lacks the field) and the read type. Err is, or wraps,
// [ErrRequiredFieldMissing], [ErrIncompatibleType] or [ErrInvalidValue].
type FieldError struct {
	File     string
	FieldID  int
	Path     string
	FileType schema.Type
	ReadType schema.Type
	Err      error
}

// Error returns, for example,
//
//	project: file "a.parquet": field 2 (missing_str): missing required field: read type string, not in the file and no initial-default
//	project: file "a.parquet": field 3 (n): incompatible type: file type string, read type long
func (e *FieldError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "project: file %q: field %d (%s): %v", e.File, e.FieldID, e.Path, e.Err)
	switch {
	case errors.Is(e.Err, ErrRequiredFieldMissing):
		fmt.Fprintf(&b, ": read type %s, not in the file and no initial-default", typeString(e.ReadType))
	case e.FileType != nil:
		fmt.Fprintf(&b, ": file type %s, read type %s", typeString(e.FileType), typeString(e.ReadType))
	}
	return b.String()
}

// Unwrap returns Err.
func (e *FieldError) Unwrap() error { return e.Err }

// ValueError is the error [Plan.Apply] returns when a cast fails on one
// value: the file, the field id and path of the read field, the row and the
// value. Row counts from 0 at the first row of the record batch handed to
// Apply (for a field nested in a list or map, the index among the list's
// elements or the map's entries in that batch); a reader that knows the
// batch's first row in the file adds it. Err is [ErrValueOutOfRange],
// [ErrInvalidValue] or [ErrNullInRequiredField].
type ValueError struct {
	File     string
	FieldID  int
	Path     string
	Row      int64
	Value    string
	FileType schema.Type
	ReadType schema.Type
	Err      error
}

// Error returns, for example,
//
//	project: file "a.parquet": field 4 (qty), row 17: value does not fit the read type: 300 as tinyint (file type int)
//	project: file "a.parquet": field 1 (id), row 2: null in a required field: read type long is required, the file's field is optional
func (e *ValueError) Error() string {
	if errors.Is(e.Err, ErrNullInRequiredField) {
		return fmt.Sprintf("project: file %q: field %d (%s), row %d: %v: read type %s is required, the file's field is optional",
			e.File, e.FieldID, e.Path, e.Row, e.Err, typeString(e.ReadType))
	}
	return fmt.Sprintf("project: file %q: field %d (%s), row %d: %v: %s as %s (file type %s)",
		e.File, e.FieldID, e.Path, e.Row, e.Err, e.Value, typeString(e.ReadType), typeString(e.FileType))
}

// Unwrap returns Err.
func (e *ValueError) Unwrap() error { return e.Err }

func typeString(t schema.Type) string {
	if t == nil {
		return "none"
	}
	return t.String()
}

// castError is what a cast kernel returns for one bad value; the plan node
// turns it into a *ValueError.
type castError struct {
	row   int
	value string
	err   error
}

func (e *castError) Error() string { return fmt.Sprintf("row %d: value %s: %v", e.row, e.value, e.err) }
func (e *castError) Unwrap() error { return e.err }
