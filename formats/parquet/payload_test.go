package parquet

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestFlippedPayloadBounded flips every byte of small real LZ4_RAW and
// Snappy files in turn and reads each copy whole: a typed error or rows,
// and never more than 64 MiB of Go heap allocated by one read. Before
// checkPagePayload, one flipped byte in an LZ4_RAW page made parquet-go
// double its output buffer until the process ran out of memory (32 GiB
// asked), found by the reader's corrupt corpus.
func TestFlippedPayloadBounded(t *testing.T) {
	dir := realDir(t)
	const heapCap = 64 << 20
	for _, name := range []string{"lz4_raw_compressed.parquet", "nulls.snappy.parquet"} {
		b, err := os.ReadFile(filepath.Join(dir, "parquet-testing", "data", name))
		if err != nil {
			t.Fatal(err)
		}
		errs, oks := 0, 0
		var most uint64
		for i := 4; i < len(b)-8; i++ {
			c := append([]byte(nil), b...)
			c[i] ^= 0xff
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := fuzzRead(c, mem)
			runtime.ReadMemStats(&after)
			mem.AssertSize(t, 0)
			most = max(most, after.TotalAlloc-before.TotalAlloc)
			if d := after.TotalAlloc - before.TotalAlloc; d > heapCap {
				t.Errorf("%s, byte %d flipped: %d bytes allocated", name, i, d)
			}
			switch {
			case err == nil:
				oks++
			case errors.Is(err, ErrCorrupt) || errors.Is(err, ErrUnsupported):
				errs++
			default:
				t.Errorf("%s, byte %d flipped: untyped error %v", name, i, err)
			}
		}
		t.Logf("%s: %d copies, %d errors, %d read, most allocated by one read %d bytes", name, len(b)-12, errs, oks, most)
	}
}
