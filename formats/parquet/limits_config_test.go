package parquet

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestLimits: a file whose footer or column chunks are above the
// configured limits is refused before anything is allocated from those
// sizes, with an error naming the size and the limit; the defaults read it.
func TestLimits(t *testing.T) {
	b := smallFile(t)
	footer := int64(binary.LittleEndian.Uint32(b[len(b)-8:]))
	if _, err := Open(bytes.NewReader(b), int64(len(b)), WithLimits(Limits{FooterBytes: footer})); err != nil {
		t.Fatalf("footer at the limit: %v", err)
	}
	_, err := Open(bytes.NewReader(b), int64(len(b)), WithName("f.parquet"), WithLimits(Limits{FooterBytes: footer - 1}))
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.Section != "footer" || ce.Offset != int64(len(b))-8 {
		t.Fatalf("footer above the limit: %v", err)
	}
	if want := "footer length " + strconv.FormatInt(footer, 10) + " above the limit of " + strconv.FormatInt(footer-1, 10) + " bytes"; ce.Err.Error() != want {
		t.Errorf("error %q, want %q", ce.Err, want)
	}

	f, err := Open(bytes.NewReader(b), int64(len(b)), WithLimits(Limits{ColumnChunkBytes: 8}))
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	br, err := f.NewBatchReader(f.Schema(), BatchOptions{Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	_, err = br.Next(context.Background())
	if !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrCorrupt) {
		t.Fatalf("chunk above the limit: %v", err)
	}
	if DefaultLimits.FooterBytes != 256<<20 || DefaultLimits.ColumnChunkBytes != 1<<30 {
		t.Errorf("defaults %+v", DefaultLimits)
	}
}
