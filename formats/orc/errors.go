package orc

import (
	"errors"
	"fmt"

	"github.com/lakecat/lakecat"
)

// Sentinel errors. Every error returned by this package for bad input
// matches one of them under [errors.Is].
var (
	// ErrCorrupt reports a file that does not follow the ORC specification.
	ErrCorrupt = lakecat.NewSentinel(lakecat.ErrCorrupt, "orc: corrupt file")
	// ErrUnsupported reports a valid file using a feature this package does
	// not decode (a future file version, a union type, an encryption).
	ErrUnsupported = lakecat.NewSentinel(lakecat.ErrUnsupported, "orc: unsupported feature")
	// ErrUnsupportedCodec reports a compression codec this package cannot
	// decompress. It also matches [ErrUnsupported].
	ErrUnsupportedCodec error = codecError{}
	// ErrTooLarge reports a size from the file above one of the caps in
	// limits.go.
	ErrTooLarge = lakecat.NewSentinel(lakecat.ErrCorrupt, "orc: size above limit")
)

type codecError struct{}

func (codecError) Error() string        { return "orc: unsupported compression codec" }
func (codecError) Is(target error) bool { return errors.Is(ErrUnsupported, target) }

// CorruptError is a positioned decoding error. It matches [ErrCorrupt] under
// [errors.Is] (and also whatever Err matches, e.g. [ErrTooLarge]).
type CorruptError struct {
	// File is the file name given with [WithFileName], or "".
	File string
	// Offset is the byte offset in the file of the section being decoded,
	// or -1 when unknown.
	Offset int64
	// Section names the part of the file: "postscript", "footer",
	// "stripe 2 footer", "column 3 DATA stream", ….
	Section string
	// Err is the underlying cause.
	Err error
}

// Error returns "orc: FILE: SECTION at offset N: cause".
func (e *CorruptError) Error() string {
	s := "orc: "
	if e.File != "" {
		s += e.File + ": "
	}
	s += e.Section
	if e.Offset >= 0 {
		s += fmt.Sprintf(" at offset %d", e.Offset)
	}
	return s + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *CorruptError) Unwrap() error { return e.Err }

// Is reports whether target is [ErrCorrupt] or its class,
// [lakecat.ErrCorrupt].
func (e *CorruptError) Is(target error) bool { return errors.Is(ErrCorrupt, target) }

// errf returns a plain corrupt-data error whose text starts with "orc: ".
func errf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
}

var errShort = errors.New("unexpected end of data")

// withFile appends the file name, when known, to an error that already
// starts with "orc: ".
func withFile(err error, name string) error {
	if name == "" {
		return err
	}
	return fmt.Errorf("%w (file %s)", err, name)
}
