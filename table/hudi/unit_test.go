package hudi

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/formats/avro"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
)

func TestParseProperties(t *testing.T) {
	got := parseProperties("#c\n! also\nhoodie.table.name=t1\n  a\\:b = x\\=y \\\n   continued\nk:v\nu=\\u0041\\t\n")
	want := map[string]string{"hoodie.table.name": "t1", "a:b": "x=y continued", "k": "v", "u": "A\t"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("properties %q, want %q", got, want)
	}
}

func TestFileNames(t *testing.T) {
	b, ok := parseBaseName("2746610d-ad02-4adb-a038-5cbb99cbd455-0_0-54-79_20250713010535797.parquet")
	if !ok || b != (BaseFile{FileID: "2746610d-ad02-4adb-a038-5cbb99cbd455-0", WriteToken: "0-54-79", InstantTime: "20250713010535797", Format: "PARQUET"}) {
		t.Errorf("base %+v %v", b, ok)
	}
	for _, n := range []string{".hoodie_partition_metadata", "x.parquet", "a_b_notatime.parquet", "a_1_20250101000000.json", ".x_20250101000000.log.1_1"} {
		if _, ok := parseBaseName(n); ok {
			t.Errorf("parseBaseName(%q) accepted", n)
		}
	}
	l, ok := parseLogName(".d206069c-22c8-4532-b9ea-3cf4282342c4-0_20250117083125837.log.1_0-33-43")
	if !ok || l != (LogFile{FileID: "d206069c-22c8-4532-b9ea-3cf4282342c4-0", BaseInstant: "20250117083125837", Version: 1, WriteToken: "0-33-43"}) {
		t.Errorf("log %+v %v", l, ok)
	}
	// Log versions order numerically: 10 after 2.
	a, _ := parseLogName(".g_20250117083125837.log.10_0-1-1")
	b2, _ := parseLogName(".g_20250117083125837.log.2_0-1-1")
	if a.Version != 10 || !logLess(&b2, &a) || logLess(&a, &b2) {
		t.Errorf("log order: %+v %+v", a, b2)
	}
	for _, n := range []string{".hoodie", ".x.log", "x_20250117083125837.log.1", ".x_abc.log.1", ".x_20250117083125837.log.v_1"} {
		if _, ok := parseLogName(n); ok {
			t.Errorf("parseLogName(%q) accepted", n)
		}
	}
}

// TestWriterSchemaIDs: an older writer schema gets the table schema's ids by
// name path; a column only it has gets a new id.
func TestWriterSchemaIDs(t *testing.T) {
	var ids IDs
	table, err := ConvertAvroSchema(`{"type":"record","name":"r","fields":[
		{"name":"id","type":"int"},
		{"name":"s","type":["null",{"type":"record","name":"s","fields":[{"name":"a","type":"long"}]}]},
		{"name":"tags","type":{"type":"array","items":"string"}}]}`, &ids)
	if err != nil {
		t.Fatal(err)
	}
	old, err := ConvertAvroSchema(`{"type":"record","name":"r","fields":[
		{"name":"gone","type":["null","string"]},
		{"name":"s","type":["null",{"type":"record","name":"s","fields":[{"name":"a","type":"int"}]}]},
		{"name":"id","type":"int"}]}`, &ids)
	if err != nil {
		t.Fatal(err)
	}
	wantTable := schema.New(0,
		&schema.Field{ID: 1, Name: "id", Type: schema.Int, Required: true},
		&schema.Field{ID: 2, Name: "s", Type: &schema.StructType{Fields: []*schema.Field{{ID: 4, Name: "a", Type: schema.Long, Required: true}}}},
		&schema.Field{ID: 3, Name: "tags", Type: schema.NewList(5, schema.String, true), Required: true},
	)
	wantOld := schema.New(0,
		&schema.Field{ID: 6, Name: "gone", Type: schema.String},
		&schema.Field{ID: 2, Name: "s", Type: &schema.StructType{Fields: []*schema.Field{{ID: 4, Name: "a", Type: schema.Int, Required: true}}}},
		&schema.Field{ID: 1, Name: "id", Type: schema.Int, Required: true},
	)
	if !table.Equal(wantTable) || !old.Equal(wantOld) {
		t.Errorf("table %s\nold %s", table, old)
	}
	for _, bad := range []string{`"int"`, `{"type":"record","name":"r","fields":[{"name":"u","type":["int","string"]}]}`, `{`,
		`{"type":"record","name":"Node","fields":[{"name":"next","type":["null","Node"]}]}`} {
		if _, err := ConvertAvroSchema(bad, nil); !errors.Is(err, ErrUnsupportedSchema) {
			t.Errorf("ConvertAvroSchema(%s) err = %v", bad, err)
		}
	}
}

