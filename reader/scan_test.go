package reader

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/parquet-go/parquet-go"
	"go.uber.org/goleak"

	"github.com/lakecat/lakecat/schema"
)

type scanRow struct {
	File int32   `parquet:"file,id(1)"`
	Row  int64   `parquet:"row,id(2)"`
	Pad  *string `parquet:"pad,id(3),optional"`
}

// genFiles writes n small Parquet files; file i has rowsOf(i) rows
// (file, row, pad) in row groups of 50 rows.
func genFiles(t testing.TB, n int, rowsOf func(int) int) [][]byte {
	t.Helper()
	files := make([][]byte, n)
	pad := strings.Repeat("x", 40)
	for i := range files {
		var buf bytes.Buffer
		w := parquet.NewGenericWriter[scanRow](&buf, parquet.MaxRowsPerRowGroup(50))
		rows := make([]scanRow, rowsOf(i))
		for r := range rows {
			rows[r] = scanRow{File: int32(i), Row: int64(r), Pad: &pad}
		}
		if _, err := w.Write(rows); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		files[i] = buf.Bytes()
	}
	return files
}

var scanRead = schema.New(0,
	&schema.Field{ID: 2, Name: "row", Type: schema.Long, Required: true},
	&schema.Field{ID: 1, Name: "file", Type: schema.Long, Required: true}, // int → long
	&schema.Field{ID: 3, Name: "pad", Type: schema.String},
)

// memTasks turns files into tasks reading them from memory; opened counts
// the files opened and not yet closed.
func memTasks(files [][]byte, mem memory.Allocator, batchRows int, opened *atomic.Int64, fail int) []FileTask {
	tasks := make([]FileTask, len(files))
	for i, b := range files {
		tasks[i] = FileTask{
			Name: fmt.Sprintf("f%03d.parquet", i),
			Open: func(ctx context.Context) (io.ReaderAt, int64, func() error, error) {
				if i == fail {
					return nil, 0, nil, errors.New("injected open failure")
				}
				if opened != nil {
					opened.Add(1)
				}
				return bytes.NewReader(b), int64(len(b)), func() error {
					if opened != nil {
						opened.Add(-1)
					}
					return nil
				}, nil
			},
			Options: Options{ReadSchema: scanRead, BatchRows: batchRows, Allocator: mem},
		}
	}
	return tasks
}

// drain reads rr and returns "file:row" pairs in order, checking that row
// numbers within each file are consecutive.
func drain(t *testing.T, rr array.RecordReader, slow time.Duration) (order []int64, rows int64) {
	t.Helper()
	last := int64(-1)
	for rr.Next() {
		rec := rr.RecordBatch()
		rowCol := rec.Column(0).(*array.Int64)
		fileCol := rec.Column(1).(*array.Int64)
		for r := 0; r < int(rec.NumRows()); r++ {
			f := fileCol.Value(r)
			if f != last {
				order = append(order, f)
				last = f
			}
			rows++
			_ = rowCol.Value(r)
		}
		if slow > 0 {
			time.Sleep(slow)
		}
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	return order, rows
}

// TestScanOrderAcrossWorkers: 120 small files of different sizes come out
// in task order, every row once, whatever the number of workers.
func TestScanOrderAcrossWorkers(t *testing.T) {
	rowsOf := func(i int) int { return 1 + (i*37)%230 }
	files := genFiles(t, 120, rowsOf)
	var wantRows int64
	want := make([]int64, len(files))
	for i := range files {
		want[i] = int64(i)
		wantRows += int64(rowsOf(i))
	}
	for _, workers := range []int{1, 2, 7, 32, 0} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rr, err := ScanFiles(context.Background(), memTasks(files, mem, 64, nil, -1), ScanOptions{Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			order, rows := drain(t, rr, 0)
			rr.Release()
			if fmt.Sprint(order) != fmt.Sprint(want) || rows != wantRows {
				t.Errorf("order %v (%d rows), want files 0..119 in order (%d rows)", order, rows, wantRows)
			}
		})
	}
}

