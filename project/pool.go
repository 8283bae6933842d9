package project

import (
	"reflect"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// poolPerSize is how many freed values buffers of one size a plan keeps for
// reuse: enough for the batches a reader has in flight.
const poolPerSize = 4

// bufferPool is the allocator the promotion loops (int→long, float→double,
// date→timestamp) write their values into. It hands out buffers of the
// caller's allocator and takes them back when the caller releases the
// batch, so that a file read batch after batch reuses a few buffers instead
// of allocating (and zeroing, and collecting) a new one per batch. Every
// buffer comes from, and eventually returns to, mem.
type bufferPool struct {
	mem    memory.Allocator
	mu     sync.Mutex
	free   map[int][][]byte
	closed bool
}

// Allocate implements memory.Allocator: a freed buffer of the same size, or
// a new one from the underlying allocator. A reused buffer is not zeroed;
// the loops overwrite every value.
func (p *bufferPool) Allocate(size int) []byte {
	p.mu.Lock()
	if l := p.free[size]; len(l) > 0 {
		b := l[len(l)-1]
		p.free[size] = l[:len(l)-1]
		p.mu.Unlock()
		return b
	}
	p.mu.Unlock()
	return p.mem.Allocate(size)
}

// Reallocate implements memory.Allocator.
func (p *bufferPool) Reallocate(size int, b []byte) []byte { return p.mem.Reallocate(size, b) }

// Free implements memory.Allocator: keeps the buffer for reuse, or gives it
// back to the underlying allocator when the pool is full or closed.
func (p *bufferPool) Free(b []byte) {
	p.mu.Lock()
	if !p.closed && len(p.free[len(b)]) < poolPerSize {
		if p.free == nil {
			p.free = make(map[int][][]byte)
		}
		p.free[len(b)] = append(p.free[len(b)], b)
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	p.mem.Free(b)
}

// close gives every kept buffer back; buffers still in use go back when
// their batches are released.
func (p *bufferPool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for _, l := range p.free {
		for _, b := range l {
			p.mem.Free(b)
		}
	}
	p.free = nil
}

// pools holds one bufferPool per caller allocator.
type pools struct {
	mu sync.Mutex
	m  map[memory.Allocator]*bufferPool
}

// get returns the pool over mem, or mem itself when mem cannot key a map
// (an allocator that is not a pointer).
func (ps *pools) get(mem memory.Allocator) memory.Allocator {
	if reflect.TypeOf(mem).Kind() != reflect.Pointer {
		return mem
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if bp := ps.m[mem]; bp != nil {
		return bp
	}
	if ps.m == nil {
		ps.m = make(map[memory.Allocator]*bufferPool)
	}
	bp := &bufferPool{mem: mem}
	ps.m[mem] = bp
	return bp
}

func (ps *pools) close() {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	for _, bp := range ps.m {
		bp.close()
	}
	ps.m = nil
}
