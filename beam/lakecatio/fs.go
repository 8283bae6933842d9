package lakecatio

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/storage/blob"
	"github.com/lakecat/lakecat/table"
)

// ErrUnknownFS is matched by the error of a read whose [WithFS] names an FS
// no [RegisterFS] call registered in the worker's binary.
var ErrUnknownFS = lakecat.NewSentinel(lakecat.ErrInvalidArgument, "lakecatio: no FS registered under this name")

var (
	fsMu       sync.Mutex
	registered = map[string]func() (storage.FS, error){}
)

// RegisterFS makes open available to [WithFS] under name. Call it from an
// init function, so that every worker (which runs the same binary) has it;
// open is called once per DoFn instance.
func RegisterFS(name string, open func() (storage.FS, error)) {
	fsMu.Lock()
	defer fsMu.Unlock()
	registered[name] = open
}

// openFS returns the FS a read of cfg uses, confined to the table as
// reader.OpenTable confines it (table.Root), and the table location to plan with (an
// object-store URL without its driver query, which the FS keeps).
func openFS(cfg config) (storage.FS, string, error) {
	loc := cfg.Table
	var fsys storage.FS
	switch {
	case cfg.FS != "":
		fsMu.Lock()
		open := registered[cfg.FS]
		fsMu.Unlock()
		if open == nil {
			return nil, "", fmt.Errorf("%w: %q", ErrUnknownFS, cfg.FS)
		}
		var err error
		if fsys, err = open(); err != nil {
			return nil, "", fmt.Errorf("lakecatio: FS %q: %w", cfg.FS, err)
		}
	case blob.IsURL(loc):
		// Transient errors are retried as the command line retries them.
		bfs := blob.New()
		loc = bfs.StripQuery(loc)
		fsys = storage.RetryFS(bfs, storage.RetryPolicy{})
	default:
		fsys = storage.OSFS{}
	}
	return storage.Confine(fsys, table.Root(loc), cfg.AllowPaths), loc, nil
}

// countingFS counts the bytes read through it.
type countingFS struct {
	storage.FS
	n *atomic.Int64
}

func (c countingFS) Open(ctx context.Context, p string) (storage.File, error) {
	f, err := c.FS.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	return countingFile{File: f, n: c.n}, nil
}

type countingFile struct {
	storage.File
	n *atomic.Int64
}

func (c countingFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.File.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}
