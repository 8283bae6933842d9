// Package storage is the small storage interface the table readers share:
// ranged reads of files and listings of folders, over the local file system
// or an object store.
package storage

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lakecat/lakecat/internal/osfile"
	"github.com/lakecat/lakecat/schema"
)

// FS is the storage a table is read from. Paths are slash-separated strings:
// local paths ("/data/t", "t/metadata/v1.metadata.json") for [OSFS], and
// whatever an object-store implementation accepts ("s3://bucket/key").
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

// OSFS is an [FS] over the local file system. A path is taken as it is
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
// snapshots, schema files, timeline instants) read whole into memory:
// schema.MaxTableMetadataBytes (64 MiB).
const MaxMetadataBytes = schema.MaxTableMetadataBytes

// ReadFile reads a whole metadata file of at most [MaxMetadataBytes].
func ReadFile(ctx context.Context, fsys FS, path string) ([]byte, error) {
	f, err := fsys.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	n := f.Size()
	if n < 0 || n > MaxMetadataBytes {
		return nil, fmt.Errorf("%s: size %d bytes is over the %d-byte cap for metadata files", path, n, MaxMetadataBytes)
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
