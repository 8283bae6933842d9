package avro_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/lakecat/lakecat/formats/avro"
	"github.com/lakecat/lakecat/internal/hostile"
	"github.com/lakecat/lakecat/internal/testutil"
)

// TestHostileAvro reads containers whose block sizes, record counts or
// array counts claim 2^40, or whose blocks expand past the block cap: each
// fails with [avro.ErrCorrupt] within testutil.HeapBound of Go heap.
func TestHostileAvro(t *testing.T) {
	cases := []struct {
		name string
		make func() []byte
	}{
		{"block-size", hostile.AvroHugeBlockSize},
		{"block-count", hostile.AvroHugeBlockCount},
		{"array-count", hostile.AvroHugeArrayCount},
		{"deflate-bomb", func() []byte { return hostile.AvroBomb("deflate") }},
		{"zstandard-bomb", func() []byte { return hostile.AvroBomb("zstandard") }},
		{"snappy-claim", hostile.AvroSnappyClaim},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := c.make()
			var err error
			peak := testutil.PeakHeap(func() {
				var f *avro.File
				f, err = avro.Open(bytes.NewReader(data), int64(len(data)), avro.WithName("hostile.avro"))
				if err == nil {
					_, err = readErr(f)
				}
			})
			t.Logf("%d bytes: peak heap %d KiB: %v", len(data), peak>>10, err)
			if !errors.Is(err, avro.ErrCorrupt) {
				t.Errorf("error %v, want one matching avro.ErrCorrupt", err)
			}
			if peak > testutil.HeapBound {
				t.Errorf("peak heap %d bytes, above %d", peak, testutil.HeapBound)
			}
		})
	}
}
