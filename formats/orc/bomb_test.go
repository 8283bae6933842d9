package orc

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/klauspost/compress/zstd"

	"github.com/lakecat/lakecat/internal/testutil"
)

// TestStreamBomb reads a small file whose one double
// column's DATA stream decompresses to 512 MiB of zeros (64 Mi rows): the
// stream is decompressed chunk by chunk as batches need it, so the peak Go
// heap stays near one batch (the whole stream was decompressed at once
// before, 7 GiB for a 99 KB file of several such streams). Every row is
// read and checked.
func TestStreamBomb(t *testing.T) {
	const rows = 64 << 20
	const block = 256 << 10
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := enc.EncodeAll(make([]byte, block), nil)
	chunk := append([]byte{byte(len(c) << 1), byte(len(c) >> 7), byte(len(c) >> 15)}, c...)
	data := bytes.Repeat(chunk, rows*8/block)
	fx := &fxFile{comp: compZstd, block: block, rows: rows,
		types:   []fxType{{kind: kStruct, sub: []uint32{1}, names: []string{"d"}}, {kind: kDouble}},
		enc:     []uint64{encDirect, encDirect},
		streams: []fxStream{{col: 1, kind: sData, data: data}}, compressed: map[int]bool{0: true}}
	b := fx.bytes(t)
	var got int64
	var sum float64
	peak := testutil.PeakHeap(func() {
		f, oerr := Open(bytes.NewReader(b), int64(len(b)))
		if oerr != nil {
			err = oerr
			return
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		br, berr := f.NewBatchReader(f.Schema(), BatchOptions{Allocator: mem})
		if berr != nil {
			err = berr
			return
		}
		defer br.Close()
		for {
			rec, nerr := br.Next(context.Background())
			if errors.Is(nerr, io.EOF) {
				return
			}
			if nerr != nil {
				err = nerr
				return
			}
			got += rec.NumRows()
			for _, v := range rec.Column(0).(*array.Float64).Float64Values() {
				sum += v
			}
			rec.Release()
		}
	})
	t.Logf("%d-byte file, %d rows: peak heap %d KiB", len(b), got, peak>>10)
	if err != nil {
		t.Fatal(err)
	}
	if got != rows || sum != 0 {
		t.Errorf("%d rows summing to %v, want %d rows of 0", got, sum, rows)
	}
	if peak > testutil.HeapBound {
		t.Errorf("peak heap %d bytes, above %d", peak, testutil.HeapBound)
	}
}
