package parallel

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestForEachReturnsTheCause: when call 5 fails, calls 0..4 still in
// flight see the cancellation it caused; forEach must return call 5's
// error, not a sibling's context.Canceled (which would read as the
// caller's cancel).
func TestForEachReturnsTheCause(t *testing.T) {
	errBoom := errors.New("access denied")
	for range 20 {
		err := ForEach(context.Background(), 8, 8, func(ctx context.Context, i int) error {
			if i == 5 {
				return errBoom
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Second):
				return nil
			}
		})
		if !errors.Is(err, errBoom) {
			t.Fatalf("err %v, want %v", err, errBoom)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := ForEach(ctx, 3, 2, func(ctx context.Context, i int) error { return ctx.Err() }); !errors.Is(err, context.Canceled) {
		t.Errorf("caller's cancel: err %v", err)
	}
}
