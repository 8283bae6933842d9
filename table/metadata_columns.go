package table

import (
	"errors"
	"fmt"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/schema"
)

// The field ids of the metadata columns (Iceberg table spec, "Reserved
// Field IDs"). A read schema may hold them; they are never stored in data
// files. An Iceberg table never uses them, so its metadata columns take
// them; a Paimon primary-key table does (_SEQUENCE_NUMBER is 2147483646,
// _VALUE_KIND 2147483645), so on any table a metadata column whose id some
// schema of the table uses takes another ([Listing.MetadataFieldIDs]).
const (
	// FieldIDFile is _file (string): the data file's path as the table
	// metadata stores it.
	FieldIDFile = 2147483646
	// FieldIDPos is _pos (long): the row's position in its data file, from 0.
	FieldIDPos = 2147483645
	// FieldIDDeleted is _deleted (boolean): whether the row is deleted.
	// A read that selects it keeps the deleted rows, flagged.
	FieldIDDeleted = 2147483644
	// FieldIDSpecID is _spec_id (int): the partition spec id of the file.
	FieldIDSpecID = 2147483643
	// FieldIDPartition is _partition (struct): the file's partition values,
	// one optional field per partition field of every spec.
	FieldIDPartition = 2147483642
)

// The metadata column names.
const (
	ColumnFile      = "_file"
	ColumnPos       = "_pos"
	ColumnDeleted   = "_deleted"
	ColumnSpecID    = "_spec_id"
	ColumnPartition = "_partition"
)

// IsMetadataColumn reports whether name is one of the metadata columns a
// table read adds on request.
func IsMetadataColumn(name string) bool {
	switch name {
	case ColumnFile, ColumnPos, ColumnDeleted, ColumnSpecID, ColumnPartition:
		return true
	}
	return false
}

// ErrFilterMetadataColumn is matched by the error of [BindFilter] for a
// filter on a metadata column.
var ErrFilterMetadataColumn = lakecat.NewSentinel(lakecat.ErrInvalidArgument, "table: metadata columns cannot be filtered on")

// BindFilter is [expr.Bind] of a table read's filter to its read schema,
// except that a column the read schema lacks that is a metadata column
// (_file, _pos, _deleted, _spec_id, _partition) is an error matching
// [ErrFilterMetadataColumn] (class invalid argument) naming it, not
// [expr.ErrUnknownColumn]: a read computes them for the rows it returns,
// after the filter. A table column of that name is filtered as any other.
func BindFilter(e expr.Expr, read *schema.Schema) (*expr.Bound, error) {
	b, err := expr.Bind(e, read)
	var ce *expr.ColumnError
	if errors.As(err, &ce) && errors.Is(err, expr.ErrUnknownColumn) && IsMetadataColumn(ce.Column) {
		return nil, fmt.Errorf("%w: %q in %s", ErrFilterMetadataColumn, ce.Column, ce.Pred)
	}
	return b, err
}
