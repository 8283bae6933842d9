package hudilog

import (
	"errors"
	"fmt"

	"github.com/lakecat/lakecat"
)

var (
	// ErrCorrupt is matched by every error caused by bytes that do not
	// follow the Hudi log format, sizes above a [Limits] cap included.
	ErrCorrupt = lakecat.NewSentinel(lakecat.ErrCorrupt, "hudilog: corrupt log file")
	// ErrUnsupported is matched by errors for valid blocks this package
	// does not read: another log format version, a delete block in Java
	// serialization (block versions 1 and 2), HFile and CDC data blocks.
	ErrUnsupported = lakecat.NewSentinel(lakecat.ErrUnsupported, "hudilog: unsupported log block")
)

// CorruptError describes malformed log bytes: the file, the byte offset of
// the problem (-1 when unknown), the section ("magic", "block", "header",
// "content", "delete block", "avro data block") and the cause. It matches
// [ErrCorrupt].
type CorruptError struct {
	File    string
	Offset  int64
	Section string
	Err     error
}

func (e *CorruptError) Error() string {
	s := "hudilog: corrupt " + e.Section
	if e.File != "" {
		s += " in " + e.File
	}
	if e.Offset >= 0 {
		s += fmt.Sprintf(" at offset %d", e.Offset)
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause.
func (e *CorruptError) Unwrap() error { return e.Err }

// Is reports whether target is [ErrCorrupt] (or its class).
func (e *CorruptError) Is(target error) bool { return errors.Is(ErrCorrupt, target) }

func corruptf(file string, off int64, section, format string, args ...any) error {
	return &CorruptError{File: file, Offset: off, Section: section, Err: fmt.Errorf(format, args...)}
}

func unsupportedf(file string, off int64, format string, args ...any) error {
	return fmt.Errorf("%w: %s at offset %d: %s", ErrUnsupported, file, off, fmt.Sprintf(format, args...))
}
