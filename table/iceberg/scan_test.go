package iceberg

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
)

// fileLine renders a planned file as "path-under-root FORMAT kind rows spec=N partition".
func fileLine(root string, f *DataFile) string {
	return fmt.Sprintf("%s %s %s rows=%d spec=%d part=%v", strings.TrimPrefix(f.Path, root+"/"), f.Format, f.Kind(), f.RecordCount, f.SpecID, f.Partition)
}

type scanCase struct {
	name       string
	target     string // under the real folder
	opts       ScanOptions
	snapshot   int64
	schemaID   int
	data       []string
	deletes    []string
	deletesErr string
	// badSizes: the writer (DuckDB 1.2.2) stored file_size_in_bytes that
	// differ from the files' sizes; a reader must take the size from storage.
	badSizes bool
}

func runScanCase(t *testing.T, real string, tc scanCase) *Scan {
	t.Helper()
	ctx := context.Background()
	tab, err := Open(ctx, storage.OSFS{}, real+"/"+tc.target)
	if err != nil {
		t.Fatalf("%s: Open: %v", tc.name, err)
	}
	s, err := tab.Plan(ctx, tc.opts)
	if err != nil {
		t.Fatalf("%s: Plan: %v", tc.name, err)
	}
	if s.Snapshot.SnapshotID != tc.snapshot || s.ReadSchema.ID != tc.schemaID {
		t.Errorf("%s: snapshot %d schema %d, want %d and %d", tc.name, s.Snapshot.SnapshotID, s.ReadSchema.ID, tc.snapshot, tc.schemaID)
	}
	root := tab.Root
	var data, dels []string
	for i := range s.DataFiles {
		data = append(data, fileLine(root, &s.DataFiles[i]))
	}
	for i := range s.DeleteFiles {
		dels = append(dels, fileLine(root, &s.DeleteFiles[i]))
	}
	if !reflect.DeepEqual(data, tc.data) {
		t.Errorf("%s: data files:\n got %s\nwant %s", tc.name, strings.Join(data, "\n     "), strings.Join(tc.data, "\n     "))
	}
	if !reflect.DeepEqual(dels, tc.deletes) {
		t.Errorf("%s: delete files:\n got %s\nwant %s", tc.name, strings.Join(dels, "\n     "), strings.Join(tc.deletes, "\n     "))
	}
	err = s.DeletesError()
	switch {
	case tc.deletesErr == "" && err != nil:
		t.Errorf("%s: DeletesError = %v, want nil", tc.name, err)
	case tc.deletesErr != "" && (err == nil || err.Error() != tc.deletesErr || !errors.Is(err, ErrDeleteFiles)):
		t.Errorf("%s: DeletesError = %v\nwant %s", tc.name, err, tc.deletesErr)
	}
	// Every live file resolves to a file that exists, with the size the
	// manifest states.
	for _, f := range append(append([]DataFile(nil), s.DataFiles...), s.DeleteFiles...) {
		st, err := os.Stat(f.Path)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
		} else if (st.Size() != f.SizeBytes) != tc.badSizes {
			t.Errorf("%s: %s: size %d, manifest says %d", tc.name, f.Path, st.Size(), f.SizeBytes)
		}
	}
	return s
}

func dec(lo uint64) schema.DecimalValue { return schema.DecimalValue{Lo: lo} }

