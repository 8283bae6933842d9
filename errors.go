package lakecat

import (
	"context"
	"errors"
	"io/fs"
)

// The error classes. Every error a lakecat package returns for a reason
// listed here matches exactly one of these under [errors.Is]; the packages'
// own sentinels (parquet.ErrCorrupt, project.ErrRequiredFieldMissing, …)
// keep working and additionally match their class. See the package
// documentation for the table.
var (
	// ErrCorrupt: bytes that do not follow their format (a data file, a
	// manifest, table metadata JSON), including sizes above a limit.
	ErrCorrupt = errors.New("corrupt input")
	// ErrUnsupported: valid input that uses a feature lakecat does not read
	// (a codec, encryption, delete files, a merge-on-read table, a format
	// that is neither Parquet, ORC nor Avro).
	ErrUnsupported = errors.New("unsupported feature")
	// ErrIncompatibleSchema: a file column cannot be read in the read type
	// (a type change that is not a promotion the table format allows), or
	// a file cannot be matched to the read schema at all.
	ErrIncompatibleSchema = errors.New("incompatible schema")
	// ErrMissingRequiredField: a required read field is absent from a file
	// and has no initial-default or constant.
	ErrMissingRequiredField = errors.New("missing required field")
	// ErrNotFound: a file, table, snapshot, schema or column that does not
	// exist. Errors matching [io/fs.ErrNotExist] belong to this class too
	// (see [ClassOf]).
	ErrNotFound = errors.New("not found")
	// ErrPermission: the storage or catalog refused the caller's
	// credentials (missing, wrong, expired) or their permission.
	ErrPermission = errors.New("permission denied")
	// ErrConflict: the change conflicts with the table's current state (a
	// commit whose requirements no longer hold, a column that already
	// exists, a commit whose outcome is unknown and must be checked).
	ErrConflict = errors.New("conflict")
	// ErrUnavailable: a storage or catalog service that kept failing with
	// transient errors (5xx, 429, timeouts) after the last retry.
	ErrUnavailable = errors.New("service unavailable")
	// ErrInvalidArgument: a caller's mistake in a library call (an option
	// that does not apply, a batch that does not match its plan).
	ErrInvalidArgument = errors.New("invalid argument")
	// ErrCanceled is [context.Canceled]: the caller's context was canceled.
	ErrCanceled = context.Canceled
)

// classes lists the classes in the order [ClassOf] tries them: cancellation
// first (a canceled scan may also report a short read), then unsupported
// before corrupt (an unknown type spelling is both), then the rest.
var classes = []error{ErrCanceled, ErrUnsupported, ErrCorrupt, ErrMissingRequiredField, ErrIncompatibleSchema, ErrNotFound, ErrPermission, ErrConflict, ErrUnavailable, ErrInvalidArgument}

// ClassOf returns the class err belongs to: one of [ErrCanceled],
// [ErrUnsupported], [ErrCorrupt], [ErrMissingRequiredField],
// [ErrIncompatibleSchema], [ErrNotFound], [ErrPermission], [ErrConflict],
// [ErrUnavailable] and [ErrInvalidArgument], or nil when err is nil or
// belongs to none. An error matching [io/fs.ErrNotExist] is [ErrNotFound].
func ClassOf(err error) error {
	if err == nil {
		return nil
	}
	for _, c := range classes {
		if errors.Is(err, c) {
			return c
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return ErrNotFound
	}
	return nil
}

// NewSentinel returns a new sentinel error with the given text that also
// matches class under [errors.Is]. Packages declare their own sentinels
// with it, for example
//
//	var ErrCorrupt = lakecat.NewSentinel(lakecat.ErrCorrupt, "parquet: corrupt file")
//
// The returned error is comparable and unique, so errors.Is(err, ErrCorrupt)
// of the declaring package keeps its meaning.
func NewSentinel(class error, text string) error {
	return &sentinel{text: text, class: class}
}

type sentinel struct {
	text  string
	class error
}

func (e *sentinel) Error() string { return e.text }

// Unwrap returns the class, so that errors.Is matches it.
func (e *sentinel) Unwrap() error { return e.class }

// Classify returns err unchanged when it already belongs to class, and
// otherwise err wrapped so that it also matches class under [errors.Is]
// (the text is unchanged). It is for errors declared before their package
// adopted [NewSentinel]. Classify(nil, …) is nil.
func Classify(class, err error) error {
	if err == nil || errors.Is(err, class) {
		return err
	}
	return &classified{err: err, class: class}
}

type classified struct {
	err   error
	class error
}

func (e *classified) Error() string   { return e.err.Error() }
func (e *classified) Unwrap() []error { return []error{e.err, e.class} }
