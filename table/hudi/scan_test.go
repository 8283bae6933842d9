package hudi

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/paimon"
)

// TestHudiScanOptions: a Hudi table refuses a snapshot id and
// IgnoreDeletes, and lists its completed instants as snapshots.
func TestHudiScanOptions(t *testing.T) {
	ctx := context.Background()
	tbl, err := Open(ctx, storage.OSFS{}, unzipTable(t, "cow/v8_nonpartitioned.zip", "v8_nonpartitioned"))
	if err != nil {
		t.Fatal(err)
	}
	one := int64(1)
	for name, opts := range map[string]table.ScanOptions{
		"SnapshotID on a hudi table":    {SnapshotID: &one},
		"IgnoreDeletes on a hudi table": {IgnoreDeletes: true},
		"paimon options (Raw)":          {Options: paimon.Options{Raw: true}},
	} {
		if _, err := tbl.NewScan(opts).Plan(ctx); !errors.Is(err, table.ErrInvalidOption) || err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: %v", name, err)
		}
	}
	snaps, err := tbl.Snapshots(ctx)
	if err != nil || len(snaps) == 0 {
		t.Fatalf("snapshots %v, %v", snaps, err)
	}
	for _, s := range snaps {
		if s.Time.IsZero() || s.ID < 19700101000000000 {
			t.Errorf("snapshot %+v", s)
		}
	}
	if _, err := tbl.NewScan(table.ScanOptions{Options: Options{IgnoreLogs: true}}).Plan(ctx); err != nil {
		t.Errorf("IgnoreLogs: %v", err)
	}
}
