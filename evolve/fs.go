package evolve

import (
	"context"
	"errors"
	"io/fs"

	"github.com/lakecat/lakecat/storage"
)

// ErrCommitConflict is matched (with [errors.Is]) by the [*ConflictError] a
// commit returns when another writer committed the same version first.
var ErrCommitConflict = errors.New("evolve: commit conflict")

// ConflictError reports a lost race: File, the name the commit meant to
// create, exists already.
type ConflictError struct {
	File string
}

// Error returns "evolve: commit conflict: <file> exists".
func (e *ConflictError) Error() string { return "evolve: commit conflict: " + e.File + " exists" }

// Unwrap returns [ErrCommitConflict].
func (e *ConflictError) Unwrap() error { return ErrCommitConflict }

// publish writes data to final without ever replacing an existing file
// ([storage.WriteFS.CreateNoReplace]); a final that exists already makes it
// return a [*ConflictError].
func publish(ctx context.Context, fsys storage.WriteFS, final string, data []byte) error {
	err := fsys.CreateNoReplace(ctx, final, data)
	if errors.Is(err, fs.ErrExist) {
		return &ConflictError{File: final}
	}
	return err
}
