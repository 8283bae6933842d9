package storage_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/lakecat/lakecat/storage"
)

// memFS is a WriteFS in memory that records every ranged read.
type memFS struct {
	files map[string][]byte
	reads []string // "path off+len"
	opens int
}

type memFile struct {
	fs   *memFS
	path string
	data []byte
}

func (m *memFS) Open(_ context.Context, p string) (storage.File, error) {
	d, ok := m.files[p]
	if !ok {
		return nil, fmt.Errorf("%s: %w", p, io.ErrUnexpectedEOF)
	}
	m.opens++
	return &memFile{m, p, d}, nil
}
func (m *memFS) List(context.Context, string) ([]string, error) { return nil, nil }
func (m *memFS) CreateNoReplace(_ context.Context, p string, d []byte) error {
	m.files[p] = d
	return nil
}
func (m *memFS) Replace(_ context.Context, p string, d []byte) error { m.files[p] = d; return nil }
func (m *memFS) Remove(_ context.Context, p string) error            { delete(m.files, p); return nil }

func (f *memFile) Size() int64  { return int64(len(f.data)) }
func (f *memFile) Close() error { return nil }
func (f *memFile) ReadAt(p []byte, off int64) (int, error) {
	f.fs.reads = append(f.fs.reads, fmt.Sprintf("%s %d+%d", f.path, off, len(p)))
	if off >= int64(len(f.data)) {
		return 0, io.EOF
	}
	n := copy(p, f.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i * 7)
	}
	return b
}

// TestCoalesceFS: a small file costs one read whatever is asked of it; in a
// larger one the footer length and footer cost one read of the tail, and
// reads within the gap threshold of the last fetch cost none; a second
// Open while the first is open shares the handle; Replace makes the next
// Open see the new bytes.
func TestCoalesceFS(t *testing.T) {
	ctx := context.Background()
	mem := &memFS{files: map[string][]byte{"small": pattern(900), "big": pattern(10000)}}
	fsys := storage.CoalesceFS(mem, storage.CoalesceOptions{SmallFileBytes: 1000, GapBytes: 500, TailBytes: 200}).(storage.WriteFS)
	read := func(f storage.File, off int64, n int) []byte {
		t.Helper()
		p := make([]byte, n)
		got, err := f.ReadAt(p, off)
		if err != nil && err != io.EOF {
			t.Fatal(err)
		}
		return p[:got]
	}

	small, err := fsys.Open(ctx, "small")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range [][2]int{{892, 8}, {700, 150}, {0, 4}, {10, 100}} {
		if got, want := read(small, int64(r[0]), r[1]), mem.files["small"][r[0]:r[0]+r[1]]; !bytes.Equal(got, want) {
			t.Errorf("small %v: wrong bytes", r)
		}
	}
	// Past the end: fewer bytes and io.EOF.
	p := make([]byte, 10)
	if n, err := small.ReadAt(p, 895); n != 5 || err != io.EOF {
		t.Errorf("small read past the end: %d, %v", n, err)
	}
	small.Close()
	if want := []string{"small 0+900"}; fmt.Sprint(mem.reads) != fmt.Sprint(want) {
		t.Errorf("small file reads %v, want %v", mem.reads, want)
	}

	mem.reads = nil
	big, _ := fsys.Open(ctx, "big")
	again, _ := fsys.Open(ctx, "big") // shares the open handle
	for _, r := range [][2]int{
		{9992, 8},    // footer length: fetches the tail 9800..10000
		{9850, 142},  // footer: in the tail
		{1000, 100},  // a column chunk: fetches 1000..1600 (100 + the 500 gap)
		{1100, 200},  // the next chunk, within the gap
		{1300, 300},  // and the next
		{3000, 1000}, // a chunk far away, larger than the gap: fetches 3000..4500
		{5000, 2000}, // 4 gaps or more: read as asked, not kept
		{5000, 10},   // so this is a fetch of its own: 5000..5510
	} {
		if got, want := read(again, int64(r[0]), r[1]), mem.files["big"][r[0]:r[0]+r[1]]; !bytes.Equal(got, want) {
			t.Errorf("big %v: wrong bytes", r)
		}
	}
	if want := []string{"big 9800+200", "big 1000+600", "big 3000+1500", "big 5000+2000", "big 5000+510"}; fmt.Sprint(mem.reads) != fmt.Sprint(want) || mem.opens != 2 {
		t.Errorf("big file reads %v (%d opens), want %v (2 opens: small and big)", mem.reads, mem.opens, want)
	}
	again.Close()
	again.Close() // a second Close of one handle releases nothing more
	if got := read(big, 1000, 10); !bytes.Equal(got, mem.files["big"][1000:1010]) || len(mem.reads) != 5 {
		t.Errorf("read after the other handle's Close: reads %v", mem.reads)
	}
	big.Close()

	if err := fsys.Replace(ctx, "small", []byte("new")); err != nil {
		t.Fatal(err)
	}
	small, _ = fsys.Open(ctx, "small")
	if got := read(small, 0, 3); string(got) != "new" || small.Size() != 3 {
		t.Errorf("after Replace: %q", got)
	}
	small.Close()
}
