package fuzzopen

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
)

// FuzzOpen feeds bytes to reader.Open (format detection, then the Parquet,
// ORC or Avro decoder and the projection plan in the file's own schema)
// and reads to the end: no panic, no leak, and every error of one of the
// lakecat classes. Seeds, read in place when present: the small real
// Parquet, ORC and Avro files.
func FuzzOpen(f *testing.F) {
	f.Add([]byte("PAR1"))
	f.Add([]byte("ORC"))
	for _, b := range testutil.RealSeeds(16<<10, "*.parquet", "*.orc", "*.avro") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		if err := readAll(data, mem); err != nil && lakecat.ClassOf(err) == nil {
			t.Fatalf("error of no class: %v", err)
		}
	})
}

// readAll opens b with reader.Open and reads every batch; a panic fails
// the fuzz run by itself.
func readAll(b []byte, mem memory.Allocator) error {
	rr, err := reader.Open(context.Background(), bytes.NewReader(b), int64(len(b)), reader.Options{Name: "fuzz", Allocator: mem, BatchRows: 512})
	if err != nil {
		return err
	}
	defer rr.Release()
	rows := int64(0)
	for rr.Next() {
		rows += rr.RecordBatch().NumRows()
		if rows > 1<<20 {
			return fmt.Errorf("%w: stop after %d rows", lakecat.ErrCorrupt, rows)
		}
	}
	return rr.Err()
}
