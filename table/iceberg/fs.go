package iceberg

import (
	"context"
	"fmt"

	"github.com/lakecat/lakecat/storage"
)

// readFile reads a whole metadata file.
func readFile(ctx context.Context, fsys storage.FS, path string) ([]byte, error) {
	b, err := storage.ReadFile(ctx, fsys, path)
	if err != nil {
		return nil, fmt.Errorf("iceberg: %w", err)
	}
	return b, nil
}
