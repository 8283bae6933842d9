package iceberg

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io/fs"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/storage"
)

// memFS is an in-memory storage.FS keyed by path, the way an object store would be
// plugged in.
type memFS map[string][]byte

type memFile struct{ *bytes.Reader }

func (memFile) Close() error { return nil }

func (m memFS) Open(_ context.Context, p string) (storage.File, error) {
	b, ok := m[p]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	}
	return memFile{bytes.NewReader(b)}, nil
}

func (m memFS) List(_ context.Context, dir string) ([]string, error) {
	seen := map[string]bool{}
	for k := range m {
		if rest, ok := strings.CutPrefix(k, dir+"/"); ok {
			name, _, _ := strings.Cut(rest, "/")
			seen[name] = true
		}
	}
	if len(seen) == 0 {
		return nil, &fs.PathError{Op: "list", Path: dir, Err: fs.ErrNotExist}
	}
	var out []string
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}

// A format-v3 manifest with a data file and a deletion vector (position
// deletes in a Puffin file referencing the data file).
const dvManifestSchema = `{"type":"record","name":"manifest_entry","fields":[
 {"name":"status","type":"int","field-id":0},
 {"name":"snapshot_id","type":["null","long"],"default":null,"field-id":1},
 {"name":"sequence_number","type":["null","long"],"default":null,"field-id":3},
 {"name":"file_sequence_number","type":["null","long"],"default":null,"field-id":4},
 {"name":"data_file","field-id":2,"type":{"type":"record","name":"r2","fields":[
  {"name":"content","type":"int","field-id":134},
  {"name":"file_path","type":"string","field-id":100},
  {"name":"file_format","type":"string","field-id":101},
  {"name":"partition","field-id":102,"type":{"type":"record","name":"r102","fields":[]}},
  {"name":"record_count","type":"long","field-id":103},
  {"name":"file_size_in_bytes","type":"long","field-id":104},
  {"name":"referenced_data_file","type":["null","string"],"default":null,"field-id":143},
  {"name":"content_offset","type":["null","long"],"default":null,"field-id":144},
  {"name":"content_size_in_bytes","type":["null","long"],"default":null,"field-id":145}]}}]}`

