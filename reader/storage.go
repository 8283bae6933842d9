package reader

import "github.com/lakecat/lakecat/storage"

// FS, File and OSFS are package storage's: the storage tables and data
// files are read from.
type (
	FS   = storage.FS
	File = storage.File
	OSFS = storage.OSFS
)
