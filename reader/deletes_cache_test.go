package reader_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lakecat/lakecat/internal/icebergwrite"
	"github.com/lakecat/lakecat/internal/render"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/storage"
)

// countFS counts the opens of each path of the local file system.
type countFS struct {
	storage.OSFS
	mu    sync.Mutex
	opens map[string]int
}

func (c *countFS) Open(ctx context.Context, path string) (storage.File, error) {
	c.mu.Lock()
	if c.opens == nil {
		c.opens = map[string]int{}
	}
	c.opens[filepath.Base(path)]++
	c.mu.Unlock()
	return c.OSFS.Open(ctx, path)
}

// sharedPosTable writes a table of 4 data files of 10 rows (ids 10k..10k+9
// in file k) and one position delete file without referenced_data_file
// deleting positions k and 9-k of files 0, 1 and 3: by the spec's rules
// (one partition, a later sequence number) it applies to all four.
func sharedPosTable(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	tb := &icebergwrite.Table{Dir: dir, Location: "/warehouse/shared", FormatVersion: 2, LastColumnID: 1,
		Schemas: []string{`{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": true, "type": "long"}]}`},
		Specs:   []icebergwrite.Spec{{ID: 0}}}
	type row struct {
		ID int64 `parquet:"id,id(1)"`
	}
	var files []icebergwrite.File
	for k := 0; k < 4; k++ {
		rows := make([]row, 10)
		for i := range rows {
			rows[i].ID = int64(10*k + i)
		}
		f, err := icebergwrite.WriteParquet(tb, fmt.Sprintf("data/d%d.parquet", k), rows, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	if err := tb.Commit(files...); err != nil {
		t.Fatal(err)
	}
	var pd []icebergwrite.PositionDelete
	for _, k := range []int{0, 1, 3} {
		pd = append(pd, icebergwrite.PositionDelete{FilePath: files[k].Path, Pos: int64(k)}, icebergwrite.PositionDelete{FilePath: files[k].Path, Pos: int64(9 - k)})
	}
	d, err := icebergwrite.WritePositionDeletes(tb, "data/pos.parquet", pd)
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Commit(d); err != nil {
		t.Fatal(err)
	}
	if err := tb.WriteMetadata(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestSharedPositionDeletesReadOnce: a position delete file that applies
// to the 4 data files of a scan is opened once, and the rows are exactly
// those without its deletes; under a budget too small for its positions
// each task reads it again (4 opens), with the same rows.
func TestSharedPositionDeletesReadOnce(t *testing.T) {
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
	for _, c := range []struct {
		name      string
		workers   int
		budget    int64
		wantOpens int
	}{
		{"one worker", 1, 0, 1},
		{"two workers", 2, 0, 1},
		{"budget of 1 MiB", 2, 1 << 20, 1},
		{"budget below the positions", 1, 64, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			mem := testutil.CheckedAllocator(t)
			ctx := context.Background()
			fsys := &countFS{}
			tbl, err := reader.OpenTable(ctx, dir, reader.TableOptions{FS: fsys, Allocator: mem, Workers: c.workers, MemoryBytes: c.budget, BatchRows: 4})
			if err != nil {
				t.Fatal(err)
			}
			rr, err := tbl.Scan(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer rr.Release()
			var rows []string
			for rr.Next() {
				rec := rr.RecordBatch()
				for r := 0; r < int(rec.NumRows()); r++ {
					rows = append(rows, string(render.AppendRow(nil, rec, r, nil)))
				}
			}
			if err := rr.Err(); err != nil {
				t.Fatal(err)
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

// TestReadTaskKeySetBudget: ReadTask alone bounds the equality key sets of
// its task by TaskOptions.MemoryBytes: eq_evolved's d1 needs 112 bytes of
// keys (4 long keys of 28 bytes).
func TestReadTaskKeySetBudget(t *testing.T) {
	ctx := context.Background()
	tbl, err := reader.OpenTable(ctx, deletesDir+"eq_evolved", reader.TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := tbl.Tasks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	read := func(limit int64) (int, error) {
		mem := testutil.CheckedAllocator(t)
		n := 0
		for _, task := range tasks {
			if !strings.HasSuffix(task.Path, "/d1.parquet") {
				continue
			}
			rr, err := reader.ReadTask(ctx, storage.OSFS{}, task, reader.TaskOptions{Allocator: mem, MemoryBytes: limit})
			if err != nil {
				return 0, err
			}
			for rr.Next() {
				n += int(rr.RecordBatch().NumRows())
			}
			err = rr.Err()
			rr.Release()
			if err != nil {
				return 0, err
			}
		}
		return n, nil
	}
	_, err = read(111)
	var be *reader.KeySetBudgetError
	if !errors.As(err, &be) || !errors.Is(err, reader.ErrKeySetBudget) {
		t.Fatalf("budget 111: err = %v, want a *KeySetBudgetError", err)
	}
	if be.Bytes != 112 || be.LimitBytes != 111 || be.HeldBytes != 0 {
		t.Errorf("budget 111: bytes %d, held %d, limit %d; want 112, 0, 111", be.Bytes, be.HeldBytes, be.LimitBytes)
	}
	for _, limit := range []int64{112, 0} {
		n, err := read(limit)
		if err != nil {
			t.Fatalf("budget %d: %v", limit, err)
		}
		if n != 3 {
			t.Errorf("budget %d: %d rows of d1, want 3", limit, n)
		}
	}
}
