package reader_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/internal/render"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
)

// scanBudget reads the table at dir with one worker and the memory budget
// limit, returning its rows as JSON and the first error.
func scanBudget(t *testing.T, dir string, limit int64) ([]string, error) {
	t.Helper()
	mem := testutil.CheckedAllocator(t)
	ctx := context.Background()
	tbl, err := reader.OpenTable(ctx, dir, reader.TableOptions{Allocator: mem, Workers: 1, MemoryBytes: limit})
	if err != nil {
		t.Fatal(err)
	}
	rr, err := tbl.Scan(ctx)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	var rows []string
	for rr.Next() {
		rec := rr.RecordBatch()
		for r := 0; r < int(rec.NumRows()); r++ {
			rows = append(rows, string(render.AppendRow(nil, rec, r, nil)))
		}
	}
	return rows, rr.Err()
}

// TestEqualityKeysMemoryBudget: the equality key sets count against the
// scan's memory budget, 28 bytes per int or long key. eq_evolved's d1
// needs the 4 keys of e1 and e2 (112 bytes); eq_global's region=a file the
// keys of both its deletes (56 bytes), then region=b's the global one's
// alone (28 more).
func TestEqualityKeysMemoryBudget(t *testing.T) {
	const evolved, global = deletesDir + "eq_evolved", deletesDir + "eq_global"
	const ev, gl = evolved + "/data/", global + "/data/"
	for _, c := range []struct {
		name, dir string
		limit     int64
		want      string
	}{
		{"over after the first batch", evolved, 1, ev + "d1.parquet: equality delete keys of " + ev + "e1.parquet, " + ev + "e2.parquet need at least 56 bytes, with 0 bytes of other key sets held: over the scan's memory budget of 1 bytes (raise it)"},
		{"over by one byte", evolved, 111, ev + "d1.parquet: equality delete keys of " + ev + "e1.parquet, " + ev + "e2.parquet need at least 112 bytes, with 0 bytes of other key sets held: over the scan's memory budget of 111 bytes (raise it)"},
		// Two-column keys are encoded: 3 × 32 bytes, plus the 15, 7 and 2
		// bytes of (NaN, "x"), (null, "y"), (null, null).
		{"encoded keys", deletesDir + "eq_nulls", 119, deletesDir + "eq_nulls/data/d.parquet: equality delete keys of " + deletesDir + "eq_nulls/data/eq.parquet need at least 120 bytes, with 0 bytes of other key sets held: over the scan's memory budget of 119 bytes (raise it)"},
		{"second set over", global, 56, gl + "region=b/d.parquet: equality delete keys of " + gl + "global-eq.parquet need at least 28 bytes, with 56 bytes of other key sets held: over the scan's memory budget of 56 bytes (raise it)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := scanBudget(t, c.dir, c.limit)
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != c.want {
				t.Errorf("error\n%v\nwant\n%s", err, c.want)
			}
			var be *reader.KeySetBudgetError
			if !errors.As(err, &be) || !errors.Is(err, reader.ErrKeySetBudget) || !errors.Is(err, lakecat.ErrUnsupported) {
				t.Errorf("error %v: not a *KeySetBudgetError of ErrKeySetBudget, class ErrUnsupported", err)
			}
		})
	}
	for _, c := range []struct {
		dir   string
		limit int64
		want  []string
	}{
		{evolved, 112, []string{`{"key":3,"name":"old3"}`, `{"key":5,"name":"old5"}`, `{"key":6,"name":"old6"}`, `{"key":4,"name":"new4"}`, `{"key":7,"name":"new7"}`}},
		{deletesDir + "eq_nulls", 120, []string{`{"k":1,"s":"z","n":4}`, `{"k":"NaN","s":"w","n":5}`, `{"k":2,"s":null,"n":6}`}},
		{global, 84, []string{`{"id":3,"region":"a"}`, `{"id":2,"region":"b"}`, `{"id":3,"region":"b"}`}},
	} {
		rows, err := scanBudget(t, c.dir, c.limit)
		if err != nil {
			t.Fatalf("%s, budget %d: %v", c.dir, c.limit, err)
		}
		if strings.Join(rows, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s, budget %d bytes:\n%s\nwant\n%s", c.dir, c.limit, strings.Join(rows, "\n"), strings.Join(c.want, "\n"))
		}
	}
}
