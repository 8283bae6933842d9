// Package storage is the file system every lakecat package reads tables
// and data files through, and commits write through: ranged reads, folder
// listings and, for commits, a create that never replaces an existing file.
// It knows nothing of file or table formats.
//
// [FS] is the read side; [WriteFS] adds what a commit needs. [OSFS] is the
// local file system, [RetryFS] retries transient errors of another FS,
// [CoalesceFS] makes the ranged reads of each file into few large requests,
// and package storage/blob reaches object stores (S3, GCS, Azure) with a
// small driver each.
//
// Paths are slash-separated strings: local paths ("/data/t",
// "t/metadata/v1.metadata.json") for [OSFS], and whatever an object-store
// implementation accepts ("s3://bucket/key"). [JoinPath], [ParentDir] and
// [BaseName] work on both without folding a URL's "//".
package storage

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/internal/osfile"
)

// FS is the storage a table is read from.
type FS interface {
	// Open opens the file at path for ranged reads. The caller closes it.
	// A missing file yields an error matching fs.ErrNotExist.
	Open(ctx context.Context, path string) (File, error)
	// List returns the names (not paths) of the entries directly inside the
	// directory dir, sorted. A missing directory yields an error matching
	// fs.ErrNotExist.
	List(ctx context.Context, dir string) ([]string, error)
}

// File is an open file: ranged reads plus its size in bytes.
type File interface {
	io.ReaderAt
	io.Closer
	// Size returns the size of the file in bytes.
	Size() int64
}

// WriteFS is an [FS] a commit can write to. Each method is one call, so a
// test can make the Nth of them fail.
type WriteFS interface {
	FS
	// CreateNoReplace writes data to a new file at path, atomically: a
	// reader sees either no file or all of data. When path exists it fails
	// with an error matching fs.ErrExist and leaves the file as it is: the
	// primitive that lets exactly one of two committers win. [OSFS] writes
	// a temporary file and hard-links it into place; an object store uses
	// a conditional write (If-None-Match: *).
	CreateNoReplace(ctx context.Context, path string, data []byte) error
	// Replace writes data to path, atomically replacing any file there (a
	// temporary file renamed into place on [OSFS]; a plain write on an
	// object store, whose writes are atomic).
	Replace(ctx context.Context, path string, data []byte) error
	// Remove removes the file at path.
	Remove(ctx context.Context, path string) error
}

// Stat returns the size in bytes of the file at path, or an error matching
// fs.ErrNotExist when there is none.
func Stat(ctx context.Context, fsys FS, path string) (int64, error) {
	f, err := fsys.Open(ctx, path)
	if err != nil {
		return 0, err
	}
	n := f.Size()
	f.Close()
	return n, nil
}

// OSFS is a [WriteFS] over the local file system. A path is taken as it is
// (relative paths are relative to the working directory), after
// filepath.FromSlash.
type OSFS struct{}

type osFile struct {
	*os.File
	size int64
}

func (f osFile) Size() int64 { return f.size }

// Open implements [FS].
func (OSFS) Open(ctx context.Context, path string) (File, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// osfile.Open refuses FIFOs and devices without blocking on them.
	f, size, err := osfile.Open(filepath.FromSlash(path))
	if err != nil {
		return nil, err
	}
	return osFile{f, size}, nil
}

// List implements [FS].
func (OSFS) List(ctx context.Context, dir string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ents, err := os.ReadDir(filepath.FromSlash(dir))
	if err != nil {
		return nil, err
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
	}
	sort.Strings(names)
	return names, nil
}

// MaxMetadataBytes caps the size of a metadata file (table metadata JSON,
// snapshots, schema files, timeline instants) read whole into memory, and
// the uncompressed size of a gzip-compressed one: 64 MiB, the one cap on
// table metadata (iceberg.MaxMetadataBytes in table/iceberg is the same number, pinned by
// a test: storage knows no formats).
const MaxMetadataBytes = 64 << 20

// ErrMetadataTooLarge is matched by the error for a metadata file over
// [MaxMetadataBytes]: class lakecat.ErrCorrupt, as a file whose lengths ask
// for more than a cap is corrupt (README "Limits"), and as a gzip-compressed
// Iceberg metadata file that inflates past the cap is.
var ErrMetadataTooLarge = lakecat.NewSentinel(lakecat.ErrCorrupt, "storage: metadata file over its size cap")

// ReadFile reads a whole metadata file of at most [MaxMetadataBytes]. A
// larger file gives an error naming it and its size that matches
// [ErrMetadataTooLarge].
func ReadFile(ctx context.Context, fsys FS, path string) ([]byte, error) {
	f, err := fsys.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	n := f.Size()
	if n < 0 || n > MaxMetadataBytes {
		return nil, fmt.Errorf("%s: %w: size %d bytes is over the %d-byte cap for metadata files", path, ErrMetadataTooLarge, n, MaxMetadataBytes)
	}
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, 0); err != nil && err != io.EOF {
		return nil, err
	}
	return buf, nil
}

// JoinPath joins a directory and a name with one slash, keeping a URL
// scheme's "//" intact (path.Join would fold it).
func JoinPath(dir, name string) string {
	if dir == "" {
		return name
	}
	return strings.TrimSuffix(dir, "/") + "/" + strings.TrimPrefix(name, "/")
}

// ParentDir returns the part of p before its last slash: "." for a
// relative name without one ("metadata", the parent of
// "metadata/v1.metadata.json" opened inside a table folder, lies in the
// current folder), "" for "".
func ParentDir(p string) string {
	p = strings.TrimSuffix(p, "/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		if i == 0 {
			return "/"
		}
		return p[:i]
	}
	if p == "" {
		return ""
	}
	return "."
}

// BaseName returns the part of p after its last slash.
func BaseName(p string) string {
	p = strings.TrimSuffix(p, "/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}
