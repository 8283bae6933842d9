package iceberg

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/hamba/avro/v2/ocf"

	"github.com/lakecat/lakecat/formats/avro"
	"github.com/lakecat/lakecat/internal/testutil"
)

// A small format-v2 manifest schema written by hand (a subset of the spec's
// fields, which readers must accept), with an identity partition on a
// nullable int (field id 1000) and a date (1001).
const synthManifestSchema = `{"type":"record","name":"manifest_entry","fields":[
 {"name":"status","type":"int","field-id":0},
 {"name":"snapshot_id","type":["null","long"],"default":null,"field-id":1},
 {"name":"sequence_number","type":["null","long"],"default":null,"field-id":3},
 {"name":"data_file","field-id":2,"type":{"type":"record","name":"r2","fields":[
  {"name":"content","type":"int","field-id":134},
  {"name":"file_path","type":"string","field-id":100},
  {"name":"file_format","type":"string","field-id":101},
  {"name":"partition","field-id":102,"type":{"type":"record","name":"r102","fields":[
    {"name":"j","type":["null","int"],"default":null,"field-id":1000},
    {"name":"d","type":["null",{"type":"int","logicalType":"date"}],"default":null,"field-id":1001}]}},
  {"name":"record_count","type":"long","field-id":103},
  {"name":"file_size_in_bytes","type":"long","field-id":104},
  {"name":"equality_ids","type":["null",{"type":"array","items":"int","element-id":136}],"default":null,"field-id":135}]}}]}`

// A format-v1 manifest list schema: no content, no sequence numbers,
// added_snapshot_id as a nullable long (as Iceberg 0.11 wrote it).
const synthListSchema = `{"type":"record","name":"manifest_file","fields":[
 {"name":"manifest_path","type":"string","field-id":500},
 {"name":"manifest_length","type":"long","field-id":501},
 {"name":"partition_spec_id","type":"int","field-id":502},
 {"name":"added_snapshot_id","type":["null","long"],"default":null,"field-id":503}]}`

func encodeOCF(t testing.TB, schema string, meta map[string][]byte, recs ...any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc, err := ocf.NewEncoder(schema, &buf, ocf.WithMetadata(meta), ocf.WithSchemaMarshaler(ocf.FullSchemaMarshaler))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func synthManifest(t testing.TB) []byte {
	return encodeOCF(t, synthManifestSchema, map[string][]byte{"format-version": []byte("2"), "partition-spec-id": []byte("3"), "content": []byte("deletes")},
		map[string]any{"status": 1, "snapshot_id": nil, "sequence_number": nil, "data_file": map[string]any{
			"content": 2, "file_path": "s3://b/t/data/a.parquet", "file_format": "parquet",
			"partition":    map[string]any{"j": map[string]any{"int": 7}, "d": nil},
			"record_count": int64(3), "file_size_in_bytes": int64(100), "equality_ids": map[string]any{"array": []any{1, 2}}}},
		map[string]any{"status": 2, "snapshot_id": map[string]any{"long": int64(9)}, "sequence_number": map[string]any{"long": int64(4)}, "data_file": map[string]any{
			"content": 0, "file_path": "b.orc", "file_format": "ORC",
			"partition":    map[string]any{"j": nil, "d": nil},
			"record_count": int64(0), "file_size_in_bytes": int64(1), "equality_ids": nil}},
	)
}

func synthList(t testing.TB) []byte {
	return encodeOCF(t, synthListSchema, map[string][]byte{},
		map[string]any{"manifest_path": "m1.avro", "manifest_length": int64(10), "partition_spec_id": 0, "added_snapshot_id": map[string]any{"long": int64(5)}},
		map[string]any{"manifest_path": "m2.avro", "manifest_length": int64(11), "partition_spec_id": 1, "added_snapshot_id": nil},
	)
}

func TestDecodeSynthetic(t *testing.T) {
	h, es, err := DecodeManifest(bytes.NewReader(synthManifest(t)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if h != (ManifestHeader{FormatVersion: 2, SpecID: 3, Content: "deletes"}) {
		t.Errorf("header %+v", h)
	}
	nine, four := int64(9), int64(4)
	want := []ManifestEntry{
		{Status: 1, Content: ContentEqualityDeletes, FilePath: "s3://b/t/data/a.parquet", FileFormat: "parquet", RecordCount: 3, FileSizeBytes: 100,
			Partition: map[int]any{1000: int32(7), 1001: nil}, EqualityIDs: []int{1, 2}},
		{Status: 2, SnapshotID: &nine, SequenceNumber: &four, Content: ContentData, FilePath: "b.orc", FileFormat: "ORC", FileSizeBytes: 1,
			Partition: map[int]any{1000: nil, 1001: nil}},
	}
	if !reflect.DeepEqual(es, want) {
		t.Errorf("entries\n got %+v\nwant %+v", es, want)
	}
	ml, err := DecodeManifestList(bytes.NewReader(synthList(t)))
	if err != nil {
		t.Fatal(err)
	}
	wantML := []ManifestFile{{Path: "m1.avro", Length: 10, SpecID: 0, AddedSnapshotID: 5, Files: -1}, {Path: "m2.avro", Length: 11, SpecID: 1, Files: -1}}
	if !reflect.DeepEqual(ml, wantML) {
		t.Errorf("list\n got %+v\nwant %+v", ml, wantML)
	}
}

// FuzzDecodeManifest checks that no input makes the manifest decoder panic,
// and that every failure is a corrupt-manifest error.
func FuzzDecodeManifest(f *testing.F) {
	f.Add(synthManifest(f))
	f.Add(synthList(f))
	for _, b := range testutil.RealSeeds(64<<10, "*-m[0-9]*.avro", "*-m[0-9].avro") {
		f.Add(b) // real manifests, read in place
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, _, err := DecodeManifest(bytes.NewReader(data), []int{1000, 1001}); err != nil && !errors.Is(err, ErrCorruptManifest) && !errors.Is(err, avro.ErrUnsupported) {
			t.Fatalf("error %v does not match ErrCorruptManifest", err)
		}
	})
}

// FuzzDecodeManifestList is FuzzDecodeManifest for manifest lists.
func FuzzDecodeManifestList(f *testing.F) {
	f.Add(synthList(f))
	f.Add(synthManifest(f))
	for _, b := range testutil.RealSeeds(64<<10, "snap-*.avro") {
		f.Add(b) // real manifest lists, read in place
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := DecodeManifestList(bytes.NewReader(data)); err != nil && !errors.Is(err, ErrCorruptManifest) && !errors.Is(err, avro.ErrUnsupported) {
			t.Fatalf("error %v does not match ErrCorruptManifest", err)
		}
	})
}
