package orc

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestWideSchema opens a file of 100,000 long columns (no rows) and selects
// all of them: selection indexes the columns by name once (it scanned them
// per column, 71 s for this file).
func TestWideSchema(t *testing.T) {
	const n = 100_000
	root := fxType{kind: kStruct}
	types := []fxType{{}}
	for i := range n {
		root.sub = append(root.sub, uint32(i+1))
		root.names = append(root.names, fmt.Sprintf("c%d", i))
		types = append(types, fxType{kind: kLong, attrs: [][2]string{{attrIcebergID, fmt.Sprint(i + 1)}}})
	}
	types[0] = root
	fx := &fxFile{comp: compNone, rows: 0, types: types}
	b := fx.bytes(t)
	start := time.Now()
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(f.Schema().Fields); got != n {
		t.Fatalf("%d fields, want %d", got, n)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	br, err := f.NewBatchReader(f.Schema(), BatchOptions{Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	if got := br.Schema().Field(n - 1).Name; got != "c99999" {
		t.Errorf("last field %q, want c99999", got)
	}
	br.Close()
	t.Logf("%d-byte file: open and select %v", len(b), time.Since(start))
}