// TestConvertAvroLogicalTypes: logical types, named references and a
// namespace-qualified fixed, as ConvertAvroSchema documents them.
func TestConvertAvroLogicalTypes(t *testing.T) {
	got, err := ConvertAvroSchema(`{"type":"record","name":"r","namespace":"hoodie.t","fields":[
		{"name":"d","type":{"type":"int","logicalType":"date"}},
		{"name":"tm","type":{"type":"int","logicalType":"time-millis"}},
		{"name":"ts","type":["null",{"type":"long","logicalType":"timestamp-micros"}]},
		{"name":"lts","type":{"type":"long","logicalType":"local-timestamp-millis"}},
		{"name":"amt","type":{"type":"fixed","name":"dec","size":5,"logicalType":"decimal","precision":10,"scale":2}},
		{"name":"amt2","type":"hoodie.t.dec"},
		{"name":"u","type":{"type":"string","logicalType":"uuid"}},
		{"name":"bad","type":{"type":"bytes","logicalType":"decimal","precision":2,"scale":5}}]}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := schema.New(0,
		&schema.Field{ID: 1, Name: "d", Type: schema.Date, Required: true},
		&schema.Field{ID: 2, Name: "tm", Type: schema.Time, Required: true},
		&schema.Field{ID: 3, Name: "ts", Type: schema.TimestampTz},
		&schema.Field{ID: 4, Name: "lts", Type: schema.Timestamp, Required: true},
		&schema.Field{ID: 5, Name: "amt", Type: schema.Decimal(10, 2), Required: true},
		&schema.Field{ID: 6, Name: "amt2", Type: schema.Decimal(10, 2), Required: true},
		&schema.Field{ID: 7, Name: "u", Type: schema.String, Required: true},
		&schema.Field{ID: 8, Name: "bad", Type: schema.Binary, Required: true},
	)
	if !got.Equal(want) {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

const commitSeed = `{"partitionToWriteStats":{"p=1":[{"fileId":"f1","path":"p=1/f1_0-1-1_20240101000000001.parquet"}],"p=2":[]},
"partitionToReplaceFileIds":{"p=2":["f2"]},"compacted":false,
"extraMetadata":{"schema":"{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"id\",\"type\":\"int\"}]}"},"operationType":"INSERT_OVERWRITE"}`

func TestParseCommitMetadata(t *testing.T) {
	md, err := ParseCommitMetadata([]byte(commitSeed))
	if err != nil {
		t.Fatal(err)
	}
	want := &CommitMetadata{Schema: `{"type":"record","name":"r","fields":[{"name":"id","type":"int"}]}`,
		Partitions: []string{"p=1", "p=2"}, ReplacedFileIDs: map[string][]string{"p=2": {"f2"}}, OperationType: "INSERT_OVERWRITE",
		WriteStats: []WriteStat{{Partition: "p=1", FileID: "f1", Path: "p=1/f1_0-1-1_20240101000000001.parquet", NumWrites: -1, FileSizeBytes: -1}}}
	if !reflect.DeepEqual(md, want) {
		t.Errorf("metadata %+v\nwant %+v", md, want)
	}
	if md, err := ParseCommitMetadata(nil); err != nil || md.Schema != "" {
		t.Errorf("empty: %+v %v", md, err)
	}
	for _, bad := range []string{"{", "Obj\x01xx"} {
		if _, err := ParseCommitMetadata([]byte(bad)); !errors.Is(err, ErrCorruptTimeline) {
			t.Errorf("ParseCommitMetadata(%q) err = %v", bad, err)
		}
	}
}

// FuzzParseCommitMetadata checks that timeline files never panic the parser.
func FuzzParseCommitMetadata(f *testing.F) {
	f.Add([]byte(commitSeed))
	f.Add([]byte("Obj\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := ParseCommitMetadata(data); err != nil && !errors.Is(err, ErrCorruptTimeline) && !errors.Is(err, avro.ErrUnsupported) {
			t.Fatalf("unexpected error %v", err)
		}
	})
}

// TestTimelineRules builds a v6-layout partitioned table: a failed commit's
// file is ignored, a replacecommit hides the file groups it replaced, a file
// older than the active timeline (archived commit) counts as committed, and
// the newest base file of a group wins.
func TestTimelineRules(t *testing.T) {
	root := t.TempDir()
	write := func(rel, data string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".hoodie/hoodie.properties", "hoodie.table.type=COPY_ON_WRITE\nhoodie.table.version=6\n")
	sch := `"extraMetadata":{"schema":"{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"id\",\"type\":\"int\"}]}"}`
	write(".hoodie/20240101000000002.commit", `{"partitionToWriteStats":{"p=1":[],"p=2":[]},`+sch+`}`)
	write(".hoodie/20240101000000003.replacecommit", `{"partitionToWriteStats":{"p=2":[]},"partitionToReplaceFileIds":{"p=2":["g2"]},`+sch+`}`)
	write(".hoodie/20240101000000004.commit.inflight", ``)
	write(".hoodie/20240101000000004.commit.requested", ``)
	write("p=1/g1_0-1-1_20240101000000001.parquet", "x")  // archived commit
	write("p=1/g1_0-1-2_20240101000000002.parquet", "xx") // newest committed
	write("p=1/g1_0-1-3_20240101000000004.parquet", "x")  // failed commit
	write("p=1/g3_0-1-3_20240101000000002.parquet", "x")
	write("p=1/g5_0-1-1_20240101000000001.parquet", "x") // archived commit
	write("p=2/g2_0-2-1_20240101000000002.parquet", "x") // replaced
	write("p=2/g4_0-2-2_20240101000000003.parquet", "x")
	tab, err := Open(context.Background(), storage.OSFS{}, filepath.ToSlash(root))
	if err != nil {
		t.Fatal(err)
	}
	s, err := tab.Plan(context.Background(), ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range s.BaseFiles {
		got = append(got, f.Partition+" "+f.FileID+" "+f.InstantTime)
	}
	want := []string{"p=1 g1 20240101000000002", "p=1 g3 20240101000000002", "p=1 g5 20240101000000001", "p=2 g4 20240101000000003"}
	if !reflect.DeepEqual(got, want) || s.BaseFiles[0].SizeBytes != 2 {
		t.Errorf("base files %v (size %d), want %v", got, s.BaseFiles[0].SizeBytes, want)
	}
	// As of instant 2: the replacecommit is not visible yet.
	s, err = tab.Plan(context.Background(), ScanOptions{AsOfInstant: "20240101000000002"})
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, f := range s.BaseFiles {
		got = append(got, f.Partition+" "+f.FileID+" "+f.InstantTime)
	}
	want = []string{"p=1 g1 20240101000000002", "p=1 g3 20240101000000002", "p=1 g5 20240101000000001", "p=2 g2 20240101000000002"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("as of 2: %v, want %v", got, want)
	}
	if _, err := Open(context.Background(), storage.OSFS{}, t.TempDir()); !errors.Is(err, ErrNotHudi) {
		t.Errorf("Open of an empty folder: %v", err)
	}
}

// TestParseCommitMetadataUnsupportedAvro: a version-8 instant whose Avro
// codec or schema formats/avro does not read is avro.ErrUnsupported (class
// unsupported, exit 4), as a manifest or a data file is, not a corrupt
// timeline; a damaged container stays corrupt.
func TestParseCommitMetadataUnsupportedAvro(t *testing.T) {
	ocf := func(schema, codec string) []byte {
		var b bytes.Buffer
		long := func(v int64) {
			var tmp [binary.MaxVarintLen64]byte
			b.Write(tmp[:binary.PutVarint(tmp[:], v)])
		}
		str := func(s string) { long(int64(len(s))); b.WriteString(s) }
		b.WriteString("Obj\x01")
		long(2)
		str("avro.codec")
		str(codec)
		str("avro.schema")
		str(schema)
		long(0)
		b.WriteString("0123456789abcdef")
		long(0)
		long(0)
		b.WriteString("0123456789abcdef")
		return b.Bytes()
	}
	const rec = `{"type":"record","name":"HoodieCommitMetadata","fields":[{"name":"operationType","type":["null","string"]}]}`
	for _, c := range []struct {
		name        string
		data        []byte
		unsupported bool
		msg         string
	}{
		{"codec", ocf(rec, "lzma"), true, "hudi: instant: avro: instant: codec \"lzma\""},
		{"recursive schema", ocf(`{"type":"record","name":"j","fields":[{"name":"j","type":["null","j"]}]}`, "null"), true,
			"hudi: instant: instant: avro: j.j.j.…: schema nested deeper than 128 levels (or recursive)"},
		{"damaged header", []byte("Obj\x01\x7f"), false, ""},
	} {
		_, err := ParseCommitMetadata(c.data)
		if c.unsupported {
			if !errors.Is(err, avro.ErrUnsupported) || lakecat.ClassOf(err) != lakecat.ErrUnsupported || errors.Is(err, ErrCorruptTimeline) || err.Error() != c.msg {
				t.Errorf("%s: error %v (class %v), want unsupported %q", c.name, err, lakecat.ClassOf(err), c.msg)
			}
		} else if !errors.Is(err, ErrCorruptTimeline) || lakecat.ClassOf(err) != lakecat.ErrCorrupt {
			t.Errorf("%s: error %v, want a corrupt timeline", c.name, err)
		}
	}
}
