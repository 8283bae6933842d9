package reader_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
)

// TestScanCanceledNeverComplete cancels scans of the bundled table (three
// files, one row per batch) after each number of batches: every scan ends
// with context.Canceled unless all six rows came. Before the fix, a scan
// whose workers stopped on the cancel could count their files as read and
// end with fewer rows and no error (found by TestConcurrentScans under
// -race).
func TestScanCanceledNeverComplete(t *testing.T) {
	dir := bundledOrders(t)
	mem := testutil.CheckedAllocator(t)
	for after := 1; after <= 6; after++ {
		for range 20 {
			ctx, cancel := context.WithCancel(context.Background())
			tbl, err := reader.OpenTable(ctx, dir, reader.TableOptions{Allocator: mem, BatchRows: 1, Workers: 3})
			if err != nil {
				t.Fatal(err)
			}
			rr, err := tbl.Scan(ctx)
			if err != nil {
				t.Fatal(err)
			}
			rows := 0
			for rr.Next() {
				rows += int(rr.RecordBatch().NumRows())
				if rows == after {
					cancel()
					// Let the workers see the cancel and close their
					// queues before the next Next.
					time.Sleep(2 * time.Millisecond)
				}
			}
			err = rr.Err()
			ctxErr := ctx.Err()
			rr.Release()
			cancel()
			if !(errors.Is(err, context.Canceled) || (err == nil && rows == 6)) {
				t.Fatalf("canceled after %d rows: %d rows, err %v (ctx %v)", after, rows, err, ctxErr)
			}
		}
	}
}
