package evolve_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/evolve"
	"github.com/lakecat/lakecat/internal/render"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table/paimon"
)

// killFS is a file system whose process is killed at operation n (counting
// from 1): that operation and every later one fail, so nothing the
// committer would do after it (removing its temporary file, retrying)
// happens.
type killFS struct {
	storage.WriteFS
	n, calls int
}

var errKilled = errors.New("killed")

func (k *killFS) hit() error {
	k.calls++
	if k.calls >= k.n {
		return errKilled
	}
	return nil
}

func (k *killFS) Open(ctx context.Context, n string) (storage.File, error) {
	if err := k.hit(); err != nil {
		return nil, err
	}
	return k.WriteFS.Open(ctx, n)
}

func (k *killFS) List(ctx context.Context, n string) ([]string, error) {
	if err := k.hit(); err != nil {
		return nil, err
	}
	return k.WriteFS.List(ctx, n)
}

// CreateNoReplace counts as the three steps of storage.OSFS's protocol, so
// that a kill can land between them: writing the temporary file, linking
// it into place, removing it. A kill after the first or second step leaves
// the temporary file as the killed process would.
func (k *killFS) CreateNoReplace(ctx context.Context, n string, b []byte) error {
	if err := k.hit(); err != nil {
		return err
	}
	leave := func() {
		os.WriteFile(filepath.Join(filepath.Dir(filepath.FromSlash(n)), ".lakecat-killed.tmp"), b, 0o644)
	}
	if err := k.hit(); err != nil {
		leave()
		return err
	}
	if err := k.WriteFS.CreateNoReplace(ctx, n, b); err != nil {
		return err
	}
	if err := k.hit(); err != nil {
		leave()
		return err
	}
	return nil
}

func (k *killFS) Replace(ctx context.Context, n string, b []byte) error {
	if err := k.hit(); err != nil {
		return err
	}
	return k.WriteFS.Replace(ctx, n, b)
}

func (k *killFS) Remove(ctx context.Context, n string) error {
	if err := k.hit(); err != nil {
		return err
	}
	return k.WriteFS.Remove(ctx, n)
}

// copyTree copies the folder src to a new temporary folder.
func copyTree(t *testing.T, src string) string { return testutil.CopyTree(t, src, t.TempDir(), nil) }

// readTable reads the table at dir through reader.OpenTable, as a reader
// would after the commit: the Arrow schema and every row as JSON.
func readTable(t *testing.T, dir string, opts reader.TableOptions) string {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	opts.Allocator = mem
	tbl, err := reader.OpenTable(context.Background(), dir, opts)
	if err != nil {
		t.Fatalf("open %s: %v", dir, err)
	}
	rr, err := tbl.Scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	b := []byte(rr.Schema().String() + "\n")
	for rr.Next() {
		rec := rr.RecordBatch()
		for r := 0; r < int(rec.NumRows()); r++ {
			b = render.AppendRow(b, rec, r, nil)
			b = append(b, '\n')
		}
	}
	if err := rr.Err(); err != nil {
		t.Fatalf("scan %s: %v", dir, err)
	}
	return string(b)
}

func temps(t *testing.T, dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".lakecat-") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// TestCommitKilledAtEveryStep kills a schema commit (add a column) at each
// of its file system operations in turn, on the bundled Iceberg table and
// the bundled Paimon table, both with data files. Afterwards
// reader.OpenTable reads the table exactly as before the commit or exactly
// as after it (schema and rows), never anything else, also when the kill
// left a temporary file behind; and the next commit succeeds and removes
// every leftover temporary file.
func TestCommitKilledAtEveryStep(t *testing.T) {
	root := testutil.RepoRoot(t)
	for _, tc := range []struct {
		name string
		src  string
		opts reader.TableOptions
	}{
		{"iceberg", filepath.Join(root, "testdata", "orders"), reader.TableOptions{}},
		// A primary-key table: read as stored (Raw).
		{"paimon", filepath.Join(root, "testdata", "paimon_orders"), reader.TableOptions{FormatOptions: paimon.Options{Raw: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			update := func() *evolve.UpdateSchema { return evolve.NewUpdate().AddColumn("killed_col", schema.Int, "") }
			commit := func(fsys storage.WriteFS, dir string) error {
				c := evolve.Committer{FS: fsys, MaxAttempts: 1}
				var err error
				if tc.name == "paimon" {
					_, err = c.CommitPaimon(context.Background(), dir, update())
				} else {
					_, err = c.CommitIceberg(context.Background(), dir, update())
				}
				return err
			}
			before := readTable(t, copyTree(t, tc.src), tc.opts)
			done := copyTree(t, tc.src)
			if err := commit(storage.OSFS{}, done); err != nil {
				t.Fatal(err)
			}
			after := readTable(t, done, tc.opts)
			if before == after || !strings.Contains(after, "killed_col") {
				t.Fatalf("the commit changed nothing:\n%s", after)
			}
			var asBefore, asAfter, leftovers int
			for n := 1; ; n++ {
				dir := copyTree(t, tc.src)
				k := &killFS{WriteFS: storage.OSFS{}, n: n}
				err := commit(k, dir)
				if k.calls < n {
					if err != nil {
						t.Fatalf("not killed, but %v", err)
					}
					break // every operation has had its turn
				}
				got := readTable(t, dir, tc.opts)
				switch got {
				case before:
					asBefore++
				case after:
					asAfter++
				default:
					t.Fatalf("killed at operation %d (%v): the table reads as neither before nor after:\n%s", n, err, got)
				}
				if len(temps(t, dir)) > 0 {
					leftovers++
					// The next commit (a different change) succeeds and
					// cleans the leftovers; readers still read.
					c := evolve.Committer{}
					var cerr error
					u := evolve.NewUpdate().AddColumn("next_col", schema.Long, "")
					if tc.name == "paimon" {
						_, cerr = c.CommitPaimon(context.Background(), dir, u)
					} else {
						_, cerr = c.CommitIceberg(context.Background(), dir, u)
					}
					if cerr != nil {
						t.Fatalf("killed at %d: next commit: %v", n, cerr)
					}
					if left := temps(t, dir); len(left) != 0 {
						t.Errorf("killed at %d: the next commit left %v", n, left)
					}
					if got := readTable(t, dir, tc.opts); !strings.Contains(got, "next_col") {
						t.Errorf("killed at %d: after the next commit:\n%s", n, got)
					}
				}
			}
			t.Logf("%s: killed at each of %d operations: %d read as before, %d as after, %d left a temporary file (ignored by readers, removed by the next commit)",
				tc.name, asBefore+asAfter, asBefore, asAfter, leftovers)
			if asBefore == 0 || asAfter == 0 || leftovers == 0 {
				t.Errorf("the kills did not cover both outcomes and a leftover")
			}
		})
	}
}
