package evolve

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
)

// TestCommitConfined: a Committer reads and writes only inside the table.
// With the Iceberg table's metadata folder a symbolic link out of it, the
// commit fails with a *storage.PathError (matching ErrPathNotAllowed) and
// writes nothing; with the link's target in AllowPaths it commits v2
// through the link.
func TestCommitConfined(t *testing.T) {
	dir := copyDir(t, "testdata/iceberg-v2")
	out := filepath.Join(t.TempDir(), "metadata")
	if err := os.Rename(filepath.Join(dir, "metadata"), out); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, filepath.Join(dir, "metadata")); err != nil {
		t.Fatal(err)
	}
	before := listDir(t, out)
	u := NewUpdate().AddColumn("extra", schema.String, "")
	_, err := (&Committer{Now: fixedNow}).Commit(context.Background(), dir, u)
	var pe *storage.PathError
	if !errors.Is(err, storage.ErrPathNotAllowed) || !errors.As(err, &pe) {
		t.Fatalf("Commit: %v, want a refused path", err)
	}
	if after := listDir(t, out); len(after) != len(before) {
		t.Fatalf("a refused commit wrote: %v → %v", before, after)
	}
	res, err := (&Committer{Now: fixedNow, AllowPaths: []string{out}}).Commit(context.Background(), dir, u)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Changed || filepath.Dir(res.File) != filepath.Join(dir, "metadata") {
		t.Fatalf("result %+v", res)
	}
	if _, err := os.Stat(filepath.Join(out, filepath.Base(res.File))); err != nil {
		t.Fatalf("committed file not in the link's target: %v", err)
	}
}
