package parquet

import (
	"bytes"
	"testing"
	"time"

	"github.com/lakecat/lakecat/internal/hostile"
	"github.com/lakecat/lakecat/schema"
)

// TestWideSchema opens a file of 100,000 columns and selects all of them,
// then the last one alone: selection indexes the columns by name once (it
// scanned them per column, 160 s for this file).
func TestWideSchema(t *testing.T) {
	const n = 100_000
	data := hostile.ParquetWide(n)
	start := time.Now()
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(f.Schema().Fields); got != n {
		t.Fatalf("%d fields, want %d", got, n)
	}
	br, err := f.NewBatchReader(f.Schema(), BatchOptions{Allocator: newMem(t)})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(br.Schema().Fields()); got != n {
		t.Errorf("%d batch fields, want %d", got, n)
	}
	br.Close()
	last := schema.New(0, f.Schema().Fields[n-1])
	br, err = f.NewBatchReader(last, BatchOptions{Allocator: newMem(t)})
	if err != nil {
		t.Fatal(err)
	}
	if got := br.Schema().Field(0).Name; got != "c99999" {
		t.Errorf("field %q, want c99999", got)
	}
	br.Close()
	t.Logf("%d-byte footer: open and select %v", len(data), time.Since(start))
}
