// Package parallel runs the table readers' independent reads (manifests)
// concurrently, reporting the first real failure.
package parallel

import (
	"context"
	"errors"
	"sync"
)

// DefaultWorkers is how many manifests are fetched and decoded at
// once when ScanOptions.ManifestWorkers is 0: enough to hide object-store
// latency, small next to the memory a manifest takes.
const DefaultWorkers = 8

// ForEach runs fn(ctx, i) for i in [0, n) on up to workers goroutines. It
// stops handing out work after the first failure (cancelling ctx for the
// calls in flight) and returns the error of the lowest index that failed
// for a reason of its own (not the cancellation another failure caused), or
// ctx's error when ctx ends first. Every goroutine has returned when forEach
// does.
func ForEach(ctx context.Context, n, workers int, fn func(context.Context, int) error) error {
	if n == 0 {
		return ctx.Err()
	}
	workers = max(1, min(workers, n))
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := fn(ctx, i); err != nil {
					errs[i] = err
					cancel()
				}
			}
		}()
	}
feed:
	for i := 0; i < n; i++ {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	// A call that failed only because another one's failure canceled ctx
	// is not the cause: skip those (unless the caller's ctx ended).
	if parent.Err() == nil {
		for _, err := range errs {
			if err != nil && !errors.Is(err, context.Canceled) {
				return err
			}
		}
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return context.Cause(ctx) // nil unless the caller's ctx ended
}