// TestPlanMemFS plans a format-v1 snapshot that lists its manifests in the
// metadata (no manifest list) and a v3 snapshot with a deletion vector,
// through an in-memory FS.
func TestPlanMemFS(t *testing.T) {
	v1Manifest := encodeOCF(t, synthManifestSchema, map[string][]byte{"format-version": []byte("1"), "partition-spec-id": []byte("0")},
		map[string]any{"status": 0, "snapshot_id": nil, "sequence_number": nil, "data_file": map[string]any{
			"content": 0, "file_path": "file:///wh/t/data/a.parquet", "file_format": "PARQUET",
			"partition":    map[string]any{"j": map[string]any{"int": 3}, "d": map[string]any{"int.date": 19000}},
			"record_count": int64(3), "file_size_in_bytes": int64(100), "equality_ids": nil}})
	dvManifest := encodeOCF(t, dvManifestSchema, map[string][]byte{"format-version": []byte("3"), "partition-spec-id": []byte("0"), "content": []byte("deletes")},
		map[string]any{"status": 1, "snapshot_id": nil, "sequence_number": nil, "file_sequence_number": nil, "data_file": map[string]any{
			"content": 1, "file_path": "s3://b/wh/t/data/dv.puffin", "file_format": "PUFFIN", "partition": map[string]any{},
			"record_count": int64(2), "file_size_in_bytes": int64(50),
			"referenced_data_file": "s3://b/wh/t/data/a.parquet", "content_offset": map[string]any{"long": int64(4)}, "content_size_in_bytes": map[string]any{"long": int64(40)}}})
	list := encodeOCF(t, `{"type":"record","name":"manifest_file","fields":[
 {"name":"manifest_path","type":"string"},{"name":"manifest_length","type":"long"},{"name":"partition_spec_id","type":"int"},
 {"name":"content","type":"int"},{"name":"sequence_number","type":"long"},{"name":"min_sequence_number","type":"long"},
 {"name":"added_snapshot_id","type":"long"}]}`, map[string][]byte{},
		map[string]any{"manifest_path": "s3://b/wh/t/metadata/dv-m0.avro", "manifest_length": int64(len(dvManifest)), "partition_spec_id": 0,
			"content": 1, "sequence_number": int64(7), "min_sequence_number": int64(7), "added_snapshot_id": int64(2)})
	meta := `{"format-version":1,"table-uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1","location":"file:///wh/t",
 "last-updated-ms":1,"last-column-id":2,
 "schema":{"type":"struct","fields":[{"id":1,"name":"j","required":false,"type":"int"},{"id":2,"name":"d","required":false,"type":"date"}]},
 "partition-spec":[{"name":"j","transform":"identity","source-id":1,"field-id":1000},{"name":"d","transform":"day","source-id":2,"field-id":1001}],
 "current-snapshot-id":1,
 "snapshots":[{"snapshot-id":1,"timestamp-ms":1000,"manifests":["file:///wh/t/metadata/m0.avro"]}]}`
	m := memFS{
		"mem/t/metadata/v1.metadata.json": []byte(meta),
		"mem/t/metadata/m0.avro":          v1Manifest,
	}
	ctx := context.Background()
	tab, err := Open(ctx, m, "mem/t")
	if err != nil {
		t.Fatal(err)
	}
	s, err := tab.Plan(ctx, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []DataFile{{Path: "mem/t/data/a.parquet", StoredPath: "file:///wh/t/data/a.parquet", Format: "PARQUET", RecordCount: 3, SizeBytes: 100,
		Partition: map[int]any{1000: int32(3), 1001: int32(19000)}, ManifestPath: "file:///wh/t/metadata/m0.avro"}}
	if !reflect.DeepEqual(s.DataFiles, want) || len(s.DeleteFiles) != 0 {
		t.Errorf("v1 files\n got %+v\nwant %+v", s.DataFiles, want)
	}
	if c := s.IdentityConstants(&s.DataFiles[0], s.ReadSchema); !reflect.DeepEqual(c, map[int]any{1: int32(3)}) {
		t.Errorf("constants %v", c)
	}

	// A v3 table whose data lives in s3://b/wh/t, opened from mem/t3.
	meta3 := `{"format-version":3,"table-uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1","location":"s3://b/wh/t",
 "last-sequence-number":7,"last-updated-ms":1,"last-column-id":1,"next-row-id":0,
 "current-schema-id":0,"schemas":[{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"j","required":false,"type":"int"}]}],
 "default-spec-id":0,"partition-specs":[{"spec-id":0,"fields":[]}],"last-partition-id":999,
 "default-sort-order-id":0,"sort-orders":[{"order-id":0,"fields":[]}],
 "current-snapshot-id":2,
 "snapshots":[{"snapshot-id":2,"sequence-number":7,"timestamp-ms":1000,"manifest-list":"s3://b/wh/t/metadata/snap-2.avro","first-row-id":0,"added-rows":0}]}`
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(meta3))
	zw.Close()
	m["mem/t3/metadata/00001-x.metadata.json.gz"] = gz.Bytes()
	m["mem/t3/metadata/00000-x.metadata.json"] = []byte("not read: an older version")
	m["mem/t3/metadata/snap-2.avro"] = list
	m["mem/t3/metadata/dv-m0.avro"] = dvManifest
	tab, err = Open(ctx, m, "mem/t3")
	if err != nil {
		t.Fatal(err)
	}
	s, err = tab.Plan(ctx, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.DeleteFiles) != 1 {
		t.Fatalf("delete files %+v", s.DeleteFiles)
	}
	d := s.DeleteFiles[0]
	if !d.IsDeletionVector() || d.Kind() != "deletion vector" || d.Path != "mem/t3/data/dv.puffin" || d.ReferencedDataFile != "s3://b/wh/t/data/a.parquet" ||
		d.SequenceNumber != 7 || d.FileSequenceNumber != 7 {
		t.Errorf("deletion vector %+v", d)
	}
	err = s.DeletesError()
	var de *DeletesError
	if !errors.As(err, &de) || de.Counts["deletion vector"] != 1 || err.Error() != "iceberg: snapshot 2 has delete files (1 deletion vector)" {
		t.Errorf("DeletesError = %v", err)
	}
}

// TestReadMetadataCorruptGzip: a gzip metadata file cut short is corrupt
// input naming the file (it was an unclassified "unexpected EOF", exit 1).
func TestReadMetadataCorruptGzip(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`{"format-version":2,"table-uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1","location":"mem/t"}`))
	zw.Close()
	for name, b := range map[string][]byte{"cut": gz.Bytes()[:gz.Len()/2], "bad header": {0x1f, 0x8b, 0, 0}} {
		m := memFS{"mem/t/metadata/v1.gz.metadata.json": b}
		_, err := ReadMetadata(context.Background(), m, "mem/t/metadata/v1.gz.metadata.json")
		if !errors.Is(err, lakecat.ErrCorrupt) || !strings.Contains(err.Error(), "mem/t/metadata/v1.gz.metadata.json") {
			t.Errorf("%s: %v, want a corrupt-input error naming the file", name, err)
		}
	}
}
