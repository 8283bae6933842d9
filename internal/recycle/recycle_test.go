package recycle

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestPoolReusesAndReturns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	p := New(mem, 2)
	a := p.Allocate(10000)
	if len(a) != 10000 {
		t.Fatalf("len %d, want 10000", len(a))
	}
	a[0] = 7
	p.Free(a)
	if got := mem.CurrentAlloc(); got != 10000 {
		t.Fatalf("kept %d bytes, want 10000", got)
	}
	// A smaller request within half the size reuses the buffer.
	b := p.Allocate(6000)
	if len(b) != 6000 || cap(b) != 10000 || &b[0] != &a[0] {
		t.Fatalf("len %d cap %d reused %v, want 6000 10000 true", len(b), cap(b), &b[0] == &a[0])
	}
	// Growing within the capacity keeps the buffer.
	b = p.Reallocate(9000, b)
	if len(b) != 9000 || &b[0] != &a[0] {
		t.Fatalf("reallocate moved the buffer")
	}
	// A request more than twice smaller allocates anew.
	c := p.Allocate(4096)
	if cap(c) != 4096 {
		t.Fatalf("cap %d, want 4096", cap(c))
	}
	p.Free(b)
	p.Free(c)
	small := p.Allocate(100)
	p.Free(small)
	if got := mem.CurrentAlloc(); got != 14096 {
		t.Fatalf("kept %d bytes, want 14096", got)
	}
	// Kept buffers go back on close; a buffer freed after close too.
	d := p.Allocate(20000)
	p.Close()
	if got := mem.CurrentAlloc(); got != 20000 {
		t.Fatalf("%d bytes after close, want 20000", got)
	}
	p.Free(d)
}
