package storage

import (
	"context"
	"fmt"
	"io"
	"sync"
)

// CoalesceOptions tune [CoalesceFS]. A zero field takes its default.
type CoalesceOptions struct {
	// SmallFileBytes: a file of at most this many bytes is read whole, with
	// one request, on its first read, and every later read of it is served
	// from memory. Default 8 MiB.
	SmallFileBytes int64
	// GapBytes is the gap threshold: a read of a larger file fetches up to
	// this many bytes past what it asks, so that the next reads of a
	// Parquet row group's column chunks, or an ORC stripe's streams, that
	// start within that gap come from the same request. Default 1 MiB.
	GapBytes int64
	// TailBytes: the first read within this many bytes of the end of a
	// larger file fetches the whole tail, so that a footer's length and
	// the footer itself (Parquet, ORC) cost one request. Default 64 KiB.
	TailBytes int64
	// Spans is how many fetched byte ranges a larger file keeps. Default 4.
	Spans int
}

// Defaults of [CoalesceOptions].
const (
	DefaultSmallFileBytes = 8 << 20
	DefaultGapBytes       = 1 << 20
	DefaultTailBytes      = 64 << 10
	DefaultSpans          = 4
)

func (o CoalesceOptions) withDefaults() CoalesceOptions {
	if o.SmallFileBytes <= 0 {
		o.SmallFileBytes = DefaultSmallFileBytes
	}
	if o.GapBytes <= 0 {
		o.GapBytes = DefaultGapBytes
	}
	if o.TailBytes <= 0 {
		o.TailBytes = DefaultTailBytes
	}
	if o.Spans <= 0 {
		o.Spans = DefaultSpans
	}
	return o
}

// CoalesceFS returns fsys with the ranged reads of each file made into few
// large requests, for object stores, where a request costs a round trip
// and often money, and a few hundred kilobytes more in one request cost
// almost nothing:
//
//   - a file of at most [CoalesceOptions.SmallFileBytes] (8 MiB) is read
//     whole by its first read;
//   - in a larger file, the first read near its end fetches the last
//     [CoalesceOptions.TailBytes] (64 KiB: footer length and footer in one
//     request), and any other read fetches [CoalesceOptions.GapBytes]
//     (1 MiB) beyond what it asks, so that reads that follow within that
//     gap (the projected column chunks of one row group) are served from
//     the same request; a read of 4 gaps or more (4 MiB) goes straight
//     through and is not kept;
//   - while a file is open, opening it again returns the same handle (one
//     size request, one set of fetched bytes), released with the last
//     Close.
//
// Fetched bytes are kept only while the file is open; a file opened after
// its last Close is read anew, so a replaced file (a version hint) is seen.
// Writes of a [WriteFS] pass through. CoalesceFS goes above [RetryFS], so
// that each request is retried on its own. It is safe for concurrent use;
// concurrent reads of one file that miss the fetched bytes fetch in
// parallel.
func CoalesceFS(fsys FS, o CoalesceOptions) FS {
	c := &coalesceFS{fs: fsys, o: o.withDefaults(), open: map[string]*coalesceFile{}}
	if w, ok := fsys.(WriteFS); ok {
		return &coalesceWriteFS{coalesceFS: c, w: w}
	}
	return c
}

type coalesceFS struct {
	fs   FS
	o    CoalesceOptions
	mu   sync.Mutex
	open map[string]*coalesceFile // path → the open handle
}

type coalesceWriteFS struct {
	*coalesceFS
	w WriteFS
}

func (c *coalesceWriteFS) CreateNoReplace(ctx context.Context, path string, data []byte) error {
	return c.w.CreateNoReplace(ctx, path, data)
}

func (c *coalesceWriteFS) Replace(ctx context.Context, path string, data []byte) error {
	c.forget(path)
	return c.w.Replace(ctx, path, data)
}

func (c *coalesceWriteFS) Remove(ctx context.Context, path string) error {
	c.forget(path)
	return c.w.Remove(ctx, path)
}

// forget makes the next Open of path open the file anew (its handles open
// now keep their bytes).
func (c *coalesceFS) forget(path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := c.open[path]; f != nil {
		f.forgotten = true
		delete(c.open, path)
	}
}

// List implements [FS].
func (c *coalesceFS) List(ctx context.Context, dir string) ([]string, error) {
	return c.fs.List(ctx, dir)
}

