package orc

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestLimits: a file whose footer or streams are above the configured
// limits is refused with ErrTooLarge (and ErrCorrupt) before anything is
// allocated from those sizes; the defaults read it.
func TestLimits(t *testing.T) {
	b := nestedFixture(compZlib).bytes(t)
	if _, err := Open(bytes.NewReader(b), int64(len(b)), WithLimits(Limits{FooterBytes: 8})); !errors.Is(err, ErrTooLarge) || !errors.Is(err, ErrCorrupt) {
		t.Fatalf("footer above the limit: %v", err)
	}
	read := func(l Limits) error {
		f, err := Open(bytes.NewReader(b), int64(len(b)), WithLimits(l))
		if err != nil {
			return err
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		br, err := f.NewBatchReader(nil, BatchOptions{Allocator: mem})
		if err != nil {
			return err
		}
		defer br.Close()
		for {
			rec, err := br.Next(context.Background())
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			rec.Release()
		}
	}
	if err := read(Limits{StreamBytes: 2}); !errors.Is(err, ErrTooLarge) || !errors.Is(err, ErrCorrupt) {
		t.Fatalf("stream above the limit: %v", err)
	}
	if err := read(Limits{}); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	if DefaultLimits.FooterBytes != 256<<20 || DefaultLimits.StreamBytes != 2<<30 {
		t.Errorf("defaults %+v", DefaultLimits)
	}
}
