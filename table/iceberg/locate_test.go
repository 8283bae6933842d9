package iceberg

import (
	"context"
	"errors"
	"testing"

	"github.com/lakecat/lakecat/storage"
)

func TestFindMetadata(t *testing.T) {
	ctx := context.Background()
	duck := duckdbDir(t) + "/data/persistent"
	imp := impalaDir(t)
	for _, tc := range []struct {
		target, want, root string
		guessed            bool
	}{
		// version-hint.text "2" → v2.metadata.json
		{duck + "/partition_decimal_integer", duck + "/partition_decimal_integer/metadata/v2.metadata.json", duck + "/partition_decimal_integer", false},
		// no hint: highest NNNNN-… (00004-v3-upgraded-… beats 00003-…)
		{duck + "/iceberg_v1_repro/repro/merch_v1", duck + "/iceberg_v1_repro/repro/merch_v1/metadata/00004-v3-upgraded-v1-null-counts.metadata.json", duck + "/iceberg_v1_repro/repro/merch_v1", true},
		{duck + "/null_stats/default/test_nulls/", duck + "/null_stats/default/test_nulls/metadata/00003-9d6a621e-8a72-4190-a880-f6ca02e32b86.metadata.json", duck + "/null_stats/default/test_nulls", true},
		// the metadata folder itself; a hint naming a file without its suffix
		{duck + "/uuid/metadata", duck + "/uuid/metadata/00001-43fda1f4-1c96-4376-ad16-91beb71d0759.metadata.json", duck + "/uuid", false},
		// a metadata file named directly
		{duck + "/equality_delete_extra_column/warehouse/ns/t/metadata/vfinal.metadata.json", duck + "/equality_delete_extra_column/warehouse/ns/t/metadata/vfinal.metadata.json", duck + "/equality_delete_extra_column/warehouse/ns/t", false},
		// Impala's version-hint.txt
		{imp + "/iceberg_mixed_file_format_test", imp + "/iceberg_mixed_file_format_test/metadata/v8.metadata.json", imp + "/iceberg_mixed_file_format_test", false},
		// no hint, vN names
		{imp + "/iceberg_v3/iceberg_v3_default_value_orc", imp + "/iceberg_v3/iceberg_v3_default_value_orc/metadata/v4.metadata.json", imp + "/iceberg_v3/iceberg_v3_default_value_orc", true},
		{imp + "/iceberg_v3/test_default_part", imp + "/iceberg_v3/test_default_part/metadata/v6.metadata.json", imp + "/iceberg_v3/test_default_part", false},
	} {
		got, err := FindMetadata(ctx, storage.OSFS{}, tc.target)
		if err != nil || got.MetadataPath != tc.want || got.Root != tc.root || got.Guessed != tc.guessed {
			t.Errorf("FindMetadata(%s) = %+v, %v\nwant %s, %s, guessed %v", tc.target, got, err, tc.want, tc.root, tc.guessed)
		}
	}
	if _, err := FindMetadata(ctx, storage.OSFS{}, t.TempDir()); !errors.Is(err, ErrNoMetadata) {
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

// TestFindMetadataHint pins the Hadoop rule: a hint is advanced while the
// next version exists, a hint naming a missing version is an error (never
// a silent fallback), and without a hint the highest version is a guess.
func TestFindMetadataHint(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		files []string
		hint  string // "" for no hint file
		want  string
		guess bool
		err   error
	}{
		{"hint current", []string{"v1.metadata.json", "v2.metadata.json"}, "2", "v2.metadata.json", false, nil},
		{"hint behind", []string{"v1.metadata.json", "v2.metadata.json", "v3.metadata.json"}, "1", "v3.metadata.json", false, nil},
		{"hint behind, gap", []string{"v1.metadata.json", "v2.metadata.json", "v4.metadata.json"}, "1", "v2.metadata.json", false, nil},
		{"hint missing version", []string{"v1.metadata.json", "v2.metadata.json"}, "7", "", false, ErrBadVersionHint},
		{"hint missing file", []string{"00001-a.metadata.json"}, "00002-b", "", false, ErrBadVersionHint},
		{"hint file name", []string{"00001-a.metadata.json", "00002-b.metadata.json"}, "00001-a", "00002-b.metadata.json", false, nil},
		{"no hint", []string{"v1.metadata.json", "00002-x.metadata.json", "v3.gz.metadata.json"}, "", "v3.gz.metadata.json", true, nil},
		{"empty hint", []string{"v1.metadata.json", "v2.metadata.json"}, " ", "v2.metadata.json", true, nil},
	} {
		m := memFS{}
		for _, f := range tc.files {
			m["t/metadata/"+f] = []byte("{}")
		}
		if tc.hint != "" {
			m["t/metadata/version-hint.text"] = []byte(tc.hint)
		}
		got, err := FindMetadata(ctx, m, "t")
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("%s: err %v, want %v", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || got.MetadataPath != "t/metadata/"+tc.want || got.Guessed != tc.guess || got.Root != "t" {
			t.Errorf("%s: %+v, %v; want %s guessed %v", tc.name, got, err, tc.want, tc.guess)
		}
	}
}

// TestMetadataCapIsOne pins the one cap on table metadata: storage reads
// at most what the metadata parser accepts.
func TestMetadataCapIsOne(t *testing.T) {
	if storage.MaxMetadataBytes != MaxMetadataBytes {
		t.Fatalf("storage.MaxMetadataBytes %d, MaxMetadataBytes %d", storage.MaxMetadataBytes, MaxMetadataBytes)
	}
}
