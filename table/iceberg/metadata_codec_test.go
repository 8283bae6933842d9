package iceberg

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/internal/jsonutil"
	"github.com/lakecat/lakecat/schema"
)

// realMetadata pins, for every Iceberg table metadata JSON under
// ../shared/testdata/real: format version, current schema id, last-column-id,
// the current schema's top-level field count and field count at every depth,
// the number of schemas, and whether the table has a default name mapping.
var realMetadata = []struct {
	path                                  string
	format, currentSchemaID, lastColumnID int
	topFields, allFields, schemas         int
	hasNameMapping                        bool
}{
	{"duckdb-iceberg/data/persistent/add_columns_with_defaults/default.db/add_columns_with_defaults/metadata/00000-d099e962-c779-4b0d-84d3-bfca774862f4.metadata.json", 2, 0, 1, 1, 1, 1, false},
	{"duckdb-iceberg/data/persistent/add_columns_with_defaults/default.db/add_columns_with_defaults/metadata/00001-af871980-15f9-44a3-9761-ba6ac5225b74.metadata.json", 2, 0, 1, 1, 1, 1, false},
	{"duckdb-iceberg/data/persistent/add_columns_with_defaults/default.db/add_columns_with_defaults/metadata/00002-2d907d9d-0f96-4bf3-9548-edfd9194704c.metadata.json", 2, 1, 15, 15, 15, 2, false},
	{"duckdb-iceberg/data/persistent/add_columns_with_defaults/default.db/add_columns_with_defaults/metadata/00003-3f1801a5-7dfb-4072-b14a-39cd12f9279b.metadata.json", 2, 1, 15, 15, 15, 2, false},
	{"duckdb-iceberg/data/persistent/case_sensitive_names/default.db/case_sensitive_names/metadata/00000-c86b5eba-44ed-4a98-8b59-1b0dc9fac4ff.metadata.json", 2, 0, 2, 2, 2, 1, false},
	{"duckdb-iceberg/data/persistent/case_sensitive_names/default.db/case_sensitive_names/metadata/00001-a7a3a44c-4aac-4619-bebd-11be37b27351.metadata.json", 2, 0, 2, 2, 2, 1, false},
	{"duckdb-iceberg/data/persistent/column_mapping/warehouse/default.db/my_table/metadata/00000-5d9111ed-e56c-4ceb-9040-09d3be71926b.metadata.json", 2, 0, 11, 6, 11, 1, false},
	{"duckdb-iceberg/data/persistent/column_mapping/warehouse/default.db/my_table/metadata/00001-75643dae-a7a7-46ae-ab30-ea80d3793f3f.metadata.json", 2, 0, 11, 6, 11, 1, true},
	{"duckdb-iceberg/data/persistent/equality_delete_extra_column/warehouse/ns/t/metadata/00000-530ff892-85f4-4c5d-8cd1-236fb6d3c10a.metadata.json", 2, 0, 2, 2, 2, 1, false},
	{"duckdb-iceberg/data/persistent/equality_delete_extra_column/warehouse/ns/t/metadata/00001-55453390-51ec-4023-a1fa-290a9ae468fa.metadata.json", 2, 0, 2, 2, 2, 1, false},
	{"duckdb-iceberg/data/persistent/equality_delete_extra_column/warehouse/ns/t/metadata/vfinal.metadata.json", 2, 0, 2, 2, 2, 1, false},
	{"duckdb-iceberg/data/persistent/iceberg_v1_repro/repro/merch_v1/metadata/00000-c478e8ee-78c2-48c0-b618-24aa51a4b560.metadata.json", 1, 0, 3, 3, 3, 1, false},
	{"duckdb-iceberg/data/persistent/iceberg_v1_repro/repro/merch_v1/metadata/00001-310f4050-b3cd-4807-a3b7-f7d7e170bdae.metadata.json", 1, 0, 3, 3, 3, 1, false},
	{"duckdb-iceberg/data/persistent/iceberg_v1_repro/repro/merch_v1/metadata/00002-60bac781-d939-4858-a95a-dd182ca383c5.metadata.json", 1, 0, 3, 3, 3, 1, false},
	{"duckdb-iceberg/data/persistent/iceberg_v1_repro/repro/merch_v1/metadata/00003-8d01e4aa-d143-49c9-898e-b5e477577b70.metadata.json", 1, 0, 3, 3, 3, 1, false},
	{"duckdb-iceberg/data/persistent/iceberg_v1_repro/repro/merch_v1/metadata/00004-v3-upgraded-v1-null-counts.metadata.json", 3, 0, 3, 3, 3, 1, false},
	{"duckdb-iceberg/data/persistent/map_stats/default.db/map_stats/metadata/00000-e5eddfa2-1468-4e06-bb1d-bb443e4dd618.metadata.json", 2, 0, 6, 4, 6, 1, false},
	{"duckdb-iceberg/data/persistent/map_stats/default.db/map_stats/metadata/00001-95f81ca3-d5e0-4b8c-8b1c-4530ccfd8684.metadata.json", 2, 0, 6, 4, 6, 1, false},
	{"duckdb-iceberg/data/persistent/map_stats/default.db/map_stats/metadata/00002-0e059d4b-e5e8-41af-a763-76cbf3a3d0bc.metadata.json", 2, 0, 6, 4, 6, 1, false},
	{"duckdb-iceberg/data/persistent/null_stats/default/test_nulls/metadata/00000-77550139-9af0-40ae-b478-b4357ab2cf54.metadata.json", 2, 0, 4, 4, 4, 1, false},
	{"duckdb-iceberg/data/persistent/null_stats/default/test_nulls/metadata/00001-2ce4255e-e070-489c-9d2f-c0a9e1db179b.metadata.json", 2, 0, 4, 4, 4, 1, false},
	{"duckdb-iceberg/data/persistent/null_stats/default/test_nulls/metadata/00002-066881b3-e853-4868-9a22-db18cdbc2a68.metadata.json", 2, 0, 4, 4, 4, 1, false},
	{"duckdb-iceberg/data/persistent/null_stats/default/test_nulls/metadata/00003-9d6a621e-8a72-4190-a880-f6ca02e32b86.metadata.json", 2, 0, 4, 4, 4, 1, false},
	{"duckdb-iceberg/data/persistent/partition_decimal_integer/metadata/v1.metadata.json", 2, 0, 3, 3, 3, 1, false},
	{"duckdb-iceberg/data/persistent/partition_decimal_integer/metadata/v2.metadata.json", 2, 0, 3, 3, 3, 1, false},
	{"duckdb-iceberg/data/persistent/uuid/metadata/00000-e8729e86-fe06-4ffc-835b-283f0d3e9921.metadata.json", 2, 0, 1, 1, 1, 1, false},
	{"duckdb-iceberg/data/persistent/uuid/metadata/00001-43fda1f4-1c96-4376-ad16-91beb71d0759.metadata.json", 2, 0, 1, 1, 1, 1, false},
	{"iceberg-rust/crates/iceberg/testdata/example_table_metadata_v2.json", 2, 1, 3, 8, 8, 2, false},
	{"iceberg-rust/crates/iceberg/testdata/example_table_metadata_v2_partition_evolution.json", 2, 1, 3, 8, 8, 2, false},
	{"iceberg-rust/crates/iceberg/testdata/table_metadata/TableMetadataV1Compat.json", 1, 0, 4, 4, 4, 1, false},
	{"iceberg-rust/crates/iceberg/testdata/table_metadata/TableMetadataV1Valid.json", 1, 0, 3, 3, 3, 1, false},
	{"iceberg-rust/crates/iceberg/testdata/table_metadata/TableMetadataV2Valid.json", 2, 1, 3, 3, 3, 2, false},
	{"iceberg-rust/crates/iceberg/testdata/table_metadata/TableMetadataV2ValidMinimal.json", 2, 0, 3, 3, 3, 1, false},
	{"iceberg-rust/crates/iceberg/testdata/table_metadata/TableMetadataV3ValidMinimal.json", 3, 0, 3, 3, 3, 1, false},
	{"impala/testdata/data/iceberg_test/hadoop_catalog/ice/complextypestbl_iceberg_orc/metadata/v1.metadata.json", 1, 0, 29, 6, 29, 1, false},
	{"impala/testdata/data/iceberg_test/hadoop_catalog/ice/complextypestbl_iceberg_orc/metadata/v2.metadata.json", 1, 0, 29, 6, 29, 1, false},
	{"impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_alltypes_part/metadata/v1.metadata.json", 1, 0, 9, 9, 9, 1, false},
	{"impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_alltypes_part/metadata/v2.metadata.json", 1, 0, 9, 9, 9, 1, true},
	{"impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_alltypes_part_orc/metadata/v1.metadata.json", 1, 0, 9, 9, 9, 1, false},
	{"impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_alltypes_part_orc/metadata/v2.metadata.json", 1, 0, 9, 9, 9, 1, true},
	{"impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_legacy_partition_schema_evolution/metadata/v1.metadata.json", 1, 0, 4, 4, 4, 1, false},
	{"impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_legacy_partition_schema_evolution/metadata/v2.metadata.json", 1, 0, 4, 4, 4, 1, true},
	{"impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_legacy_partition_schema_evolution_orc/metadata/v1.metadata.json", 1, 0, 4, 4, 4, 1, false},
	{"impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_legacy_partition_schema_evolution_orc/metadata/v2.metadata.json", 1, 0, 4, 4, 4, 1, true},
	{"impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_v2_delete_both_eq_and_pos/metadata/v1.metadata.json", 2, 0, 3, 3, 3, 1, false},
	{"impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_v2_delete_both_eq_and_pos/metadata/v2.metadata.json", 2, 0, 3, 3, 3, 1, false},
	{"impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_v2_delete_both_eq_and_pos/metadata/v3.metadata.json", 2, 0, 3, 3, 3, 1, false},
	{"impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_v2_delete_both_eq_and_pos/metadata/v4.metadata.json", 2, 0, 3, 3, 3, 1, false},
	{"impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_v2_partitioned_position_deletes_orc/metadata/v1.metadata.json", 2, 0, 4, 4, 4, 1, false},
	{"impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_v2_partitioned_position_deletes_orc/metadata/v2.metadata.json", 2, 0, 4, 4, 4, 1, false},
	{"impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_v2_partitioned_position_deletes_orc/metadata/v3.metadata.json", 2, 0, 4, 4, 4, 1, false},
	{"impala/testdata/data/iceberg_test/hadoop_catalog/iceberg_resolution_test/functional_parquet/iceberg_resolution_test/metadata/v1.metadata.json", 1, 0, 16, 7, 16, 1, false},
	{"impala/testdata/data/iceberg_test/hadoop_catalog/iceberg_resolution_test/functional_parquet/iceberg_resolution_test/metadata/v2.metadata.json", 1, 0, 16, 7, 16, 1, false},
	{"impala/testdata/data/iceberg_test/iceberg_column_case_sensitivity_issue/metadata/v3.metadata.json", 1, 0, 2, 2, 2, 1, false},
	{"impala/testdata/data/iceberg_test/iceberg_migrated_alter_test/metadata/v1.metadata.json", 1, 0, 3, 3, 3, 1, true},
	{"impala/testdata/data/iceberg_test/iceberg_migrated_alter_test/metadata/v2.metadata.json", 1, 0, 3, 3, 3, 1, true},
	{"impala/testdata/data/iceberg_test/iceberg_migrated_alter_test_orc/metadata/v1.metadata.json", 1, 0, 3, 3, 3, 1, true},
	{"impala/testdata/data/iceberg_test/iceberg_migrated_alter_test_orc/metadata/v2.metadata.json", 1, 0, 3, 3, 3, 1, true},
	{"impala/testdata/data/iceberg_test/iceberg_mixed_file_format_test/metadata/v1.metadata.json", 1, 0, 3, 3, 3, 1, false},
	{"impala/testdata/data/iceberg_test/iceberg_mixed_file_format_test/metadata/v2.metadata.json", 1, 0, 3, 3, 3, 1, false},
	{"impala/testdata/data/iceberg_test/iceberg_mixed_file_format_test/metadata/v3.metadata.json", 1, 0, 3, 3, 3, 1, false},
	{"impala/testdata/data/iceberg_test/iceberg_mixed_file_format_test/metadata/v4.metadata.json", 1, 0, 3, 3, 3, 1, false},
	{"impala/testdata/data/iceberg_test/iceberg_mixed_file_format_test/metadata/v5.metadata.json", 1, 0, 3, 3, 3, 1, false},
	{"impala/testdata/data/iceberg_test/iceberg_mixed_file_format_test/metadata/v6.metadata.json", 1, 0, 3, 3, 3, 1, false},
	{"impala/testdata/data/iceberg_test/iceberg_mixed_file_format_test/metadata/v7.metadata.json", 1, 0, 3, 3, 3, 1, false},
	{"impala/testdata/data/iceberg_test/iceberg_mixed_file_format_test/metadata/v8.metadata.json", 1, 0, 3, 3, 3, 1, false},
	{"impala/testdata/data/iceberg_test/iceberg_v3/iceberg_v3_default_value/metadata/v1.metadata.json", 3, 0, 1, 1, 1, 1, false},
	{"impala/testdata/data/iceberg_test/iceberg_v3/iceberg_v3_default_value/metadata/v2.metadata.json", 3, 0, 1, 1, 1, 1, false},
	{"impala/testdata/data/iceberg_test/iceberg_v3/iceberg_v3_default_value/metadata/v3.metadata.json", 3, 1, 2, 2, 2, 2, false},
	{"impala/testdata/data/iceberg_test/iceberg_v3/iceberg_v3_default_value/metadata/v4.metadata.json", 3, 1, 2, 2, 2, 2, false},
	{"impala/testdata/data/iceberg_test/iceberg_v3/iceberg_v3_default_value_avro/metadata/v1.metadata.json", 3, 0, 1, 1, 1, 1, false},
	{"impala/testdata/data/iceberg_test/iceberg_v3/iceberg_v3_default_value_avro/metadata/v2.metadata.json", 3, 0, 1, 1, 1, 1, false},
	{"impala/testdata/data/iceberg_test/iceberg_v3/iceberg_v3_default_value_avro/metadata/v3.metadata.json", 3, 1, 2, 2, 2, 2, false},
	{"impala/testdata/data/iceberg_test/iceberg_v3/iceberg_v3_default_value_avro/metadata/v4.metadata.json", 3, 1, 2, 2, 2, 2, false},
	{"impala/testdata/data/iceberg_test/iceberg_v3/iceberg_v3_default_value_orc/metadata/v1.metadata.json", 3, 0, 1, 1, 1, 1, false},
	{"impala/testdata/data/iceberg_test/iceberg_v3/iceberg_v3_default_value_orc/metadata/v2.metadata.json", 3, 0, 1, 1, 1, 1, false},
	{"impala/testdata/data/iceberg_test/iceberg_v3/iceberg_v3_default_value_orc/metadata/v3.metadata.json", 3, 1, 2, 2, 2, 2, false},
	{"impala/testdata/data/iceberg_test/iceberg_v3/iceberg_v3_default_value_orc/metadata/v4.metadata.json", 3, 1, 2, 2, 2, 2, false},
	{"impala/testdata/data/iceberg_test/iceberg_v3/test_default_part/metadata/v1.metadata.json", 3, 0, 1, 1, 1, 1, false},
	{"impala/testdata/data/iceberg_test/iceberg_v3/test_default_part/metadata/v2.metadata.json", 3, 0, 1, 1, 1, 1, false},
	{"impala/testdata/data/iceberg_test/iceberg_v3/test_default_part/metadata/v3.metadata.json", 3, 1, 2, 2, 2, 2, false},
	{"impala/testdata/data/iceberg_test/iceberg_v3/test_default_part/metadata/v4.metadata.json", 3, 1, 2, 2, 2, 2, false},
	{"impala/testdata/data/iceberg_test/iceberg_v3/test_default_part/metadata/v5.metadata.json", 3, 1, 2, 2, 2, 2, false},
	{"impala/testdata/data/iceberg_test/iceberg_v3/test_default_part/metadata/v6.metadata.json", 3, 1, 2, 2, 2, 2, false},
}

