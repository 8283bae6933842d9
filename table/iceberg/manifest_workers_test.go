package iceberg

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/lakecat/lakecat/storage"
)

// TestManifestWorkersSameResult: the plan does not depend on how many
// manifests are read at once.
func TestManifestWorkersSameResult(t *testing.T) {
	real := realDir(t)
	ctx := context.Background()
	tab, err := Open(ctx, storage.OSFS{}, real+"/impala/testdata/data/iceberg_test/iceberg_v3/test_default_part")
	if err != nil {
		t.Fatal(err)
	}
	one, err := tab.Plan(ctx, ScanOptions{ManifestWorkers: 1})
	if err != nil {
		t.Fatal(err)
	}
	many, err := tab.Plan(ctx, ScanOptions{ManifestWorkers: 16})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one.DataFiles, many.DataFiles) || len(one.DataFiles) != 5 {
		t.Errorf("1 worker: %+v\n16 workers: %+v", one.DataFiles, many.DataFiles)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := tab.Plan(cctx, ScanOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled plan: err = %v", err)
	}
}
