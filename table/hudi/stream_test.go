package hudi_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/hudi"
)

// TestScanTasksAsReader: on hudi-rs's copy-on-write and merge-on-read tables,
// [hudi.Scan.Tasks] yields exactly the tasks (JSON encodings, in order)
// that reader.OpenTable plans without splitting, with and without
// ignoring log files.
func TestScanTasksAsReader(t *testing.T) {
	ctx := context.Background()
	dirs := []string{
		hudi.UnzipTable(t, "cow/v8_nonpartitioned.zip", "v8_nonpartitioned"),
		hudi.UnzipTable(t, "mor/parquet/v6_nonpartitioned.zip", "v6_nonpartitioned"),
	}
	compared, slices := 0, 0
	for _, dir := range dirs {
		for _, ignore := range []bool{false, true} {
			o := reader.TableOptions{SplitBytes: -1, FormatOptions: hudi.Options{IgnoreLogs: ignore}}
			tbl, err := reader.OpenTable(ctx, dir, o)
			if err != nil {
				continue // refused by the reader
			}
			want, err := tbl.Tasks(ctx)
			if err != nil {
				continue
			}
			ht, err := hudi.Open(ctx, storage.OSFS{}, dir)
			if err != nil {
				t.Fatalf("%s: %v", dir, err)
			}
			scan, err := ht.Plan(ctx, hudi.ScanOptions{})
			if err != nil {
				t.Fatalf("%s: %v", dir, err)
			}
			var got []table.Task
			for task, err := range scan.Tasks(ctx, ignore) {
				if err != nil {
					t.Fatalf("%s: %v", dir, err)
				}
				got = append(got, task)
				if task.Hudi != nil {
					slices++
				}
			}
			gb, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			wb, _ := json.Marshal(want)
			if string(gb) != string(wb) {
				t.Errorf("%s (ignore logs %v): Scan.Tasks differ from the reader's plan:\n got %s\nwant %s", dir, ignore, gb, wb)
			}
			compared++
		}
	}
	t.Logf("%d Hudi reads compared, %d slices with log files", compared, slices)
	if compared < 4 || slices == 0 {
		t.Errorf("too little covered: %d reads, %d slices with logs", compared, slices)
	}
}
