package iceberg

import (
	"context"
	"errors"
	"testing"

	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
)

// TestDeletesErrorUnsignedID: DuckDB's equality_delete_extra_column table
// states its snapshot id as 9876543210123456789, above 2^63-1. The
// DeletesError and the IgnoreDeletes warning name it so, not as the int64
// it wraps to (-8570200863586094827).
func TestDeletesErrorUnsignedID(t *testing.T) {
	m := duckdbDir(t) + "/data/persistent/equality_delete_extra_column/warehouse/ns/t/metadata/vfinal.metadata.json"
	ctx := context.Background()
	tab, err := Open(ctx, storage.OSFS{}, m)
	if err != nil {
		t.Fatal(err)
	}
	s, err := tab.Plan(ctx, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var de *DeletesError
	if err := s.DeletesError(); !errors.As(err, &de) || de.SnapshotID != -8570200863586094827 || de.ID() != "9876543210123456789" ||
		err.Error() != "iceberg: snapshot 9876543210123456789 has delete files (1 equality deletes)" {
		t.Fatalf("DeletesError = %v (%#v)", err, de)
	}
	var warned []string
	opts := table.ScanOptions{IgnoreDeletes: true, Warn: func(w string) { warned = append(warned, w) }}
	if !s.ignoreDeletes(opts) || len(warned) != 1 || warned[0] != "ignoring the delete files of snapshot 9876543210123456789 (1 equality deletes): deleted rows are returned" {
		t.Errorf("warnings %q", warned)
	}
	if got := (&DeletesError{SnapshotID: 42}).ID(); got != "42" {
		t.Errorf("ID of a literal DeletesError = %q", got)
	}
}
