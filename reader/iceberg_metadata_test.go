package reader_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
)

// TestMetadataColumns reads _file, _pos, _spec_id and _partition on the
// Impala test_default_part table (spec 0 unpartitioned, spec 1 identity on
// j) in scan order.
func TestMetadataColumns(t *testing.T) {
	real := testutil.RealDir(t)
	loc := real + "/" + impala + "iceberg_v3/test_default_part"
	got := tableRows(t, loc, reader.TableOptions{Columns: []string{"i", "_file", "_pos"}, MetadataColumns: []string{"_spec_id", "_partition"}}, true)
	h := "hdfs://localhost:20500/test-warehouse/test_default_part/data/"
	want := []string{
		`{"i":5,"_file":"` + h + `j=null/00000-15-160d8949-4a73-4e64-980c-9139ea31874e-0-00001.parquet","_pos":0,"_spec_id":1,"_partition":{"j":null}}`,
		`{"i":4,"_file":"` + h + `j=10/00000-13-154f9db4-fe9f-433c-ad9b-e6556ca6c828-0-00002.parquet","_pos":0,"_spec_id":1,"_partition":{"j":10}}`,
		`{"i":3,"_file":"` + h + `j=5/00000-13-154f9db4-fe9f-433c-ad9b-e6556ca6c828-0-00001.parquet","_pos":0,"_spec_id":1,"_partition":{"j":5}}`,
		`{"i":1,"_file":"` + h + `00000-9-32a1199a-eac8-4050-bd63-6c487f7eb18e-0-00001.parquet","_pos":0,"_spec_id":0,"_partition":{"j":null}}`,
		`{"i":2,"_file":"` + h + `00001-10-32a1199a-eac8-4050-bd63-6c487f7eb18e-0-00001.parquet","_pos":0,"_spec_id":0,"_partition":{"j":null}}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// The reserved ids and types (Iceberg spec, "Reserved Field IDs").
	tbl, err := reader.OpenTable(context.Background(), loc, reader.TableOptions{MetadataColumns: []string{"_file", "_pos", "_spec_id", "_partition"}})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range tbl.ReadSchema.Fields {
		ids = append(ids, f.String())
	}
	wantIDs := "1:i: int|2:j: int|2147483646:_file: required string|2147483645:_pos: required long|2147483643:_spec_id: required int|2147483642:_partition: required struct<1000:j: int>"
	if strings.Join(ids, "|") != wantIDs {
		t.Errorf("read schema %s\nwant %s", strings.Join(ids, "|"), wantIDs)
	}
}

// TestMetadataPosAcrossBatches: _pos counts rows within each file across
// batches (3 files of 3 rows, batches of 2 rows).
func TestMetadataPosAcrossBatches(t *testing.T) {
	real := testutil.RealDir(t)
	loc := real + "/duckdb-iceberg/data/persistent/null_stats/default/test_nulls/metadata/00003-9d6a621e-8a72-4190-a880-f6ca02e32b86.metadata.json"
	got := tableRows(t, loc, reader.TableOptions{Columns: []string{"id", "_pos"}, BatchRows: 2}, true)
	want := `{"id":7,"_pos":0} {"id":8,"_pos":1} {"id":9,"_pos":2} {"id":4,"_pos":0} {"id":5,"_pos":1} {"id":6,"_pos":2} {"id":1,"_pos":0} {"id":2,"_pos":1} {"id":3,"_pos":2}`
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}

// TestMetadataPartitionDecimal: _partition of an identity decimal partition
// (the values DuckDB stored in the manifest).
func TestMetadataPartitionDecimal(t *testing.T) {
	real := testutil.RealDir(t)
	got := tableRows(t, real+"/duckdb-iceberg/data/persistent/partition_decimal_integer", reader.TableOptions{Columns: []string{"user_id", "_partition"}}, false)
	want := `{"user_id":111213,"_partition":{"partition_col":"1234.5432"}} {"user_id":12345,"_partition":{"partition_col":"42.5630"}} {"user_id":67890,"_partition":{"partition_col":"1.2300"}}`
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}

func TestMetadataColumnUnknown(t *testing.T) {
	real := testutil.RealDir(t)
	_, err := reader.OpenTable(context.Background(), real+"/duckdb-iceberg/data/persistent/uuid", reader.TableOptions{MetadataColumns: []string{"_row_id"}})
	if err == nil || !strings.Contains(err.Error(), `"_row_id" is not a metadata column`) {
		t.Errorf("err = %v", err)
	}
}
