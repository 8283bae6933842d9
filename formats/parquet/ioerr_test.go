package parquet

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

var errStorage = errors.New("storage: connection reset")

// failingReader fails its n-th ReadAt (counting from 1) with errStorage.
type failingReader struct {
	r     io.ReaderAt
	n     int
	calls int
}

func (f *failingReader) ReadAt(b []byte, off int64) (int, error) {
	f.calls++
	if f.calls == f.n {
		return 0, errStorage
	}
	return f.r.ReadAt(b, off)
}

// TestStorageErrorsAreNotCorrupt fails each read of a whole-file decode in
// turn: the error keeps the storage error under errors.Is and is never
// ErrCorrupt (a failing store is not a corrupt file; the lakecat CLI would
// otherwise say exit 3).
func TestStorageErrorsAreNotCorrupt(t *testing.T) {
	b := fuzzSeeds(t)["dict"]
	for n := 1; n <= 64; n++ {
		fr := &failingReader{r: bytes.NewReader(b), n: n}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		err := decodeAll(fr, int64(len(b)), mem)
		mem.AssertSize(t, 0)
		if fr.calls < n {
			if err != nil {
				t.Errorf("no fault (%d reads) but %v", fr.calls, err)
			}
			if n < 4 {
				t.Errorf("a decode makes only %d reads", fr.calls)
			}
			t.Logf("each of the %d reads of a decode failed in turn", n-1)
			break
		}
		if !errors.Is(err, errStorage) || errors.Is(err, ErrCorrupt) {
			t.Errorf("read %d failed: err %v (storage error kept: %v, corrupt: %v)", n, err, errors.Is(err, errStorage), errors.Is(err, ErrCorrupt))
		}
	}
}

func decodeAll(r io.ReaderAt, size int64, mem memory.Allocator) error {
	f, err := Open(r, size)
	if err != nil {
		return err
	}
	br, err := f.NewBatchReader(f.Schema(), BatchOptions{BatchRows: 7, Allocator: mem})
	if err != nil {
		return err
	}
	defer br.Close()
	for {
		rec, err := br.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		rec.Release()
	}
}
