package iceberg_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/iceberg"
	"github.com/lakecat/lakecat/table/open"
)

// unitsJSON makes the scan's planning units, encodes each as JSON, decodes
// it and plans it with open.UnitTasks, and returns the JSON of the tasks
// of every unit in unit order (or the first error), with the number of
// units.
func unitsJSON(ctx context.Context, fsys storage.FS, sc table.Scan) (string, int) {
	units, err := sc.Units(ctx)
	if err != nil {
		return "error: " + err.Error(), 0
	}
	tasks := []table.Task{}
	for i, u := range units {
		if u.Index != i || u.Count != len(units) {
			return "unit numbering", 0
		}
		l, err := sc.Files(ctx)
		if err != nil {
			return "error: " + err.Error(), 0
		}
		if a, b := mustSchema(u.OutputSchema), mustSchema(l.OutputSchema); a != b {
			return "output schema " + a + ", listing's " + b, 0
		}
		b, err := json.Marshal(u)
		if err != nil {
			return "encode unit: " + err.Error(), 0
		}
		var back table.Unit
		if err := json.Unmarshal(b, &back); err != nil {
			return "decode unit: " + err.Error(), 0
		}
		if a, b := mustSchema(back.OutputSchema), mustSchema(u.OutputSchema); a != b {
			return "output schema through JSON " + a + ", was " + b, 0
		}
		for task, err := range open.UnitTasks(ctx, fsys, back, nil) {
			if err != nil {
				return "error: " + err.Error(), 0
			}
			tasks = append(tasks, task)
		}
	}
	if len(tasks) == 0 {
		tasks = nil
	}
	b, err := json.Marshal(tasks)
	if err != nil {
		return "encode: " + err.Error(), 0
	}
	return string(b), len(units)
}

// TestScanUnitsSameAsPlan: over every real Iceberg table and the bundled
// orders table, in each scan case of TestScanTasksStreamSameAsPlan, for
// the current and the first snapshot and with one unit per manifest and
// the default grouping, the tasks of the planning units, each unit
// through JSON and planned on its own, encode to exactly the JSON of
// Scan.Plan's tasks, in the same order. A scan that Plan refuses is
// refused by Units or by a unit's planning.
func TestScanUnitsSameAsPlan(t *testing.T) {
	ctx := context.Background()
	var tables, scans, multi, errs, pruned int
	maxUnits := 0
	for _, dir := range icebergTables(t) {
		tbl, err := open.Open(ctx, storage.OSFS{}, dir)
		if err != nil {
			continue
		}
		tables++
		it := tbl.(*iceberg.Table)
		snaps := []*int64{nil}
		if n := len(it.Metadata.Snapshots); n > 1 {
			snaps = append(snaps, &it.Metadata.Snapshots[0].SnapshotID)
		}
		for _, snap := range snaps {
			read := it.Metadata.CurrentSchema()
			if snap != nil {
				if s := it.Metadata.Snapshots[0].SchemaID; s != nil && it.Metadata.SchemaByID(*s) != nil {
					read = it.Metadata.SchemaByID(*s)
				}
			}
			if read == nil {
				continue
			}
			all, _ := tbl.NewScan(table.ScanOptions{SnapshotID: snap, UnitBytes: -1}).Units(ctx)
			for name, opts := range scanCases(read) {
				opts.SnapshotID = snap
				want := planJSON(ctx, tbl.NewScan(opts))
				// The filter prunes the manifests the listing skips, when
				// the units are made: one unit per manifest left.
				if l, err := tbl.NewScan(opts).Files(ctx); err == nil && l.ManifestsSkipped > 0 {
					o := opts
					o.UnitBytes = -1
					units, err := tbl.NewScan(o).Units(ctx)
					if err != nil || len(units)+l.ManifestsSkipped != len(all) {
						t.Errorf("%s, snapshot %v, %s: %d units (%v) and %d manifests skipped, %d units without a filter", dir, snap, name, len(units), err, l.ManifestsSkipped, len(all))
					}
					pruned++
				}
				for _, ub := range []int64{-1, 0} {
					opts.UnitBytes = ub
					got, n := unitsJSON(ctx, storage.OSFS{}, tbl.NewScan(opts))
					scans++
					if strings.HasPrefix(want, "error: ") {
						if !strings.HasPrefix(got, "error: ") {
							t.Errorf("%s, snapshot %v, %s, unit bytes %d: Plan %s, units gave tasks", dir, snap, name, ub, want)
						}
						errs++
						continue
					}
					if got != want {
						t.Errorf("%s, snapshot %v, %s, unit bytes %d: units\n%s\nPlan\n%s", dir, snap, name, ub, got, want)
						continue
					}
					if n > 1 {
						multi++
					}
					maxUnits = max(maxUnits, n)
				}
			}
		}
	}
	if tables < 20 || multi == 0 || pruned == 0 {
		t.Errorf("%d tables, %d scans of several units: expected the real tables", tables, multi)
	}
	t.Logf("%d tables, %d scans (%d of several units, at most %d units; %d refused alike; %d with manifests pruned)", tables, scans, multi, maxUnits, errs, pruned)
}