func TestRealTableMetadata(t *testing.T) {
	root := realDir(t)
	// Every metadata file present must be pinned above.
	var found []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), `"format-version"`) {
			rel, _ := filepath.Rel(root, p)
			found = append(found, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var pinned []string
	for _, c := range realMetadata {
		pinned = append(pinned, c.path)
	}
	sort.Strings(found)
	sort.Strings(pinned)
	if !reflect.DeepEqual(found, pinned) {
		t.Errorf("metadata files on disk differ from the pinned table:\n found %v\npinned %v", found, pinned)
	}
	formats := map[int]int{}
	for _, c := range realMetadata {
		t.Run(c.path, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(c.path)))
			if err != nil {
				t.Fatal(err)
			}
			m, err := ParseMetadata(b)
			if err != nil {
				t.Fatal(err)
			}
			cur := m.CurrentSchema()
			all := 0
			schema.Walk(cur.Fields, func(_ []string, _ *schema.Field) bool { all++; return true })
			nm, err := m.NameMapping()
			if err != nil {
				t.Fatal(err)
			}
			got := []any{m.FormatVersion, m.CurrentSchemaID, m.LastColumnID, len(cur.Fields), all, len(m.Schemas), nm != nil}
			want := []any{c.format, c.currentSchemaID, c.lastColumnID, c.topFields, c.allFields, c.schemas, c.hasNameMapping}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got %v, want %v", got, want)
			}
			if s := m.CurrentSnapshot(); m.CurrentSnapshotID != nil && s == nil {
				t.Errorf("current snapshot %d not found", *m.CurrentSnapshotID)
			}
			out, err := MarshalMetadata(m)
			if err != nil {
				t.Fatal(err)
			}
			if c.format == 1 && !bytes.Contains(b, []byte(`"schema"`)) {
				// A v1 file must have "schema" (the v1 writer rules);
				// one that has only "schemas" gets it written.
				var in map[string]any
				dec := json.NewDecoder(bytes.NewReader(b))
				dec.UseNumber() // snapshot ids do not fit a float64
				if err := dec.Decode(&in); err != nil {
					t.Fatal(err)
				}
				for _, s := range in["schemas"].([]any) {
					if s.(map[string]any)["schema-id"] == json.Number(strconv.Itoa(m.CurrentSchemaID)) {
						in["schema"] = s
					}
				}
				if b, err = json.Marshal(in); err != nil {
					t.Fatal(err)
				}
			}
			assertJSONEqual(t, out, b)
			formats[c.format]++
		})
	}
	if formats[1] == 0 || formats[2] == 0 || formats[3] == 0 {
		t.Errorf("format versions covered: %v, want 1, 2 and 3", formats)
	}
}

