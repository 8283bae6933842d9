package open_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/hudi"
	"github.com/lakecat/lakecat/table/iceberg"
	"github.com/lakecat/lakecat/table/open"
	"github.com/lakecat/lakecat/table/paimon"
)

func openAt(t *testing.T, dir string) table.Table {
	t.Helper()
	tbl, err := open.Open(context.Background(), storage.OSFS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// TestOpenBundled: Open tells the format and each table answers the
// Table interface; a scan's listing and its tasks agree.
func TestOpenBundled(t *testing.T) {
	ctx := context.Background()
	root := testutil.RepoRoot(t)
	cases := []struct {
		dir       string
		format    table.Format
		schemas   int
		current   int
		snapshots int
		tasks     int
	}{
		{"orders", table.Iceberg, 3, 2, 3, 3},
		{"paimon_orders", table.Paimon, 3, 2, 4, 0}, // tasks: checked below
	}
	for _, tc := range cases {
		tbl := openAt(t, filepath.Join(root, "testdata", tc.dir))
		if tbl.Format() != tc.format || tbl.Location() != filepath.Join(root, "testdata", tc.dir) {
			t.Errorf("%s: format %s, location %s", tc.dir, tbl.Format(), tbl.Location())
		}
		schemas, cur, err := tbl.Schemas(ctx)
		if err != nil || len(schemas) != tc.schemas || cur != tc.current {
			t.Errorf("%s: %d schemas, current %d, %v; want %d, %d", tc.dir, len(schemas), cur, err, tc.schemas, tc.current)
		}
		snaps, err := tbl.Snapshots(ctx)
		if err != nil || len(snaps) != tc.snapshots {
			t.Errorf("%s: %d snapshots, %v; want %d", tc.dir, len(snaps), err, tc.snapshots)
		}
		for i, s := range snaps {
			if s.Time.IsZero() || (i > 0 && s.Time.Before(snaps[i-1].Time)) {
				t.Errorf("%s: snapshot %d at %v", tc.dir, s.ID, s.Time)
			}
		}
		scan := tbl.NewScan(table.ScanOptions{})
		l, err := scan.Files(ctx)
		if err != nil {
			t.Fatal(err)
		}
		tasks, err := scan.Plan(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var streamed int
		for _, err := range scan.Tasks(ctx) {
			if err != nil {
				t.Fatal(err)
			}
			streamed++
		}
		own := 0
		for _, f := range l.Files {
			if !f.InMerge && f.Skip == "" {
				own++
			}
		}
		if len(tasks) != own || streamed != own || (tc.tasks > 0 && own != tc.tasks) {
			t.Errorf("%s: %d tasks, %d streamed, %d files with a task of their own", tc.dir, len(tasks), streamed, own)
		}
	}
}

// TestScanOptionsOfAnotherFormat: options a format does not have are
// table.ErrInvalidOption (class lakecat.ErrInvalidArgument) naming the
// option and the format, not ignored.
func TestScanOptionsOfAnotherFormat(t *testing.T) {
	ctx := context.Background()
	root := testutil.RepoRoot(t)
	orders := openAt(t, filepath.Join(root, "testdata", "orders"))
	paimonOrders := openAt(t, filepath.Join(root, "testdata", "paimon_orders"))
	one := int64(1)
	cases := []struct {
		name string
		tbl  table.Table
		opts table.ScanOptions
		want string
	}{
		{"paimon on iceberg", orders, table.ScanOptions{Options: paimon.Options{Raw: true, Branch: "b"}}, "paimon options (Branch, Raw) on an iceberg table"},
		{"hudi on iceberg", orders, table.ScanOptions{Options: hudi.Options{IgnoreLogs: true}}, "hudi options (IgnoreLogs) on an iceberg table"},
		{"zero hudi on iceberg", orders, table.ScanOptions{Options: hudi.Options{}}, "hudi options (none set) on an iceberg table"},
		{"iceberg on paimon", paimonOrders, table.ScanOptions{Options: iceberg.Options{NoRebase: true}}, "iceberg options (NoRebase) on a paimon table"},
		{"pointer", orders, table.ScanOptions{Options: &iceberg.Options{}}, "*iceberg.Options: give the iceberg options as a value"},
		{"as of on paimon", paimonOrders, table.ScanOptions{AsOf: time.Unix(0, 0)}, "AsOf on a paimon table: a Paimon table is read by snapshot id"},
	}
	for _, tc := range cases {
		_, err := tc.tbl.NewScan(tc.opts).Plan(ctx)
		if !errors.Is(err, table.ErrInvalidOption) || !errors.Is(err, lakecat.ErrInvalidArgument) || !contains(err, tc.want) {
			t.Errorf("%s: %v, want ErrInvalidOption saying %q", tc.name, err, tc.want)
		}
	}
	// The format's own options are taken.
	if _, err := paimonOrders.NewScan(table.ScanOptions{Options: paimon.Options{Raw: true}, SnapshotID: &one}).Plan(ctx); err != nil {
		t.Errorf("paimon raw snapshot 1: %v", err)
	}
	if _, err := orders.NewScan(table.ScanOptions{Options: iceberg.Options{}}).Plan(ctx); err != nil {
		t.Errorf("iceberg: %v", err)
	}
}

func contains(err error, s string) bool { return err != nil && strings.Contains(err.Error(), s) }
