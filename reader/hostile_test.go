package reader_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go/format"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/internal/hostile"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
)

// TestHostileOpen runs the inputs that used to kill the process or take
// gigabytes through reader.Open: each fails with an error of class
// ErrCorrupt (ErrUnsupported for the levels bomb, which could be a real
// file of 2^31-1 nulls in one page) within testutil.HeapBound of Go heap.
func TestHostileOpen(t *testing.T) {
	cases := []struct {
		name  string
		make  func() []byte
		class error
	}{
		{"parquet-footer-huge-list", hostile.ParquetHugeSchemaList, lakecat.ErrCorrupt},
		{"parquet-footer-deep-nesting", func() []byte { return hostile.ParquetDeepFooter(4 << 20) }, lakecat.ErrCorrupt},
		{"parquet-page-header-deep-nesting", func() []byte { return hostile.ParquetDeepPageHeader(4 << 20) }, lakecat.ErrCorrupt},
		{"parquet-page-header-huge-list", hostile.ParquetHugeListPageHeader, lakecat.ErrCorrupt},
		{"parquet-levels-bomb", hostile.ParquetLevelsBomb, lakecat.ErrUnsupported},
		{"parquet-gzip-bomb", func() []byte { return hostile.ParquetBomb(format.Gzip, false) }, lakecat.ErrCorrupt},
		{"parquet-zstd-bomb", func() []byte { return hostile.ParquetBomb(format.Zstd, false) }, lakecat.ErrCorrupt},
		{"parquet-brotli-bomb", func() []byte { return hostile.ParquetBomb(format.Brotli, false) }, lakecat.ErrCorrupt},
		{"avro-block-size", hostile.AvroHugeBlockSize, lakecat.ErrCorrupt},
		{"avro-block-count", hostile.AvroHugeBlockCount, lakecat.ErrCorrupt},
		{"avro-array-count", hostile.AvroHugeArrayCount, lakecat.ErrCorrupt},
		{"avro-deflate-bomb", func() []byte { return hostile.AvroBomb("deflate") }, lakecat.ErrCorrupt},
		{"avro-zstandard-bomb", func() []byte { return hostile.AvroBomb("zstandard") }, lakecat.ErrCorrupt},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := c.make()
			mem := testutil.CheckedAllocator(t)
			var err error
			peak := testutil.PeakHeap(func() {
				rr, oerr := reader.Open(context.Background(), bytes.NewReader(data), int64(len(data)), reader.Options{Name: c.name, Allocator: mem})
				if oerr != nil {
					err = oerr
					return
				}
				defer rr.Release()
				for rr.Next() {
				}
				err = rr.Err()
			})
			t.Logf("%d bytes: peak heap %d KiB: %v", len(data), peak>>10, err)
			if !errors.Is(err, c.class) {
				t.Errorf("error %v, want class %v", err, c.class)
			}
			if peak > testutil.HeapBound {
				t.Errorf("peak heap %d bytes, above %d", peak, testutil.HeapBound)
			}
		})
	}
}

// TestHostileFIFO: a FIFO named as a data file is refused at once (class
// ErrUnsupported) by reader.OpenFile instead of blocking in open(2).
func TestHostileFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo.parquet")
	if err := mkfifo(p); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, err := reader.OpenFile(context.Background(), p, reader.Options{})
	if !errors.Is(err, lakecat.ErrUnsupported) || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("OpenFile(FIFO): %v, want a not-a-regular-file error of class ErrUnsupported", err)
	}
}

// TestHostileMetadata: an Iceberg table whose current metadata file is over
// the 64 MiB cap, or a gzip-compressed one that expands past it, is refused
// without being read or decompressed whole.
func TestHostileMetadata(t *testing.T) {
	for _, gz := range []bool{false, true} {
		dir := t.TempDir()
		mdir := filepath.Join(dir, "metadata")
		if err := os.MkdirAll(mdir, 0o755); err != nil {
			t.Fatal(err)
		}
		big := bytes.Repeat([]byte(" "), 65<<20)
		copy(big, `{"format-version":2}`)
		name, data := "v1.metadata.json", big
		if gz {
			var buf bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
			zw.Write(big)
			zw.Close()
			name, data = "v1.gz.metadata.json", buf.Bytes()
		}
		if err := os.WriteFile(filepath.Join(mdir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		big = nil
		var err error
		peak := testutil.PeakHeap(func() { _, err = reader.OpenTable(context.Background(), dir, reader.TableOptions{}) })
		t.Logf("%s (%d bytes): peak heap %d KiB: %v", name, len(data), peak>>10, err)
		if err == nil || !strings.Contains(err.Error(), "cap") {
			t.Errorf("%s: %v, want an over-the-cap error", name, err)
		}
		if peak > testutil.HeapBound {
			t.Errorf("%s: peak heap %d bytes, above %d", name, peak, testutil.HeapBound)
		}
	}
}
