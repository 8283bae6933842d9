package parallel

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

func TestForEach(t *testing.T) {
	before := runtime.NumGoroutine()
	var done atomic.Int64
	if err := ForEach(context.Background(), 100, 4, func(context.Context, int) error { done.Add(1); return nil }); err != nil || done.Load() != 100 {
		t.Errorf("all: %v, %d calls", err, done.Load())
	}
	// The error of the lowest failing index wins, whatever finishes first.
	err := ForEach(context.Background(), 50, 8, func(_ context.Context, i int) error {
		if i == 3 {
			time.Sleep(10 * time.Millisecond)
			return fmt.Errorf("fail %d", i)
		}
		if i == 5 {
			return fmt.Errorf("fail %d", i)
		}
		return nil
	})
	if err == nil || err.Error() != "fail 3" {
		t.Errorf("err = %v, want fail 3", err)
	}
	// A cancelled context stops the work and is reported.
	ctx, cancel := context.WithCancel(context.Background())
	err = ForEach(ctx, 1000, 2, func(ctx context.Context, i int) error {
		if i == 10 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
	time.Sleep(10 * time.Millisecond)
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("%d goroutines before, %d after", before, after)
	}
}
