package parquet

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// recycleMinBytes is the smallest buffer (bytes) a batch reader keeps for
// reuse; smaller ones are cheap to allocate.
const recycleMinBytes = 4 << 10

// recycler is the allocator a batch reader builds its Arrow buffers with. It
// hands out buffers of the caller's allocator and takes them back when the
// caller releases a batch, so that a file read batch after batch reuses the
// buffers of the batches already released instead of allocating (and, with
// Go's allocator, zeroing and collecting) new ones for every batch. Every
// buffer comes from, and eventually returns to, the caller's allocator: the
// kept ones when the reader is closed, the others when their batches are
// released.
//
// A reused buffer is not zeroed. Every byte of a buffer this package
// allocates is written before the batch is handed out (validity bitmaps
// are cleared explicitly), so it never hands memory to code that expects
// zeros.
type recycler struct {
	mem    memory.Allocator
	mu     sync.Mutex
	free   [][]byte // full-length buffers (len == cap == the size allocated)
	keep   int      // most buffers kept
	closed bool
}

func newRecycler(mem memory.Allocator, keep int) *recycler {
	return &recycler{mem: mem, keep: keep}
}

// Allocate implements memory.Allocator: the smallest kept buffer of at
// least size bytes (and at most twice size), or a new one. The returned
// slice has length size; its capacity is the whole buffer.
func (p *recycler) Allocate(size int) []byte {
	if size >= recycleMinBytes {
		p.mu.Lock()
		best := -1
		for i, b := range p.free {
			if len(b) >= size && len(b) <= 2*size && (best < 0 || len(b) < len(p.free[best])) {
				best = i
			}
		}
		if best >= 0 {
			b := p.free[best]
			last := len(p.free) - 1
			p.free[best] = p.free[last]
			p.free[last] = nil
			p.free = p.free[:last]
			p.mu.Unlock()
			return b[:size]
		}
		p.mu.Unlock()
	}
	b := p.mem.Allocate(size)
	return b[:size:size]
}

// Reallocate implements memory.Allocator.
func (p *recycler) Reallocate(size int, b []byte) []byte {
	if cap(b) >= size {
		return b[:size]
	}
	nb := p.Allocate(size)
	copy(nb, b)
	p.Free(b)
	return nb
}

// Free implements memory.Allocator: keeps the buffer for reuse, or gives it
// back to the caller's allocator when enough are kept or the reader is
// closed.
func (p *recycler) Free(b []byte) {
	b = b[:cap(b)]
	if len(b) >= recycleMinBytes {
		p.mu.Lock()
		if !p.closed && len(p.free) < p.keep {
			p.free = append(p.free, b)
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
	}
	p.mem.Free(b)
}

// close gives every kept buffer back; buffers still in use go back when
// their batches are released.
func (p *recycler) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for _, b := range p.free {
		p.mem.Free(b)
	}
	p.free = nil
}
