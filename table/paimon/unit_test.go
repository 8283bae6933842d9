package paimon

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"testing"

	"github.com/hamba/avro/v2/ocf"

	"github.com/lakecat/lakecat/formats/avro"
	"github.com/lakecat/lakecat/schema"
)

// synthManifest writes a two-entry Paimon manifest (a subset of the real
// schema) with hamba/avro: an ADD and a DELETE of the same file.
func synthManifest(t testing.TB) []byte {
	const sch = `{"type":"record","name":"record","fields":[
 {"name":"_VERSION","type":"int"},{"name":"_KIND","type":"int"},{"name":"_PARTITION","type":"bytes"},
 {"name":"_BUCKET","type":"int"},{"name":"_TOTAL_BUCKETS","type":"int"},
 {"name":"_FILE","type":{"type":"record","name":"f","fields":[
  {"name":"_FILE_NAME","type":"string"},{"name":"_FILE_SIZE","type":"long"},{"name":"_ROW_COUNT","type":"long"},
  {"name":"_MIN_SEQUENCE_NUMBER","type":"long"},{"name":"_MAX_SEQUENCE_NUMBER","type":"long"},
  {"name":"_SCHEMA_ID","type":"long"},{"name":"_LEVEL","type":"int"},
  {"name":"_EXTRA_FILES","type":{"type":"array","items":"string"}},
  {"name":"_DELETE_ROW_COUNT","type":["null","long"],"default":null},
  {"name":"_EXTERNAL_PATH","type":["null","string"],"default":null}]}}]}`
	var buf bytes.Buffer
	enc, err := ocf.NewEncoder(sch, &buf)
	if err != nil {
		t.Fatal(err)
	}
	part := []byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0}
	for kind := 0; kind < 2; kind++ {
		err := enc.Encode(map[string]any{"_VERSION": 2, "_KIND": kind, "_PARTITION": part, "_BUCKET": 3, "_TOTAL_BUCKETS": 4,
			"_FILE": map[string]any{"_FILE_NAME": "data-1.orc", "_FILE_SIZE": int64(10), "_ROW_COUNT": int64(5),
				"_MIN_SEQUENCE_NUMBER": int64(0), "_MAX_SEQUENCE_NUMBER": int64(4), "_SCHEMA_ID": int64(2), "_LEVEL": 1,
				"_EXTRA_FILES": []any{}, "_DELETE_ROW_COUNT": map[string]any{"long": int64(1)}, "_EXTERNAL_PATH": nil}})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestDecodeSyntheticManifest(t *testing.T) {
	es, err := decodeManifestEntries(synthManifest(t))
	if err != nil {
		t.Fatal(err)
	}
	one := int64(1)
	part := string([]byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0})
	f := DataFile{FileName: "data-1.orc", Format: "ORC", SchemaID: 2, Bucket: 3, TotalBuckets: 4, Level: 1, RowCount: 5,
		SizeBytes: 10, MaxSequenceNumber: 4, DeleteRowCount: &one, partitionKey: part,
		ValueStatsAllCols: true} // no _VALUE_STATS_COLS (older manifests): every column
	want := []manifestEntry{{kind: 0, partition: []byte(part), file: f}, {kind: 1, partition: []byte(part), file: f}}
	if !reflect.DeepEqual(es, want) {
		t.Errorf("entries\n got %+v\nwant %+v", es, want)
	}
}

// binaryRow builds a serialized BinaryRow: arity, null bits, slots, var part.
func binaryRow(arity int, nulls []int, slots [][8]byte, varPart []byte) []byte {
	nb := ((arity + 63 + 8) / 64) * 8
	b := make([]byte, 4+nb+8*arity)
	binary.BigEndian.PutUint32(b, uint32(arity))
	for _, i := range nulls {
		bit := i + 8
		b[4+bit>>3] |= 1 << (bit & 7)
	}
	for i, s := range slots {
		copy(b[4+nb+8*i:], s[:])
	}
	return append(b, varPart...)
}

func le64(v uint64) (s [8]byte) { binary.LittleEndian.PutUint64(s[:], v); return }

