package parquet

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/parquet-go/parquet-go"
)

// TestSkipMatchesFilterKernel reads a file of lakebench's six optional
// columns (int, long, float, double, plain strings, decimal(18, 2) as
// INT64; about 10% nulls each) leaving out skip sets, in batches that
// straddle pages and row groups, and compares the batches, concatenated,
// with the whole read filtered by Arrow's filter kernel: equal arrays of
// equal types. The skip sets: lakebench's pos10 positions, every other
// row, and long skipped stretches with single kept rows between them.
func TestSkipMatchesFilterKernel(t *testing.T) {
	const n = 20_000
	rows := make([]flatBenchRow, n)
	for r := range rows {
		h := uint32(r) * 2654435761
		if h%10 != 1 {
			i, l, f, d, dec := int32(h), int64(h)<<7-int64(r), float32(r)/3, float64(h)/7, int64(r)-n/2
			s := string(rune('a'+r%26)) + "-" + string(rune('A'+h%26))
			if r%97 == 0 {
				s = ""
			}
			rows[r] = flatBenchRow{I: &i, L: &l, F: &f, D: &d, S: &s, Dec: &dec}
		}
		if h%7 == 3 {
			rows[r].S = nil
		}
	}
	b := writeRows(t, rows, pq.MaxRowsPerRowGroup(6000), pq.PageBufferSize(2048))
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	mem := newMem(t)
	defer mem.AssertSize(t, 0)
	whole := readOneBatch(t, f, BatchOptions{BatchRows: n, Allocator: mem})
	defer whole.Release()

	hash := func(r int) uint32 { return uint32(r) * 2654435761 >> 16 }
	skips := map[string]func(r int) bool{
		"pos10":       func(r int) bool { return hash(r)%10 == 0 },
		"every other": func(r int) bool { return r%2 == 1 },
		"stretches":   func(r int) bool { return r%1500 != 0 && r%1500 != 1 && r%1500 != 700 },
	}
	for name, skipped := range skips {
		t.Run(name, func(t *testing.T) {
			skip := roaring64.New()
			sel := array.NewBooleanBuilder(mem)
			for r := 0; r < n; r++ {
				if skipped(r) {
					skip.Add(uint64(r))
				}
				sel.Append(!skipped(r))
			}
			selArr := sel.NewArray()
			defer selArr.Release()
			sel.Release()
			ctx := compute.WithAllocator(context.Background(), mem)
			want, err := compute.FilterRecordBatch(ctx, whole, selArr, compute.DefaultFilterOptions())
			if err != nil {
				t.Fatal(err)
			}
			defer want.Release()
			for _, batch := range []int{1000, 4096} {
				got := readSkipConcat(t, f, BatchOptions{BatchRows: batch, Allocator: mem, Skip: skip}, mem)
				if got.NumRows() != want.NumRows() || got.NumCols() != want.NumCols() {
					got.Release()
					t.Fatalf("batches of %d: %d rows of %v, want %d of %v", batch, got.NumRows(), got.Schema(), want.NumRows(), want.Schema())
				}
				for c := 0; c < int(want.NumCols()); c++ {
					g, w := got.Column(c), want.Column(c)
					if !arrow.TypeEqual(g.DataType(), w.DataType()) || !array.Equal(g, w) {
						got.Release()
						t.Fatalf("batches of %d: column %s differs from the filtered whole read (%v, want %v)", batch, want.Schema().Field(c).Name, g.DataType(), w.DataType())
					}
				}
				got.Release()
			}
		})
	}
}

// readOneBatch reads f in one batch.
func readOneBatch(t *testing.T, f *File, opts BatchOptions) arrow.RecordBatch {
	t.Helper()
	br, err := f.NewBatchReader(f.Schema(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	rec, err := br.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := br.Next(context.Background()); !errors.Is(err, io.EOF) {
		rec.Release()
		t.Fatalf("a second batch: %v", err)
	}
	return rec
}

// readSkipConcat reads f with opts and returns its batches concatenated.
func readSkipConcat(t *testing.T, f *File, opts BatchOptions, mem memory.Allocator) arrow.RecordBatch {
	t.Helper()
	br, err := f.NewBatchReader(f.Schema(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	var recs []arrow.RecordBatch
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	for {
		rec, err := br.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	if len(recs) == 0 {
		t.Fatal("no batch")
	}
	cols := make([]arrow.Array, recs[0].NumCols())
	var rows int64
	for _, r := range recs {
		rows += r.NumRows()
	}
	for c := range cols {
		parts := make([]arrow.Array, len(recs))
		for i, r := range recs {
			parts[i] = r.Column(c)
		}
		a, err := array.Concatenate(parts, mem)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Release()
		cols[c] = a
	}
	return array.NewRecordBatch(recs[0].Schema(), cols, rows)
}
