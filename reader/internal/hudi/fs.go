package hudi

import (
	"context"
	"fmt"

	"github.com/lakecat/lakecat/storage"
)

// FS, File and OSFS are the storage the table is read from (package
// storage; shared by the iceberg, paimon and hudi readers).
type (
	FS   = storage.FS
	File = storage.File
	OSFS = storage.OSFS
)

// maxMetadataBytes caps the size of a metadata file read whole.
const maxMetadataBytes = storage.MaxMetadataBytes

// readFile reads a whole metadata file.
func readFile(ctx context.Context, fsys FS, path string) ([]byte, error) {
	b, err := storage.ReadFile(ctx, fsys, path)
	if err != nil {
		return nil, fmt.Errorf("hudi: %w", err)
	}
	return b, nil
}

var (
	joinPath  = storage.JoinPath
	parentDir = storage.ParentDir
	baseName  = storage.BaseName
)
