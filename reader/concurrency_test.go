package reader_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"go.uber.org/goleak"

	"github.com/lakecat/lakecat/internal/render"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/table/paimon"
)

type concTable struct {
	name string
	dir  string
	opts reader.TableOptions
}

func concTables(t *testing.T) []concTable {
	root := testutil.RepoRoot(t)
	real := testutil.RealDir(t)
	duck := filepath.Join(real, "duckdb-iceberg", "data", "persistent")
	pc := filepath.Join(real, "paimon-cpp", "test", "test_data")
	return []concTable{
		{"orders (iceberg, generated)", filepath.Join(root, "testdata", "orders"), reader.TableOptions{}},
		{"paimon_orders (paimon, generated, raw)", filepath.Join(root, "testdata", "paimon_orders"), reader.TableOptions{FormatOptions: paimon.Options{Raw: true}}},
		{"duckdb add_columns_with_defaults", filepath.Join(duck, "add_columns_with_defaults", "default.db", "add_columns_with_defaults"), reader.TableOptions{}},
		{"duckdb column_mapping", filepath.Join(duck, "column_mapping", "warehouse", "default.db", "my_table"),
			reader.TableOptions{AllowPaths: []string{filepath.Join(duck, "column_mapping", "warehouse", "example")}}},
		{"duckdb case_sensitive_names", filepath.Join(duck, "case_sensitive_names", "default.db", "case_sensitive_names"), reader.TableOptions{}},
		{"paimon-cpp parquet append_table_with_alter_table", filepath.Join(pc, "parquet", "append_table_with_alter_table.db", "append_table_with_alter_table"), reader.TableOptions{}},
		{"paimon-cpp orc append_table_with_alter_table", filepath.Join(pc, "orc", "append_table_with_alter_table.db", "append_table_with_alter_table"), reader.TableOptions{}},
	}
}

// scanString opens and scans a table whole with mem, returning the rows as
// JSON lines.
func scanString(ctx context.Context, tc concTable, mem memory.Allocator, batchRows int) (string, error) {
	opts := tc.opts
	opts.Allocator, opts.BatchRows, opts.Workers = mem, batchRows, 2
	tbl, err := reader.OpenTable(ctx, tc.dir, opts)
	if err != nil {
		return "", err
	}
	rr, err := tbl.Scan(ctx)
	if err != nil {
		return "", err
	}
	defer rr.Release()
	var b []byte
	for rr.Next() {
		rec := rr.RecordBatch()
		for r := 0; r < int(rec.NumRows()); r++ {
			b = render.AppendRow(b, rec, r, nil)
			b = append(b, '\n')
		}
	}
	return string(b), rr.Err()
}

// TestConcurrentScans has 24 goroutines scan the same and different tables
// (generated Iceberg and Paimon tables, DuckDB's Iceberg tables,
// paimon-cpp's Parquet and ORC tables) at once, three times each, through
// one shared checked allocator: every scan gives exactly the rows of a
// serial scan. A third of the scans are canceled after their first batch
// (and end with context.Canceled, never with all rows and no error), some
// are abandoned after one batch without draining. Afterwards the
// allocator holds nothing and no goroutine of a scan is left (goleak). Run
// under -race in CI.
func TestConcurrentScans(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	tables := concTables(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	want := make([]string, len(tables))
	for i, tc := range tables {
		got, err := scanString(context.Background(), tc, mem, 1)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got == "" {
			t.Fatalf("%s: no rows", tc.name)
		}
		want[i] = got
	}
	const goroutines, rounds = 24, 3
	var wg sync.WaitGroup
	errs := make(chan error, goroutines*rounds)
	var mu sync.Mutex
	counts := map[string]int{}
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				i := (g + r) % len(tables)
				tc := tables[i]
				switch (g + r) % 3 {
				case 0, 1:
					got, err := scanString(context.Background(), tc, mem, 1+(g%3))
					if err != nil || got != want[i] {
						errs <- fmt.Errorf("goroutine %d round %d, %s: err %v, rows\n%s", g, r, tc.name, err, got)
						continue
					}
					mu.Lock()
					counts["full"]++
					mu.Unlock()
				case 2:
					if err := cancelMidScan(tc, mem, g%2 == 0, int64(strings.Count(want[i], "\n"))); err != nil {
						errs <- fmt.Errorf("goroutine %d round %d, %s: %v", g, r, tc.name, err)
						continue
					}
					mu.Lock()
					counts["canceled"]++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("%d tables, %d goroutines × %d scans: %v", len(tables), goroutines, rounds, counts)
}

// cancelMidScan reads one batch, then cancels the scan's context. With
// drain, it calls Next until it returns false and requires
// context.Canceled, or no error only when every one of the table's rows
// (total) came (batches decoded before the cancel may still be handed
// out); without, it releases the reader at once.
func cancelMidScan(tc concTable, mem memory.Allocator, drain bool, total int64) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := tc.opts
	opts.Allocator, opts.BatchRows, opts.Workers = mem, 1, 2
	tbl, err := reader.OpenTable(ctx, tc.dir, opts)
	if err != nil {
		return err
	}
	rr, err := tbl.Scan(ctx)
	if err != nil {
		return err
	}
	defer rr.Release()
	if !rr.Next() {
		return fmt.Errorf("no first batch: %v", rr.Err())
	}
	rows := rr.RecordBatch().NumRows()
	cancel()
	if !drain {
		return nil
	}
	for rr.Next() {
		rows += rr.RecordBatch().NumRows()
	}
	err = rr.Err()
	if errors.Is(err, context.Canceled) || (err == nil && rows == total) {
		return nil
	}
	return fmt.Errorf("after cancel: %d of %d rows, err %v", rows, total, err)
}