func readReal(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(realDir(t), filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestTableMetadataV1(t *testing.T) {
	b := readReal(t, "iceberg-rust/crates/iceberg/testdata/table_metadata/TableMetadataV1Valid.json")
	m, err := ParseMetadata(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Schemas) != 1 || m.Schemas[0].ID != 0 || m.CurrentSchemaID != 0 {
		t.Fatalf("schemas %v current %d", m.Schemas, m.CurrentSchemaID)
	}
	want := []PartitionSpec{{SpecID: 0, Fields: []PartitionField{{SourceID: 1, FieldID: 1000, Name: "x", Transform: "identity"}}}}
	if len(m.PartitionSpecs) != 1 || !reflect.DeepEqual(stripPresence(m.PartitionSpecs), want) {
		t.Fatalf("partition specs %+v", m.PartitionSpecs)
	}
	if m.LastPartitionID != 1000 || m.CurrentSnapshotID != nil || m.CurrentSnapshot() != nil || len(m.Snapshots) != 0 {
		t.Fatalf("last-partition-id %d current snapshot %v", m.LastPartitionID, m.CurrentSnapshotID)
	}
	if f := m.CurrentSchema().FindByID(2); f == nil || f.Name != "y" || f.Doc != "comment" || !f.Required || f.Type != schema.Long {
		t.Fatalf("field 2: %v", f)
	}
	out, err := MarshalMetadata(m)
	if err != nil {
		t.Fatal(err)
	}
	assertJSONEqual(t, out, b)
	if strings.Contains(string(out), `"schemas"`) || !strings.Contains(string(out), `"current-snapshot-id":-1`) {
		t.Fatalf("v1 rewrite added or lost keys: %s", out)
	}
}

func stripPresence(ps []PartitionSpec) []PartitionSpec {
	out := make([]PartitionSpec, len(ps))
	for i, p := range ps {
		out[i] = PartitionSpec{SpecID: p.SpecID, Extra: p.Extra}
		for _, f := range p.Fields {
			out[i].Fields = append(out[i].Fields, PartitionField{SourceID: f.SourceID, FieldID: f.FieldID, Name: f.Name, Transform: f.Transform, Extra: f.Extra})
		}
	}
	return out
}

func TestTableMetadataV2Snapshots(t *testing.T) {
	b := readReal(t, "iceberg-rust/crates/iceberg/testdata/example_table_metadata_v2.json")
	m, err := ParseMetadata(b)
	if err != nil {
		t.Fatal(err)
	}
	s := m.CurrentSnapshot()
	if s == nil || s.SnapshotID != 3055729675574597004 || *s.ParentSnapshotID != 3051729675574597004 || s.SequenceNumber != 1 || *s.SchemaID != 1 {
		t.Fatalf("current snapshot %+v", s)
	}
	first := m.SnapshotByID(3051729675574597004)
	if first == nil || first.ParentSnapshotID != nil || first.SchemaID != nil || first.SequenceNumber != 0 {
		t.Fatalf("first snapshot %+v", first)
	}
	if sc := m.SchemaForSnapshot(first); sc.ID != 1 {
		t.Fatalf("schema for a snapshot without schema-id: %d, want the current 1", sc.ID)
	}
	if sc := m.SchemaByID(0); sc == nil || len(sc.Fields) != 1 || sc.Fields[0].Name != "x" {
		t.Fatalf("schema 0: %v", sc)
	}
	if m.SchemaByID(5) != nil || m.SnapshotByID(1) != nil {
		t.Fatal("lookup of a missing id returned a value")
	}
	if _, ok := m.Extra["sort-orders"]; !ok {
		t.Fatalf("sort-orders not kept: %v", m.Extra)
	}
}

func TestTableMetadataNameMappingProperty(t *testing.T) {
	b := readReal(t, "impala/testdata/data/iceberg_test/iceberg_migrated_alter_test/metadata/v2.metadata.json")
	m, err := ParseMetadata(b)
	if err != nil {
		t.Fatal(err)
	}
	nm, err := m.NameMapping()
	if err != nil {
		t.Fatal(err)
	}
	want := schema.NameMapping{
		{FieldID: intp(1), Names: []string{"int_col"}},
		{FieldID: intp(2), Names: []string{"string_col"}},
		{FieldID: intp(3), Names: []string{"double_col"}},
	}
	if !reflect.DeepEqual(nm, want) {
		t.Fatalf("name mapping %+v", nm)
	}
	if !reflect.DeepEqual(schema.NameMappingFromSchema(m.CurrentSchema()), want) {
		t.Fatal("the schema's own mapping differs")
	}
}

func TestTableMetadataUnsignedSnapshotID(t *testing.T) {
	b := readReal(t, "duckdb-iceberg/data/persistent/equality_delete_extra_column/warehouse/ns/t/metadata/vfinal.metadata.json")
	m, err := ParseMetadata(b)
	if err != nil {
		t.Fatal(err)
	}
	// 9876543210123456789 is above 2^63-1: kept modulo 2^64 and written back as is.
	const id = int64(-8570200863586094827)
	if m.CurrentSnapshotID == nil || *m.CurrentSnapshotID != id || m.CurrentSnapshot() == nil {
		t.Fatalf("current snapshot id %v", m.CurrentSnapshotID)
	}
	out, err := MarshalMetadata(m)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"current-snapshot-id":9876543210123456789`) {
		t.Fatalf("unsigned id not written back: %s", out)
	}
}

func TestTableMetadataNew(t *testing.T) {
	m := &Metadata{
		FormatVersion: 2, TableUUID: "u", Location: "s3://b/t", LastSequenceNumber: 1, LastUpdatedMs: 5, LastColumnID: 2,
		Schemas:         []*schema.Schema{schema.New(0, &schema.Field{ID: 1, Name: "a", Type: schema.Int, Required: true}), schema.New(3, &schema.Field{ID: 1, Name: "a", Type: schema.Long, Required: true}, &schema.Field{ID: 2, Name: "b", Type: schema.String})},
		CurrentSchemaID: 3, PartitionSpecs: []PartitionSpec{{SpecID: 0}}, LastPartitionID: 999,
		Properties: map[string]string{"b": "2", "a": "1"},
	}
	out, err := MarshalMetadata(m)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"format-version":2,"table-uuid":"u","location":"s3://b/t","last-sequence-number":1,"last-updated-ms":5,"last-column-id":2,` +
		`"current-schema-id":3,"schemas":[{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"a","required":true,"type":"int"}]},` +
		`{"type":"struct","schema-id":3,"fields":[{"id":1,"name":"a","required":true,"type":"long"},{"id":2,"name":"b","required":false,"type":"string"}]}],` +
		`"default-spec-id":0,"partition-specs":[{"spec-id":0,"fields":[]}],"last-partition-id":999,"properties":{"a":"1","b":"2"}}`
	if string(out) != want {
		t.Fatalf("got  %s\nwant %s", out, want)
	}
	m2, err := ParseMetadata(out)
	if err != nil {
		t.Fatal(err)
	}
	if m2.CurrentSchema().ID != 3 || !m2.CurrentSchema().Equal(m.Schemas[1]) || m2.CurrentSnapshot() != nil {
		t.Fatal("re-parsed metadata differs")
	}
	m.FormatVersion = 1
	out, err = MarshalMetadata(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"schema":{`, `"partition-spec":[]`, `"current-snapshot-id":-1`} {
		if !strings.Contains(string(out), k) {
			t.Errorf("format v1 output lacks %s: %s", k, out)
		}
	}
	if strings.Contains(string(out), "last-sequence-number") {
		t.Errorf("format v1 output has last-sequence-number: %s", out)
	}
}

func TestTableMetadataErrors(t *testing.T) {
	base := `"table-uuid":"u","location":"l","last-sequence-number":0,"last-updated-ms":1,"last-column-id":1,"current-schema-id":0,` +
		`"schemas":[{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"a","required":false,"type":"int"}]}],` +
		`"default-spec-id":0,"partition-specs":[{"spec-id":0,"fields":[]}],"last-partition-id":999`
	if _, err := ParseMetadata([]byte(`{"format-version":2,` + base + `}`)); err != nil {
		t.Fatalf("valid base: %v", err)
	}
	for name, in := range map[string]string{
		"format 4":         `{"format-version":4,` + base + `}`,
		"format 2.0":       `{"format-version":2.0,` + base + `}`,
		"no schema":        `{"format-version":2,"last-updated-ms":1,"last-column-id":1,"last-sequence-number":0,"current-schema-id":0}`,
		"current missing":  `{"format-version":2,` + strings.Replace(base, `"current-schema-id":0`, `"current-schema-id":7`, 1) + `}`,
		"unknown type":     `{"format-version":2,` + strings.Replace(base, `"type":"int"`, `"type":"integer32"`, 1) + `}`,
		"float column id":  `{"format-version":2,` + strings.Replace(base, `"last-column-id":1`, `"last-column-id":1.0`, 1) + `}`,
		"bad snapshot":     `{"format-version":2,` + base + `,"snapshots":[{"snapshot-id":"x","timestamp-ms":1}]}`,
		"bad spec":         `{"format-version":2,` + strings.Replace(base, `"spec-id":0`, `"spec-id":null`, 1) + `}`,
		"not an object":    `[]`,
		"truncated":        `{"format-version":2,` + base,
		"properties float": `{"format-version":2,` + base + `,"properties":{"a":1}}`,
	} {
		if _, err := ParseMetadata([]byte(in)); !errors.Is(err, schema.ErrInvalidSchema) {
			t.Errorf("%s: error %v, want schema.ErrInvalidSchema", name, err)
		}
	}
	_, err := ParseMetadata([]byte(`{"format-version":2,` + strings.Replace(base, `"type":"int"`, `"type":"integer32"`, 1) + `}`))
	if !errors.Is(err, schema.ErrUnknownType) || !strings.Contains(err.Error(), `"a"`) || !strings.Contains(err.Error(), `"integer32"`) {
		t.Errorf("unknown type error %q", err)
	}
}

func intp(v int) *int { return &v }

// assertJSONEqual fails t unless got and want are the same JSON value
// (see jsonutil.Equal: 1 and 1.0 are equal, 1 and 2 are not).
func assertJSONEqual(t testing.TB, got, want []byte) {
	t.Helper()
	eq, err := jsonutil.Equal(got, want)
	if err != nil {
		t.Fatalf("invalid JSON: %v\n got: %s\nwant: %s", err, got, want)
	}
	if !eq {
		t.Fatalf("JSON values differ\n got: %s\nwant: %s", jsonutil.Compact(got), jsonutil.Compact(want))
	}
}

// TestCurrentSnapshotNotInSnapshots: a current-snapshot-id that names no
// snapshot of "snapshots" is invalid metadata naming the id (it read as an
// empty table); -1 and null, no current snapshot, stay valid.
func TestCurrentSnapshotNotInSnapshots(t *testing.T) {
	base := `{"format-version":2,"table-uuid":"u","location":"l","last-sequence-number":1,"last-updated-ms":1,"last-column-id":1,"current-schema-id":0,` +
		`"schemas":[{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"a","required":false,"type":"int"}]}],` +
		`"default-spec-id":0,"partition-specs":[{"spec-id":0,"fields":[]}],"last-partition-id":999,` +
		`"snapshots":[{"snapshot-id":5,"sequence-number":1,"timestamp-ms":1,"manifest-list":"m.avro","summary":{"operation":"append"}}],`
	for _, cur := range []string{"5", "-1", "null"} {
		m, err := ParseMetadata([]byte(base + `"current-snapshot-id":` + cur + `}`))
		if err != nil {
			t.Fatalf("current-snapshot-id %s: %v", cur, err)
		}
		if got := m.CurrentSnapshot(); (got != nil) != (cur == "5") {
			t.Errorf("current-snapshot-id %s: CurrentSnapshot %v", cur, got)
		}
	}
	_, err := ParseMetadata([]byte(base + `"current-snapshot-id":6}`))
	if !errors.Is(err, schema.ErrInvalidSchema) || !errors.Is(err, lakecat.ErrCorrupt) || !strings.Contains(err.Error(), "current-snapshot-id 6 names no snapshot") {
		t.Fatalf("error %v, want schema.ErrInvalidSchema naming current-snapshot-id 6", err)
	}
}

// TestNameMappingDuckDBColumnMapping applies the nested mapping of
// duckdb-iceberg's column_mapping table to the id-less layout of its
// mock_data.parquet (map, list and struct columns).
func TestNameMappingDuckDBColumnMapping(t *testing.T) {
	b := readReal(t, "duckdb-iceberg/data/persistent/column_mapping/warehouse/default.db/my_table/metadata/00001-75643dae-a7a7-46ae-ab30-ea80d3793f3f.metadata.json")
	md, err := ParseMetadata(b)
	if err != nil {
		t.Fatal(err)
	}
	m, err := md.NameMapping()
	if err != nil {
		t.Fatal(err)
	}
	file := schema.New(0,
		fileField("id", schema.Long, false), fileField("name", schema.String, false), fileField("age", schema.Long, false),
		fileField("attributes", &schema.MapType{Key: fileField(schema.KeyName, schema.String, true), Value: fileField(schema.ValueName, schema.String, false)}, false),
		fileField("scores", &schema.ListType{Element: fileField(schema.ElementName, schema.Long, false)}, false),
		fileField("profile", &schema.StructType{Fields: []*schema.Field{fileField("email", schema.String, false), fileField("verified", schema.Boolean, false)}}, false),
	)
	got := m.Apply(file)
	// The result has exactly the table schema's ids.
	if !reflect.DeepEqual(fieldIDs(got), fieldIDs(md.CurrentSchema())) {
		t.Fatalf("ids %v\nwant %v", fieldIDs(got), fieldIDs(md.CurrentSchema()))
	}
	if !reflect.DeepEqual(schema.NameMappingFromSchema(md.CurrentSchema()), m) {
		t.Fatal("NameMappingFromSchema differs from the table's mapping")
	}
}

// fileField makes an id-less file field.
func fileField(name string, typ schema.Type, required bool) *schema.Field {
	return &schema.Field{ID: schema.NoID, Name: name, Type: typ, Required: required}
}

// fieldIDs maps each field's slash-separated path of names to its id.
func fieldIDs(s *schema.Schema) map[string]int {
	out := map[string]int{}
	schema.Walk(s.Fields, func(path []string, f *schema.Field) bool {
		out[strings.Join(path, "/")] = f.ID
		return true
	})
	return out
}

// TestMetadataDuplicateFieldID: a schema of the metadata with one field id
// twice is invalid, and the error names the metadata, both fields and the id.
func TestMetadataDuplicateFieldID(t *testing.T) {
	_, err := ParseMetadata([]byte(`{"format-version":2,"table-uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1","location":"s3://b/t","last-sequence-number":0,"last-updated-ms":1,"last-column-id":2,"current-schema-id":0,
				"schemas":[{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"a","required":true,"type":"int"},{"id":1,"name":"b","required":false,"type":"long"}]}],
				"default-spec-id":0,"partition-specs":[{"spec-id":0,"fields":[]}],"last-partition-id":999,"default-sort-order-id":0,"sort-orders":[{"order-id":0,"fields":[]}]}`))
	want := `schema: iceberg table metadata: field "b": duplicate field id 1 (also field "a")`
	if err == nil || err.Error() != want || !errors.Is(err, schema.ErrInvalidSchema) {
		t.Fatalf("%v, want %s (ErrInvalidSchema)", err, want)
	}
}
