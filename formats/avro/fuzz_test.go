package avro

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/internal/testutil"
)

// FuzzOpen feeds bytes to Open as an Avro object container file and reads
// every batch of every column: no panic, no leak, only typed errors
// (ErrCorrupt or ErrUnsupported). Seeds: a minimal header, and, read in
// place when present, the small real Avro files (Iceberg manifests and
// manifest lists, Paimon manifests, Avro data files).
func FuzzOpen(f *testing.F) {
	f.Add([]byte(Magic))
	for _, b := range testutil.RealSeeds(64<<10, "*.avro", "manifest-*", "manifest-list-*") {
		if bytes.HasPrefix(b, []byte(Magic)) {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		if err := fuzzRead(data, mem); err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
			t.Fatalf("untyped error: %v", err)
		}
	})
}

func fuzzRead(data []byte, mem memory.Allocator) error {
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err
	}
	br, err := f.NewBatchReader(f.Schema(), BatchOptions{BatchRows: 16, Allocator: mem})
	if err != nil {
		return err
	}
	defer br.Close()
	for range 1000 {
		rec, err := br.Next(context.Background())
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		rec.Release()
	}
	return nil
}
