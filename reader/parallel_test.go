package reader_test

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/formats/orc"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
)

// readWorkers reads data with opts and the given workers and returns the
// rows as JSON lines and the batch lengths.
func readWorkers(t *testing.T, data []byte, opts reader.Options, workers int) (string, []int64) {
	t.Helper()
	opts.Workers = workers
	rr, err := reader.Open(context.Background(), bytes.NewReader(data), int64(len(data)), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	var lens []int64
	var out strings.Builder
	for rr.Next() {
		rec := rr.RecordBatch()
		lens = append(lens, rec.NumRows())
		one, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
		if err != nil {
			t.Fatal(err)
		}
		out.WriteString(testutil.ReaderJSON(t, one))
		one.Release()
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	return out.String(), lens
}

// TestParallelRowGroups reads a Parquet file of ten 100-row row groups
// with 1, 2 and 4 workers, in the evolved schema with _pos, with and
// without a filter and with a budget of one byte: the rows and their order
// are the same.
func TestParallelRowGroups(t *testing.T) {
	mem := testutil.CheckedAllocator(t)
	data := sortedFile(t, 1000)
	for _, where := range []string{"", "n >= 250 and n < 720"} {
		for _, budget := range []int64{0, 1} {
			opts := reader.Options{ReadSchema: evolved(), BatchRows: 30, Allocator: mem, MemoryBytes: budget}
			if where != "" {
				f, err := expr.Parse(where)
				if err != nil {
					t.Fatal(err)
				}
				opts.Filter = f
			}
			want, wantLens := readWorkers(t, data, opts, 1)
			if n := strings.Count(want, "\n"); (where == "" && n != 1000) || (where != "" && n != 470) {
				t.Fatalf("%q: %d rows with one worker", where, n)
			}
			if !strings.HasPrefix(want, `{"n":0,"name":"k000","added":null,"dflt":5,"_pos":0}`) && where == "" {
				t.Fatalf("first row %.80s", want)
			}
			for _, w := range []int{2, 4} {
				got, lens := readWorkers(t, data, opts, w)
				if got != want {
					t.Errorf("%q budget %d, %d workers: rows differ from one worker's", where, budget, w)
				}
				// A batch never spans two row groups (30, 30, 30, 10 per
				// 100-row group), where one worker's batches do.
				for i, n := range lens {
					if n > 30 {
						t.Errorf("%q budget %d, %d workers: batch %d has %d rows", where, budget, w, i, n)
					}
				}
				_ = wantLens
			}
		}
	}
}

// TestParallelStripes reads the real ORC files of several stripes with 1
// and 3 workers: the same rows in the same order.
func TestParallelStripes(t *testing.T) {
	dir := testutil.RealDir(t, "apache-orc", "examples")
	names, err := filepath.Glob(filepath.Join(dir, "*.orc"))
	if err != nil {
		t.Fatal(err)
	}
	tested := 0
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := orc.Open(bytes.NewReader(data), int64(len(data)))
		if err != nil || f.NumStripes() < 2 {
			continue
		}
		mem := testutil.CheckedAllocator(t)
		opts := reader.Options{Allocator: mem, BatchRows: 1000}
		rr, err := reader.Open(context.Background(), bytes.NewReader(data), int64(len(data)), opts)
		if err != nil {
			continue // a file the reader refuses serially too
		}
		rr.Release()
		want, wantLens := readWorkers(t, data, opts, 1)
		got, lens := readWorkers(t, data, opts, 3)
		if got != want || !slicesEqual(lens, wantLens) {
			t.Errorf("%s (%d stripes): 3 workers differ from one", filepath.Base(name), f.NumStripes())
		}
		tested++
	}
	if tested < 2 {
		t.Fatalf("%d ORC files of several stripes read", tested)
	}
}

// TestParallelCancel abandons and cancels parallel reads mid-way: every
// batch is released and the error is the context's.
func TestParallelCancel(t *testing.T) {
	mem := testutil.CheckedAllocator(t)
	data := sortedFile(t, 1000)
	ctx, cancel := context.WithCancel(context.Background())
	rr, err := reader.Open(ctx, bytes.NewReader(data), int64(len(data)), reader.Options{BatchRows: 10, Allocator: mem, Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	if !rr.Next() {
		t.Fatal(rr.Err())
	}
	cancel()
	for rr.Next() {
	}
	if !errors.Is(rr.Err(), context.Canceled) {
		t.Errorf("error %v, want context.Canceled", rr.Err())
	}
	rr.Release()

	rr, err = reader.Open(context.Background(), bytes.NewReader(data), int64(len(data)), reader.Options{BatchRows: 10, Allocator: mem, Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	rr.Next()
	rr.Release() // abandoned after one batch
}

func slicesEqual(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestParallelStripesStats reads the real ORC files of several stripes
// under random filters with 1 and 2 workers: the same rows and the same
// counts, the rows and bytes the row index and bloom filters skipped
// included (each worker's batch reader counts them when it closes).
func TestParallelStripesStats(t *testing.T) {
	dir := testutil.RealDir(t, "apache-orc", "examples")
	names, err := filepath.Glob(filepath.Join(dir, "*.orc"))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(20, 5))
	var skippedRows int64
	tested := 0
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := orc.Open(bytes.NewReader(data), int64(len(data)))
		if err != nil || f.NumStripes() < 2 || f.NumRows() > 80_000 {
			continue
		}
		fs, _, err := reader.FileSchema(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			continue
		}
		read := reader.SelfDescribed(fs)
		batches, err := orcReadAll(data, reader.Options{ReadSchema: read, WriterSchema: read})
		if err != nil {
			continue
		}
		cands := filterColumns(read, sampleRows(rng, batches, 60))
		releaseAll(batches)
		if len(cands) == 0 {
			continue
		}
		for k := 0; k < 16; k++ {
			e := randomFilter(rng, cands, 0)
			var got [2]string
			var counts [2]reader.ScanCounts
			for i, workers := range []int{1, 2} {
				mem := testutil.CheckedAllocator(t)
				var st reader.ScanStats
				rr, err := reader.Open(context.Background(), bytes.NewReader(data), int64(len(data)),
					reader.Options{ReadSchema: read, WriterSchema: read, Filter: e, Stats: &st, Workers: workers, BatchRows: 1000, Allocator: mem})
				if err != nil {
					t.Fatalf("%s: %s: %v", filepath.Base(name), e, err)
				}
				got[i] = testutil.ReaderJSON(t, rr)
				counts[i] = st.Counts() // complete once Next returned false
				rr.Release()
			}
			if got[0] != got[1] {
				t.Errorf("%s: %s: 2 workers' rows differ from one's", filepath.Base(name), e)
			}
			if counts[0] != counts[1] {
				t.Errorf("%s: %s: counts with 2 workers %+v, with one %+v", filepath.Base(name), e, counts[1], counts[0])
			}
			skippedRows += counts[0].OrcRowIndexRowsSkipped
		}
		tested++
	}
	if tested < 2 || skippedRows == 0 {
		t.Fatalf("%d ORC files of several stripes read, %d rows skipped by row indexes", tested, skippedRows)
	}
}
