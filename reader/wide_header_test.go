package reader_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/icebergwrite"
	"github.com/lakecat/lakecat/reader"
)

// TestWideSchemaManifestHeader reads an Iceberg table whose schema (kept in
// every manifest's Avro header) carries a 70,000-character doc, so the
// manifest headers are larger than the first 64 KiB the Avro reader reads.
func TestWideSchemaManifestHeader(t *testing.T) {
	dir := t.TempDir()
	doc := strings.Repeat("w", 70000)
	tb := &icebergwrite.Table{Dir: dir, Location: "/warehouse/wide", FormatVersion: 2, LastColumnID: 1,
		Schemas: []string{fmt.Sprintf(`{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": true, "type": "long", "doc": %q}]}`, doc)},
		Specs:   []icebergwrite.Spec{{ID: 0}}}
	type row struct {
		ID int64 `parquet:"id,id(1)"`
	}
	f, err := icebergwrite.WriteParquet(tb, "data/d0.parquet", []row{{1}, {2}, {3}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Commit(f); err != nil {
		t.Fatal(err)
	}
	if err := tb.WriteMetadata(); err != nil {
		t.Fatal(err)
	}
	got := tableRows(t, dir, reader.TableOptions{}, true)
	if want := `{"id":1}` + "\n" + `{"id":2}` + "\n" + `{"id":3}`; strings.Join(got, "\n") != want {
		t.Errorf("rows:\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
}
