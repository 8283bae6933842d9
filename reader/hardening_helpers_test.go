package reader_test

import (
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// peakAllocator is a checked allocator that also records the largest number
// of bytes held at once and counts the allocations that took it over
// capBytes (0: no cap). It is safe for concurrent use.
type peakAllocator struct {
	*memory.CheckedAllocator
	mu       sync.Mutex
	held     int64
	peak     int64
	capBytes int64
	refused  atomic.Int64
}

func newPeakAllocator(capBytes int64) *peakAllocator {
	return &peakAllocator{CheckedAllocator: memory.NewCheckedAllocator(memory.NewGoAllocator()), capBytes: capBytes}
}

func (a *peakAllocator) Allocate(n int) []byte {
	a.mu.Lock()
	a.held += int64(n)
	if a.held > a.peak {
		a.peak = a.held
	}
	over := a.capBytes > 0 && a.held > a.capBytes
	a.mu.Unlock()
	if over {
		a.refused.Add(1)
	}
	return a.CheckedAllocator.Allocate(n)
}

func (a *peakAllocator) Reallocate(n int, b []byte) []byte {
	a.mu.Lock()
	a.held += int64(n - len(b))
	if a.held > a.peak {
		a.peak = a.held
	}
	over := a.capBytes > 0 && a.held > a.capBytes
	a.mu.Unlock()
	if over {
		a.refused.Add(1)
	}
	return a.CheckedAllocator.Reallocate(n, b)
}

func (a *peakAllocator) Free(b []byte) {
	a.mu.Lock()
	a.held -= int64(len(b))
	a.mu.Unlock()
	a.CheckedAllocator.Free(b)
}

// Peak returns the most bytes held at once.
func (a *peakAllocator) Peak() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.peak
}

// OverCap returns how many allocations went over the cap.
func (a *peakAllocator) OverCap() int64 { return a.refused.Load() }
