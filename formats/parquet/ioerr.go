package parquet

import (
	"errors"
	"fmt"
	"io"
)

// ioError marks an error of the underlying io.ReaderAt (a storage failure),
// as opposed to bytes that do not follow the format: it is returned as an
// I/O error, never as a [CorruptError], and keeps its cause under errors.Is
// (so a retrying caller can tell a transient storage error).
type ioError struct{ err error }

func (e *ioError) Error() string { return e.err.Error() }
func (e *ioError) Unwrap() error { return e.err }

// markReader wraps the file's reader so that its errors other than io.EOF
// are *ioError, also when they come back through parquet-go.
type markReader struct{ r io.ReaderAt }

func (m markReader) ReadAt(b []byte, off int64) (int, error) {
	n, err := m.r.ReadAt(b, off)
	if err != nil && err != io.EOF {
		err = &ioError{err: err}
	}
	return n, err
}

// readErr returns err from reading section at off as an I/O error when the
// storage failed, and as a CorruptError otherwise (a short read: the file
// is shorter than its metadata says).
func readErr(name string, off int64, section string, err error) error {
	var ioe *ioError
	if errors.As(err, &ioe) {
		return fmt.Errorf("parquet: %s: reading %s at offset %d: %w", displayName(name), section, off, ioe.err)
	}
	return &CorruptError{File: name, Offset: off, Section: section, Err: err}
}
