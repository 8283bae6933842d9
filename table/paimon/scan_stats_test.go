package paimon

import (
	"context"
	"path"
	"reflect"
	"testing"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
)

// TestNewScanValueStatsSkip: a scan of paimon-cpp's evolved append table
// with a = 35 (a is field 5, d in the files of schema-0) marks the three
// files whose value statistics rule it out, also when Columns leaves a out
// of the output, and plans only the file that may match.
func TestNewScanValueStatsSkip(t *testing.T) {
	ctx := context.Background()
	root := cppDir(t) + "/parquet/append_table_with_alter_table.db/append_table_with_alter_table"
	tbl, err := Open(ctx, storage.OSFS{}, root, "")
	if err != nil {
		t.Fatal(err)
	}
	f, err := expr.Parse("a = 35")
	if err != nil {
		t.Fatal(err)
	}
	scan := tbl.NewScan(table.ScanOptions{Filter: f, Columns: []string{"k"}})
	l, err := scan.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var skips []string
	for _, tf := range l.Files {
		skips = append(skips, tf.Skip)
	}
	kept := 0
	for _, s := range skips {
		if s == "" {
			kept++
		} else if s != table.SkipValueStats {
			t.Errorf("skip reason %q, want %q", s, table.SkipValueStats)
		}
	}
	if len(skips) != 4 || kept != 1 {
		t.Fatalf("skips %q, want 3 of 4 files skipped by value statistics", skips)
	}
	tasks, err := scan.Plan(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, task := range tasks {
		got = append(got, path.Base(task.Path))
	}
	if want := []string{"data-512651de-64b5-4a10-8068-65403aaccdb8-0.parquet"}; !reflect.DeepEqual(got, want) {
		t.Errorf("tasks %q, want %q", got, want)
	}
}
