//go:build !lakecat_nos3

package blob_test

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/s3fake"
	"github.com/lakecat/lakecat/storage/blob"
)

// TestReadAtAndList reads and lists through the s3 driver against the S3
// fake.
func TestReadAtAndList(t *testing.T) {
	ctx := context.Background()
	f := s3fake.New(t, "b").FS(t)
	for k, v := range map[string]string{"t/metadata/v1.metadata.json": "{}", "t/data/a.parquet": "0123456789", "t/data/b.parquet": "x"} {
		if err := f.WriteAll(ctx, "s3://b/"+k, []byte(v)); err != nil {
			t.Fatal(err)
		}
	}
	names, err := f.List(ctx, "s3://b/t")
	if err != nil || strings.Join(names, ",") != "data,metadata" {
		t.Errorf("List(t) = %v, %v", names, err)
	}
	names, err = f.List(ctx, "s3://b/t/data/")
	if err != nil || strings.Join(names, ",") != "a.parquet,b.parquet" {
		t.Errorf("List(t/data/) = %v, %v", names, err)
	}
	if _, err := f.List(ctx, "s3://b/none"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("List(none) err = %v", err)
	}
	file, err := f.Open(ctx, "s3://b/t/data/a.parquet")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if file.Size() != 10 {
		t.Errorf("Size = %d", file.Size())
	}
	p := make([]byte, 4)
	if n, err := file.ReadAt(p, 3); n != 4 || err != nil || string(p) != "3456" {
		t.Errorf("ReadAt(3) = %d %v %q", n, err, p)
	}
	if n, err := file.ReadAt(p, 8); n != 2 || err != io.EOF || string(p[:2]) != "89" {
		t.Errorf("ReadAt(8) = %d %v %q", n, err, p[:n])
	}
	if n, err := file.ReadAt(p, 10); n != 0 || err != io.EOF {
		t.Errorf("ReadAt(10) = %d %v", n, err)
	}
	if _, err := f.Open(ctx, "s3://b/t/data/missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(missing) err = %v", err)
	}
}

func TestLocalPathsAndFileURLs(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x"), []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := blob.New()
	for _, p := range []string{filepath.ToSlash(dir) + "/x", "file://" + filepath.ToSlash(dir) + "/x"} {
		file, err := f.Open(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if file.Size() != 3 {
			t.Errorf("%s: size %d", p, file.Size())
		}
		file.Close()
	}
	if !blob.IsURL("gs://b/k") || !blob.IsURL("azblob://c/k") || blob.IsURL("/tmp/x") {
		t.Error("IsURL")
	}
}
