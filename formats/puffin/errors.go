package puffin

import (
	"errors"
	"fmt"

	"github.com/lakecat/lakecat"
)

// ErrCorrupt is matched (errors.Is) by every error caused by bytes that do
// not follow the Puffin or deletion-vector-v1 format.
var ErrCorrupt = lakecat.NewSentinel(lakecat.ErrCorrupt, "puffin: corrupt file")

// CorruptError describes a malformed blob: the byte offset in the blob where
// the problem was found (-1 when unknown), the section ("length", "magic",
// "bitmap", "crc", …) and the cause. It matches [ErrCorrupt] under
// errors.Is.
type CorruptError struct {
	Offset  int64
	Section string
	Err     error
}

func (e *CorruptError) Error() string {
	s := "puffin: corrupt deletion vector " + e.Section
	if e.Offset >= 0 {
		s += fmt.Sprintf(" at blob offset %d", e.Offset)
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause.
func (e *CorruptError) Unwrap() error { return e.Err }

// Is reports whether target is [ErrCorrupt] or its class.
func (e *CorruptError) Is(target error) bool { return errors.Is(ErrCorrupt, target) }

func corruptf(off int64, section, format string, args ...any) error {
	return &CorruptError{Offset: off, Section: section, Err: fmt.Errorf(format, args...)}
}
