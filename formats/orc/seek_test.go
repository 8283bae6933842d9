package orc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// seekReads reads f with the given skipped ranges, seeking or decoding
// and dropping, and returns the batches with their BatchStart, and the
// reader's counts.
type seekRead struct {
	starts []int64
	recs   []arrow.RecordBatch
	counts SkipCounts
	noSeek []bool // per column: not seekable in some stripe whose row index was read
	cols   int
	// compared counts the streams compared with the row index at row
	// group starts and stripe ends: exactly, and past a run's start.
	compared [2]int64
}

func (s *seekRead) release() {
	for _, r := range s.recs {
		r.Release()
	}
}

func readSkipping(f *File, mem memory.Allocator, rows int, skip []RowRange, noSeek bool) (*seekRead, error) {
	br, err := f.NewBatchReader(nil, BatchOptions{BatchRows: rows, Allocator: mem, Skip: skip, noSeek: noSeek})
	if err != nil {
		return nil, err
	}
	defer br.Close()
	out := &seekRead{cols: len(br.cols), noSeek: make([]bool, len(br.cols))}
	for {
		rec, err := br.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			out.release()
			return nil, err
		}
		out.recs = append(out.recs, rec)
		out.starts = append(out.starts, br.BatchStart())
		for i, ok := range br.seekCols {
			out.noSeek[i] = out.noSeek[i] || (br.index != nil && !ok)
		}
	}
	out.counts = br.SkipCounts()
	out.compared = br.compared
	return out, nil
}

// groupSkips returns the file rows of the row groups of f not in keep
// (keep[i][g]: row group g of stripe i kept), merged into ascending ranges.
func groupSkips(f *File, keep [][]bool) []RowRange {
	var out []RowRange
	var start int64
	stride := f.RowIndexStride()
	for i := range f.NumStripes() {
		rows := f.StripeRows(i)
		for g, k := range keep[i] {
			if k {
				continue
			}
			r := RowRange{Start: start + int64(g)*stride, End: start + min(int64(g+1)*stride, rows)}
			if n := len(out); n > 0 && out[n-1].End == r.Start {
				out[n-1].End = r.End
			} else {
				out = append(out, r)
			}
		}
		start += rows
	}
	return out
}

// selections returns row group selections of f: every group kept but the
// first, only the last kept, none kept, alternating, and random ones.
func selections(f *File, rng *rand.Rand, random int) [][][]bool {
	stride := f.RowIndexStride()
	shape := func(fn func(i, g, n int) bool) [][]bool {
		k := make([][]bool, f.NumStripes())
		for i := range k {
			n := int((f.StripeRows(i) + stride - 1) / stride)
			k[i] = make([]bool, n)
			for g := range n {
				k[i][g] = fn(i, g, n)
			}
		}
		return k
	}
	out := [][][]bool{
		shape(func(i, g, n int) bool { return g > 0 }),
		shape(func(i, g, n int) bool { return g == n-1 }),
		shape(func(i, g, n int) bool { return false }),
		shape(func(i, g, n int) bool { return g%2 == 1 }),
		shape(func(i, g, n int) bool { return g == n/2 }),
	}
	for range random {
		p := rng.Float64()
		out = append(out, shape(func(i, g, n int) bool { return rng.Float64() < p }))
	}
	return out
}

// sameReads reports the first difference between two reads.
func sameReads(a, b *seekRead) error {
	if len(a.recs) != len(b.recs) {
		return fmt.Errorf("%d batches, want %d", len(a.recs), len(b.recs))
	}
	for i := range a.recs {
		if a.starts[i] != b.starts[i] {
			return fmt.Errorf("batch %d starts at row %d, want %d", i, a.starts[i], b.starts[i])
		}
		if !array.RecordEqual(a.recs[i], b.recs[i]) {
			for c := 0; c < int(a.recs[i].NumCols()); c++ {
				if !array.Equal(a.recs[i].Column(c), b.recs[i].Column(c)) {
					return fmt.Errorf("batch %d (row %d) column %q differs:\n%v\nwant\n%v", i, a.starts[i], a.recs[i].ColumnName(c),
						truncate(fmt.Sprint(a.recs[i].Column(c))), truncate(fmt.Sprint(b.recs[i].Column(c))))
				}
			}
			return fmt.Errorf("batch %d differs", i)
		}
	}
	return nil
}

