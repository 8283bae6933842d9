package evolve

import (
	"github.com/lakecat/lakecat"
)

// ErrCommitConflict is matched (with [errors.Is]) by the [*ConflictError] a
// commit returns when another writer committed the same version first.
var ErrCommitConflict = lakecat.NewSentinel(lakecat.ErrConflict, "evolve: commit conflict")

// ConflictError reports a lost race: File, the name the commit meant to
// create, exists already.
type ConflictError struct {
	File string
}

// Error returns "evolve: commit conflict: <file> exists".
func (e *ConflictError) Error() string { return "evolve: commit conflict: " + e.File + " exists" }

// Unwrap returns [ErrCommitConflict].
func (e *ConflictError) Unwrap() error { return ErrCommitConflict }
