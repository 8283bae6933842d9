package open_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"testing"
	"time"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/hudi"
	"github.com/lakecat/lakecat/table/iceberg"
	"github.com/lakecat/lakecat/table/open"
	"github.com/lakecat/lakecat/table/paimon"
)

// allTables returns every table folder of the shared real test data and
// the bundled tables.
func allTables(t *testing.T) []string {
	var out []string
	filepath.WalkDir(testutil.RealDir(t), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if _, err := table.Detect(context.Background(), storage.OSFS{}, p); err == nil {
			out = append(out, p)
			return filepath.SkipDir
		}
		return nil
	})
	root := testutil.RepoRoot(t)
	return append(out, filepath.Join(root, "testdata", "orders"), filepath.Join(root, "testdata", "paimon_orders"))
}

// TestUnitsSameAsPlanEveryFormat: over every real and bundled table of
// Iceberg and Paimon, unfiltered, split at row groups and stripes, and with a
// metadata column, the tasks of the scan's units (each through JSON,
// planned by UnitTasks) are exactly Plan's, in order; Paimon and Hudi
// scans are one unit.
func TestUnitsSameAsPlanEveryFormat(t *testing.T) {
	ctx := context.Background()
	counts := map[table.Format]int{}
	var scans, tasks int
	for _, dir := range allTables(t) {
		tbl, err := open.Open(ctx, storage.OSFS{}, dir)
		if err != nil {
			continue
		}
		for _, opts := range []table.ScanOptions{{UnitBytes: -1}, {SplitBytes: 1, UnitBytes: -1, MetadataColumns: []string{table.ColumnFile, table.ColumnPos}}} {
			planned, perr := tbl.NewScan(opts).Plan(ctx)
			units, uerr := tbl.NewScan(opts).Units(ctx)
			if uerr != nil {
				if perr == nil {
					t.Errorf("%s: Units: %v; Plan succeeded", dir, uerr)
				}
				continue
			}
			if tbl.Format() != table.Iceberg && len(units) != 1 {
				t.Errorf("%s: %d units of a %s table", dir, len(units), tbl.Format())
			}
			var got []table.Task
			var gerr error
			for _, u := range units {
				b, err := json.Marshal(u)
				if err != nil {
					t.Fatal(err)
				}
				var back table.Unit
				if err := json.Unmarshal(b, &back); err != nil {
					t.Fatalf("%s: %v", dir, err)
				}
				for task, err := range open.UnitTasks(ctx, storage.OSFS{}, back, nil) {
					if err != nil {
						gerr = err
						break
					}
					got = append(got, task)
				}
			}
			if (perr != nil) != (gerr != nil) {
				t.Errorf("%s: Plan error %v, units error %v", dir, perr, gerr)
				continue
			}
			if perr != nil {
				continue
			}
			gb, err := json.Marshal(got)
			if err != nil {
				t.Errorf("%s: encoding the units' tasks: %v", dir, err)
				continue
			}
			wb, err := json.Marshal(planned)
			if err != nil {
				t.Errorf("%s: encoding Plan's tasks: %v", dir, err)
				continue
			}
			if string(gb) != string(wb) {
				t.Errorf("%s %+v: units' tasks\n%s\nPlan\n%s", dir, opts, gb, wb)
				continue
			}
			counts[tbl.Format()]++
			scans++
			tasks += len(got)
		}
	}
	// The hudi-rs tables are zips (table/hudi's tests extract them); a
	// Hudi scan is one unit through the same path as Paimon's.
	if counts[table.Iceberg] < 20 || counts[table.Paimon] < 5 {
		t.Errorf("too few scans compared: %v", counts)
	}
	t.Logf("%d scans (%v), %d tasks", scans, counts, tasks)
}

// TestUnitFormatOptions: each format's options travel in a unit and come
// back equal, a Paimon time zone by its name.
func TestUnitFormatOptions(t *testing.T) {
	id := int64(3)
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no time zone database")
	}
	for _, o := range []table.FormatOptions{
		iceberg.Options{PathMap: iceberg.PathMap{{Old: "s3://a", New: "/b"}}, NoRebase: true},
		paimon.Options{SchemaID: &id, Branch: "b1", Raw: true, TimeZone: berlin},
		hudi.Options{IgnoreLogs: true},
	} {
		u, err := table.NewUnitOptions(table.ScanOptions{Options: o, Filter: expr.Compare("a", expr.Gt, 1)})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(table.Unit{Format: o.TableFormat(), Count: 1, Options: u, Iceberg: &table.IcebergUnit{}})
		var back table.Unit
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		got, err := open.UnitFormatOptions(back)
		if err != nil {
			t.Fatal(err)
		}
		if gb, wb := mustJSON(t, got), mustJSON(t, o); gb != wb || got.TableFormat() != o.TableFormat() {
			t.Errorf("%T: %s, want %s", o, gb, wb)
		}
		if p, ok := got.(paimon.Options); ok && p.TimeZone.String() != "Europe/Berlin" {
			t.Errorf("time zone %v", p.TimeZone)
		}
		so, err := back.Options.ScanOptions(got, nil)
		if err != nil || so.Filter.String() != "a > 1" {
			t.Errorf("filter %v, %v", so.Filter, err)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