func TestScanDuckDB(t *testing.T) {
	real := realDir(t)
	p := "duckdb-iceberg/data/persistent/"
	for _, tc := range []scanCase{
		{
			name: "add_columns_with_defaults", target: p + "add_columns_with_defaults/default.db/add_columns_with_defaults",
			snapshot: 1915606074736806848, schemaID: 1,
			data: []string{
				"data/00000-0-f1823874-113e-405c-b412-f75145620823.parquet PARQUET data rows=1 spec=0 part=map[]",
				"data/00000-0-0bb8c58e-4fbc-483f-af6d-0e2f896179a2.parquet PARQUET data rows=2 spec=0 part=map[]",
			},
		},
		{
			name: "case_sensitive_names", target: p + "case_sensitive_names/default.db/case_sensitive_names",
			snapshot: 5298355539581857556, schemaID: 0,
			data: []string{"data/00000-0-81af3af1-c807-48d2-b022-696b1f81a188.parquet PARQUET data rows=3 spec=0 part=map[]"},
		},
		{
			// The data file lies outside the table location: resolved
			// against the folder DuckDB ran in, derived from the relative
			// location (the opened folder ends with it).
			name: "column_mapping", target: p + "column_mapping/warehouse/default.db/my_table",
			snapshot: 6154553663017965981, schemaID: 0,
			data: []string{real + "/duckdb-iceberg/data/persistent/column_mapping/warehouse/example/mock_data.parquet PARQUET data rows=3 spec=0 part=map[]"},
		},
		{
			name: "iceberg_v1_repro (v1 EXISTING entries, v3 upgraded)", target: p + "iceberg_v1_repro/repro/merch_v1",
			snapshot: 5191822260710938731, schemaID: 0,
			data: []string{
				"data/00000-0-ccab0b80-739e-4dc6-a95d-306d70e93d65.parquet PARQUET data rows=2 spec=0 part=map[]",
				"data/00000-1-ccab0b80-739e-4dc6-a95d-306d70e93d65.parquet PARQUET data rows=2 spec=0 part=map[]",
			},
		},
		{
			name: "map_stats (day partition)", target: p + "map_stats/default.db/map_stats",
			snapshot: 554549470069664013, schemaID: 0,
			data: []string{
				"data/_day=2026-01-02/00000-0-8574bca8-244f-4667-965a-03a41a3e4e0e.parquet PARQUET data rows=1 spec=0 part=map[1000:20455]",
				"data/_day=2026-01-01/00000-0-8ed9efb3-5eb4-4225-a66a-2b6b46cb4d32.parquet PARQUET data rows=1 spec=0 part=map[1000:20454]",
			},
		},
		{
			name: "null_stats", target: p + "null_stats/default/test_nulls",
			snapshot: 4694394728259848547, schemaID: 0,
			data: []string{
				"data/00000-0-2aeec77d-bbe8-4b0a-8105-3093ce4ea02a.parquet PARQUET data rows=3 spec=0 part=map[]",
				"data/00000-0-c6e04a5f-6a7c-49e3-bb8b-cc0af0a46080.parquet PARQUET data rows=3 spec=0 part=map[]",
				"data/00000-0-9a932c99-3823-49c8-b9a2-ccbb8959f8d9.parquet PARQUET data rows=3 spec=0 part=map[]",
			},
		},
		{
			name: "partition_decimal_integer", target: p + "partition_decimal_integer",
			snapshot: 2266524373707409896, schemaID: 0, badSizes: true,
			data: []string{
				"data/partition_col=1234.5432/00000-3-c764af9f-0b20-4fb0-b5f4-0222acfd95f8-00003.parquet PARQUET data rows=1 spec=0 part=map[1000:{0 12345432}]",
				"data/partition_col=1.2300/00000-3-c764af9f-0b20-4fb0-b5f4-0222acfd95f8-00002.parquet PARQUET data rows=1 spec=0 part=map[1000:{0 12300}]",
				"data/partition_col=42.5630/00000-3-c764af9f-0b20-4fb0-b5f4-0222acfd95f8-00001.parquet PARQUET data rows=1 spec=0 part=map[1000:{0 425630}]",
			},
		},
		{
			name: "uuid", target: p + "uuid",
			snapshot: 3974286791591741252, schemaID: 0,
			data: []string{
				"data/00000-0-dc76d6b0-77d0-4fd4-b3e9-555a901bc481-00001.parquet PARQUET data rows=5 spec=0 part=map[]",
				"data/00000-0-07b11d9e-e7ff-4093-acb3-743bf8b2e5cc-00001.parquet PARQUET data rows=5 spec=0 part=map[]",
			},
		},
		{
			name: "equality_delete_extra_column", target: p + "equality_delete_extra_column/warehouse/ns/t/metadata/vfinal.metadata.json",
			snapshot: -8570200863586094827, schemaID: 0,
			data:       []string{"data/val_bucket=0/00000-0-d2abf39d-e78d-4f97-8f12-88b0626995dc.parquet PARQUET data rows=3 spec=0 part=map[1000:0]"},
			deletes:    []string{"data/val_bucket=0/eq-delete-cc70197d-cfbc-4758-8c7e-30a34b566b89.parquet PARQUET equality deletes rows=1 spec=0 part=map[1000:0]"},
			deletesErr: "iceberg: snapshot 9876543210123456789 has delete files (1 equality deletes)",
		},
	} {
		runScanCase(t, real, tc)
	}
}

