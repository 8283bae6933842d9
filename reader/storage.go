package reader

import "github.com/lakecat/lakecat/reader/internal/storage"

// FS is the storage a table is read from: ranged reads of files and
// listings of folders. Paths are slash-separated: local paths for [OSFS], or
// whatever an object-store implementation accepts ("s3://bucket/key").
//
//	Open(ctx, path) (File, error)      // missing file: an error matching fs.ErrNotExist
//	List(ctx, dir) ([]string, error)   // the names directly inside dir, sorted
type FS = storage.FS

// File is an open file: ranged reads (io.ReaderAt), Close, and Size in
// bytes.
type File = storage.File

// OSFS is an [FS] over the local file system.
type OSFS = storage.OSFS
