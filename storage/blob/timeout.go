package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/lakecat/lakecat"
)

// Timeouts bound each object-store request, so that a stalled connection
// fails instead of hanging a read forever. A zero field takes its default;
// a negative one turns that timeout off.
type Timeouts struct {
	// Request bounds one whole request: one ranged GET with its body, one
	// attributes (HEAD) request or one page of a listing. Default
	// [DefaultRequestTimeout].
	Request time.Duration
	// Idle bounds the wait for the next bytes of a response body (and for
	// its first bytes): a body that stops sending for this long fails the
	// read. Default [DefaultIdleTimeout].
	Idle time.Duration
}

// The default timeouts. A ranged read of a large column chunk from a slow
// link must finish within DefaultRequestTimeout (10 minutes: 1 GiB at
// under 2 MB/s); a body must not stall for DefaultIdleTimeout (30 seconds).
const (
	DefaultRequestTimeout = 10 * time.Minute
	DefaultIdleTimeout    = 30 * time.Second
)

func (t Timeouts) withDefaults() Timeouts {
	if t.Request == 0 {
		t.Request = DefaultRequestTimeout
	}
	if t.Idle == 0 {
		t.Idle = DefaultIdleTimeout
	}
	return t
}

// SetTimeouts sets the per-request timeouts for the requests f makes after
// the call (zero fields: the defaults).
func (f *FS) SetTimeouts(t Timeouts) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.timeouts = t.withDefaults()
}

func (f *FS) requestTimeouts() Timeouts {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.timeouts.withDefaults()
}

// TimeoutError is a request that ran out of time: Idle when its body stopped
// sending, else the whole request took too long. It reports Timeout() true,
// so storage.IsTransient retries it, and matches [lakecat.ErrUnavailable].
type TimeoutError struct {
	Path  string
	Op    string // "read", "attributes", "list"
	Idle  bool
	Limit time.Duration
}

func (e *TimeoutError) Error() string {
	if e.Idle {
		return fmt.Sprintf("blob: %s: %s: no data for %v (idle timeout)", e.Path, e.Op, e.Limit)
	}
	return fmt.Sprintf("blob: %s: %s: not done after %v (request timeout)", e.Path, e.Op, e.Limit)
}

// Is reports whether target is [lakecat.ErrUnavailable], the class of a
// service that kept timing out (what RetryFS returns after its last try).
func (e *TimeoutError) Is(target error) bool { return target == lakecat.ErrUnavailable }

// Timeout reports true: the error is a timeout.
func (e *TimeoutError) Timeout() bool { return true }

// Temporary reports true: a new request may succeed.
func (e *TimeoutError) Temporary() bool { return true }

// request is the context of one request under t: canceled after
// t.Request, or by idle() after t.Idle without a call to progress().
type request struct {
	ctx    context.Context
	cancel context.CancelFunc
	t      Timeouts
	timer  *time.Timer
	idled  atomic.Bool
}

func newRequest(parent context.Context, t Timeouts) *request {
	r := &request{t: t}
	if t.Request > 0 {
		r.ctx, r.cancel = context.WithTimeout(parent, t.Request)
	} else {
		r.ctx, r.cancel = context.WithCancel(parent)
	}
	if t.Idle > 0 {
		r.timer = time.AfterFunc(t.Idle, func() {
			r.idled.Store(true)
			r.cancel()
		})
	}
	return r
}

// progress restarts the idle timer.
func (r *request) progress() {
	if r.timer != nil {
		r.timer.Reset(r.t.Idle)
	}
}

func (r *request) done() {
	if r.timer != nil {
		r.timer.Stop()
	}
	r.cancel()
}

// err turns err into a *TimeoutError when one of r's timeouts, not the
// caller's context, ended the request.
func (r *request) err(parent context.Context, path, op string, err error) error {
	if err == nil || parent.Err() != nil {
		return err
	}
	switch {
	case r.idled.Load():
		return &TimeoutError{Path: path, Op: op, Idle: true, Limit: r.t.Idle}
	case errors.Is(r.ctx.Err(), context.DeadlineExceeded):
		return &TimeoutError{Path: path, Op: op, Limit: r.t.Request}
	}
	return err
}

// readFull reads len(p) bytes from body, restarting the idle timer whenever
// bytes arrive.
func (r *request) readFull(body io.Reader, p []byte) (int, error) {
	got := 0
	for got < len(p) {
		n, err := body.Read(p[got:])
		if n > 0 {
			got += n
			r.progress()
		}
		if err == io.EOF && got < len(p) {
			return got, io.ErrUnexpectedEOF
		}
		if err != nil && got < len(p) {
			return got, err
		}
	}
	return got, nil
}
