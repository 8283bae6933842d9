package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"syscall"
	"time"

	"github.com/lakecat/lakecat"
)

// ErrTransient marks a storage error that may succeed when tried again (a
// dropped connection, a throttled request, a read cut short). An [FS]
// implementation wraps it into such errors so that [RetryFS] retries them;
// [IsTransient] also recognises the usual network and HTTP forms without
// it.
var ErrTransient = lakecat.NewSentinel(lakecat.ErrUnavailable, "storage: transient error")

// RetryPolicy says how [RetryFS] retries transient errors: at most Attempts
// tries of one operation (Open, List, or one ranged read), waiting Backoff
// before the second, doubling each time up to MaxBackoff. A ranged read
// that makes progress (returns some bytes) resumes from there and does not
// use up an attempt.
type RetryPolicy struct {
	// Attempts is the most tries of one operation (0: 4; 1: no retries).
	Attempts int
	// Backoff is the wait before the first retry (0: 50 milliseconds).
	Backoff time.Duration
	// MaxBackoff caps the wait between two tries (0: 2 seconds).
	MaxBackoff time.Duration
	// Transient decides which errors are retried (nil: [IsTransient]).
	Transient func(error) bool
	// OnRetry, when set, is called before each wait with the operation
	// ("open", "list", "read"), the path, the try that failed (1 for the
	// first) and its error. It may be called from several goroutines.
	OnRetry func(op, path string, attempt int, err error)
}

// DefaultRetryPolicy is the policy of a zero [RetryPolicy]: 4 tries, waits
// of 50, 100 and 200 milliseconds.
var DefaultRetryPolicy = RetryPolicy{Attempts: 4, Backoff: 50 * time.Millisecond, MaxBackoff: 2 * time.Second}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.Attempts <= 0 {
		p.Attempts = DefaultRetryPolicy.Attempts
	}
	if p.Backoff <= 0 {
		p.Backoff = DefaultRetryPolicy.Backoff
	}
	if p.MaxBackoff <= 0 {
		p.MaxBackoff = DefaultRetryPolicy.MaxBackoff
	}
	if p.Transient == nil {
		p.Transient = IsTransient
	}
	return p
}

// IsTransient reports whether err is worth retrying: it matches
// [ErrTransient] or [io.ErrUnexpectedEOF], is a network timeout, says it is
// temporary (a Temporary() bool method), is a connection reset, refused or
// broken pipe, or carries an HTTP status (an HTTPStatusCode() int method,
// as the AWS SDK's errors have) of 429 or 5xx. A canceled or expired
// context, a missing file and a permission error never are.
func IsTransient(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
		return false
	}
	if errors.Is(err, ErrTransient) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ETIMEDOUT) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	var tmp interface{ Temporary() bool }
	if errors.As(err, &tmp) && tmp.Temporary() {
		return true
	}
	var st interface{ HTTPStatusCode() int }
	if errors.As(err, &st) {
		c := st.HTTPStatusCode()
		return c == 429 || c >= 500
	}
	return false
}

// RetryFS returns fsys with transient errors retried under p (see
// [RetryPolicy]). Ranged reads are also made whole: a read that returns
// fewer bytes than asked before the end of the file, with or without an
// error, is resumed where it stopped, so the decoders never see a short
// read. An error that is not transient, or the last try's error, is
// returned as it is, with the number of tries added when there were
// several. Waits stop early when the context of the Open that made the
// file (or of the List) is done.
//
// When fsys is a [WriteFS] the result is one too; its writes are passed
// through without retries (a retried CreateNoReplace whose first try
// succeeded unseen would report a conflict with itself).
func RetryFS(fsys FS, p RetryPolicy) FS {
	r := &retryFS{fs: fsys, p: p.withDefaults()}
	if w, ok := fsys.(WriteFS); ok {
		return &retryWriteFS{retryFS: r, w: w}
	}
	return r
}

type retryWriteFS struct {
	*retryFS
	w WriteFS
}

func (r *retryWriteFS) CreateNoReplace(ctx context.Context, path string, data []byte) error {
	return r.w.CreateNoReplace(ctx, path, data)
}

func (r *retryWriteFS) Replace(ctx context.Context, path string, data []byte) error {
	return r.w.Replace(ctx, path, data)
}

func (r *retryWriteFS) Remove(ctx context.Context, path string) error { return r.w.Remove(ctx, path) }

type retryFS struct {
	fs FS
	p  RetryPolicy
}

// wait sleeps before retry number attempt (1 for the first), or returns
// ctx's error when it is done first.
func (p *RetryPolicy) wait(ctx context.Context, attempt int) error {
	d := p.Backoff << (attempt - 1)
	if d > p.MaxBackoff || d <= 0 {
		d = p.MaxBackoff
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (p *RetryPolicy) retry(ctx context.Context, op, path string, attempt int, err error) (bool, error) {
	if !p.Transient(err) {
		return false, err
	}
	if attempt >= p.Attempts {
		return false, fmt.Errorf("%w (%d tries)", err, attempt)
	}
	if p.OnRetry != nil {
		p.OnRetry(op, path, attempt, err)
	}
	if werr := p.wait(ctx, attempt); werr != nil {
		return false, fmt.Errorf("%w (retrying after: %v)", werr, err)
	}
	return true, nil
}

// Open implements [FS].
func (r *retryFS) Open(ctx context.Context, path string) (File, error) {
	for attempt := 1; ; attempt++ {
		f, err := r.fs.Open(ctx, path)
		if err == nil {
			return &retryFile{File: f, ctx: ctx, path: path, p: &r.p}, nil
		}
		if again, err := r.p.retry(ctx, "open", path, attempt, err); !again {
			return nil, err
		}
	}
}

// List implements [FS].
func (r *retryFS) List(ctx context.Context, dir string) ([]string, error) {
	for attempt := 1; ; attempt++ {
		names, err := r.fs.List(ctx, dir)
		if err == nil {
			return names, nil
		}
		if again, err := r.p.retry(ctx, "list", dir, attempt, err); !again {
			return nil, err
		}
	}
}

type retryFile struct {
	File
	ctx  context.Context
	path string
	p    *RetryPolicy
}

// ReadAt implements io.ReaderAt: it returns len(b) bytes, or fewer with
// io.EOF at the end of the file, or an error.
func (f *retryFile) ReadAt(b []byte, off int64) (int, error) {
	got, attempt := 0, 1
	size := f.File.Size()
	for got < len(b) {
		n, err := f.File.ReadAt(b[got:], off+int64(got))
		if n < 0 || n > len(b)-got {
			return got, fmt.Errorf("storage: %s: read returned %d bytes for %d asked", f.path, n, len(b)-got)
		}
		got += n
		if got == len(b) {
			return got, nil
		}
		if err == io.EOF && off+int64(got) >= size {
			return got, io.EOF
		}
		if err == nil || err == io.EOF {
			// A short read before the end of the file.
			err = fmt.Errorf("%w: %s: read %d of %d bytes at offset %d", io.ErrUnexpectedEOF, f.path, got, len(b), off)
		}
		if n > 0 {
			attempt = 1 // progress: resume without using up a try
			continue
		}
		again, rerr := f.p.retry(f.ctx, "read", f.path, attempt, err)
		if !again {
			return got, rerr
		}
		attempt++
	}
	return got, nil
}
