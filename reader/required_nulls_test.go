package reader_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/table/iceberg"
)

// TestRequiredReadFieldNullsFile: the bundled table's schema-1 file holds a
// null customer (order 4, the file's row 1); read with customer made
// required, the read fails at that row with the file, field id and row
// named. It used to yield a non-nullable Arrow column holding the null.
func TestRequiredReadFieldNullsFile(t *testing.T) {
	dir := filepath.Join("..", "testdata", "orders")
	md, err := os.ReadFile(filepath.Join(dir, "metadata", "v1.metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := iceberg.ParseMetadata(md)
	if err != nil {
		t.Fatal(err)
	}
	read := m.CurrentSchema()
	read.FindByID(2).Required = true
	path := filepath.Join(dir, "data", "00001-orders-schema1.parquet")
	rr, err := reader.OpenFile(context.Background(), path, reader.Options{ReadSchema: read, Allocator: testutil.CheckedAllocator(t), BatchRows: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	rows := 0
	for rr.Next() {
		rows += int(rr.RecordBatch().NumRows())
	}
	want := `project: file "` + path + `": field 2 (customer), row 1: null in a required field: read type string is required, the file's field is optional`
	if err := rr.Err(); err == nil || err.Error() != want || !errors.Is(err, project.ErrNullInRequiredField) {
		t.Errorf("err %v, want %s", err, want)
	}
	if rows != 1 {
		t.Errorf("%d rows before the error, want 1", rows)
	}
}
