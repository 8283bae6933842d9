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

// TestPoolOverPool: a Pool over another hands out the outer pool's reused
// buffers whole, gives them back whole, and names the allocator under both
// as its parent.
func TestPoolOverPool(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	outer := New(mem, 4)
	inner := New(outer, 0)
	if inner.Parent() != memory.Allocator(mem) {
		t.Fatal("the parent of a pool over a pool is not the allocator under both")
	}
	a := outer.Allocate(10000)
	outer.Free(a)
	b := inner.Allocate(6000)
	if len(b) != 6000 || cap(b) != 10000 || &b[0] != &a[0] {
		t.Fatalf("len %d cap %d reused %v, want 6000 10000 true", len(b), cap(b), &b[0] == &a[0])
	}
	inner.Free(b) // inner keeps none: back to outer, whole
	inner.Close()
	if got := mem.CurrentAlloc(); got != 10000 {
		t.Fatalf("%d bytes held, want 10000 (kept by outer)", got)
	}
	c := outer.Allocate(9000)
	if cap(c) != 10000 {
		t.Fatalf("outer handed out cap %d, want its 10000-byte buffer", cap(c))
	}
	outer.Close()
	outer.Free(c)
}
