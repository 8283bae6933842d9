package avro_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/hamba/avro/v2/ocf"

	"github.com/lakecat/lakecat/formats/avro"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/schema"
)

// testSchema is an Avro schema as Iceberg writes it: field-id on every
// record field, element-id, key-id/value-id, a map with int keys as an
// array of k/v records, and a nested record.
const testSchema = `{"type":"record","name":"table","fields":[
 {"name":"id","type":"long","field-id":1},
 {"name":"name","type":["null","string"],"default":null,"field-id":2},
 {"name":"flag","type":"boolean","field-id":3},
 {"name":"f","type":"float","field-id":4},
 {"name":"d","type":["null","double"],"default":null,"field-id":5},
 {"name":"day","type":{"type":"int","logicalType":"date"},"field-id":6},
 {"name":"ts","type":{"type":"long","logicalType":"timestamp-micros","adjust-to-utc":false},"field-id":7},
 {"name":"tstz","type":{"type":"long","logicalType":"timestamp-micros","adjust-to-utc":true},"field-id":8},
 {"name":"amount","type":{"type":"fixed","name":"fixed_9_2","size":4,"logicalType":"decimal","precision":9,"scale":2},"field-id":9},
 {"name":"u","type":{"type":"fixed","name":"uuid_fixed","size":16,"logicalType":"uuid"},"field-id":10},
 {"name":"bin","type":"bytes","field-id":11},
 {"name":"tags","type":{"type":"array","items":["null","int"],"element-id":13},"field-id":12},
 {"name":"props","type":{"type":"map","values":"long","key-id":15,"value-id":16},"field-id":14},
 {"name":"imap","type":{"type":"array","logicalType":"map","items":{"type":"record","name":"k18_v19","fields":[
    {"name":"key","type":"int","field-id":18},{"name":"value","type":["null","string"],"default":null,"field-id":19}]}},"field-id":17},
 {"name":"loc","type":["null",{"type":"record","name":"r20","fields":[
    {"name":"skipme","type":{"type":"array","items":"string","element-id":23},"field-id":21},
    {"name":"city","type":"string","field-id":22}]}],"default":null,"field-id":20},
 {"name":"kind","type":{"type":"enum","name":"kinds","symbols":["A","B"]},"field-id":24},
 {"name":"t","type":{"type":"long","logicalType":"time-micros"},"field-id":25}
]}`

type kv struct {
	Key   int32   `avro:"key"`
	Value *string `avro:"value"`
}

type loc struct {
	Skipme []string `avro:"skipme"`
	City   string   `avro:"city"`
}

type row struct {
	ID     int64            `avro:"id"`
	Name   *string          `avro:"name"`
	Flag   bool             `avro:"flag"`
	F      float32          `avro:"f"`
	D      *float64         `avro:"d"`
	Day    int32            `avro:"day"`
	TS     int64            `avro:"ts"`
	TSTZ   int64            `avro:"tstz"`
	Amount *big.Rat         `avro:"amount"`
	U      [16]byte         `avro:"u"`
	Bin    []byte           `avro:"bin"`
	Tags   []*int32         `avro:"tags"`
	Props  map[string]int64 `avro:"props"`
	IMap   []kv             `avro:"imap"`
	Loc    *loc             `avro:"loc"`
	Kind   string           `avro:"kind"`
	T      int64            `avro:"t"`
}

func ptr[T any](v T) *T { return &v }

func rows() []row {
	return []row{
		{ID: 1, Name: ptr("alice"), Flag: true, F: 1.5, D: ptr(2.25), Day: 19000, TS: 1_700_000_000_123_456, TSTZ: -1,
			Amount: big.NewRat(-1234, 100), U: [16]byte{0xf7, 0x9c, 0x3e, 0x09, 15: 0xe7}, Bin: []byte{0, 1, 0xff},
			Tags: []*int32{ptr[int32](1), nil, ptr[int32](3)}, Props: map[string]int64{"a": 7},
			IMap: []kv{{1, ptr("one")}, {2, nil}}, Loc: &loc{[]string{"x", "y"}, "Paris"}, Kind: "B", T: 3_600_000_000},
		{ID: 2, Flag: false, F: -0.5, Day: 0, Amount: big.NewRat(5, 1), Bin: []byte{}, Kind: "A"},
	}
}

