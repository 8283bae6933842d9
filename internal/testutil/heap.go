package testutil

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"time"
)

// HeapBound is the peak Go heap the hardening tests allow one hostile input
// to cause (bytes).
const HeapBound = 256 << 20

// PeakHeap runs fn and returns the largest Go heap (bytes of live and
// not-yet-swept heap objects, runtime/metrics
// /memory/classes/heap/objects:bytes) seen while it ran, sampled every
// 200 µs and once at the end, less the heap before fn started. It runs a
// collection first so that earlier garbage does not count.
func PeakHeap(fn func()) uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	base := read()
	var (
		mu   sync.Mutex
		peak = base
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				v := read()
				mu.Lock()
				peak = max(peak, v)
				mu.Unlock()
			}
		}
	}()
	fn()
	close(done)
	wg.Wait()
	peak = max(peak, read())
	if peak < base {
		return 0
	}
	return peak - base
}
