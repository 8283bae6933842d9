package open_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/open"
)

// TestTasksEncodeWithAnyColumns: over every real and bundled table, a scan
// of each single top-level column (so partition columns left out) plans
// tasks that encode as JSON and decode back to the same encoding. A task
// used to keep the partition values of columns its read schema lacks, and
// its encoding refused them ("constant for field id N, which the read
// schema lacks"), breaking every partitioned table read through tasks
// with a column selection (Beam's Read with Columns).
func TestTasksEncodeWithAnyColumns(t *testing.T) {
	ctx := context.Background()
	var scans, tasks, partitioned int
	for _, dir := range allTables(t) {
		tbl, err := open.Open(ctx, storage.OSFS{}, dir)
		if err != nil {
			continue
		}
		schemas, curID, err := tbl.Schemas(ctx)
		if err != nil {
			continue
		}
		var cur *schema.Schema
		for _, s := range schemas {
			if s.ID == curID {
				cur = s
			}
		}
		if cur == nil {
			t.Errorf("%s: no schema of the current id %d", dir, curID)
			continue
		}
		for _, f := range cur.Fields {
			planned, err := tbl.NewScan(table.ScanOptions{Columns: []string{f.Name}}).Plan(ctx)
			if err != nil {
				continue // refused for the table's own reasons, as cat refuses it
			}
			scans++
			for _, task := range planned {
				tasks++
				if len(task.Constants) > 0 {
					partitioned++
				}
				b, err := json.Marshal(task)
				if err != nil {
					t.Errorf("%s, column %s: %v", dir, f.Name, err)
					continue
				}
				var back table.Task
				if err := json.Unmarshal(b, &back); err != nil {
					t.Errorf("%s, column %s: decoding: %v", dir, f.Name, err)
					continue
				}
				b2, err := json.Marshal(back)
				if err != nil || string(b2) != string(b) {
					t.Errorf("%s, column %s: the task does not encode back the same (%v):\n%s\n%s", dir, f.Name, err, b, b2)
				}
			}
		}
	}
	if scans < 100 || partitioned == 0 {
		t.Errorf("too few scans: %d scans, %d tasks, %d with constants", scans, tasks, partitioned)
	}
	t.Logf("%d scans, %d tasks, %d with constants", scans, tasks, partitioned)
}
