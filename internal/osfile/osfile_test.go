//go:build unix

package osfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/lakecat/lakecat"
)

// TestOpen: a regular file opens with its size; a FIFO (no writer: a
// blocking open would hang) and a directory are refused at once; a missing
// file is fs.ErrNotExist.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "data.parquet")
	if err := os.WriteFile(reg, []byte("PAR1"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.parquet")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	f, size, err := Open(reg)
	if err != nil || size != 4 {
		t.Fatalf("regular file: size %d, %v", size, err)
	}
	f.Close()
	if _, _, err := Open(fifo); !errors.Is(err, ErrNotRegular) || !errors.Is(err, lakecat.ErrUnsupported) {
		t.Errorf("FIFO: %v, want ErrNotRegular of class ErrUnsupported", err)
	}
	if _, _, err := Open("/dev/null"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("/dev/null: %v, want ErrNotRegular", err)
	}
	if _, _, err := Open(dir); !errors.Is(err, ErrIsDir) {
		t.Errorf("directory: %v, want ErrIsDir", err)
	}
	if _, _, err := Open(filepath.Join(dir, "nope")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v, want fs.ErrNotExist", err)
	}
}
