// Package testutil holds test helpers shared by lakecat's packages.
package testutil

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/internal/realdata"
	"github.com/lakecat/lakecat/internal/render"
)

// RepoRoot returns the repository root (the folder holding go.mod).
func RepoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("testutil: cannot locate the source file")
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// RealDir returns the folder of real third-party files (see package
// internal/realdata: ../shared/testdata/real beside the repository, or
// $LAKECAT_REAL_DATA) joined with elem. When it is absent (a user's clone)
// the test is skipped with a message; under CI=true, where it is always
// present, the test fails instead.
func RealDir(t testing.TB, elem ...string) string {
	t.Helper()
	return realdata.Require(t, elem...)
}

// ReaderJSON drains rr and returns its rows as JSON lines, columns in
// schema order, values as `lakecat cat --format jsonl` prints them (see
// package render), failing the test on a read error.
func ReaderJSON(t testing.TB, rr array.RecordReader) string {
	t.Helper()
	var b []byte
	for rr.Next() {
		rec := rr.RecordBatch()
		for r := 0; r < int(rec.NumRows()); r++ {
			b = render.AppendRow(b, rec, r, nil)
			b = append(b, '\n')
		}
	}
	if err := rr.Err(); err != nil {
		t.Fatalf("read: %v", err)
	}
	return string(b)
}

// CheckedAllocator returns an allocator that fails the test at cleanup if
// any buffer allocated through it is still held.
func CheckedAllocator(t testing.TB) *memory.CheckedAllocator {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// CopyTree copies the folder src to dst (created), passing each file's
// content through edit when edit is not nil, and returns dst.
func CopyTree(t testing.TB, src, dst string, edit func(path string, data []byte) ([]byte, error)) string {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if edit != nil {
			if data, err = edit(p, data); err != nil {
				return err
			}
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