func TestScanDuckDBIdentityConstants(t *testing.T) {
	real := realDir(t)
	s := runScanCase(t, real, scanCase{
		name: "partition_decimal_integer", target: "duckdb-iceberg/data/persistent/partition_decimal_integer",
		snapshot: 2266524373707409896, schemaID: 0, badSizes: true,
		data: []string{
			"data/partition_col=1234.5432/00000-3-c764af9f-0b20-4fb0-b5f4-0222acfd95f8-00003.parquet PARQUET data rows=1 spec=0 part=map[1000:{0 12345432}]",
			"data/partition_col=1.2300/00000-3-c764af9f-0b20-4fb0-b5f4-0222acfd95f8-00002.parquet PARQUET data rows=1 spec=0 part=map[1000:{0 12300}]",
			"data/partition_col=42.5630/00000-3-c764af9f-0b20-4fb0-b5f4-0222acfd95f8-00001.parquet PARQUET data rows=1 spec=0 part=map[1000:{0 425630}]",
		},
	})
	var got []map[int]any
	for i := range s.DataFiles {
		got = append(got, s.IdentityConstants(&s.DataFiles[i], s.ReadSchema))
	}
	want := []map[int]any{{1: dec(12345432)}, {1: dec(12300)}, {1: dec(425630)}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("identity constants = %v, want %v", got, want)
	}
}