func truncate(s string) string {
	if len(s) > 600 {
		return s[:600] + "..."
	}
	return s
}

// seekDiff checks, for each selection, that seeking gives the batches of
// decoding and dropping, and adds up what was seeked.
type seekTotals struct {
	files, reads, seekedRows, droppedRows, bytes int64
	compared                                     [2]int64
	fallback                                     map[string]bool // file: column that never seeked
}

func seekDiff(t *testing.T, name string, data []byte, rng *rand.Rand, random int, tot *seekTotals) {
	t.Helper()
	f, err := Open(bytes.NewReader(data), int64(len(data)), WithFileName(name))
	if err != nil {
		t.Fatal(err)
	}
	tot.files++
	for _, keep := range selections(f, rng, random) {
		skip := groupSkips(f, keep)
		var skipped int64
		for _, r := range skip {
			skipped += r.End - r.Start
		}
		for _, rows := range []int{0, 777} {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			want, err := readSkipping(f, mem, rows, skip, true)
			if err != nil {
				t.Fatalf("%s: decode and drop: %v", name, err)
			}
			got, err := readSkipping(f, mem, rows, skip, false)
			if err != nil {
				want.release()
				t.Fatalf("%s: seek: %v (skip %v)", name, err, skip)
			}
			if err := sameReads(got, want); err != nil {
				t.Errorf("%s: batch rows %d, skip %v: %v", name, rows, skip, err)
			}
			if c := got.counts; c.RowsSeeked+c.RowsDropped != skipped || want.counts.RowsDropped != skipped || want.counts.RowsSeeked != 0 {
				t.Errorf("%s: counts %+v seeking, %+v dropping, for %d skipped rows", name, c, want.counts, skipped)
			}
			tot.reads++
			tot.seekedRows += got.counts.RowsSeeked
			tot.droppedRows += got.counts.RowsDropped
			tot.bytes += got.counts.BytesSeeked
			tot.compared[0] += got.compared[0]
			tot.compared[1] += got.compared[1]
			for i, no := range got.noSeek {
				if no {
					tot.fallback[name+": "+f.Schema().Fields[i].Name] = true
				}
			}
			got.release()
			want.release()
			mem.AssertSize(t, 0)
		}
	}
}

// TestSeekRealFiles: over every real ORC file with a row index, reading
// with row groups skipped by seeking gives exactly the batches (values,
// types, BatchStart) of decoding and dropping them, for fixed and random
// row group selections at two batch sizes.
func TestSeekRealFiles(t *testing.T) {
	root := realDir(t)
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".orc") {
			paths = append(paths, p)
		}
		return nil
	})
	sort.Strings(paths)
	rng := rand.New(rand.NewPCG(16, 26))
	tot := seekTotals{fallback: map[string]bool{}}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil || f.RowIndexStride() <= 0 || f.NumRows() <= f.RowIndexStride() {
			continue // unreadable files have their own tests; one row group has nothing to seek
		}
		if _, err := readSkipping(f, memory.NewGoAllocator(), 0, nil, true); err != nil {
			continue // a file the reader refuses (damaged examples)
		}
		rel, _ := filepath.Rel(root, p)
		random := 4
		if testing.Short() || f.NumRows() > 1_000_000 {
			random = 1
		}
		seekDiff(t, filepath.ToSlash(rel), data, rng, random, &tot)
	}
	var fb []string
	for k := range tot.fallback {
		fb = append(fb, k)
	}
	sort.Strings(fb)
	t.Logf("%d files, %d reads: %d rows seeked, %d decoded and dropped, %d bytes seeked; streams compared with the row index %d exactly, %d past a run's start; columns not seekable in some stripe: %v",
		tot.files, tot.reads, tot.seekedRows, tot.droppedRows, tot.bytes, tot.compared[0], tot.compared[1], fb)
	if tot.files < 10 || tot.seekedRows == 0 || tot.compared[0] == 0 || tot.compared[1] == 0 {
		t.Errorf("too little seeking: %d files, %d rows, %v streams compared", tot.files, tot.seekedRows, tot.compared)
	}
}

