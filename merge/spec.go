package merge

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakecat/lakecat"
)

// ErrSpec is matched by errors of a [Spec] that cannot merge batches of
// the given schema: a column index out of range, a key or sequence column
// of a type without an order, an aggregate function lakecat does not know
// or cannot apply to its column's type.
var ErrSpec = lakecat.NewSentinel(lakecat.ErrUnsupported, "merge: unsupported merge")

// ErrUnsorted is matched by the error of a run whose keys are not in
// ascending order: a corrupt data file.
var ErrUnsorted = lakecat.NewSentinel(lakecat.ErrCorrupt, "merge: run not sorted by key")

// ErrRetract is matched by the error of a retract record (-U or -D) that
// the merge engine cannot apply (first-row and partial-update without
// ignore-delete, an aggregate function without retraction).
var ErrRetract = lakecat.NewSentinel(lakecat.ErrUnsupported, "merge: retract record not accepted")

// Engine is a merge engine (Paimon's "merge-engine" option).
type Engine string

// The merge engines (Paimon docs, "Merge Engine").
const (
	Deduplicate   Engine = "deduplicate"
	FirstRow      Engine = "first-row"
	PartialUpdate Engine = "partial-update"
	Aggregation   Engine = "aggregation"
)

// The row kinds of _VALUE_KIND (Paimon's RowKind byte values).
const (
	Insert       int8 = 0 // +I
	UpdateBefore int8 = 1 // -U, a retract
	UpdateAfter  int8 = 2 // +U
	Delete       int8 = 3 // -D, a retract
)

// Spec says how the rows of one key merge. Columns are indices into the
// batches' schema, which every run shares.
type Spec struct {
	// Keys are the key columns, in key order (Paimon's trimmed primary
	// key: the primary key without the partition columns).
	Keys []int
	// Sequence are the user sequence fields (sequence.field), compared in
	// order before SequenceNumber; nil when the table has none.
	Sequence []int
	// SequenceNumber and ValueKind are the _SEQUENCE_NUMBER (int64) and
	// _VALUE_KIND (int8) columns.
	SequenceNumber, ValueKind int
	// Engine is the merge engine ("" is Deduplicate).
	Engine Engine
	// IgnoreDelete drops retract records before merging (Paimon's
	// ignore-delete, and its per-engine spellings).
	IgnoreDelete bool
	// RemoveRecordOnDelete makes a -D record remove the row in
	// partial-update (partial-update.remove-record-on-delete) and in
	// aggregation (aggregation.remove-record-on-delete).
	RemoveRecordOnDelete bool
	// SequenceGroups are partial-update's sequence groups
	// (fields.<seq>.sequence-group).
	SequenceGroups []SequenceGroup
	// Aggregates are aggregation's functions by column; a column without
	// one (and not a key column) uses DefaultAggregate, or
	// last_non_null_value.
	Aggregates map[int]Aggregate
	// DefaultAggregate is fields.default-aggregate-function.
	DefaultAggregate Aggregate
}

// SequenceGroup is one partial-update sequence group: the Fields are
// updated together, from the record whose Sequence columns are the
// highest (records with all of them null leave the group unchanged).
type SequenceGroup struct {
	Sequence []int
	Fields   []int
}

// Aggregate is a column's aggregate function (Paimon docs, "Aggregation").
type Aggregate struct {
	// Function is sum, product, count, min, max, last_value,
	// last_non_null_value, first_value, first_non_null_value, bool_and,
	// bool_or or listagg.
	Function string
	// Delimiter is listagg's delimiter (fields.<f>.list-agg-delimiter; ""
	// is ",").
	Delimiter string
	// IgnoreRetract skips retract records for this column
	// (fields.<f>.ignore-retract).
	IgnoreRetract bool
}

// Functions lists the aggregate functions [Spec] accepts.
var Functions = []string{"sum", "product", "count", "min", "max", "last_value", "last_non_null_value",
	"first_value", "first_non_null_value", "bool_and", "bool_or", "listagg"}

func knownFunction(f string) bool {
	for _, k := range Functions {
		if k == f {
			return true
		}
	}
	return false
}

// check validates the spec against the batches' schema s.
func (sp *Spec) check(s *arrow.Schema) error {
	n := s.NumFields()
	in := func(c int) bool { return c >= 0 && c < n }
	if len(sp.Keys) == 0 {
		return fmt.Errorf("%w: no key columns", ErrSpec)
	}
	for _, c := range append(append(append([]int(nil), sp.Keys...), sp.Sequence...), sp.SequenceNumber, sp.ValueKind) {
		if !in(c) {
			return fmt.Errorf("%w: column %d out of range (%d columns)", ErrSpec, c, n)
		}
	}
	if t := s.Field(sp.SequenceNumber).Type; t.ID() != arrow.INT64 {
		return fmt.Errorf("%w: _SEQUENCE_NUMBER is %s, not int64", ErrSpec, t)
	}
	if t := s.Field(sp.ValueKind).Type; t.ID() != arrow.INT8 {
		return fmt.Errorf("%w: _VALUE_KIND is %s, not int8", ErrSpec, t)
	}
	switch sp.Engine {
	case "", Deduplicate, FirstRow, PartialUpdate, Aggregation:
	default:
		return fmt.Errorf("%w: merge engine %q", ErrSpec, sp.Engine)
	}
	for _, g := range sp.SequenceGroups {
		for _, c := range append(append([]int(nil), g.Sequence...), g.Fields...) {
			if !in(c) {
				return fmt.Errorf("%w: sequence group column %d out of range", ErrSpec, c)
			}
		}
		if len(g.Sequence) == 0 {
			return fmt.Errorf("%w: sequence group without sequence fields", ErrSpec)
		}
	}
	if sp.Engine == Aggregation {
		for c := 0; c < n; c++ {
			a := sp.aggregate(c)
			if a.Function == "" {
				continue
			}
			if !knownFunction(a.Function) {
				return fmt.Errorf("%w: aggregate function %q of column %s", ErrSpec, a.Function, s.Field(c).Name)
			}
			if err := checkAggregateType(a.Function, s.Field(c).Type); err != nil {
				return fmt.Errorf("%w: aggregate function %s of column %s: %v", ErrSpec, a.Function, s.Field(c).Name, err)
			}
		}
	}
	return nil
}

// aggregate returns column c's aggregate function under aggregation; ""
// for key and system columns, which take the last record's value.
func (sp *Spec) aggregate(c int) Aggregate {
	if c == sp.SequenceNumber || c == sp.ValueKind {
		return Aggregate{}
	}
	for _, k := range sp.Keys {
		if k == c {
			return Aggregate{}
		}
	}
	if a, ok := sp.Aggregates[c]; ok {
		return a
	}
	if sp.DefaultAggregate.Function != "" {
		return sp.DefaultAggregate
	}
	return Aggregate{Function: "last_non_null_value"}
}
