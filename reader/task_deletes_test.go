package reader_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/render"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
)

// TestDeleteCacheReadTask reads the 4 tasks of a table whose one position
// delete file applies to all of them with separate ReadTask calls: through
// one [reader.DeleteCache] the delete file is opened once, without one
// four times, and the rows are the same exact rows either way.
func TestDeleteCacheReadTask(t *testing.T) {
	dir := sharedPosTable(t)
	var want []string
	for k := 0; k < 4; k++ {
		for i := 0; i < 10; i++ {
			if k != 2 && (i == k || i == 9-k) {
				continue
			}
			want = append(want, fmt.Sprintf(`{"id":%d}`, 10*k+i))
		}
	}
	ctx := context.Background()
	for _, c := range []struct {
		name      string
		cache     func() *reader.DeleteCache
		wantOpens int
	}{
		{"no cache", func() *reader.DeleteCache { return nil }, 4},
		{"cache", func() *reader.DeleteCache { return reader.NewDeleteCache(0) }, 1},
		{"cache of 1 MiB", func() *reader.DeleteCache { return reader.NewDeleteCache(1 << 20) }, 1},
		{"cache below the positions", func() *reader.DeleteCache { return reader.NewDeleteCache(64) }, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			mem := testutil.CheckedAllocator(t)
			fsys := &countFS{}
			tbl, err := reader.OpenTable(ctx, dir, reader.TableOptions{FS: fsys})
			if err != nil {
				t.Fatal(err)
			}
			tasks, err := tbl.Tasks(ctx)
			if err != nil || len(tasks) != 4 {
				t.Fatalf("%d tasks, %v", len(tasks), err)
			}
			cache := c.cache()
			if cache != nil {
				for _, task := range tasks {
					cache.Add(task)
				}
			}
			var rows []string
			for _, task := range tasks {
				rr, err := reader.ReadTask(ctx, fsys, task, reader.TaskOptions{Allocator: mem, BatchRows: 4, Deletes: cache})
				if err != nil {
					t.Fatal(err)
				}
				for rr.Next() {
					rec := rr.RecordBatch()
					for r := 0; r < int(rec.NumRows()); r++ {
						rows = append(rows, string(render.AppendRow(nil, rec, r, nil)))
					}
				}
				if err := rr.Err(); err != nil {
					t.Fatal(err)
				}
				rr.Release()
			}
			if strings.Join(rows, " ") != strings.Join(want, " ") {
				t.Errorf("rows\n%s\nwant\n%s", strings.Join(rows, " "), strings.Join(want, " "))
			}
			if got := fsys.opens["pos.parquet"]; got != c.wantOpens {
				t.Errorf("pos.parquet opened %d times, want %d", got, c.wantOpens)
			}
		})
	}
}
