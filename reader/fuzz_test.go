package reader_test

import (
	"context"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/internal/testutil"
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
		_, err := readAll(context.Background(), "fuzz", data, mem)
		if errors.Is(err, errPanic) {
			t.Fatal(err)
		}
		if err != nil && lakecat.ClassOf(err) == nil {
			t.Fatalf("error of no class: %v", err)
		}
	})
}
