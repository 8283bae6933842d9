package reader_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/formats/orc"
	"github.com/lakecat/lakecat/internal/render"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/storage"
)

// TestORCSplitTasksFiltered: a multi-stripe ORC file split into one task
// per stripe and read with a filter (stripe statistics, row index and
// bloom filters pruning inside each task's stripe range) gives, task after
// task, exactly the rows of the whole file that the filter selects.
func TestORCSplitTasksFiltered(t *testing.T) {
	dir := testutil.RealDir(t, "apache-orc", "examples")
	names, err := filepath.Glob(filepath.Join(dir, "*.orc"))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(17, 25))
	ctx := context.Background()
	var stats reader.ScanStats
	files, filters := 0, 0
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := orc.Open(bytes.NewReader(data), int64(len(data)))
		if err != nil || f.NumStripes() < 2 || f.NumRows() > 100_000 {
			continue
		}
		task := orcTask(name, f)
		rr, err := reader.ReadTask(ctx, storage.OSFS{}, task, reader.TaskOptions{BatchRows: 1000})
		if err != nil {
			continue // a file the reader refuses whole too
		}
		var batches []arrow.RecordBatch
		for rr.Next() {
			b := rr.RecordBatch()
			b.Retain()
			batches = append(batches, b)
		}
		rerr := rr.Err()
		rr.Release()
		if rerr != nil {
			releaseAll(batches)
			continue
		}
		cands := filterColumns(task.ReadSchema, sampleRows(rng, batches, 60))
		if len(cands) == 0 {
			releaseAll(batches)
			continue
		}
		parts, err := reader.SplitTask(ctx, storage.OSFS{}, task, 1, reader.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		files++
		for k := 0; k < 6; k++ {
			e := randomFilter(rng, cands, 0)
			bound, err := expr.Bind(e, task.ReadSchema)
			if err != nil {
				t.Errorf("%s: %s: bind: %v", name, e, err)
				continue
			}
			var want []byte
			for _, b := range batches {
				sel, _, err := bound.Select(b)
				if err != nil {
					t.Fatalf("%s: %s: %v", name, e, err)
				}
				for r := 0; r < int(b.NumRows()); r++ {
					if sel[r/8]&(1<<(r%8)) != 0 {
						want = render.AppendRow(want, b, r, nil)
						want = append(want, '\n')
					}
				}
			}
			var got string
			for _, p := range parts {
				mem := testutil.CheckedAllocator(t)
				rr, err := reader.ReadTask(ctx, storage.OSFS{}, p, reader.TaskOptions{Filter: e, Stats: &stats, BatchRows: 700, Allocator: mem})
				if err != nil {
					t.Fatalf("%s stripe %d: %s: %v", filepath.Base(name), p.FirstStripe, e, err)
				}
				got += testutil.ReaderJSON(t, rr)
				rr.Release()
			}
			if got != string(want) {
				t.Errorf("%s: %s over %d stripe tasks:\n got %.1500s\nwant %.1500s", filepath.Base(name), e, len(parts), got, want)
			}
			filters++
		}
		releaseAll(batches)
	}
	c := stats.Counts()
	t.Logf("%d files, %d filters; stripes %d read %d skipped; row groups %d read %d skipped", files, filters, c.StripesRead, c.StripesSkipped, c.OrcRowGroupsRead, c.OrcRowGroupsSkipped)
	if files < 2 {
		t.Fatalf("%d multi-stripe ORC files tested", files)
	}
}
