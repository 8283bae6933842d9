package reader_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table/iceberg"
	"github.com/lakecat/lakecat/table/paimon/paimonwrite"
)

// readErr opens and scans a table whole and returns the first error
// (nil when every row was read).
func readErr(t *testing.T, location string, opts reader.TableOptions) error {
	t.Helper()
	mem := testutil.CheckedAllocator(t)
	opts.Allocator = mem
	ctx := context.Background()
	tbl, err := reader.OpenTable(ctx, location, opts)
	if err != nil {
		return err
	}
	rr, err := tbl.Scan(ctx)
	if err != nil {
		return err
	}
	defer rr.Release()
	for rr.Next() {
	}
	return rr.Err()
}

// copyFolder copies the regular files under src to dst.
func copyFolder(t *testing.T, src, dst string) { testutil.CopyTree(t, src, dst, nil) }

// wantRefused checks that err is a refused path naming path.
func wantRefused(t *testing.T, err error, path, rule string) {
	t.Helper()
	var pe *storage.PathError
	if !errors.Is(err, storage.ErrPathNotAllowed) || !errors.Is(err, lakecat.ErrPermission) || !errors.As(err, &pe) ||
		!strings.Contains(err.Error(), path) || !strings.Contains(pe.Rule, rule) {
		t.Fatalf("err %v, want a refused path %s (%s) of class ErrPermission", err, path, rule)
	}
}

// TestConfinedLocalTable: the generated orders table's data files and
// manifests, sent outside its folder by a path map (after rewriting), a
// ".." in it, a file:// URL or a symbolic link, are refused by default and
// read with AllowPaths, to the same rows as in place.
func TestConfinedLocalTable(t *testing.T) {
	dir := t.TempDir()
	tab := filepath.Join(dir, "orders")
	out := filepath.Join(dir, "elsewhere")
	copyFolder(t, filepath.Join(testutil.RepoRoot(t), "testdata", "orders"), tab)
	copyFolder(t, filepath.Join(tab, "data"), filepath.Join(out, "data"))
	want := tableRows(t, tab, reader.TableOptions{}, false)
	if len(want) == 0 {
		t.Fatal("no rows")
	}
	mapped := func(to string) reader.TableOptions {
		return reader.TableOptions{FormatOptions: iceberg.Options{PathMap: iceberg.PathMap{{Old: "orders/data", New: to}}}}
	}
	cases := []struct {
		name string
		to   string
		rule string
	}{
		{"absolute", filepath.Join(out, "data"), "outside"},
		{"dotdot", tab + "/../elsewhere/data", "outside"},
		{"file URL", "file://" + filepath.Join(out, "data"), "outside"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantRefused(t, readErr(t, tab, mapped(tc.to)), filepath.Join(out, "data")[len(dir):], tc.rule)
			opts := mapped(tc.to)
			opts.AllowPaths = []string{out}
			if got := tableRows(t, tab, opts, false); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("allowed rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
	t.Run("path map inside", func(t *testing.T) {
		// A rewrite that stays in the table folder needs no allowance.
		if got := tableRows(t, tab, mapped(filepath.Join(tab, "data")), false); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("rows %q", got)
		}
	})
	t.Run("symlink", func(t *testing.T) {
		link := filepath.Join(dir, "linked")
		copyFolder(t, tab, link)
		if err := os.RemoveAll(filepath.Join(link, "data")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(out, "data"), filepath.Join(link, "data")); err != nil {
			t.Fatal(err)
		}
		wantRefused(t, readErr(t, link, reader.TableOptions{}), filepath.Join(link, "data"), "symbolic link")
		if got := tableRows(t, link, reader.TableOptions{AllowPaths: []string{out}}, false); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("allowed rows %q", got)
		}
	})
	t.Run("manifest symlink", func(t *testing.T) {
		link := filepath.Join(dir, "mlinked")
		copyFolder(t, tab, link)
		m := filepath.Join(link, "metadata", "orders-m0.avro")
		moved := filepath.Join(out, "orders-m0.avro")
		if err := os.Rename(m, moved); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(moved, m); err != nil {
			t.Fatal(err)
		}
		_, err := reader.OpenTable(context.Background(), link, reader.TableOptions{})
		wantRefused(t, err, m, "symbolic link")
		if got := tableRows(t, link, reader.TableOptions{AllowPaths: []string{out}}, false); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("allowed rows %q", got)
		}
	})
}

