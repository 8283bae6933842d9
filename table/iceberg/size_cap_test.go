package iceberg

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/storage"
)

// TestMetadataOverSizeCap: a plain (not gzip) metadata JSON file over
// storage.MaxMetadataBytes is ErrCorrupt naming the file and its size, as
// the gzip one that inflates past the cap is (it had no class: exit 1). The
// file is made sparse, so the test writes no 64 MiB.
func TestMetadataOverSizeCap(t *testing.T) {
	root := testutil.CopyTree(t, filepath.Join(testutil.RepoRoot(t), "testdata", "orders"), t.TempDir(), nil)
	p := filepath.Join(root, "metadata", "v1.metadata.json")
	if err := os.Truncate(p, storage.MaxMetadataBytes+1); err != nil {
		t.Fatal(err)
	}
	_, err := ReadMetadata(context.Background(), storage.OSFS{}, filepath.ToSlash(p))
	if !errors.Is(err, storage.ErrMetadataTooLarge) || !errors.Is(err, lakecat.ErrCorrupt) ||
		!strings.Contains(err.Error(), "v1.metadata.json") || !strings.Contains(err.Error(), "size 67108865 bytes is over the 67108864-byte cap") {
		t.Fatalf("error %v, want ErrCorrupt naming v1.metadata.json over the cap", err)
	}
}
