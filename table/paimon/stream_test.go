package paimon_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/paimon"
)

// TestScanTasksAsReader: on every Paimon table of the shared test data and
// the bundled paimon_orders, [paimon.Scan.Tasks] yields exactly the tasks
// (their JSON encodings, in order) that reader.OpenTable plans without
// splitting: append files with their deletion vectors, primary-key merge
// sections, deletion-vector mode. Stopping early stops the sequence.
func TestScanTasksAsReader(t *testing.T) {
	ctx := context.Background()
	var dirs []string
	filepath.WalkDir(testutil.RealDir(t), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if f, err := table.Detect(ctx, storage.OSFS{}, p); err == nil {
			if f == table.Paimon {
				dirs = append(dirs, p)
			}
			return filepath.SkipDir
		}
		return nil
	})
	dirs = append(dirs, filepath.Join(testutil.RepoRoot(t), "testdata", "paimon_orders"))
	compared, merges := 0, 0
	for _, dir := range dirs {
		tbl, err := reader.OpenTable(ctx, dir, reader.TableOptions{SplitBytes: -1})
		if err != nil {
			continue // refused by the reader (unsupported options, …)
		}
		want, err := tbl.Tasks(ctx)
		if err != nil {
			continue
		}
		pt, err := paimon.Open(ctx, storage.OSFS{}, dir, "")
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		scan, err := pt.Plan(ctx, paimon.ScanOptions{})
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		var got []table.Task
		for task, err := range scan.Tasks(ctx, paimon.TaskOptions{}) {
			if err != nil {
				t.Fatalf("%s: %v", dir, err)
			}
			got = append(got, task)
			if task.Merge != nil {
				merges++
			}
		}
		gb, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		wb, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		if string(gb) != string(wb) {
			t.Errorf("%s: Scan.Tasks differ from the reader's plan:\n got %s\nwant %s", dir, gb, wb)
		}
		if len(want) > 1 {
			n := 0
			for range scan.Tasks(ctx, paimon.TaskOptions{}) {
				n++
				break
			}
			if n != 1 {
				t.Errorf("%s: %d tasks after stopping at the first", dir, n)
			}
		}
		compared++
	}
	t.Logf("%d Paimon tables compared, %d merge tasks", compared, merges)
	if compared < 10 || merges == 0 {
		t.Errorf("too little covered: %d tables, %d merge tasks", compared, merges)
	}
}
