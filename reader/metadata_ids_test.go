package reader_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/table/paimon"
)

// TestMetadataColumnIDsPaimonRaw: a raw read of a Paimon primary-key table
// has the system columns _SEQUENCE_NUMBER (2147483646) and _VALUE_KIND
// (2147483645), which are _file's and _pos's Iceberg reserved ids. The
// metadata columns then take the highest free ids below (_file 2147483644,
// _pos 2147483643), so neither takes a file column. _file once took
// _SEQUENCE_NUMBER's id and failed ("want an integer, got string").
func TestMetadataColumnIDsPaimonRaw(t *testing.T) {
	dir := filepath.Join("..", "testdata", "paimon_orders")
	tbl, err := reader.OpenTable(context.Background(), dir, reader.TableOptions{Columns: []string{"order_id", "_file", "_pos"}, MetadataColumns: []string{"_spec_id"}, Allocator: testutil.CheckedAllocator(t), Workers: 1, FormatOptions: paimon.Options{Raw: true}})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range tbl.ReadSchema.Fields {
		ids = append(ids, fmt.Sprintf("%d:%s", f.ID, f.Name))
	}
	if got, want := strings.Join(ids, " "), "0:order_id 2147483644:_file 2147483643:_pos 2147483642:_spec_id"; got != want {
		t.Errorf("read schema ids %s, want %s", got, want)
	}
	for name, want := range map[string]int{"_file": 2147483644, "_pos": 2147483643, "_spec_id": 2147483642} {
		if id, ok := tbl.MetadataFieldID(name); !ok || id != want {
			t.Errorf("MetadataFieldID(%s) = %d, %t; want %d", name, id, ok, want)
		}
	}
	if _, ok := tbl.MetadataFieldID("_partition"); ok {
		t.Error("MetadataFieldID(_partition): present, want absent")
	}
	rr, err := tbl.Scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	lines := strings.Split(strings.TrimSpace(testutil.ReaderJSON(t, rr)), "\n")
	sort.Strings(lines)
	if len(lines) != 14 {
		t.Fatalf("%d rows, want 14", len(lines))
	}
	want := `{"order_id":1,"_file":"` + filepath.ToSlash(filepath.Join(dir, "bucket-1", "data-00000000-0000-0000-0000-000000000002-0.parquet")) + `","_pos":0,"_spec_id":0}`
	if lines[0] != want {
		t.Errorf("first row %s, want %s", lines[0], want)
	}
}

// TestMetadataColumnIDsIceberg: an Iceberg table's metadata columns keep
// the spec's reserved ids.
func TestMetadataColumnIDsIceberg(t *testing.T) {
	tbl, err := reader.OpenTable(context.Background(), filepath.Join("..", "testdata", "orders"), reader.TableOptions{MetadataColumns: []string{"_file", "_pos", "_spec_id", "_partition"}})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]int{"_file": reader.FieldIDFile, "_pos": reader.FieldIDPos, "_spec_id": reader.FieldIDSpecID, "_partition": reader.FieldIDPartition} {
		if id, ok := tbl.MetadataFieldID(name); !ok || id != want {
			t.Errorf("MetadataFieldID(%s) = %d, %t; want %d", name, id, ok, want)
		}
	}
}
