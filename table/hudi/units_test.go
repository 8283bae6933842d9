package hudi_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/hudi"
	"github.com/lakecat/lakecat/table/open"
)

// TestUnitsHudi: a Hudi scan is one planning unit, which through JSON and
// open.UnitTasks gives exactly Plan's tasks, for the copy-on-write table
// and the merge-on-read one (merged, and base files only).
func TestUnitsHudi(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		zip, name string
		opts      table.ScanOptions
	}{
		{"cow/v8_nonpartitioned.zip", "v8_nonpartitioned", table.ScanOptions{}},
		{"mor/parquet/v6_nonpartitioned.zip", "v6_nonpartitioned", table.ScanOptions{MetadataColumns: []string{table.ColumnFile}}},
		{"mor/parquet/v6_nonpartitioned.zip", "v6_nonpartitioned", table.ScanOptions{Options: hudi.Options{IgnoreLogs: true}}},
	} {
		dir := hudi.UnzipTable(t, c.zip, c.name)
		tbl, err := open.Open(ctx, storage.OSFS{}, dir)
		if err != nil {
			t.Fatal(err)
		}
		want, err := tbl.NewScan(c.opts).Plan(ctx)
		if err != nil {
			t.Fatalf("%s: Plan: %v", c.name, err)
		}
		units, err := tbl.NewScan(c.opts).Units(ctx)
		if err != nil || len(units) != 1 || units[0].OutputSchema != nil {
			t.Fatalf("%s: %d units, %v", c.name, len(units), err)
		}
		b, err := json.Marshal(units[0])
		if err != nil {
			t.Fatal(err)
		}
		var u table.Unit
		if err := json.Unmarshal(b, &u); err != nil {
			t.Fatal(err)
		}
		var got []table.Task
		for task, err := range open.UnitTasks(ctx, storage.OSFS{}, u, nil) {
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			got = append(got, task)
		}
		gb, err := json.Marshal(got)
		if err != nil {
			t.Fatalf("encoding the units' tasks: %v", err)
		}
		wb, err := json.Marshal(want)
		if err != nil {
			t.Fatalf("encoding Plan's tasks: %v", err)
		}
		if len(want) == 0 || string(gb) != string(wb) {
			t.Errorf("%s %+v: unit's tasks\n%s\nPlan\n%s", c.name, c.opts, gb, wb)
		}
	}
}
