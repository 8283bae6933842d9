// Package osfile opens local files for reading without the hangs of special
// files: a FIFO named as a data file blocks open(2) until a writer appears
// (and a character device may block a read forever), so a file is opened
// non-blocking and refused unless it is a regular file.
package osfile

import (
	"fmt"
	"io"
	"os"

	"github.com/lakecat/lakecat"
)

// ErrNotRegular is matched (errors.Is) by the error for a path that names
// a FIFO, device, socket or other non-regular file. Its class is
// [lakecat.ErrUnsupported].
var ErrNotRegular = lakecat.NewSentinel(lakecat.ErrUnsupported, "not a regular file")

// ErrIsDir is matched by the error for a path that names a directory. Its
// class is [lakecat.ErrUnsupported].
var ErrIsDir = lakecat.NewSentinel(lakecat.ErrUnsupported, "is a directory")

// Open opens the regular file at path for reading and returns it with its
// size in bytes. The file is opened with O_NONBLOCK where the system has it
// (so opening a FIFO returns at once) and checked with fstat on the open
// descriptor (so the check and the read see the same file). A directory
// gives an error matching [ErrIsDir]; any other non-regular file one
// matching [ErrNotRegular]; a missing file one matching fs.ErrNotExist.
func Open(path string) (*os.File, int64, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	switch m := st.Mode(); {
	case m.IsDir():
		f.Close()
		return nil, 0, fmt.Errorf("%s: %w", path, ErrIsDir)
	case !m.IsRegular():
		f.Close()
		return nil, 0, fmt.Errorf("%s: %w (mode %v)", path, ErrNotRegular, m.Type())
	}
	return f, st.Size(), nil
}

// ErrTooLarge is matched by the error of [ReadFile] for a file above its
// cap; its class is [lakecat.ErrCorrupt] (a size above a limit).
var ErrTooLarge = lakecat.NewSentinel(lakecat.ErrCorrupt, "file above its size cap")

// ReadFile reads the whole regular file at path, opened as [Open] opens it
// (a FIFO or device is refused at once instead of blocking). A file larger
// than max bytes is an error naming the cap, and nothing past it is read.
func ReadFile(path string, max int64) ([]byte, error) {
	f, size, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > max {
		return nil, fmt.Errorf("%s: %w: %d bytes, above the %d-byte cap", path, ErrTooLarge, size, max)
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(b)) > max {
		err = fmt.Errorf("%s: %w: above the %d-byte cap", path, ErrTooLarge, max)
	}
	return b, err
}
