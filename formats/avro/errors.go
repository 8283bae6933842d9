package avro

import (
	"errors"
	"fmt"
)

var (
	// ErrCorrupt is matched (errors.Is) by every error caused by bytes that
	// do not follow the Avro object container format.
	ErrCorrupt = errors.New("avro: corrupt file")
	// ErrUnsupported is matched by errors for valid files that use a
	// feature this package does not read (a codec it lacks, a union of
	// several non-null types, a decimal wider than 38 digits).
	ErrUnsupported = errors.New("avro: unsupported feature")
)

// CorruptError describes malformed input: the file (when known), the byte
// offset where the problem was found (-1 when unknown), the section of the
// file ("magic", "header", "schema", "block", "value") and the cause. It
// matches [ErrCorrupt] under errors.Is.
type CorruptError struct {
	File    string
	Offset  int64
	Section string
	Err     error
}

func (e *CorruptError) Error() string {
	s := "avro: corrupt " + e.Section
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

// Is reports whether target is [ErrCorrupt].
func (e *CorruptError) Is(target error) bool { return errors.Is(ErrCorrupt, target) }

func corruptf(file string, off int64, section, format string, args ...any) error {
	return &CorruptError{File: file, Offset: off, Section: section, Err: fmt.Errorf(format, args...)}
}

type unsupportedError struct{ msg string }

func (e *unsupportedError) Error() string        { return "avro: " + e.msg }
func (e *unsupportedError) Is(target error) bool { return errors.Is(ErrUnsupported, target) }

func unsupportedf(format string, args ...any) error {
	return &unsupportedError{msg: fmt.Sprintf(format, args...)}
}

// errShort is the cause of a value or header that runs past its bytes.
var errShort = errors.New("unexpected end of data")
