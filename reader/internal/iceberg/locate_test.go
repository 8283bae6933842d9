package iceberg

import (
	"context"
	"errors"
	"testing"
)

func TestFindMetadata(t *testing.T) {
	ctx := context.Background()
	duck := duckdbDir(t) + "/data/persistent"
	imp := impalaDir(t)
	for _, tc := range []struct {
		target, want, root string
	}{
		// version-hint.text "2" → v2.metadata.json
		{duck + "/partition_decimal_integer", duck + "/partition_decimal_integer/metadata/v2.metadata.json", duck + "/partition_decimal_integer"},
		// no hint: highest NNNNN-… (00004-v3-upgraded-… beats 00003-…)
		{duck + "/iceberg_v1_repro/repro/merch_v1", duck + "/iceberg_v1_repro/repro/merch_v1/metadata/00004-v3-upgraded-v1-null-counts.metadata.json", duck + "/iceberg_v1_repro/repro/merch_v1"},
		{duck + "/null_stats/default/test_nulls/", duck + "/null_stats/default/test_nulls/metadata/00003-9d6a621e-8a72-4190-a880-f6ca02e32b86.metadata.json", duck + "/null_stats/default/test_nulls"},
		// the metadata folder itself; a hint naming a file without its suffix
		{duck + "/uuid/metadata", duck + "/uuid/metadata/00001-43fda1f4-1c96-4376-ad16-91beb71d0759.metadata.json", duck + "/uuid"},
		// a metadata file named directly
		{duck + "/equality_delete_extra_column/warehouse/ns/t/metadata/vfinal.metadata.json", duck + "/equality_delete_extra_column/warehouse/ns/t/metadata/vfinal.metadata.json", duck + "/equality_delete_extra_column/warehouse/ns/t"},
		// Impala's version-hint.txt
		{imp + "/iceberg_mixed_file_format_test", imp + "/iceberg_mixed_file_format_test/metadata/v8.metadata.json", imp + "/iceberg_mixed_file_format_test"},
		// no hint, vN names
		{imp + "/iceberg_v3/iceberg_v3_default_value_orc", imp + "/iceberg_v3/iceberg_v3_default_value_orc/metadata/v4.metadata.json", imp + "/iceberg_v3/iceberg_v3_default_value_orc"},
		{imp + "/iceberg_v3/test_default_part", imp + "/iceberg_v3/test_default_part/metadata/v6.metadata.json", imp + "/iceberg_v3/test_default_part"},
	} {
		got, root, err := FindMetadata(ctx, OSFS{}, tc.target)
		if err != nil || got != tc.want || root != tc.root {
			t.Errorf("FindMetadata(%s) = %s, %s, %v\nwant %s, %s", tc.target, got, root, err, tc.want, tc.root)
		}
	}
	if _, _, err := FindMetadata(ctx, OSFS{}, t.TempDir()); !errors.Is(err, ErrNoMetadata) {
		t.Errorf("empty folder: err = %v, want ErrNoMetadata", err)
	}
}

func TestMetadataVersion(t *testing.T) {
	for name, want := range map[string]int64{
		"v1.metadata.json": 1, "v12.metadata.json": 12, "00003-3f1801a5-7dfb.metadata.json": 3,
		"00004-v3-upgraded-v1-null-counts.metadata.json": 4,
		"v7.gz.metadata.json":                            7, "00008-ab.metadata.json.gz": 8, "v9.metadata.json.gzip": -1,
		"vfinal.metadata.json": -1, "version-hint.text": -1, "v.metadata.json": -1, "-1.metadata.json": -1,
	} {
		v, ok := metadataVersion(name)
		if !ok {
			v = -1
		}
		if v != want {
			t.Errorf("metadataVersion(%q) = %d, want %d", name, v, want)
		}
	}
}