// TestScanUnitsBig: the generated table of 100 manifests of 1000 files
// makes 100 units at one per manifest, fewer with grouping, and one with
// the default 8 MiB, without reading a manifest; the units' tasks are
// Plan's; a unit plans by reading its own data manifests and no other.
func TestScanUnitsBig(t *testing.T) {
	ctx := context.Background()
	fsys := &countingFS{FS: iceberg.BigTable(), part: "/metadata/m"}
	tbl, err := open.Open(ctx, fsys, "mem/big")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		opts  table.ScanOptions
		units int
	}{
		{table.ScanOptions{UnitBytes: -1}, 100},
		{table.ScanOptions{}, 1},
		{table.ScanOptions{UnitBytes: 1}, 100},
		// The manifest list has no partition summaries: nothing to prune.
		{table.ScanOptions{UnitBytes: -1, Filter: expr.Compare("j", expr.Lt, 5)}, 100},
	} {
		fsys.n = 0
		units, err := tbl.NewScan(c.opts).Units(ctx)
		if err != nil || len(units) != c.units {
			t.Errorf("%+v: %d units, %v; want %d", c.opts, len(units), err, c.units)
			continue
		}
		if fsys.opened() != 0 {
			t.Errorf("%+v: making the units read %d manifests", c.opts, fsys.opened())
		}
	}
	units, err := tbl.NewScan(table.ScanOptions{UnitBytes: 200_000}).Units(ctx)
	if err != nil || len(units) < 2 || len(units) >= 100 {
		t.Fatalf("grouped: %d units, %v", len(units), err)
	}
	fsys.n = 0
	var n int
	for task, err := range open.UnitTasks(ctx, fsys, units[1], nil) {
		if err != nil {
			t.Fatal(err)
		}
		_ = task
		n++
	}
	if want := 1000 * len(units[1].Iceberg.Manifests); n != want || fsys.opened() != len(units[1].Iceberg.Manifests) {
		t.Errorf("unit 1: %d tasks from %d manifests read; want %d tasks, %d manifests", n, fsys.opened(), want, len(units[1].Iceberg.Manifests))
	}
	want := planJSON(ctx, tbl.NewScan(table.ScanOptions{Filter: expr.Compare("j", expr.Lt, 5), MetadataColumns: []string{table.ColumnFile}}))
	got, nu := unitsJSON(ctx, fsys, tbl.NewScan(table.ScanOptions{UnitBytes: -1, Filter: expr.Compare("j", expr.Lt, 5), MetadataColumns: []string{table.ColumnFile}}))
	if got != want || nu != 100 {
		t.Errorf("filtered units: %d units, tasks equal to Plan's: %v", nu, got == want)
	}
}

// TestUnitErrors: units that do not fit are table.ErrInvalidUnit, from
// the JSON decoder or from planning; a list-only scan makes none; columns
// and a filter that do not bind fail Units, before any worker plans.
func TestUnitErrors(t *testing.T) {
	ctx := context.Background()
	tbl, err := open.Open(ctx, iceberg.BigTable(), "mem/big")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tbl.NewScan(table.ScanOptions{ListOnly: true}).Units(ctx); !errors.Is(err, table.ErrListOnly) {
		t.Errorf("list only: %v", err)
	}
	if _, err := tbl.NewScan(table.ScanOptions{Filter: expr.Compare("nope", expr.Lt, 5)}).Units(ctx); !errors.Is(err, expr.ErrUnknownColumn) {
		t.Errorf("unknown filter column: %v", err)
	}
	if _, err := tbl.NewScan(table.ScanOptions{Columns: []string{"nope"}}).Units(ctx); err == nil {
		t.Errorf("unknown column: no error")
	}
	units, err := tbl.NewScan(table.ScanOptions{UnitBytes: -1, Filter: expr.Compare("j", expr.Lt, 5)}).Units(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{`{}`, `{"version":2,"format":"iceberg"}`, `{"version":1,"format":"iceberg"}`,
		`{"version":1,"format":"delta","count":1}`, `{"version":1,"format":"paimon","index":3,"count":1}`, `[1]`} {
		var u table.Unit
		if err := json.Unmarshal([]byte(bad), &u); !errors.Is(err, table.ErrInvalidUnit) {
			t.Errorf("%s: %v", bad, err)
		}
	}
	first := func(u table.Unit) error {
		for _, err := range open.UnitTasks(ctx, iceberg.BigTable(), u, nil) {
			return err
		}
		return nil
	}
	u := units[0]
	ic := *u.Iceberg
	ic.SnapshotID = 12345
	u.Iceberg = &ic
	if err := first(u); !errors.Is(err, table.ErrInvalidUnit) || !strings.Contains(err.Error(), "no snapshot 12345") {
		t.Errorf("snapshot: %v", err)
	}
	u = units[0]
	ic = *u.Iceberg
	ic.SchemaID = 77
	u.Iceberg = &ic
	if err := first(u); !errors.Is(err, table.ErrInvalidUnit) || !strings.Contains(err.Error(), "no schema 77") {
		t.Errorf("schema: %v", err)
	}
	u = units[0]
	u.Options.Filter = "j <"
	if err := first(u); !errors.Is(err, table.ErrInvalidUnit) {
		t.Errorf("filter: %v", err)
	}
	u = units[0]
	u.Options.FormatOptions = json.RawMessage(`{"PathMap":3}`)
	if err := first(u); !errors.Is(err, table.ErrInvalidUnit) {
		t.Errorf("format options: %v", err)
	}
}

func mustSchema(s *schema.Schema) string {
	b, err := schema.MarshalIcebergSchema(s)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