// Open implements [FS].
func (c *coalesceFS) Open(ctx context.Context, path string) (File, error) {
	c.mu.Lock()
	if f := c.open[path]; f != nil {
		f.refs++
		c.mu.Unlock()
		return &coalesceHandle{f: f}, nil
	}
	c.mu.Unlock()
	inner, err := c.fs.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := c.open[path]; f != nil {
		// Opened by another goroutine meanwhile: use that one.
		f.refs++
		inner.Close()
		return &coalesceHandle{f: f}, nil
	}
	f := &coalesceFile{fs: c, path: path, inner: inner, size: inner.Size(), refs: 1}
	c.open[path] = f
	return &coalesceHandle{f: f}, nil
}

// coalesceHandle is one Open of a shared coalesceFile; Close releases it
// once.
type coalesceHandle struct {
	f      *coalesceFile
	closed sync.Once
}

func (h *coalesceHandle) Size() int64                             { return h.f.size }
func (h *coalesceHandle) ReadAt(p []byte, off int64) (int, error) { return h.f.ReadAt(p, off) }
func (h *coalesceHandle) Close() error {
	var err error
	h.closed.Do(func() { err = h.f.release() })
	return err
}

type coalesceFile struct {
	fs    *coalesceFS
	path  string
	inner File
	size  int64

	mu        sync.Mutex
	refs      int    // guarded by fs.mu
	forgotten bool   // guarded by fs.mu: no longer in fs.open
	whole     []byte // the whole file, once read (small files)
	spans     []span // fetched ranges of a larger file, most recent first
}

type span struct {
	off  int64
	data []byte
}

func (f *coalesceFile) release() error {
	c := f.fs
	c.mu.Lock()
	f.refs--
	last := f.refs == 0
	if last && !f.forgotten {
		delete(c.open, f.path)
	}
	c.mu.Unlock()
	if !last {
		return nil
	}
	f.mu.Lock()
	f.whole, f.spans = nil, nil
	f.mu.Unlock()
	return f.inner.Close()
}

// ReadAt reads len(p) bytes at off, from fetched bytes when they hold them;
// fewer bytes at the end of the file return io.EOF.
func (f *coalesceFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("storage: %s: negative offset %d", f.path, off)
	}
	if off >= f.size {
		if len(p) == 0 {
			return 0, nil
		}
		return 0, io.EOF
	}
	want := p
	if rest := f.size - off; int64(len(want)) > rest {
		want = want[:rest]
	}
	if f.size <= f.fs.o.SmallFileBytes {
		data, err := f.wholeFile()
		if err != nil {
			return 0, err
		}
		n := copy(want, data[off:])
		if n < len(p) {
			return n, io.EOF
		}
		return n, nil
	}
	if f.fromSpans(want, off) {
		if len(want) < len(p) {
			return len(want), io.EOF
		}
		return len(want), nil
	}
	if int64(len(want)) >= 4*f.fs.o.GapBytes {
		// A large read (a whole column chunk) gains nothing from a gap and
		// would double its memory in a span: read it directly, keep nothing.
		return f.inner.ReadAt(p, off)
	}
	// Fetch what is asked plus the gap beyond it, or the whole tail.
	start, end := off, off+int64(len(want))+f.fs.o.GapBytes
	if tail := f.size - f.fs.o.TailBytes; end > tail {
		start = min(start, max(tail, 0))
	}
	end = min(end, f.size)
	buf := make([]byte, end-start)
	n, err := f.inner.ReadAt(buf, start)
	if n < len(buf) {
		if err == nil || err == io.EOF {
			err = fmt.Errorf("storage: %s: read %d of %d bytes at %d: %w", f.path, n, len(buf), start, io.ErrUnexpectedEOF)
		}
		return 0, err
	}
	f.mu.Lock()
	f.spans = append([]span{{start, buf}}, f.spans...)
	if len(f.spans) > f.fs.o.Spans {
		f.spans = f.spans[:f.fs.o.Spans]
	}
	f.mu.Unlock()
	copy(want, buf[off-start:])
	if len(want) < len(p) {
		return len(want), io.EOF
	}
	return len(want), nil
}

// wholeFile returns the whole file, reading it on the first call.
func (f *coalesceFile) wholeFile() ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.whole != nil {
		return f.whole, nil
	}
	buf := make([]byte, f.size)
	n, err := f.inner.ReadAt(buf, 0)
	if n < len(buf) {
		if err == nil || err == io.EOF {
			err = fmt.Errorf("storage: %s: read %d of %d bytes: %w", f.path, n, len(buf), io.ErrUnexpectedEOF)
		}
		return nil, err
	}
	f.whole = buf
	return buf, nil
}

// fromSpans copies p from one fetched span holding all of [off, off+len(p)).
func (f *coalesceFile) fromSpans(p []byte, off int64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.spans {
		if off >= s.off && off+int64(len(p)) <= s.off+int64(len(s.data)) {
			copy(p, s.data[off-s.off:])
			return true
		}
	}
	return false
}