func TestDecodeBinaryRow(t *testing.T) {
	// From a real manifest: one INT partition field with value 1.
	got, err := DecodeBinaryRow([]byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}, []schema.Type{schema.Int})
	if err != nil || !reflect.DeepEqual(got, []any{int32(1)}) {
		t.Fatalf("int row = %v, %v", got, err)
	}
	// Unpartitioned: arity 0.
	if got, err := DecodeBinaryRow(make([]byte, 12), nil); err != nil || len(got) != 0 {
		t.Errorf("empty row = %v, %v", got, err)
	}

	inline := [8]byte{'a', 'b', 'c'}
	inline[7] = 0x80 | 3
	nb := ((8 + 63 + 8) / 64) * 8
	longStr := "a string longer than seven bytes"
	dec := []byte{0xff, 0x85} // -123 as two bytes
	varOff := uint64(nb + 8*8)
	ts := make([]byte, 8)
	binary.LittleEndian.PutUint64(ts, 1000) // 1000 ms
	types := []schema.Type{
		schema.String, schema.String, schema.Long, schema.Decimal(10, 2), schema.Decimal(20, 2),
		schema.PrimitiveType{K: schema.KindTimestamp, Precision: 6}, schema.Boolean, schema.Date,
	}
	slots := [][8]byte{
		inline,
		le64(varOff<<32 | uint64(len(longStr))),
		le64(uint64(1) << 40),
		le64(uint64(12345)),
		le64((varOff+uint64(len(longStr)))<<32 | 2),
		le64((varOff+uint64(len(longStr))+2)<<32 | 5000), // +5000 ns
		{},
		{},
	}
	row := binaryRow(8, []int{6}, slots, append(append([]byte(longStr), dec...), ts...))
	got, err = DecodeBinaryRow(row, types)
	if err != nil {
		t.Fatal(err)
	}
	want := []any{"abc", longStr, int64(1) << 40, schema.DecimalValue{Lo: 12345},
		schema.DecimalValue{Hi: -1, Lo: ^uint64(0) - 122}, int64(1000*1000 + 5), nil, int32(0)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("row =\n %#v\nwant %#v", got, want)
	}

	for name, tc := range map[string]struct {
		data  []byte
		types []schema.Type
		err   error
	}{
		"short":       {[]byte{0, 0}, nil, ErrCorruptManifest},
		"arity":       {[]byte{0x7f, 0, 0, 0}, nil, ErrCorruptManifest},
		"mismatch":    {make([]byte, 12), []schema.Type{schema.Int}, ErrCorruptManifest},
		"truncated":   {[]byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}, []schema.Type{schema.Int}, ErrCorruptManifest},
		"var outside": {binaryRow(1, nil, [][8]byte{le64(1000<<32 | 4)}, nil), []schema.Type{schema.String}, ErrCorruptManifest},
		"nested":      {binaryRow(1, nil, [][8]byte{{}}, nil), []schema.Type{schema.NewList(1, schema.Int, false)}, ErrUnsupportedPartition},
	} {
		if _, err := DecodeBinaryRow(tc.data, tc.types); !errors.Is(err, tc.err) {
			t.Errorf("%s: err = %v, want %v", name, err, tc.err)
		}
	}
}

func TestPartitionPath(t *testing.T) {
	sch := schema.NewPaimonSchema(0, []*schema.Field{
		{ID: 0, Name: "dt", Type: schema.String}, {ID: 1, Name: "d", Type: schema.Date},
		{ID: 2, Name: "x", Type: schema.Decimal(6, 2)}, {ID: 3, Name: "f", Type: schema.Double},
	}, []string{"dt", "d", "x", "f"}, nil, nil)
	types := []schema.Type{schema.String, schema.Date, schema.Decimal(6, 2), schema.Double}
	got, err := partitionPath(sch, types, []any{"a/b=c", int32(19000), schema.DecimalValue{Hi: -1, Lo: ^uint64(0) - 4}, float64(2)})
	if want := "dt=a%2Fb%3Dc/d=19000/x=-0.05/f=2.0/"; err != nil || got != want {
		t.Errorf("path = %q, %v; want %q", got, err, want)
	}
	sch.Options["partition.legacy-name"] = "false"
	sch.Options["partition.default-name"] = "NULLP"
	got, err = partitionPath(sch, types, []any{"", int32(19000), nil, 1.5})
	if want := "dt=NULLP/d=2022-01-08/x=NULLP/f=1.5/"; err != nil || got != want {
		t.Errorf("path = %q, %v; want %q", got, err, want)
	}
	if _, err := partitionPath(sch, []schema.Type{schema.Timestamp, schema.Date, schema.Date, schema.Date}, []any{int64(1), nil, nil, nil}); !errors.Is(err, ErrUnsupportedPartition) {
		t.Errorf("timestamp partition path: err = %v", err)
	}
}

