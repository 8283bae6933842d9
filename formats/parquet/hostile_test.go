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

// FuzzFooter decodes arbitrary bytes as the thrift footer of a Parquet file
// (behind the leading magic, before its length and the trailing magic) and
// reads the file: no panic, no fatal error, only typed errors. Seeds: the
// footer of the hostile single-page file, a footer whose schema list claims
// 2^31-1 elements, and one nesting an unknown struct 100 deep.
func FuzzFooter(f *testing.F) {
	good := hostile.ParquetPage(hostile.Page{Codec: format.Uncompressed, NumValues: 1, UncompressedSize: 14,
		Payload: []byte{2, 0, 0, 0, 2, 1, 7, 0, 0, 0, 0, 0, 0, 0}})
	footer := func(b []byte) []byte {
		n := int(b[len(b)-8]) | int(b[len(b)-7])<<8 | int(b[len(b)-6])<<16
		return b[len(b)-8-n : len(b)-8]
	}
	f.Add(footer(good))
	f.Add(footer(hostile.ParquetHugeSchemaList()))
	f.Add(footer(hostile.ParquetDeepFooter(100)))
	body := good[4 : len(good)-8-len(footer(good))]
	f.Fuzz(func(t *testing.T, ft []byte) {
		b := append([]byte("PAR1"), body...)
		b = append(b, ft...)
		b = append(b, byte(len(ft)), byte(len(ft)>>8), byte(len(ft)>>16), byte(len(ft)>>24))
		b = append(b, "PAR1"...)
		mem := newMem(t)
		if err := fuzzRead(b, mem); err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
			t.Fatalf("untyped error: %v", err)
		}
	})
}

// FuzzPageHeader places arbitrary bytes where the page header and payload of
// a one-column file go (the footer stating their length) and reads it.
// Seeds: a valid page, a header with an unknown list claiming 2^31-1
// elements, one nesting an unknown struct 100 deep, and a levels bomb.
func FuzzPageHeader(f *testing.F) {
	chunk := func(b []byte) []byte {
		n := int(b[len(b)-8]) | int(b[len(b)-7])<<8 | int(b[len(b)-6])<<16
		return b[4 : len(b)-8-n]
	}
	f.Add(chunk(hostile.ParquetPage(hostile.Page{Codec: format.Uncompressed, NumValues: 1, UncompressedSize: 14,
		Payload: []byte{2, 0, 0, 0, 2, 1, 7, 0, 0, 0, 0, 0, 0, 0}})))
	f.Add(chunk(hostile.ParquetHugeListPageHeader()))
	f.Add(chunk(hostile.ParquetDeepPageHeader(100)))
	f.Add(chunk(hostile.ParquetLevelsBomb()))
	f.Fuzz(func(t *testing.T, c []byte) {
		if len(c) > 1<<20 {
			return
		}
		b := hostile.ParquetChunk(hostile.Chunk{Bytes: c, NumValues: 1})
		mem := newMem(t)
		if err := fuzzRead(b, mem); err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
			t.Fatalf("untyped error: %v", err)
		}
	})
}
