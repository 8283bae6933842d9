package paimon

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

// TestMetadataOverSizeCap: a snapshot-N or schema-N file over
// storage.MaxMetadataBytes fails the plan as ErrCorrupt naming the file and
// its size (it had no class: exit 1). The files are made sparse, so the test
// writes no 64 MiB.
func TestMetadataOverSizeCap(t *testing.T) {
	for _, name := range []string{"snapshot/snapshot-4", "schema/schema-2"} {
		t.Run(name, func(t *testing.T) {
			root := testutil.CopyTree(t, filepath.Join(testutil.RepoRoot(t), "testdata", "paimon_orders"), t.TempDir(), nil)
			p := filepath.Join(root, filepath.FromSlash(name))
			if err := os.Truncate(p, storage.MaxMetadataBytes+1); err != nil {
				t.Fatal(err)
			}
			tab, err := Open(context.Background(), storage.OSFS{}, filepath.ToSlash(root), "")
			if err == nil {
				_, err = tab.Plan(context.Background(), ScanOptions{})
			}
			if !errors.Is(err, storage.ErrMetadataTooLarge) || !errors.Is(err, lakecat.ErrCorrupt) ||
				!strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "size 67108865 bytes is over the 67108864-byte cap") {
				t.Fatalf("error %v, want ErrCorrupt naming %s over the cap", err, name)
			}
		})
	}
}
