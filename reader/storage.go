package reader

import (
	"context"
	"io"

	"github.com/lakecat/lakecat/reader/internal/hudi"
	"github.com/lakecat/lakecat/reader/internal/iceberg"
	"github.com/lakecat/lakecat/reader/internal/paimon"
)

// FS is the storage a table is read from: ranged reads of files and
// listings of folders. Paths are slash-separated: local paths for [OSFS], or
// whatever an object-store implementation accepts ("s3://bucket/key").
type FS interface {
	// Open opens the file at path for ranged reads; the caller closes it. A
	// missing file yields an error matching fs.ErrNotExist.
	Open(ctx context.Context, path string) (File, error)
	// List returns the names (not paths) of the entries directly inside dir,
	// sorted. A missing folder yields an error matching fs.ErrNotExist.
	List(ctx context.Context, dir string) ([]string, error)
}

// File is an open file: ranged reads plus its size in bytes.
type File interface {
	io.ReaderAt
	io.Closer
	Size() int64
}

// OSFS is an [FS] over the local file system.
type OSFS struct{}

// Open implements [FS].
func (OSFS) Open(ctx context.Context, path string) (File, error) {
	return iceberg.OSFS{}.Open(ctx, path)
}

// List implements [FS].
func (OSFS) List(ctx context.Context, dir string) ([]string, error) {
	return iceberg.OSFS{}.List(ctx, dir)
}

// The table packages each declare the same storage interface; these
// adapters hand them one FS.
type (
	icebergFS struct{ FS }
	paimonFS  struct{ FS }
	hudiFS    struct{ FS }
)

func (a icebergFS) Open(ctx context.Context, p string) (iceberg.File, error) {
	return a.FS.Open(ctx, p)
}
func (a paimonFS) Open(ctx context.Context, p string) (paimon.File, error) { return a.FS.Open(ctx, p) }
func (a hudiFS) Open(ctx context.Context, p string) (hudi.File, error)     { return a.FS.Open(ctx, p) }
