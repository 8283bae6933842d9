package reader_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/reader"
)

// TestErrorNamesPathOnce: a data file the metadata names but the folder
// lacks fails the read with an error that names the file once (the
// *fs.PathError of opening it already does) and still matches
// fs.ErrNotExist.
func TestErrorNamesPathOnce(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "orders"))); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "data", "00000-orders-schema0.parquet")
	if err := os.Remove(missing); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tbl, err := reader.OpenTable(ctx, dir, reader.TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rr, err := tbl.Scan(ctx)
	if err == nil {
		for rr.Next() {
		}
		err = rr.Err()
		rr.Release()
	}
	if err == nil {
		t.Fatal("read of a table missing a data file: no error")
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %q does not match fs.ErrNotExist", err)
	}
	if n := strings.Count(err.Error(), "00000-orders-schema0.parquet"); n != 1 {
		t.Errorf("error %q names the file %d times, want once", err, n)
	}
}
