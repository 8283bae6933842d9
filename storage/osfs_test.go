package storage_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakecat/lakecat/storage"
)

func TestOSFSCreateNoReplace(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	p := filepath.ToSlash(filepath.Join(dir, "v1.metadata.json"))
	var fsys storage.WriteFS = storage.OSFS{}
	if err := fsys.CreateNoReplace(ctx, p, []byte("first")); err != nil {
		t.Fatal(err)
	}
	err := fsys.CreateNoReplace(ctx, p, []byte("second"))
	if !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second create: %v, want fs.ErrExist", err)
	}
	if b, _ := storage.ReadFile(ctx, fsys, p); string(b) != "first" {
		t.Fatalf("content %q, want %q", b, "first")
	}
	if err := fsys.Replace(ctx, p, []byte("third")); err != nil {
		t.Fatal(err)
	}
	if n, err := storage.Stat(ctx, fsys, p); err != nil || n != 5 {
		t.Fatalf("Stat = %d, %v; want 5", n, err)
	}
	if err := fsys.Remove(ctx, p); err != nil {
		t.Fatal(err)
	}
	if _, err := storage.Stat(ctx, fsys, p); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Stat after Remove: %v", err)
	}
}

// TestOSFSCreateRemovesStaleTemps: a temporary file left by a committer
// killed between writing and linking goes with the next successful create,
// and no temporary file of the create itself stays.
func TestOSFSCreateRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, ".lakecat-123.tmp")
	if err := os.WriteFile(stale, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := (storage.OSFS{}).CreateNoReplace(context.Background(), filepath.ToSlash(filepath.Join(dir, "a")), []byte("a")); err != nil {
		t.Fatal(err)
	}
	names, _ := (storage.OSFS{}).List(context.Background(), filepath.ToSlash(dir))
	if len(names) != 1 || names[0] != "a" {
		t.Fatalf("folder holds %v, want [a]", names)
	}
}

func TestRetryFSKeepsWrites(t *testing.T) {
	if _, ok := storage.RetryFS(storage.OSFS{}, storage.RetryPolicy{}).(storage.WriteFS); !ok {
		t.Fatal("RetryFS(OSFS) is not a WriteFS")
	}
	var ro struct{ storage.FS }
	ro.FS = storage.OSFS{}
	if _, ok := storage.RetryFS(ro, storage.RetryPolicy{}).(storage.WriteFS); ok {
		t.Fatal("RetryFS of a read-only FS is a WriteFS")
	}
}