// TestConfinedS3Table: an s3:// table whose paths lead to another bucket,
// another prefix of its bucket, the local disk or a URL with a driver query
// is refused by default; another bucket or prefix is read with
// AllowPaths, a query never.
func TestConfinedS3Table(t *testing.T) {
	fsys, _ := s3FakeBuckets(t, "lake", "other")
	src := filepath.Join(testutil.RepoRoot(t), "testdata", "orders")
	uploadTo(t, fsys, src, "s3://lake/orders")
	uploadTo(t, fsys, filepath.Join(src, "data"), "s3://other/data")
	uploadTo(t, fsys, filepath.Join(src, "data"), "s3://lake/elsewhere/data")
	want := tableRows(t, src, reader.TableOptions{}, false)
	mapped := func(to string, allow ...string) reader.TableOptions {
		return reader.TableOptions{FS: fsys, AllowPaths: allow, FormatOptions: iceberg.Options{PathMap: iceberg.PathMap{{Old: "orders/data", New: to}}}}
	}
	if got := tableRows(t, "s3://lake/orders", reader.TableOptions{FS: fsys}, false); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("in place: %q", got)
	}
	cases := []struct {
		name, to, allow, rule string
	}{
		{"other bucket", "s3://other/data", "s3://other/data", "outside"},
		{"other prefix", "s3://lake/elsewhere/data", "s3://lake/elsewhere", "outside"},
		{"dotdot", "s3://lake/orders/../elsewhere/data", "", `".."`},
		{"local disk", src + "/data", src, "outside"},
		{"query", "s3://lake/orders/data?endpoint=http://127.0.0.1:1", "", "query"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantRefused(t, readErr(t, "s3://lake/orders", mapped(tc.to)), tc.to, tc.rule)
			if tc.allow == "" {
				// Not even a whole-bucket allowance lets these through.
				wantRefused(t, readErr(t, "s3://lake/orders", mapped(tc.to, "s3://lake")), tc.to, tc.rule)
				return
			}
			if got := tableRows(t, "s3://lake/orders", mapped(tc.to, tc.allow), false); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("allowed rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestConfinedRealTable: DuckDB's column_mapping table names a data file
// outside its folder (warehouse/example, added from there): refused by
// default, read with the folder allowed (TestIcebergTablesDuckDB).
func TestConfinedRealTable(t *testing.T) {
	p := filepath.Join(testutil.RealDir(t), "duckdb-iceberg", "data", "persistent", "column_mapping", "warehouse")
	err := readErr(t, filepath.Join(p, "default.db", "my_table"), reader.TableOptions{})
	wantRefused(t, err, filepath.Join(p, "example", "mock_data.parquet"), "outside")
}

type confineRow struct {
	ID int64   `parquet:"id,id(0)"`
	V  *string `parquet:"v,id(1),optional"`
}

// TestConfinedPaimonFileName: a Paimon manifest entry whose file name
// climbs out of the bucket folder ("../../elsewhere/…") never reaches the
// storage: the name is not a data file name (corrupt manifest).
func TestConfinedPaimonFileName(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "t")
	w := &paimonwrite.Writer{Dir: root, TimeMillis: 1}
	fields := []*schema.Field{{ID: 0, Name: "id", Type: schema.Long, Required: true}, {ID: 1, Name: "v", Type: schema.String}}
	if err := w.WriteSchema(schema.NewPaimonSchema(0, fields, nil, nil, map[string]string{"bucket": "-1"})); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "elsewhere")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	v := "x"
	if err := parquet.WriteFile(filepath.Join(out, "data-a.parquet"), []confineRow{{ID: 7, V: &v}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(0, []paimonwrite.DataFile{{Name: "../../elsewhere/data-a.parquet", Bucket: 0, TotalBuckets: -1, RowCount: 1}}); err != nil {
		t.Fatal(err)
	}
	// The Paimon reader refuses such a name as corrupt before any path is
	// built, allowed prefix or not.
	for _, allow := range [][]string{nil, {out}} {
		err := readErr(t, root, reader.TableOptions{AllowPaths: allow})
		if !errors.Is(err, lakecat.ErrCorrupt) || !strings.Contains(err.Error(), "../../elsewhere/data-a.parquet") {
			t.Errorf("allow %v: %v, want a corrupt manifest naming the file", allow, err)
		}
	}
}
