package iceberg

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"testing"

	"github.com/lakecat/lakecat/schema"
)

func decodeManifestFile(t *testing.T, path string) (ManifestHeader, []ManifestEntry) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h, es, err := DecodeManifest(bytes.NewReader(b), nil)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return h, es
}

func TestDecodeManifestDecimalPartition(t *testing.T) {
	dir := duckdbDir(t) + "/data/persistent/partition_decimal_integer/metadata/"
	h, es := decodeManifestFile(t, dir+"701af831-4140-47e7-bd56-1a374428e380-m0.avro")
	if h != (ManifestHeader{FormatVersion: 2, SpecID: 0, Content: "data"}) {
		t.Errorf("header = %+v", h)
	}
	type row struct {
		status  int
		content Content
		format  string
		path    string
		count   int64
		size    int64
		part    map[int]any
	}
	want := []row{
		{1, ContentData, "PARQUET", "data/persistent/partition_decimal_integer/data/partition_col=1234.5432/00000-3-c764af9f-0b20-4fb0-b5f4-0222acfd95f8-00003.parquet", 1, 961, map[int]any{1000: schema.DecimalValue{Lo: 12345432}}},
		{1, ContentData, "PARQUET", "data/persistent/partition_decimal_integer/data/partition_col=1.2300/00000-3-c764af9f-0b20-4fb0-b5f4-0222acfd95f8-00002.parquet", 1, 974, map[int]any{1000: schema.DecimalValue{Lo: 12300}}},
		{1, ContentData, "PARQUET", "data/persistent/partition_decimal_integer/data/partition_col=42.5630/00000-3-c764af9f-0b20-4fb0-b5f4-0222acfd95f8-00001.parquet", 1, 954, map[int]any{1000: schema.DecimalValue{Lo: 425630}}},
	}
	var got []row
	for _, e := range es {
		got = append(got, row{e.Status, e.Content, e.FileFormat, e.FilePath, e.RecordCount, e.FileSizeBytes, e.Partition})
		if e.SequenceNumber != nil || e.FileSequenceNumber != nil {
			t.Errorf("%s: sequence numbers should be null (inherited)", e.FilePath)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("entries:\n got %+v\nwant %+v", got, want)
	}

	b, err := os.ReadFile(dir + "snap-2266524373707409896-1-701af831-4140-47e7-bd56-1a374428e380.avro")
	if err != nil {
		t.Fatal(err)
	}
	ml, err := DecodeManifestList(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	// The partition summary of the decimal(8, 4) field: 1.2300 to 1234.5432
	// (unscaled 12300 and 12345432), its 3 files added.
	noNaN := false
	wantML := []ManifestFile{{
		Path:            "data/persistent/partition_decimal_integer/metadata/701af831-4140-47e7-bd56-1a374428e380-m0.avro",
		Length:          7202,
		SpecID:          0,
		Content:         0,
		SequenceNumber:  1,
		AddedSnapshotID: 2266524373707409896,
		Partitions:      []FieldSummary{{ContainsNaN: &noNaN, Lower: []byte{0x30, 0x0c}, Upper: []byte{0x00, 0xbc, 0x60, 0x58}}},
		Files:           3,
	}}
	if !reflect.DeepEqual(ml, wantML) {
		t.Errorf("manifest list:\n got %+v\nwant %+v", ml, wantML)
	}
}

func TestDecodeManifestEqualityDeletes(t *testing.T) {
	dir := duckdbDir(t) + "/data/persistent/equality_delete_extra_column/warehouse/ns/t/metadata/"
	h, es := decodeManifestFile(t, dir+"482c51b1-71ea-4508-b282-e2d753a5ef36-m0.avro")
	if h.Content != "deletes" || h.FormatVersion != 2 {
		t.Errorf("header = %+v", h)
	}
	if len(es) != 1 {
		t.Fatalf("%d entries, want 1", len(es))
	}
	e := es[0]
	// equality_ids is written as array<long> by this writer.
	if e.Content != ContentEqualityDeletes || !reflect.DeepEqual(e.EqualityIDs, []int{1}) ||
		e.RecordCount != 1 || e.FileFormat != "PARQUET" ||
		!reflect.DeepEqual(e.Partition, map[int]any{1000: int32(0)}) ||
		e.FilePath != "data/persistent/equality_delete_extra_column/warehouse/ns/t/data/val_bucket=0/eq-delete-cc70197d-cfbc-4758-8c7e-30a34b566b89.parquet" {
		t.Errorf("entry = %+v", e)
	}
}

func TestDecodeManifestNullPartitionAndV3(t *testing.T) {
	dir := impalaDir(t) + "/iceberg_v3/test_default_part/metadata/"
	h, es := decodeManifestFile(t, dir+"72aaa146-43b8-4166-afa1-03669e13753a-m0.avro")
	if h != (ManifestHeader{FormatVersion: 3, SpecID: 1, Content: "data"}) {
		t.Errorf("header = %+v", h)
	}
	if len(es) != 1 || !reflect.DeepEqual(es[0].Partition, map[int]any{1000: nil}) {
		t.Fatalf("entries = %+v", es)
	}
	_, es = decodeManifestFile(t, dir+"75c8c665-8b6e-44a6-8e5d-74d9e339833c-m0.avro")
	var parts []any
	for _, e := range es {
		parts = append(parts, e.Partition[1000])
	}
	if !reflect.DeepEqual(parts, []any{int32(10), int32(5)}) {
		t.Errorf("partitions = %v", parts)
	}
}

func TestDecodeManifestCorrupt(t *testing.T) {
	dir := duckdbDir(t) + "/data/persistent/partition_decimal_integer/metadata/"
	good, err := os.ReadFile(dir + "701af831-4140-47e7-bd56-1a374428e380-m0.avro")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"magic only", []byte("Obj\x01")},
		{"truncated", good[:len(good)/2]},
		{"not avro", []byte("PAR1....PAR1")},
	} {
		if _, _, err := DecodeManifest(bytes.NewReader(tc.data), nil); !errors.Is(err, ErrCorruptManifest) {
			t.Errorf("%s: manifest err = %v, want ErrCorruptManifest", tc.name, err)
		}
		if _, err := DecodeManifestList(bytes.NewReader(tc.data)); !errors.Is(err, ErrCorruptManifest) {
			t.Errorf("%s: manifest list err = %v, want ErrCorruptManifest", tc.name, err)
		}
	}
}
