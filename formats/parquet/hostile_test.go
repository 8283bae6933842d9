package parquet

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/parquet-go/parquet-go/format"

	"github.com/lakecat/lakecat/internal/hostile"
	"github.com/lakecat/lakecat/internal/testutil"
)

// readFirst opens data and reads up to two batches of every column.
func readFirst(t *testing.T, data []byte) error {
	mem := newMem(t)
	f, err := Open(bytes.NewReader(data), int64(len(data)), WithName("hostile.parquet"))
	if err != nil {
		return err
	}
	br, err := f.NewBatchReader(f.Schema(), BatchOptions{Allocator: mem})
	if err != nil {
		return err
	}
	defer br.Close()
	for range 2 {
		rec, err := br.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		rec.Release()
	}
	return nil
}

// TestHostileParquet reads files made to crash or exhaust a reader: each
// must fail with a classified error, within testutil.HeapBound of Go heap.
// Before the thrift pre-check the first four were fatal errors (out of
// memory in reflect.MakeSlice, stack overflow in the recursive skip) and the
// bombs took gigabytes.
func TestHostileParquet(t *testing.T) {
	cases := []struct {
		name string
		make func() []byte
		want error
	}{
		{"footer-huge-list", hostile.ParquetHugeSchemaList, ErrCorrupt},
		{"footer-deep-nesting", func() []byte { return hostile.ParquetDeepFooter(4 << 20) }, ErrCorrupt},
		{"page-header-deep-nesting", func() []byte { return hostile.ParquetDeepPageHeader(4 << 20) }, ErrCorrupt},
		{"page-header-huge-list", hostile.ParquetHugeListPageHeader, ErrCorrupt},
		{"levels-bomb", hostile.ParquetLevelsBomb, ErrUnsupported},
		{"gzip-bomb", func() []byte { return hostile.ParquetBomb(format.Gzip, false) }, ErrCorrupt},
		{"zstd-bomb", func() []byte { return hostile.ParquetBomb(format.Zstd, true) }, ErrCorrupt},
		{"zstd-bomb-no-frame-size", func() []byte { return hostile.ParquetBomb(format.Zstd, false) }, ErrCorrupt},
		{"brotli-bomb", func() []byte { return hostile.ParquetBomb(format.Brotli, false) }, ErrCorrupt},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := c.make()
			var err error
			peak := testutil.PeakHeap(func() { err = readFirst(t, data) })
			t.Logf("%d bytes: peak heap %d KiB: %v", len(data), peak>>10, err)
			if !errors.Is(err, c.want) {
				t.Errorf("error %v, want one matching %v", err, c.want)
			}
			if peak > testutil.HeapBound {
				t.Errorf("peak heap %d bytes, above %d", peak, testutil.HeapBound)
			}
		})
	}
}

// TestHostilePageWithinBounds checks that the bounded checks pass honest
// pages: the same single-value file, uncompressed, reads its one row.
func TestHostilePageWithinBounds(t *testing.T) {
	data := hostile.ParquetPage(hostile.Page{Codec: format.Uncompressed, NumValues: 1, UncompressedSize: 14,
		Payload: []byte{2, 0, 0, 0, 2, 1, 7, 0, 0, 0, 0, 0, 0, 0}})
	if err := readFirst(t, data); err != nil {
		t.Fatal(err)
	}
}
