package main

import (
	"math/bits"
	"sync"
)

// poolAllocator is a memory.Allocator that recycles freed buffers by
// power-of-two size class instead of asking the Go runtime for fresh,
// zeroed memory. It is an experiment (LAKEBENCH_ALLOC=pool) that measures
// how much of a read is spent allocating and clearing Arrow buffers; the
// named variants always run with memory.DefaultAllocator unless it is set.
// Recycled buffers are cleared, as arrow-go's allocators (Go and calloc
// based) zero memory and arrow-go relies on it (array.MakeArrayOfNull leaves
// its validity bitmap as allocated). With poison set, freed buffers are
// filled with 0xA5 so that a buffer used after its release shows up in
// tests.
type poolAllocator struct {
	mu     sync.Mutex
	free   [64][][]byte
	poison bool
}

const minClass = 6 // 64 bytes

func sizeClass(n int) int {
	if n <= 1<<minClass {
		return minClass
	}
	return bits.Len(uint(n - 1))
}

// Allocate returns size bytes of a recycled or new buffer of the size's
// class.
func (p *poolAllocator) Allocate(size int) []byte {
	c := sizeClass(size)
	p.mu.Lock()
	if n := len(p.free[c]); n > 0 {
		b := p.free[c][n-1]
		p.free[c] = p.free[c][:n-1]
		p.mu.Unlock()
		b = b[:size]
		clear(b)
		return b
	}
	p.mu.Unlock()
	return make([]byte, size, 1<<c)
}

// Reallocate grows or shrinks b to size bytes, keeping its contents.
func (p *poolAllocator) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		return b[:size]
	}
	nb := p.Allocate(size)
	copy(nb, b)
	p.Free(b)
	return nb
}

// Free returns b to its size class.
func (p *poolAllocator) Free(b []byte) {
	c := cap(b)
	if c < 1<<minClass || c&(c-1) != 0 {
		return // not one of ours
	}
	b = b[:c]
	if p.poison {
		for i := range b {
			b[i] = 0xA5
		}
	}
	p.mu.Lock()
	p.free[bits.Len(uint(c))-1] = append(p.free[bits.Len(uint(c))-1], b)
	p.mu.Unlock()
}
