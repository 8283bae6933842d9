package reader_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lakecat/lakecat/storage"
)

// faultFS wraps a storage.FS and injects faults into its calls (Open, List
// and every ReadAt are numbered from 1 in the order they happen):
//
//   - failAt: the call with this number fails with failErr (0: none);
//   - failEvery: every failEvery-th ReadAt fails with failErr, but never
//     two reads of one file in a row (0: none);
//   - shortReads: every ReadAt returns at most that many bytes, and a
//     nil error (a misbehaving store; 0: whole reads);
//   - readDelay: every ReadAt sleeps that long first.
type faultFS struct {
	fs         storage.FS
	failAt     int64
	failEvery  int64
	failErr    error
	shortReads int
	readDelay  time.Duration

	calls  atomic.Int64
	faults atomic.Int64
	mu     sync.Mutex
	log    []string
}

func (f *faultFS) fault(op, path string) error {
	n := f.calls.Add(1)
	if (f.failAt != 0 && n == f.failAt) || (f.failEvery != 0 && op == "read" && n%f.failEvery == 0) {
		f.faults.Add(1)
		f.mu.Lock()
		f.log = append(f.log, fmt.Sprintf("%d %s %s", n, op, path))
		f.mu.Unlock()
		return fmt.Errorf("fault: call %d (%s %s): %w", n, op, path, f.failErr)
	}
	return nil
}

func (f *faultFS) Open(ctx context.Context, path string) (storage.File, error) {
	if err := f.fault("open", path); err != nil {
		return nil, err
	}
	file, err := f.fs.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	return &faultFile{File: file, fs: f, path: path}, nil
}

func (f *faultFS) List(ctx context.Context, dir string) ([]string, error) {
	if err := f.fault("list", dir); err != nil {
		return nil, err
	}
	return f.fs.List(ctx, dir)
}

type faultFile struct {
	storage.File
	fs   *faultFS
	path string
	// lastFailed: the previous read failed, so this one (its retry) may
	// not, whatever the interleaving of other files' reads.
	lastFailed atomic.Bool
}

func (f *faultFile) ReadAt(b []byte, off int64) (int, error) {
	if f.fs.readDelay > 0 {
		time.Sleep(f.fs.readDelay)
	}
	if f.lastFailed.Swap(false) {
		f.fs.calls.Add(1)
	} else if err := f.fs.fault("read", f.path); err != nil {
		f.lastFailed.Store(true)
		return 0, err
	}
	if f.fs.shortReads > 0 && len(b) > f.fs.shortReads {
		n, err := f.File.ReadAt(b[:f.fs.shortReads], off)
		if err == io.EOF {
			return n, err
		}
		return n, nil // fewer bytes than asked, no error: a contract breach
	}
	return f.File.ReadAt(b, off)
}

// errPermanent is a storage error no retry helps.
var errPermanent = errors.New("access denied")
