package reader_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
)

// TestInvertedRowGroupStats: parquet-testing's
// data_index_bloom_encoding_stats.parquet with one byte of the String
// column's min statistic flipped ("Hello" becomes "\xb7ello", the max is
// "today") has a lower bound greater than its upper bound. Such statistics
// bound nothing: the row group is read and the Hello row comes back,
// instead of the row group being skipped.
func TestInvertedRowGroupStats(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testutil.RealDir(t), "parquet-testing", "data", "data_index_bloom_encoding_stats.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	data[1313] ^= 0xff
	mem := testutil.CheckedAllocator(t)
	filter, err := expr.Parse("String = 'Hello'")
	if err != nil {
		t.Fatal(err)
	}
	var stats reader.ScanStats
	rr, err := reader.Open(context.Background(), bytes.NewReader(data), int64(len(data)), reader.Options{Filter: filter, Stats: &stats, Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	got := testutil.ReaderJSON(t, rr)
	rr.Release()
	if want := "{\"String\":\"Hello\"}\n"; got != want {
		t.Errorf("rows %q, want %q", got, want)
	}
	if c := stats.Counts(); c.RowGroupsRead != 1 || c.RowGroupsSkipped != 0 {
		t.Errorf("row groups read %d, skipped %d; want 1, 0", c.RowGroupsRead, c.RowGroupsSkipped)
	}
}
