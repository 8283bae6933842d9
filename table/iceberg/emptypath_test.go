package iceberg

import (
	"context"
	"errors"
	"testing"

	"github.com/lakecat/lakecat"
)

// TestEmptyFilePath: a live manifest entry with an empty file_path is a
// corrupt manifest (class ErrCorrupt), not a missing file.
func TestEmptyFilePath(t *testing.T) {
	manifest := encodeOCF(t, synthManifestSchema, map[string][]byte{"format-version": []byte("1"), "partition-spec-id": []byte("0")},
		map[string]any{"status": 1, "snapshot_id": nil, "sequence_number": nil, "data_file": map[string]any{
			"content": 0, "file_path": "", "file_format": "PARQUET",
			"partition":    map[string]any{"j": map[string]any{"int": 3}, "d": map[string]any{"int.date": 19000}},
			"record_count": int64(3), "file_size_in_bytes": int64(100), "equality_ids": nil}})
	meta := `{"format-version":1,"table-uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1","location":"file:///wh/t",
 "last-updated-ms":1,"last-column-id":2,
 "schema":{"type":"struct","fields":[{"id":1,"name":"j","required":false,"type":"int"},{"id":2,"name":"d","required":false,"type":"date"}]},
 "partition-spec":[{"name":"j","transform":"identity","source-id":1,"field-id":1000},{"name":"d","transform":"day","source-id":2,"field-id":1001}],
 "current-snapshot-id":1,
 "snapshots":[{"snapshot-id":1,"timestamp-ms":1000,"manifests":["file:///wh/t/metadata/m0.avro"]}]}`
	m := memFS{"mem/t/metadata/v1.metadata.json": []byte(meta), "mem/t/metadata/m0.avro": manifest}
	ctx := context.Background()
	tab, err := Open(ctx, m, "mem/t")
	if err != nil {
		t.Fatal(err)
	}
	_, err = tab.Plan(ctx, ScanOptions{})
	if !errors.Is(err, ErrCorruptManifest) || !errors.Is(err, lakecat.ErrCorrupt) || errors.Is(err, lakecat.ErrNotFound) {
		t.Fatalf("Plan: %v, want ErrCorruptManifest of class ErrCorrupt", err)
	}
}