const snapshotSeed = `{
  "version" : 3, "id" : 6, "schemaId" : 1,
  "baseManifestList" : "manifest-list-5f5aa36a-d599-48b6-bb99-f446ffdddda8-2",
  "deltaManifestList" : "manifest-list-5f5aa36a-d599-48b6-bb99-f446ffdddda8-3",
  "changelogManifestList" : null,
  "indexManifest" : "index-manifest-1dcd4aef-902a-4c73-9bf0-bcf30e88a160-0",
  "commitUser" : "u", "commitIdentifier" : 3, "commitKind" : "COMPACT",
  "timeMillis" : 1756112131254, "logOffsets" : { },
  "totalRecordCount" : 11, "deltaRecordCount" : -1, "changelogRecordCount" : 0
}`

func TestParseSnapshot(t *testing.T) {
	s, err := ParseSnapshot([]byte(snapshotSeed))
	if err != nil {
		t.Fatal(err)
	}
	eleven := int64(11)
	want := &Snapshot{Version: 3, ID: 6, SchemaID: 1, BaseManifestList: "manifest-list-5f5aa36a-d599-48b6-bb99-f446ffdddda8-2",
		DeltaManifestList: "manifest-list-5f5aa36a-d599-48b6-bb99-f446ffdddda8-3",
		IndexManifest:     "index-manifest-1dcd4aef-902a-4c73-9bf0-bcf30e88a160-0", CommitKind: "COMPACT",
		TimeMillis: 1756112131254, TotalRecordCount: &eleven}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("snapshot %+v\nwant %+v", s, want)
	}
	for _, bad := range []string{
		``, `[]`, `{"id":1}`, `{"id":1,"schemaId":0,"baseManifestList":"a"}`,
		`{"id":1,"schemaId":0,"baseManifestList":"../x","deltaManifestList":"b"}`,
		`{"id":1,"schemaId":-1,"baseManifestList":"a","deltaManifestList":"b"}`,
		`{"id":1.5,"schemaId":0,"baseManifestList":"a","deltaManifestList":"b"}`,
		`{"id":1,"schemaId":0,"baseManifestList":"a","deltaManifestList":"b"} {}`,
	} {
		if _, err := ParseSnapshot([]byte(bad)); !errors.Is(err, ErrInvalidSnapshot) {
			t.Errorf("ParseSnapshot(%q) err = %v", bad, err)
		}
	}
}

// FuzzParseSnapshot checks that ParseSnapshot never panics, fails only with
// ErrInvalidSnapshot, and accepts only plain manifest file names.
func FuzzParseSnapshot(f *testing.F) {
	f.Add([]byte(snapshotSeed))
	f.Add([]byte(`{"id":1,"schemaId":0,"baseManifestList":"a","deltaManifestList":"b"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSnapshot(data)
		if err != nil {
			if !errors.Is(err, ErrInvalidSnapshot) {
				t.Fatalf("error %v does not match ErrInvalidSnapshot", err)
			}
			return
		}
		if s.BaseManifestList == "" || s.DeltaManifestList == "" || s.SchemaID < 0 {
			t.Fatalf("accepted %+v", s)
		}
	})
}

// FuzzDecodeBinaryRow checks that partition rows never panic the decoder.
func FuzzDecodeBinaryRow(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}, uint8(0))
	f.Add(binaryRow(1, nil, [][8]byte{le64(16<<32 | 4)}, []byte("abcd")), uint8(1))
	kinds := [][]schema.Type{{schema.Int}, {schema.String}, {schema.Decimal(30, 2)}, {schema.PrimitiveType{K: schema.KindTimestampNs, Precision: 9}}, {schema.Binary, schema.Long}}
	f.Fuzz(func(t *testing.T, data []byte, k uint8) {
		types := kinds[int(k)%len(kinds)]
		if _, err := DecodeBinaryRow(data, types); err != nil && !errors.Is(err, ErrCorruptManifest) && !errors.Is(err, ErrUnsupportedPartition) {
			t.Fatalf("unexpected error %v", err)
		}
	})
}

// FuzzManifestEntries checks that manifest bytes never panic the decoders.
func FuzzManifestEntries(f *testing.F) {
	f.Add([]byte("Obj\x01"))
	f.Add([]byte("ORC"))
	f.Add(synthManifest(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := decodeManifestEntries(data); err != nil && !errors.Is(err, ErrCorruptManifest) && !errors.Is(err, avro.ErrUnsupported) {
			t.Fatalf("unexpected error %v", err)
		}
	})
}
