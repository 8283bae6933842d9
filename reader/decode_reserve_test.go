package reader

import (
	"bytes"
	"context"
	"fmt"
	"runtime/debug"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/parquet-go/parquet-go"

	lparquet "github.com/lakecat/lakecat/formats/parquet"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/schema"
)

// genWideFiles writes n Parquet files of one row group of rows rows each
// (file, row, a distinct 40-byte pad), uncompressed and without
// dictionaries: about 56 bytes a row of decode state.
func genWideFiles(t testing.TB, n, rows int) [][]byte {
	t.Helper()
	files := make([][]byte, n)
	for i := range files {
		var buf bytes.Buffer
		w := pq.NewGenericWriter[scanRow](&buf, pq.MaxRowsPerRowGroup(int64(rows)))
		rs := make([]scanRow, rows)
		for r := range rs {
			p := fmt.Sprintf("%08d-%031d", i, r*7919)
			rs[r] = scanRow{File: int32(i), Row: int64(r), Pad: &p}
		}
		if _, err := w.Write(rs); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		files[i] = buf.Bytes()
	}
	return files
}

// wantDecodeBytes is [lparquet.File.DecodeBytes] of b's first row group
// over the leaf columns cols (file order), computed from parquet-go's
// reading of the footer: b has no dictionary pages.
func wantDecodeBytes(t *testing.T, b []byte, batchRows int64, cols ...int) int64 {
	t.Helper()
	f, err := pq.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, c := range cols {
		md := f.Metadata().RowGroups[0].Columns[c].MetaData
		if md.DictionaryPageOffset != 0 {
			t.Fatalf("column %d has a dictionary page", c)
		}
		cu := md.TotalCompressedSize + md.TotalUncompressedSize
		n += min(cu, lparquet.DecodePageBytes) + md.TotalUncompressedSize/md.NumValues*min(batchRows, md.NumValues)*3
	}
	return n
}

// TestDecodeBytes: a Parquet file's decode estimate counts, per projected
// column, a page (capped at DecodePageBytes) and three batches of values.
func TestDecodeBytes(t *testing.T) {
	b := genWideFiles(t, 1, 100_000)[0]
	f, err := lparquet.Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.DecodeBytes(nil, 0, 0, 8192)
	if want := wantDecodeBytes(t, b, 8192, 0, 1, 2); err != nil || got != want {
		t.Fatalf("DecodeBytes(all) = %d, %v; want %d", got, err, want)
	}
	proj := schema.New(0, f.Schema().FindByID(2))
	if got, err := f.DecodeBytes(proj, 0, 1, 100); err != nil || got != wantDecodeBytes(t, b, 100, 1) {
		t.Errorf("DecodeBytes(row) = %d, %v; want %d", got, err, wantDecodeBytes(t, b, 100, 1))
	}
	if _, err := f.DecodeBytes(nil, 1, 1, 0); err == nil {
		t.Error("DecodeBytes of row group 1 of 1: no error")
	}
}

// TestScanReservesDecodeState (issue 19 item 6): each worker reserves its
// file's decode state from the budget before decoding, so with a budget
// of one and a half files' decode state, one worker decodes the file at
// the head and at most one other decodes ahead, whatever the number of
// workers; every row still arrives in order, and the bytes held (batches
// waiting plus reservations) stay within the budget plus the head's
// reservation plus one batch.
func TestScanReservesDecodeState(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const nFiles, rows, batchRows = 8, 150_000, 8192
	files := genWideFiles(t, nFiles, rows)
	est := wantDecodeBytes(t, files[0], batchRows, 0, 1, 2)
	limit := est * 3 / 2
	for _, workers := range []int{1, 2, 8} {
		b := newBudget(limit)
		rr, err := scanFiles(context.Background(), memTasks(files, mem, batchRows, nil, -1), ScanOptions{Workers: workers, MemoryBytes: limit}, b, nil)
		if err != nil {
			t.Fatal(err)
		}
		var maxBatch int64
		var got int64
		last := int64(-1)
		for rr.Next() {
			rec := rr.RecordBatch()
			maxBatch = max(maxBatch, recordBytes(rec))
			fc := rec.Column(1).(*array.Int64)
			for r := range int(rec.NumRows()) {
				if f := fc.Value(r); f != last {
					if f != last+1 {
						t.Fatalf("workers %d: file %d after %d", workers, f, last)
					}
					last = f
				}
			}
			got += rec.NumRows()
		}
		if err := rr.Err(); err != nil {
			t.Fatal(err)
		}
		rr.Release()
		if got != nFiles*rows || last != nFiles-1 {
			t.Errorf("workers %d: %d rows through file %d, want %d through %d", workers, got, last, nFiles*rows, nFiles-1)
		}
		if want := min(workers, 2) * int(est); workers == 1 && b.peakReserved != est || b.peakReserved > int64(want) {
			t.Errorf("workers %d: peak reserved %d, want at most %d (file's decode state %d)", workers, b.peakReserved, want, est)
		}
		if p := b.peakBytes(); p > limit+est+maxBatch {
			t.Errorf("workers %d: peak held %d > budget %d + reservation %d + batch %d", workers, p, limit, est, maxBatch)
		}
		if b.used != 0 || b.reserved != 0 {
			t.Errorf("workers %d: %d bytes (%d reserved) still held after Release", workers, b.used, b.reserved)
		}
	}
}

// TestScanDecodeHeapBound (issue 19 item 6): the Go heap (runtime
// metrics) of a scan of eight files with eight workers and a 16 MiB budget
// stays under 40 MiB: the budget, the head's decode state (about 15 MB
// estimated here) and one batch. The workers past the ones that fit wait
// for their reservation instead of holding eight decode states at once
// (without the reservation the same scan peaked at 53 to 75 MiB).
func TestScanDecodeHeapBound(t *testing.T) {
	files := genWideFiles(t, 8, 150_000)
	const limit, bound = 16 << 20, 40 << 20
	// A collection each time the heap grows by a tenth keeps the garbage
	// of earlier batches from hiding what the scan holds.
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	var rows int64
	var serr error
	peak := testutil.PeakHeap(func() {
		rr, err := ScanFiles(context.Background(), memTasks(files, memory.DefaultAllocator, 0, nil, -1), ScanOptions{Workers: 8, MemoryBytes: limit})
		if err != nil {
			serr = err
			return
		}
		defer rr.Release()
		for rr.Next() {
			rows += rr.RecordBatch().NumRows()
		}
		serr = rr.Err()
	})
	if serr != nil || rows != 8*150_000 {
		t.Fatalf("%d rows, %v", rows, serr)
	}
	t.Logf("peak Go heap %d MiB", peak>>20)
	if peak > bound {
		t.Errorf("peak Go heap %d bytes, want at most %d", peak, bound)
	}
}