func TestScanImpala(t *testing.T) {
	real := realDir(t)
	p := "impala/testdata/data/iceberg_test/"
	mixed := "data/00000-0-data-gfurnstahl_20220906"
	for _, tc := range []scanCase{
		{
			name: "iceberg_mixed_file_format_test", target: p + "iceberg_mixed_file_format_test",
			snapshot: 5574591442446832859, schemaID: 0,
			data: []string{
				mixed + "114900_9c1b7b46-5643-428f-a007-519c5500ed04-job_16619542960420_0004-1-00001.orc ORC data rows=1 spec=0 part=map[]",
				mixed + "114830_907f72c7-36ac-4135-8315-27ff880faff0-job_16619542960420_0004-1-00001.parquet PARQUET data rows=1 spec=0 part=map[]",
				mixed + "113255_8d49367d-e338-4996-ade5-ee500a19c1d1-job_16619542960420_0003-1-00001.orc ORC data rows=1 spec=0 part=map[]",
				mixed + "113044_157fc172-f5d3-4c70-8653-fff150b6136a-job_16619542960420_0002-1-00001.parquet PARQUET data rows=1 spec=0 part=map[]",
			},
		},
		{
			name: "iceberg_v3_default_value", target: p + "iceberg_v3/iceberg_v3_default_value",
			snapshot: 5466875730470528452, schemaID: 1,
			data: []string{
				"data/00000-1-18a720eb-5773-431a-b440-5e9caa4ac641-0-00001.parquet PARQUET data rows=1 spec=0 part=map[]",
				"data/00000-0-4bcf51b3-40de-43df-a74a-3eb29c0a9634-0-00001.parquet PARQUET data rows=1 spec=0 part=map[]",
			},
		},
		{
			name: "iceberg_v3_default_value first snapshot", target: p + "iceberg_v3/iceberg_v3_default_value",
			opts:     ScanOptions{SnapshotID: ptr(int64(7752776210164022855))},
			snapshot: 7752776210164022855, schemaID: 0,
			data: []string{"data/00000-0-4bcf51b3-40de-43df-a74a-3eb29c0a9634-0-00001.parquet PARQUET data rows=1 spec=0 part=map[]"},
		},
		{
			name: "iceberg_v3_default_value_orc first snapshot", target: p + "iceberg_v3/iceberg_v3_default_value_orc",
			opts:     ScanOptions{SnapshotID: ptr(int64(1536392834658079256))},
			snapshot: 1536392834658079256, schemaID: 0,
			data: []string{"data/00000-0-ab2ce281-9c77-4045-aec4-8338f184d93e-0-00001.orc ORC data rows=1 spec=0 part=map[]"},
		},
		{
			name: "iceberg_v3_default_value_avro", target: p + "iceberg_v3/iceberg_v3_default_value_avro",
			snapshot: 1138771512771688056, schemaID: 1,
			data: []string{
				"data/00000-4-809b106d-737e-4ec3-a49d-814716a2b794-0-00001.avro AVRO data rows=1 spec=0 part=map[]",
				"data/00000-3-e9b0ad3b-49a1-4da4-a830-8e39b42a2731-0-00001.avro AVRO data rows=1 spec=0 part=map[]",
			},
		},
		{
			// The metadata's snapshot ids went through float64 (…820000 for
			// …819570); the file names keep the exact ids.
			name: "test_default_part", target: p + "iceberg_v3/test_default_part",
			snapshot: 5788798547140820000, schemaID: 1,
			data: []string{
				"data/j=null/00000-15-160d8949-4a73-4e64-980c-9139ea31874e-0-00001.parquet PARQUET data rows=1 spec=1 part=map[1000:<nil>]",
				"data/j=10/00000-13-154f9db4-fe9f-433c-ad9b-e6556ca6c828-0-00002.parquet PARQUET data rows=1 spec=1 part=map[1000:10]",
				"data/j=5/00000-13-154f9db4-fe9f-433c-ad9b-e6556ca6c828-0-00001.parquet PARQUET data rows=1 spec=1 part=map[1000:5]",
				"data/00000-9-32a1199a-eac8-4050-bd63-6c487f7eb18e-0-00001.parquet PARQUET data rows=1 spec=0 part=map[]",
				"data/00001-10-32a1199a-eac8-4050-bd63-6c487f7eb18e-0-00001.parquet PARQUET data rows=1 spec=0 part=map[]",
			},
		},
		{
			name: "test_default_part as of the first snapshot", target: p + "iceberg_v3/test_default_part",
			opts:     ScanOptions{AsOf: time.UnixMilli(1776501457059 + 1000)},
			snapshot: 4871712590577795000, schemaID: 0,
			data: []string{
				"data/00000-9-32a1199a-eac8-4050-bd63-6c487f7eb18e-0-00001.parquet PARQUET data rows=1 spec=0 part=map[]",
				"data/00001-10-32a1199a-eac8-4050-bd63-6c487f7eb18e-0-00001.parquet PARQUET data rows=1 spec=0 part=map[]",
			},
		},
		{
			name: "iceberg_migrated_alter_test", target: p + "iceberg_migrated_alter_test",
			snapshot: 2941076094076108396, schemaID: 0,
			data: []string{"000000_0 PARQUET data rows=3 spec=0 part=map[]"},
		},
		{
			name: "iceberg_migrated_alter_test_orc", target: p + "iceberg_migrated_alter_test_orc",
			snapshot: 2205107170480729038, schemaID: 0,
			data: []string{"000000_0 ORC data rows=3 spec=0 part=map[]"},
		},
		{
			name: "iceberg_legacy_partition_schema_evolution", target: p + "hadoop_catalog/ice/iceberg_legacy_partition_schema_evolution",
			snapshot: 6654673546382518186, schemaID: 0,
			data: []string{
				"p_int_long=1/p_float_double=1.1/p_dec_dec=3.141/000000_0 PARQUET data rows=1 spec=0 part=map[1000:1 1001:1.1 1002:{0 3141}]",
				"p_int_long=1/p_float_double=1.1/p_dec_dec=2.718/000000_0 PARQUET data rows=1 spec=0 part=map[1000:1 1001:1.1 1002:{0 2718}]",
			},
		},
		{
			name: "iceberg_column_case_sensitivity_issue (hdfs:// location)", target: p + "iceberg_column_case_sensitivity_issue",
			snapshot: 1855055649619147667, schemaID: 0,
			data: []string{
				"data/id_bucket=7/504c5f5ae97c4c65-c9fce43a00000000_1852333400_data.0.parq PARQUET data rows=1 spec=0 part=map[1000:7]",
				"data/id_bucket=3/5b4ef6d2e91c0129-f018b1d800000000_872469098_data.0.parq PARQUET data rows=1 spec=0 part=map[1000:3]",
			},
		},
		{
			name: "complextypestbl_iceberg_orc", target: p + "hadoop_catalog/ice/complextypestbl_iceberg_orc",
			snapshot: 8747481058330439933, schemaID: 0,
			data: []string{
				"data/00001-0-boroknagyz_20210331133358_b718b2ff-9f49-4056-a5ed-0d37ec144fff-job_16171873329050_0002-00001.orc ORC data rows=1 spec=0 part=map[]",
				"data/00000-0-boroknagyz_20210331133358_b718b2ff-9f49-4056-a5ed-0d37ec144fff-job_16171873329050_0002-00001.orc ORC data rows=7 spec=0 part=map[]",
			},
		},
		{
			name: "iceberg_alltypes_part", target: p + "hadoop_catalog/ice/iceberg_alltypes_part",
			snapshot: 6167994413873848621, schemaID: 0,
			// date 2022-02-22 is day 19045; decimal 123.321 is 123321 at scale 3.
			data: []string{"p_bool=true/p_int=1/p_bigint=11/p_float=1.1/p_double=2.222/p_decimal=123.321/p_date=2022-02-22/p_string=impala/000000_0 PARQUET data rows=2 spec=0 part=map[1000:true 1001:1 1002:11 1003:1.1 1004:2.222 1005:{0 123321} 1006:19045 1007:impala]"},
		},
		{
			name: "iceberg_alltypes_part_orc", target: p + "hadoop_catalog/ice/iceberg_alltypes_part_orc",
			snapshot: 7569365419257304230, schemaID: 0,
			data: []string{"p_bool=true/p_int=1/p_bigint=11/p_float=1.1/p_double=2.222/p_decimal=123.321/p_date=2022-02-22/p_string=impala/000000_0 ORC data rows=2 spec=0 part=map[1000:true 1001:1 1002:11 1003:1.1 1004:2.222 1005:{0 123321} 1006:19045 1007:impala]"},
		},
		{
			name: "iceberg_legacy_partition_schema_evolution_orc", target: p + "hadoop_catalog/ice/iceberg_legacy_partition_schema_evolution_orc",
			// The metadata was copied from the Parquet table: same snapshot id.
			snapshot: 6654673546382518186, schemaID: 0,
			data: []string{
				"p_int_long=1/p_float_double=1.1/p_dec_dec=3.141/000000_0 ORC data rows=1 spec=0 part=map[1000:1 1001:1.1 1002:{0 3141}]",
				"p_int_long=1/p_float_double=1.1/p_dec_dec=2.718/000000_0 ORC data rows=1 spec=0 part=map[1000:1 1001:1.1 1002:{0 2718}]",
			},
		},
		{
			name: "iceberg_v2_delete_both_eq_and_pos", target: p + "hadoop_catalog/ice/iceberg_v2_delete_both_eq_and_pos",
			snapshot: 911559291487642581, schemaID: 0,
			data: []string{
				"data/00000-0-72709aba-fb15-4bd6-9758-5f39eb9bdcb7-00001.parquet PARQUET data rows=2 spec=0 part=map[]",
				"data/00000-0-38a471ff-46f4-4350-85cc-2e7ba946b34c-00001.parquet PARQUET data rows=2 spec=0 part=map[]",
			},
			deletes: []string{
				"data/delete-074a9e19e61b766e-652a169e00000001_800513971_data.0.parq PARQUET position deletes rows=1 spec=0 part=map[]",
				"data/00000-0-72709aba-fb15-4bd6-9758-5f39eb9bdcb7-00002.parquet PARQUET equality deletes rows=2 spec=0 part=map[]",
				"data/00000-0-38a471ff-46f4-4350-85cc-2e7ba946b34c-00002.parquet PARQUET equality deletes rows=2 spec=0 part=map[]",
			},
			deletesErr: "iceberg: snapshot 911559291487642581 has delete files (1 position deletes, 2 equality deletes)",
		},
		{
			name: "iceberg_v2_partitioned_position_deletes_orc", target: p + "hadoop_catalog/ice/iceberg_v2_partitioned_position_deletes_orc",
			snapshot: 5359840930115020310, schemaID: 0,
			data: []string{
				"data/action=click/00000-0-data-boroknagyz_20220830173852_560d6f0e-8508-42d6-95a7-67bfa860a28c-job_16618645111571_0006-00001.orc ORC data rows=6 spec=0 part=map[1000:click]",
				"data/action=download/00000-0-data-boroknagyz_20220830173852_560d6f0e-8508-42d6-95a7-67bfa860a28c-job_16618645111571_0006-00002.orc ORC data rows=6 spec=0 part=map[1000:download]",
				"data/action=view/00000-0-data-boroknagyz_20220830173852_560d6f0e-8508-42d6-95a7-67bfa860a28c-job_16618645111571_0006-00003.orc ORC data rows=8 spec=0 part=map[1000:view]",
			},
			deletes: []string{
				"data/action=view/00000-0-delete-boroknagyz_20220830173925_010bf879-cf2f-4209-a70b-1a8309657106-job_16618645111571_0006-00001.orc ORC position deletes rows=5 spec=0 part=map[1000:view]",
				"data/action=click/00000-0-delete-boroknagyz_20220830173925_010bf879-cf2f-4209-a70b-1a8309657106-job_16618645111571_0006-00002.orc ORC position deletes rows=3 spec=0 part=map[1000:click]",
				"data/action=download/00000-0-delete-boroknagyz_20220830173925_010bf879-cf2f-4209-a70b-1a8309657106-job_16618645111571_0006-00003.orc ORC position deletes rows=2 spec=0 part=map[1000:download]",
			},
			deletesErr: "iceberg: snapshot 5359840930115020310 has delete files (3 position deletes)",
		},
	} {
		runScanCase(t, real, tc)
	}
}

