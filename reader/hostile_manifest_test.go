package reader_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/internal/hostile"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/table/paimon"
)

// TestHostileManifests opens generated Iceberg and Paimon tables whose
// manifest lists or manifests are replaced by hostile Avro containers (a
// block size of 2^40, a block count of 2^40, an array block count of 2^40
// inside a record, deflate and zstandard bombs) through reader.OpenTable:
// hamba/avro decodes manifests, and before it sees the bytes
// formats/avro.CheckContainer bounds the container and hamba's array cap
// bounds the items, so each is a corrupt-input error (class ErrCorrupt)
// within testutil.HeapBound of Go heap, not a fatal out-of-memory error.
func TestHostileManifests(t *testing.T) {
	inputs := []struct {
		name string
		make func() []byte
	}{
		{"block-size", hostile.AvroHugeBlockSize},
		{"block-count", hostile.AvroHugeBlockCount},
		{"array-count", hostile.AvroHugeArrayCount},
		{"deflate-bomb", func() []byte { return hostile.AvroBomb("deflate") }},
		{"zstandard-bomb", func() []byte { return hostile.AvroBomb("zstandard") }},
	}
	root := testutil.RepoRoot(t)
	tables := []struct {
		name, src string
		// replaced reports whether the file at rel is swapped for the
		// hostile container.
		replaced func(rel string) bool
	}{
		{"iceberg-manifest-list", "orders", func(rel string) bool { return strings.HasPrefix(rel, "metadata/snap-") }},
		{"iceberg-manifest", "orders", func(rel string) bool { return strings.HasPrefix(rel, "metadata/orders-m") }},
		{"paimon-manifest", "paimon_orders", func(rel string) bool { return strings.HasPrefix(rel, "manifest/") }},
	}
	for _, tb := range tables {
		for _, in := range inputs {
			t.Run(tb.name+"/"+in.name, func(t *testing.T) {
				dir := filepath.Join(t.TempDir(), tb.src)
				copyFolder(t, filepath.Join(root, "testdata", tb.src), dir)
				data := in.make()
				n := 0
				err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
					if err != nil || info.IsDir() {
						return err
					}
					rel, _ := filepath.Rel(dir, p)
					if !tb.replaced(filepath.ToSlash(rel)) {
						return nil
					}
					n++
					return os.WriteFile(p, data, 0o644)
				})
				if err != nil || n == 0 {
					t.Fatalf("replacing files: %d, %v", n, err)
				}
				data = nil
				var oerr error
				peak := testutil.PeakHeap(func() {
					var o reader.TableOptions
					if strings.HasPrefix(tb.name, "paimon") {
						o.FormatOptions = paimon.Options{Raw: true}
					}
					oerr = readErr(t, dir, o)
				})
				t.Logf("peak heap %d KiB: %v", peak>>10, oerr)
				if !errors.Is(oerr, lakecat.ErrCorrupt) {
					t.Errorf("error %v, want class ErrCorrupt", oerr)
				}
				if peak > testutil.HeapBound {
					t.Errorf("peak heap %d bytes, above %d", peak, testutil.HeapBound)
				}
			})
		}
	}
}

// TestHostileHudiTimeline: a Hudi table (hudi-rs's v8_nonpartitioned,
// whose completed commits are Avro containers) whose commit files are
// replaced by the hostile containers of TestHostileManifests is a corrupt
// timeline (class ErrCorrupt) within testutil.HeapBound through
// reader.OpenTable.
func TestHostileHudiTimeline(t *testing.T) {
	inputs := map[string][]byte{
		"block-size":     hostile.AvroHugeBlockSize(),
		"block-count":    hostile.AvroHugeBlockCount(),
		"array-count":    hostile.AvroHugeArrayCount(),
		"deflate-bomb":   hostile.AvroBomb("deflate"),
		"zstandard-bomb": hostile.AvroBomb("zstandard"),
	}
	for name, data := range inputs {
		t.Run(name, func(t *testing.T) {
			dir := unzipHudi(t, "cow/v8_nonpartitioned.zip", "v8_nonpartitioned")
			commits, _ := filepath.Glob(filepath.Join(dir, ".hoodie", "timeline", "*.commit"))
			if len(commits) == 0 {
				commits, _ = filepath.Glob(filepath.Join(dir, ".hoodie", "*.commit"))
			}
			if len(commits) == 0 {
				t.Fatal("no commit files")
			}
			for _, c := range commits {
				if err := os.WriteFile(c, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var oerr error
			peak := testutil.PeakHeap(func() { oerr = readErr(t, dir, reader.TableOptions{}) })
			t.Logf("peak heap %d KiB: %v", peak>>10, oerr)
			if !errors.Is(oerr, lakecat.ErrCorrupt) {
				t.Errorf("error %v, want class ErrCorrupt", oerr)
			}
			if peak > testutil.HeapBound {
				t.Errorf("peak heap %d bytes, above %d", peak, testutil.HeapBound)
			}
		})
	}
}