func writeAvro(t testing.TB, codec ocf.CodecName, rs []row, blockLen int) []byte {
	t.Helper()
	var b bytes.Buffer
	enc, err := ocf.NewEncoder(testSchema, &b, ocf.WithCodec(codec), ocf.WithBlockLength(blockLen),
		ocf.WithSchemaMarshaler(ocf.FullSchemaMarshaler))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const wantSchema = `table {
  1:id: required long
  2:name: string
  3:flag: required boolean
  4:f: required float
  5:d: double
  6:day: required date
  7:ts: required timestamp
  8:tstz: required timestamptz
  9:amount: required decimal(9, 2)
  10:u: required uuid
  11:bin: required binary
  12:tags: required list<13:element: int>
  14:props: required map<15:key: required string, 16:value: required long>
  17:imap: required map<18:key: required int, 19:value: string>
  20:loc: struct<21:skipme: required list<23:element: required string>, 22:city: required string>
  24:kind: required string
  25:t: required time
}`

func schemaText(s *schema.Schema) string {
	var b strings.Builder
	b.WriteString("table {\n")
	for _, f := range s.Fields {
		b.WriteString("  " + fieldText(f) + "\n")
	}
	b.WriteString("}")
	return b.String()
}

func fieldText(f *schema.Field) string {
	req := ""
	if f.Required {
		req = "required "
	}
	id := ""
	if f.ID != schema.NoID {
		id = itoa(f.ID) + ":"
	}
	return id + f.Name + ": " + req + typeText(f.Type)
}

func typeText(t schema.Type) string {
	switch tt := t.(type) {
	case *schema.StructType:
		parts := make([]string, len(tt.Fields))
		for i, f := range tt.Fields {
			parts[i] = fieldText(f)
		}
		return "struct<" + strings.Join(parts, ", ") + ">"
	case *schema.ListType:
		return "list<" + fieldText(tt.Element) + ">"
	case *schema.MapType:
		return "map<" + fieldText(tt.Key) + ", " + fieldText(tt.Value) + ">"
	}
	return t.String()
}

func itoa(i int) string { return big.NewInt(int64(i)).String() }

func readAll(t *testing.T, f *avro.File, proj *schema.Schema, batchRows int) (string, int) {
	t.Helper()
	mem := testutil.CheckedAllocator(t)
	br, err := f.NewBatchReader(proj, avro.BatchOptions{BatchRows: batchRows, Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	var recs []arrow.RecordBatch
	for {
		rec, err := br.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !arrow.TypeEqual(arrow.StructOf(rec.Schema().Fields()...), arrow.StructOf(schema.ToArrowSchema(proj).Fields()...), arrow.CheckMetadata()) {
			t.Fatalf("batch schema %v\nwant %v", rec.Schema(), schema.ToArrowSchema(proj))
		}
		recs = append(recs, rec)
	}
	rr, err := array.NewRecordReader(schema.ToArrowSchema(proj), recs)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		r.Release()
	}
	defer rr.Release()
	return testutil.ReaderJSON(t, rr), len(recs)
}

// wantRows: the uuid renders as base64 (a plain fixed_size_binary(16)), a
// timestamp without zone also ends in Z (package render), and hamba/avro
// encodes an int64 time-micros as a time.Duration (3.6e9 ns = 3.6 s).
const wantRows = `{"id":1,"name":"alice","flag":true,"f":1.5,"d":2.25,"day":"2022-01-08","ts":"2023-11-14T22:13:20.123456","tstz":"1969-12-31T23:59:59.999999Z","amount":"-12.34","u":"95w+CQAAAAAAAAAAAAAA5w==","bin":"AAH/","tags":[1,null,3],"props":{"a":7},"imap":[{"key":1,"value":"one"},{"key":2,"value":null}],"loc":{"skipme":["x","y"],"city":"Paris"},"kind":"B","t":"00:00:03.600000"}
{"id":2,"name":null,"flag":false,"f":-0.5,"d":null,"day":"1970-01-01","ts":"1970-01-01T00:00:00.000000","tstz":"1970-01-01T00:00:00.000000Z","amount":"5.00","u":"AAAAAAAAAAAAAAAAAAAAAA==","bin":"","tags":[],"props":{},"imap":[],"loc":null,"kind":"A","t":"00:00:00.000000"}
`

func TestRoundTripCodecs(t *testing.T) {
	for _, codec := range []ocf.CodecName{ocf.Null, ocf.Deflate, ocf.Snappy, ocf.ZStandard} {
		t.Run(string(codec), func(t *testing.T) {
			b := writeAvro(t, codec, rows(), 1) // one record per block
			f, err := avro.Open(bytes.NewReader(b), int64(len(b)), avro.WithName("t.avro"))
			if err != nil {
				t.Fatal(err)
			}
			if got := schemaText(f.Schema()); got != wantSchema {
				t.Errorf("schema:\n%s\nwant\n%s", got, wantSchema)
			}
			if n := f.NumRows(); n != 2 {
				t.Errorf("NumRows = %d, want 2", n)
			}
			got, batches := readAll(t, f, f.Schema(), 0)
			if got != wantRows {
				t.Errorf("rows:\n%s\nwant\n%s", got, wantRows)
			}
			if batches != 1 {
				t.Errorf("%d batches, want 1", batches)
			}
		})
	}
}

func TestProjectionSkipsFields(t *testing.T) {
	b := writeAvro(t, ocf.Deflate, rows(), 10)
	f, err := avro.Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	full := f.Schema()
	locType := full.Fields[14].Type.(*schema.StructType)
	loc := full.Fields[14].Clone()
	loc.Type = &schema.StructType{Fields: []*schema.Field{locType.Fields[1]}}
	proj := schema.New(0, full.Fields[12], loc, full.Fields[16])
	got, _ := readAll(t, f, proj, 1)
	want := `{"props":{"a":7},"loc":{"city":"Paris"},"t":"00:00:03.600000"}
{"props":{},"loc":null,"t":"00:00:00.000000"}
`
	if got != want {
		t.Errorf("rows:\n%s\nwant\n%s", got, want)
	}
}

func TestManyBlocksAndBatches(t *testing.T) {
	var rs []row
	for i := 0; i < 1000; i++ {
		rs = append(rs, row{ID: int64(i), Amount: big.NewRat(int64(i), 1), Kind: "A"})
	}
	b := writeAvro(t, ocf.Snappy, rs, 37)
	f, err := avro.Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if n := f.NumRows(); n != 1000 {
		t.Fatalf("NumRows = %d", n)
	}
	proj := schema.New(0, f.Schema().Fields[0])
	got, batches := readAll(t, f, proj, 100)
	if batches != 10 {
		t.Errorf("%d batches, want 10", batches)
	}
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if len(lines) != 1000 || lines[0] != `{"id":0}` || lines[999] != `{"id":999}` {
		t.Errorf("%d lines, first %q last %q", len(lines), lines[0], lines[len(lines)-1])
	}
}

func TestCorrupt(t *testing.T) {
	good := writeAvro(t, ocf.Null, rows(), 10)
	cases := map[string][]byte{
		"empty":     {},
		"magic":     append([]byte("Obj\x02"), good[4:]...),
		"truncated": good[:len(good)-5],
		"sync":      append(append([]byte(nil), good[:len(good)-1]...), good[len(good)-1]^1),
	}
	for name, b := range cases {
		f, err := avro.Open(bytes.NewReader(b), int64(len(b)))
		if err == nil {
			_, err = readErr(f)
		}
		if !errors.Is(err, avro.ErrCorrupt) {
			t.Errorf("%s: err = %v, want ErrCorrupt", name, err)
		}
	}
	// Every truncation and every flipped byte fails cleanly (no panic).
	for i := range good {
		for _, b := range [][]byte{good[:i], flip(good, i)} {
			f, err := avro.Open(bytes.NewReader(b), int64(len(b)))
			if err == nil {
				readErr(f)
			}
		}
	}
}

func flip(b []byte, i int) []byte {
	c := append([]byte(nil), b...)
	c[i] ^= 0xa5
	return c
}

func readErr(f *avro.File) (int, error) {
	br, err := f.NewBatchReader(f.Schema(), avro.BatchOptions{})
	if err != nil {
		return 0, err
	}
	defer br.Close()
	n := 0
	for {
		rec, err := br.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n += int(rec.NumRows())
		rec.Release()
	}
}

// TestImpalaV3 reads the Avro data files of Impala's iceberg_v3_default_value_avro
// table (Spark 4.0.2 + Iceberg 1.10) in place.
func TestImpalaV3(t *testing.T) {
	dir := testutil.RealDir(t, "impala", "testdata", "data", "iceberg_test", "iceberg_v3", "iceberg_v3_default_value_avro", "data")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		f, err := avro.Open(bytes.NewReader(b), int64(len(b)), avro.WithName(e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := readAll(t, f, f.Schema(), 0)
		got = append(got, e.Name()+" "+f.Codec()+" "+strings.ReplaceAll(schemaText(f.Schema()), "\n", "")+" "+rows)
	}
	want := []string{
		"00000-3-e9b0ad3b-49a1-4da4-a830-8e39b42a2731-0-00001.avro deflate table {  1:i: required int} {\"i\":1}\n",
		"00000-4-809b106d-737e-4ec3-a49d-814716a2b794-0-00001.avro deflate table {  1:i: required int  2:j: required int} {\"i\":2,\"j\":2}\n",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, ""), strings.Join(want, ""))
	}
}