func ptr[T any](v T) *T { return &v }

// TestScanImpalaPathMap reads with the documented --path-map instead of
// re-rooting at the opened folder.
func TestScanImpalaPathMap(t *testing.T) {
	real := realDir(t)
	ctx := context.Background()
	tab, err := Open(ctx, storage.OSFS{}, real+"/impala/testdata/data/iceberg_test/hadoop_catalog/ice/complextypestbl_iceberg_orc")
	if err != nil {
		t.Fatal(err)
	}
	rule, err := ParsePathRule("/test-warehouse/iceberg_test/=" + real + "/impala/testdata/data/iceberg_test/")
	if err != nil {
		t.Fatal(err)
	}
	s, err := tab.Plan(ctx, ScanOptions{PathMap: PathMap{rule}, NoRebase: true})
	if err != nil {
		t.Fatal(err)
	}
	root := real + "/impala/testdata/data/iceberg_test/hadoop_catalog/ice/complextypestbl_iceberg_orc"
	var got []string
	for i := range s.DataFiles {
		got = append(got, fileLine(root, &s.DataFiles[i]))
	}
	want := []string{
		"data/00001-0-boroknagyz_20210331133358_b718b2ff-9f49-4056-a5ed-0d37ec144fff-job_16171873329050_0002-00001.orc ORC data rows=1 spec=0 part=map[]",
		"data/00000-0-boroknagyz_20210331133358_b718b2ff-9f49-4056-a5ed-0d37ec144fff-job_16171873329050_0002-00001.orc ORC data rows=7 spec=0 part=map[]",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("files:\n got %v\nwant %v", got, want)
	}
	// Without the rule and without re-rooting, the manifest list is not found.
	if _, err := tab.Plan(ctx, ScanOptions{NoRebase: true}); err == nil {
		t.Error("Plan without path map or re-rooting: no error")
	}
}