// TestScanMemoryBudget: with a slow reader, the bytes of decoded batches
// waiting in the queues and of the decoders' reservations never exceed the
// budget plus one batch plus one file's reservation (the head's).
func TestScanMemoryBudget(t *testing.T) {
	files := genFiles(t, 40, func(int) int { return 400 })
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const budgetBytes = 64 << 10
	rr, err := ScanFiles(context.Background(), memTasks(files, mem, 100, nil, -1), ScanOptions{Workers: 8, MemoryBytes: budgetBytes})
	if err != nil {
		t.Fatal(err)
	}
	sr := rr.(*scanReader)
	var maxBatch int64
	for rr.Next() {
		if n := recordBytes(rr.RecordBatch()); n > maxBatch {
			maxBatch = n
		}
		time.Sleep(200 * time.Microsecond)
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	peak := sr.budget.peakBytes()
	rr.Release()
	res := sr.budget.maxReserve
	t.Logf("budget %d bytes, peak held %d bytes, largest batch %d bytes, largest reservation %d bytes", budgetBytes, peak, maxBatch, res)
	if peak > budgetBytes+maxBatch+res {
		t.Errorf("peak held %d bytes > budget %d + one batch %d + one reservation %d", peak, budgetBytes, maxBatch, res)
	}
	if peak < budgetBytes/2 {
		t.Errorf("peak %d bytes: the workers never filled the budget, the test checks nothing", peak)
	}
	if sr.budget.used != 0 {
		t.Errorf("%d bytes still counted after Release", sr.budget.used)
	}
}

// TestScanCancelMidway cancels the context in the middle of a scan (and,
// separately, releases the reader early and fails one file): no buffer
// leaks (checked allocator), every file is closed, no goroutine is left.
func TestScanCancelMidway(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	files := genFiles(t, 60, func(i int) int { return 300 })
	for _, mode := range []string{"cancel", "release", "error"} {
		t.Run(mode, func(t *testing.T) {
			before := runtime.NumGoroutine()
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			var opened atomic.Int64
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			fail := -1
			if mode == "error" {
				fail = 25
			}
			rr, err := ScanFiles(ctx, memTasks(files, mem, 50, &opened, fail), ScanOptions{Workers: 6, MemoryBytes: 32 << 10})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for rr.Next() {
				n++
				if n == 40 {
					switch mode {
					case "cancel":
						cancel()
					case "release":
						rr.Release()
					}
					if mode == "release" {
						break
					}
				}
			}
			switch mode {
			case "cancel":
				if !errors.Is(rr.Err(), context.Canceled) {
					t.Errorf("Err = %v, want context.Canceled", rr.Err())
				}
				rr.Release()
			case "error":
				if err := rr.Err(); err == nil || !strings.Contains(err.Error(), "f025.parquet: injected open failure") {
					t.Errorf("Err = %v", err)
				}
				rr.Release()
			}
			if n < 40 {
				t.Errorf("only %d batches before stopping", n)
			}
			if o := opened.Load(); o != 0 {
				t.Errorf("%d files left open", o)
			}
			mem.AssertSize(t, 0)
			deadline := time.Now().Add(2 * time.Second)
			for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if g := runtime.NumGoroutine(); g > before {
				t.Errorf("%d goroutines after the scan, %d before", g, before)
			}
		})
	}
}

// TestScanTinyBudget: a budget smaller than one batch still reads every
// file, in order.
func TestScanTinyBudget(t *testing.T) {
	files := genFiles(t, 20, func(i int) int { return 10 + i })
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rr, err := ScanFiles(context.Background(), memTasks(files, mem, 4, nil, -1), ScanOptions{Workers: 4, MemoryBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	order, rows := drain(t, rr, 0)
	rr.Release()
	if len(order) != 20 || order[19] != 19 || rows != 20*10+190 {
		t.Errorf("order %v, %d rows", order, rows)
	}
}

// TestScanQueuesByBytes: with the reader not reading at all, the worker of
// the second file decodes the whole file (8 batches) ahead of it: queues
// are bounded by bytes (DefaultQueueBytes here), not by two batches.
func TestScanQueuesByBytes(t *testing.T) {
	files := genFiles(t, 2, func(int) int { return 400 })
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rr, err := ScanFiles(context.Background(), memTasks(files, mem, 50, nil, -1), ScanOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	sr := rr.(*scanReader)
	deadline := time.Now().Add(time.Minute) // a bound on a hang, not a timing assertion
	for len(sr.results[1]) < 8 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := len(sr.results[1]); n != 8 {
		t.Errorf("second file's queue holds %d batches before the reader starts, want all 8", n)
	}
	if _, rows := drain(t, rr, 0); rows != 800 {
		t.Errorf("%d rows, want 800", rows)
	}
	rr.Release()
	for _, c := range []struct{ files, want int }{{1, 64}, {4, 64}, {1024, 64}, {4096, 16}, {1 << 20, 2}} {
		if got := queueBatches(c.files); got != c.want {
			t.Errorf("queueBatches(%d) = %d, want %d", c.files, got, c.want)
		}
	}
}
