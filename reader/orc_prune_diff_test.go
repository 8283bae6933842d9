package reader_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/internal/render"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
)

// TestFilterDifferentialORCFiles: over the real ORC files of apache/orc's
// examples (stripe statistics, row indexes of 1,000 and 10,000 rows, bloom
// filters of Java and C++ writers), random filters built from values
// sampled across each file give exactly the rows, with their _pos, of the
// unfiltered read filtered afterwards, with 1 or 3 workers.
func TestFilterDifferentialORCFiles(t *testing.T) {
	dir := testutil.RealDir(t, "apache-orc", "examples")
	names, err := filepath.Glob(filepath.Join(dir, "*.orc"))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(25, 16))
	var stats reader.ScanStats
	var files, filters, rows int
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		fs, _, err := reader.FileSchema(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Logf("%s: %v", filepath.Base(name), err)
			continue // refused (a union, a corrupt example)
		}
		writer := reader.SelfDescribed(fs)
		read := reader.SelfDescribed(fs)
		read.Fields = append(read.Fields, &schema.Field{ID: reader.FieldIDPos, Name: reader.ColumnPos, Type: schema.Long, Required: true})
		batches, err := orcReadAll(data, reader.Options{ReadSchema: read, WriterSchema: writer})
		if err != nil {
			t.Logf("%s: %v", filepath.Base(name), err)
			continue
		}
		var n int64
		for _, b := range batches {
			n += b.NumRows()
		}
		if n > 80_000 || len(data) > 512<<10 {
			releaseAll(batches) // kept short: every filter renders every row
			continue
		}
		cands := filterColumns(read, sampleRows(rng, batches, 60))
		if len(cands) == 0 {
			releaseAll(batches)
			continue
		}
		files++
		for k := 0; k < 8; k++ {
			e := randomFilter(rng, cands, 0)
			bound, err := expr.Bind(e, read)
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
			for _, workers := range []int{1 + 2*(k%2)} {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				rr, err := reader.Open(context.Background(), bytes.NewReader(data), int64(len(data)),
					reader.Options{Name: filepath.Base(name), ReadSchema: read, WriterSchema: writer, Filter: e, Stats: &stats, Workers: workers, BatchRows: 3000, Allocator: mem})
				if err != nil {
					t.Errorf("%s: %s: %v", name, e, err)
					continue
				}
				got := testutil.ReaderJSON(t, rr)
				rr.Release()
				mem.AssertSize(t, 0)
				if got != string(want) {
					t.Errorf("%s: %s (workers %d):\n got %.2000s\nwant %.2000s", filepath.Base(name), e, workers, got, want)
				}
				rows += strings.Count(got, "\n")
			}
			filters++
		}
		releaseAll(batches)
	}
	c := stats.Counts()
	t.Logf("%d files, %d filters, %d rows selected; stripes %d read %d skipped; row groups %d read %d skipped (%d by bloom filters)",
		files, filters, rows, c.StripesRead, c.StripesSkipped, c.OrcRowGroupsRead, c.OrcRowGroupsSkipped, c.OrcBloomSkipped)
	if files < 20 || c.StripesSkipped == 0 {
		t.Errorf("%d files, %d stripes skipped", files, c.StripesSkipped)
	}
}

func orcReadAll(data []byte, opts reader.Options) ([]arrow.RecordBatch, error) {
	rr, err := reader.Open(context.Background(), bytes.NewReader(data), int64(len(data)), opts)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	var out []arrow.RecordBatch
	for rr.Next() {
		rec := rr.RecordBatch()
		rec.Retain()
		out = append(out, rec)
	}
	if err := rr.Err(); err != nil {
		releaseAll(out)
		return nil, err
	}
	return out, nil
}

func releaseAll(bs []arrow.RecordBatch) {
	for _, b := range bs {
		b.Release()
	}
}

// sampleRows returns n single-row slices of batches at random rows, so that
// literals come from every part of a file.
func sampleRows(rng *rand.Rand, batches []arrow.RecordBatch, n int) []arrow.RecordBatch {
	var total int64
	for _, b := range batches {
		total += b.NumRows()
	}
	var out []arrow.RecordBatch
	for i := 0; i < n && total > 0; i++ {
		r := rng.Int64N(total)
		for _, b := range batches {
			if r < b.NumRows() {
				out = append(out, b.NewSlice(r, r+1))
				break
			}
			r -= b.NumRows()
		}
	}
	return out
}