func TestScanImpalaResolution(t *testing.T) {
	real := realDir(t)
	ctx := context.Background()
	tab, err := Open(ctx, storage.OSFS{}, real+"/impala/testdata/data/iceberg_test/hadoop_catalog/iceberg_resolution_test/functional_parquet/iceberg_resolution_test")
	if err != nil {
		t.Fatal(err)
	}
	s, err := tab.Plan(ctx, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// 20 files of one row, partitioned by hour(event_time) (field 1000) and
	// identity(action) (1001, source 3).
	var rows int64
	byAction := map[any]int{}
	for i := range s.DataFiles {
		f := &s.DataFiles[i]
		rows += f.RecordCount
		c := s.IdentityConstants(f, s.ReadSchema)
		if len(c) != 1 {
			t.Errorf("%s: constants %v", f.Path, c)
		}
		byAction[c[3]]++
		hour := f.Partition[1000].(int32)
		if hour < 438296 || hour > 438298 {
			t.Errorf("%s: hour partition %d", f.Path, hour)
		}
	}
	if len(s.DataFiles) != 20 || rows != 20 || !reflect.DeepEqual(byAction, map[any]int{"view": 8, "click": 6, "download": 6}) {
		t.Errorf("%d files, %d rows, actions %v", len(s.DataFiles), rows, byAction)
	}
}

func TestScanTestDefaultPartConstants(t *testing.T) {
	real := realDir(t)
	ctx := context.Background()
	tab, err := Open(ctx, storage.OSFS{}, real+"/impala/testdata/data/iceberg_test/iceberg_v3/test_default_part")
	if err != nil {
		t.Fatal(err)
	}
	s, err := tab.Plan(ctx, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []map[int]any
	for i := range s.DataFiles {
		got = append(got, s.IdentityConstants(&s.DataFiles[i], s.ReadSchema))
	}
	// A null partition value is a null constant; unpartitioned files have
	// none (the reader falls back to j's initial-default -1).
	want := []map[int]any{{2: nil}, {2: int32(10)}, {2: int32(5)}, nil, nil}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("constants = %#v, want %#v", got, want)
	}
	// Snapshot ids written through float64 still select by the exact id.
	s2, err := tab.Plan(ctx, ScanOptions{SnapshotID: ptr(int64(7704689856474798162))})
	if err != nil {
		t.Fatal(err)
	}
	if s2.Snapshot.SequenceNumber != 2 || len(s2.DataFiles) != 4 || s2.ReadSchema.ID != 1 {
		t.Errorf("snapshot seq %d, %d files, schema %d", s2.Snapshot.SequenceNumber, len(s2.DataFiles), s2.ReadSchema.ID)
	}
	if _, err := tab.Plan(ctx, ScanOptions{SnapshotID: ptr(int64(42))}); !errors.Is(err, ErrSnapshotNotFound) {
		t.Errorf("unknown snapshot: err = %v", err)
	}
	if _, err := tab.Plan(ctx, ScanOptions{AsOf: time.UnixMilli(1776501457059 - 1)}); !errors.Is(err, ErrSnapshotNotFound) {
		t.Errorf("as-of before the first snapshot: err = %v", err)
	}
}

func TestIdentityConstantsWiden(t *testing.T) {
	real := realDir(t)
	ctx := context.Background()
	tab, err := Open(ctx, storage.OSFS{}, real+"/impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_legacy_partition_schema_evolution")
	if err != nil {
		t.Fatal(err)
	}
	s, err := tab.Plan(ctx, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The partition values were written as int, float and decimal(5,3); the
	// schema now says long, double and decimal(8,3).
	got := s.IdentityConstants(&s.DataFiles[0], s.ReadSchema)
	want := map[int]any{2: int64(1), 3: float64(float32(1.1)), 4: dec(3141)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("constants = %#v, want %#v", got, want)
	}
}

func TestPartitionType(t *testing.T) {
	real := realDir(t)
	ctx := context.Background()
	tab, err := Open(ctx, storage.OSFS{}, real+"/impala/testdata/data/iceberg_test/hadoop_catalog/iceberg_resolution_test/functional_parquet/iceberg_resolution_test")
	if err != nil {
		t.Fatal(err)
	}
	s, err := tab.Plan(ctx, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := &schema.StructType{Fields: []*schema.Field{
		{ID: 1000, Name: "event_time_hour", Type: schema.Int},
		{ID: 1001, Name: "action", Type: schema.String},
	}}
	if got := s.PartitionType(s.ReadSchema); !schema.Equal(got, want) {
		t.Errorf("partition type %s, want %s", got, want)
	}
}

// TestTasksStreamLikePlan: the streamed tasks of every scan case are the
// tasks of Plan's files, in the same order.
func TestTasksStreamLikePlan(t *testing.T) {
	ctx := context.Background()
	var tables int
	for _, root := range []string{duckdbDir(t), impalaDir(t)} {
		var dirs []string
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() && d.Name() == "metadata" {
				dirs = append(dirs, filepath.Dir(p))
				return filepath.SkipDir
			}
			return nil
		})
		for _, dir := range dirs {
			tab, err := Open(ctx, storage.OSFS{}, dir)
			if err != nil {
				continue
			}
			name := dir
			s, err := tab.Plan(ctx, ScanOptions{})
			if err != nil {
				continue
			}
			var want []table.Task
			for i := range s.DataFiles {
				task, err := s.Task(&s.DataFiles[i], nil)
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, task)
			}
			got, err := tab.PlanTasks(ctx, ScanOptions{ManifestWorkers: 2})
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: streamed tasks differ from Plan's:\n got %+v\nwant %+v", name, got, want)
			}
			tables++
		}
	}
	if tables < 10 {
		t.Errorf("only %d tables compared", tables)
	}
}
