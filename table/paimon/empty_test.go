package paimon

import (
	"context"
	"errors"
	"testing"

	"github.com/lakecat/lakecat/storage"
)

// A table created but never written (paimon-cpp's
// orc/append_table_with_nested_type: schema/schema-0 only) plans an empty
// scan in its latest schema; asking for a snapshot id fails.
func TestPlanWithoutSnapshots(t *testing.T) {
	root := cppDir(t) + "/orc/append_table_with_nested_type.db/append_table_with_nested_type"
	tab, err := Open(context.Background(), storage.OSFS{}, root, "")
	if err != nil {
		t.Fatal(err)
	}
	s, err := tab.Plan(context.Background(), ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Snapshot != nil || len(s.DataFiles) != 0 || s.Schema.ID != 0 || len(s.Schema.Fields) != 3 || s.DeletesError() != nil || s.PrimaryKeyError() != nil {
		t.Errorf("scan %+v", s)
	}
	one := int64(1)
	if _, err := tab.Plan(context.Background(), ScanOptions{SnapshotID: &one}); !errors.Is(err, ErrNoSnapshot) {
		t.Errorf("snapshot 1: %v", err)
	}
}
