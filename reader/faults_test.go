package reader_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/internal/render"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/storage"
)

// fastRetry retries quickly, for tests.
func fastRetry(retries *atomic.Int64) storage.RetryPolicy {
	return storage.RetryPolicy{Attempts: 4, Backoff: time.Millisecond, MaxBackoff: 4 * time.Millisecond,
		OnRetry: func(op, path string, attempt int, err error) { retries.Add(1) }}
}

// scanTable opens the table at dir over fsys and reads it whole, returning
// the rows as JSON lines. A scan error is returned with the rows read
// before it.
func scanTable(ctx context.Context, dir string, fsys storage.FS, mem memory.Allocator) (string, error) {
	t, err := reader.OpenTable(ctx, dir, reader.TableOptions{FS: fsys, Allocator: mem, BatchRows: 2, Workers: 2})
	if err != nil {
		return "", err
	}
	rr, err := t.Scan(ctx)
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

func bundledOrders(t *testing.T) string {
	return filepath.Join(testutil.RepoRoot(t), "testdata", "orders")
}

// TestStorageFaultsEveryCall makes each storage call of a whole table read
// (the bundled Iceberg table: metadata, manifest list, manifests, three
// Parquet files) fail in turn. A transient failure is retried and the read
// gives exactly the rows of a clean read; a permanent one fails the read
// with that error (never fewer rows without an error); without RetryFS
// every failure fails the read.
func TestStorageFaultsEveryCall(t *testing.T) {
	dir := bundledOrders(t)
	ctx := context.Background()
	mem := testutil.CheckedAllocator(t)
	clean := &faultFS{fs: storage.OSFS{}}
	want, err := scanTable(ctx, dir, clean, mem)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(want, "\n"); n != 6 {
		t.Fatalf("clean read: %d rows", n)
	}
	total := clean.calls.Load()
	t.Logf("a clean read makes %d storage calls", total)
	var retried, failed, failedBare int
	for n := int64(1); n <= total; n++ {
		var retries atomic.Int64
		ff := &faultFS{fs: storage.OSFS{}, failAt: n, failErr: storage.ErrTransient}
		got, err := scanTable(ctx, dir, storage.RetryFS(ff, fastRetry(&retries)), mem)
		if err != nil || got != want {
			t.Errorf("transient fault at call %d (%v): err %v, rows\n%s", n, ff.log, err, got)
		}
		if ff.faults.Load() == 1 && retries.Load() == 1 {
			retried++
		}

		ff = &faultFS{fs: storage.OSFS{}, failAt: n, failErr: errPermanent}
		retries.Store(0)
		got, err = scanTable(ctx, dir, storage.RetryFS(ff, fastRetry(&retries)), mem)
		switch {
		case ff.faults.Load() == 0 && err == nil && got == want:
			// Scheduling moved the call numbers: the fault hit nothing.
		case !errors.Is(err, errPermanent):
			t.Errorf("permanent fault at call %d (%v): err %v, rows\n%s", n, ff.log, err, got)
		case retries.Load() != 0:
			t.Errorf("permanent fault at call %d retried %d times", n, retries.Load())
		default:
			failed++
		}

		ff = &faultFS{fs: storage.OSFS{}, failAt: n, failErr: storage.ErrTransient}
		if _, err := scanTable(ctx, dir, ff, mem); errors.Is(err, storage.ErrTransient) {
			failedBare++
		} else if ff.faults.Load() != 0 {
			t.Errorf("transient fault at call %d without retries: err %v", n, err)
		}
	}
	t.Logf("calls %d: transient faults retried to the clean rows %d, permanent faults failing the read %d, transient faults failing a read without RetryFS %d",
		total, retried, failed, failedBare)
	if retried < int(total)*3/4 || failed < int(total)*3/4 {
		t.Errorf("too few faults landed: %d retried, %d failed of %d calls", retried, failed, total)
	}
}

// TestStorageShortReadsAndFlakyReads: a store that returns at most 7 bytes
// per ranged read (with no error), and fails every 5th call with a
// transient error, still gives the clean rows through RetryFS; without it
// the read fails.
func TestStorageShortReadsAndFlakyReads(t *testing.T) {
	dir := bundledOrders(t)
	ctx := context.Background()
	mem := testutil.CheckedAllocator(t)
	want, err := scanTable(ctx, dir, storage.OSFS{}, mem)
	if err != nil {
		t.Fatal(err)
	}
	var retries atomic.Int64
	ff := &faultFS{fs: storage.OSFS{}, shortReads: 7, failEvery: 5, failErr: storage.ErrTransient}
	got, err := scanTable(ctx, dir, storage.RetryFS(ff, fastRetry(&retries)), mem)
	if err != nil || got != want {
		t.Fatalf("err %v, rows\n%s\nwant\n%s", err, got, want)
	}
	t.Logf("%d calls, %d faults, %d retries", ff.calls.Load(), ff.faults.Load(), retries.Load())
	if retries.Load() == 0 || retries.Load() != ff.faults.Load() {
		t.Errorf("%d faults but %d retries", ff.faults.Load(), retries.Load())
	}
	_, err = scanTable(ctx, dir, &faultFS{fs: storage.OSFS{}, shortReads: 7}, mem)
	if err == nil {
		t.Error("short reads without RetryFS: no error")
	}
}

// TestStorageRetriesBounded: a store that always fails transiently is
// tried exactly Attempts times per operation, and the error says so.
func TestStorageRetriesBounded(t *testing.T) {
	dir := bundledOrders(t)
	mem := testutil.CheckedAllocator(t)
	var retries atomic.Int64
	always := &alwaysFailFS{err: storage.ErrTransient}
	start := time.Now()
	_, err := scanTable(context.Background(), dir, storage.RetryFS(always, fastRetry(&retries)), mem)
	if !errors.Is(err, storage.ErrTransient) || !strings.Contains(err.Error(), "(4 tries)") {
		t.Errorf("err %v, want the transient error after 4 tries", err)
	}
	if always.calls.Load() != 4 || retries.Load() != 3 {
		t.Errorf("%d calls, %d retries; want 4 and 3", always.calls.Load(), retries.Load())
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestStorageDelays: slow ranged reads (20 ms each) give the clean rows;
// with a deadline shorter than the read, the scan fails with
// context.DeadlineExceeded, not with rows.
func TestStorageDelays(t *testing.T) {
	dir := bundledOrders(t)
	mem := testutil.CheckedAllocator(t)
	want, err := scanTable(context.Background(), dir, storage.OSFS{}, mem)
	if err != nil {
		t.Fatal(err)
	}
	slow := &faultFS{fs: storage.OSFS{}, readDelay: 20 * time.Millisecond}
	got, err := scanTable(context.Background(), dir, storage.RetryFS(slow, storage.RetryPolicy{}), mem)
	if err != nil || got != want {
		t.Fatalf("slow reads: err %v, rows\n%s", err, got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Millisecond)
	defer cancel()
	got, err = scanTable(ctx, dir, storage.RetryFS(slow, storage.RetryPolicy{}), mem)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("deadline: err %v, rows\n%s", err, got)
	}
	if got == want {
		t.Error("deadline: all rows and an error")
	}
}

type alwaysFailFS struct {
	err   error
	calls atomic.Int64
}

func (f *alwaysFailFS) Open(ctx context.Context, path string) (storage.File, error) {
	f.calls.Add(1)
	return nil, f.err
}

func (f *alwaysFailFS) List(ctx context.Context, dir string) ([]string, error) {
	f.calls.Add(1)
	return nil, f.err
}
