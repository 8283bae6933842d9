package avro_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
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

// TestCheckContainer: CheckContainer refuses the framing attacks (block
// size and count of 2^40, bombs of every codec, a Snappy length claim)
// within a few MiB of heap, and passes a well-formed container of every
// codec, including one whose record's array claims 2^40 items (it does not
// decode records: hamba's own array cap catches that one).
func TestCheckContainer(t *testing.T) {
	bad := map[string][]byte{
		"block-size":     hostile.AvroHugeBlockSize(),
		"block-count":    hostile.AvroHugeBlockCount(),
		"deflate-bomb":   hostile.AvroBomb("deflate"),
		"zstandard-bomb": hostile.AvroBomb("zstandard"),
		"snappy-claim":   hostile.AvroSnappyClaim(),
		"cut":            hostile.AvroContainer("null", 1, -1, []byte{2, 4})[:200],
		"short":          []byte("Obj\x01"),
	}
	for name, data := range bad {
		var err error
		peak := testutil.PeakHeap(func() { err = avro.CheckContainer(bytes.NewReader(data), int64(len(data)), name) })
		if !errors.Is(err, avro.ErrCorrupt) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: %v, want ErrCorrupt naming the file", name, err)
		}
		if peak > 16<<20 {
			t.Errorf("%s: peak heap %d bytes, above 16 MiB", name, peak)
		}
	}
	// One record {xs: [1, 2]}: one array block of 2 items, then the end.
	rec := []byte{4, 2, 4, 0}
	good := map[string][]byte{
		"null":        hostile.AvroContainer("null", 1, -1, rec),
		"array-count": hostile.AvroHugeArrayCount(),
	}
	manifests, _ := filepath.Glob(filepath.Join(testutil.RepoRoot(t), "testdata", "orders", "metadata", "*.avro"))
	for _, m := range manifests {
		b, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		good[filepath.Base(m)] = b
	}
	if len(manifests) == 0 {
		t.Fatal("no manifests in testdata/orders")
	}
	for name, data := range good {
		if err := avro.CheckContainer(bytes.NewReader(data), int64(len(data)), name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	lzo := hostile.AvroContainer("lzo", 1, -1, rec)
	if err := avro.CheckContainer(bytes.NewReader(lzo), int64(len(lzo)), "lzo"); !errors.Is(err, avro.ErrUnsupported) {
		t.Errorf("lzo: %v, want ErrUnsupported", err)
	}
}
