// Package recycle is an Arrow allocator that reuses the buffers of released
// batches: formats/parquet's batch readers and the reader's delete filter
// build their batches with it.
package recycle

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// MinBytes is the smallest buffer (bytes) a Pool keeps for
// reuse; smaller ones are cheap to allocate.
const MinBytes = 4 << 10

// Pool is the allocator a batch reader builds its Arrow buffers with. It
// hands out buffers of the caller's allocator and takes them back when the
// caller releases a batch, so that a file read batch after batch reuses the
// buffers of the batches already released instead of allocating (and, with
// Go's allocator, zeroing and collecting) new ones for every batch. Every
// buffer comes from, and eventually returns to, the caller's allocator: the
// kept ones when the reader is closed, the others when their batches are
// released.
//
// A reused buffer is not zeroed: a user of a Pool writes every byte of a
// buffer before the batch is handed out (validity bitmaps cleared
// explicitly), so it never hands memory to code that expects zeros.
type Pool struct {
	mem    memory.Allocator
	mu     sync.Mutex
	free   [][]byte // full-length buffers (len == cap == the size allocated)
	keep   int      // most buffers kept
	closed bool
}

// New returns a Pool of buffers of mem keeping at most keep of them.
func New(mem memory.Allocator, keep int) *Pool {
	return &Pool{mem: mem, keep: keep}
}

// SetKeep sets the most buffers kept (before the pool is shared).
func (p *Pool) SetKeep(keep int) { p.keep = keep }

// Parent returns the caller's allocator the buffers come from: for a Pool
// over another Pool (the batch readers of one file's row groups share one),
// the allocator under both, which never recycles.
func (p *Pool) Parent() memory.Allocator {
	if q, ok := p.mem.(*Pool); ok {
		return q.Parent()
	}
	return p.mem
}

// Allocate implements memory.Allocator: the smallest kept buffer of at
// least size bytes (and at most twice size), or a new one. The returned
// slice has length size; its capacity is the whole buffer.
func (p *Pool) Allocate(size int) []byte {
	if size >= MinBytes {
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
	if _, ok := p.mem.(*Pool); ok {
		// A reused buffer of the parent Pool keeps its capacity, so that
		// Free hands the whole buffer back.
		return b
	}
	return b[:size:size]
}

// Reallocate implements memory.Allocator.
func (p *Pool) Reallocate(size int, b []byte) []byte {
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
func (p *Pool) Free(b []byte) {
	b = b[:cap(b)]
	if len(b) >= MinBytes {
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

// Close gives every kept buffer back; buffers still in use go back when
// their batches are released.
func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for _, b := range p.free {
		p.mem.Free(b)
	}
	p.free = nil
}