// TestSeekCorruptPositions: row index positions that do not fit the
// streams (an offset past a stream's end, an offset past the chunk's
// decompressed bytes, a run position above any run, a bit past a byte)
// are ErrCorrupt errors naming the file, not panics; positions of another
// shape leave the column to be decoded and dropped.
func TestSeekCorruptPositions(t *testing.T) {
	const name = "TestOrcFile.testSeek.orc"
	data, err := os.ReadFile(filepath.Join(realDir(t), "apache-orc", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(bytes.NewReader(data), int64(len(data)), WithFileName(name))
	if err != nil {
		t.Fatal(err)
	}
	// Column 4 (int1: PRESENT absent; DATA: chunk, offset, values) and
	// column 1 (boolean1: DATA chunk, offset, bytes, bits).
	cases := []struct {
		col, pos int
		v        uint64
		want     string
	}{
		{4, 0, 1 << 40, "beyond the stream's"},
		{4, 1, 1 << 30, "in a chunk of"},
		{4, 2, 1 << 20, "values in a run"},
		{1, 3, 9, "bit 9 in a byte"},
	}
	for _, c := range cases {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		br, err := f.NewBatchReader(nil, BatchOptions{Allocator: mem, Skip: []RowRange{{0, 2000}}})
		if err != nil {
			t.Fatal(err)
		}
		if err := br.loadStripe(0); err != nil {
			t.Fatal(err)
		}
		br.stripe = 1
		br.index.pos[c.col][2][c.pos] = c.v
		_, err = br.Next(context.Background())
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("column %d position %d = %d: %v, want ErrCorrupt naming %s and %q", c.col, c.pos, c.v, err, name, c.want)
		}
		br.Close()
		mem.AssertSize(t, 0)
	}
	// One position too many in one entry: the column decodes and drops.
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	want, err := readSkipping(f, mem, 0, []RowRange{{0, 2000}}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer want.release()
	br, err := f.NewBatchReader(nil, BatchOptions{Allocator: mem, Skip: []RowRange{{0, 2000}}})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	if err := br.loadStripe(0); err != nil {
		t.Fatal(err)
	}
	br.stripe = 1
	br.index.pos[4][3] = append(br.index.pos[4][3], 0)
	br.seekCols = br.seekCols[:0]
	for _, c := range br.cols {
		br.seekCols = append(br.seekCols, seekable(c, br.index))
	}
	intSeekable := br.seekCols[3]
	got := &seekRead{}
	for {
		rec, err := br.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got.recs = append(got.recs, rec)
		got.starts = append(got.starts, br.BatchStart())
	}
	defer got.release()
	if err := sameReads(got, want); err != nil {
		t.Error(err)
	}
	if c := br.SkipCounts(); c.RowsDropped != 2000 || c.RowsSeeked != 0 || intSeekable {
		t.Errorf("counts %+v, int1 seekable %v; want 2000 rows dropped by int1", c, intSeekable)
	}
}

// BenchmarkSeekRowGroups reads apache/orc's demo-12-zlib.orc (1,920,800
// rows, 193 row groups of 10,000) keeping one row group in ten, seeking
// over the others or decoding and dropping them; cpu-ns/op is the
// process's user and system CPU time per read.
func BenchmarkSeekRowGroups(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(realDir(b), "apache-orc", "examples", "demo-12-zlib.orc"))
	if err != nil {
		b.Fatal(err)
	}
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		b.Fatal(err)
	}
	keep := make([][]bool, f.NumStripes())
	stride := f.RowIndexStride()
	for i := range keep {
		keep[i] = make([]bool, (f.StripeRows(i)+stride-1)/stride)
		for g := range keep[i] {
			keep[i][g] = g%10 == 5
		}
	}
	skip := groupSkips(f, keep)
	for _, mode := range []string{"seek", "drop"} {
		b.Run(mode, func(b *testing.B) {
			start := cpuTime()
			for range b.N {
				r, err := readSkipping(f, memory.DefaultAllocator, 0, skip, mode == "drop")
				if err != nil {
					b.Fatal(err)
				}
				r.release()
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}
