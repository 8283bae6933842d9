package avro_test

import (
	"bytes"
	"testing"

	"github.com/hamba/avro/v2/ocf"

	"github.com/lakecat/lakecat/formats/avro"
)

// TestLogicalTypes: the less common Avro forms map to the schema kinds of
// the package doc and convert their values.
func TestLogicalTypes(t *testing.T) {
	const sc = `{"type":"record","name":"t","fields":[
	 {"name":"ns","type":{"type":"long","logicalType":"timestamp-nanos"},"field-id":1},
	 {"name":"local","type":{"type":"long","logicalType":"local-timestamp-micros"},"field-id":2},
	 {"name":"ms","type":{"type":"long","logicalType":"timestamp-millis"},"field-id":3},
	 {"name":"u","type":{"type":"string","logicalType":"uuid"},"field-id":4},
	 {"name":"dec","type":{"type":"bytes","logicalType":"decimal","precision":20,"scale":3},"field-id":5},
	 {"name":"tail","type":["string","null"],"field-id":6},
	 {"name":"one","type":["int"],"field-id":7}]}`
	type rec struct {
		NS    int64   `avro:"ns"`
		Local int64   `avro:"local"`
		MS    int64   `avro:"ms"`
		U     string  `avro:"u"`
		Dec   []byte  `avro:"dec"`
		Tail  *string `avro:"tail"`
		One   int32   `avro:"one"`
	}
	var buf bytes.Buffer
	// Plain Go types for the logical types, so hamba/avro writes the raw
	// longs and bytes.
	enc, err := ocf.NewEncoder(sc, &buf, ocf.WithSchemaMarshaler(ocf.FullSchemaMarshaler))
	if err != nil {
		t.Fatal(err)
	}
	tail := "x"
	for _, r := range []rec{
		{NS: 1_500_000_000_000_000_123, Local: 86_400_000_001, MS: 1_001, U: "f79c3e09-677c-4bbd-a479-3f349cb785e7", Dec: []byte{0xff, 0x85}, Tail: &tail, One: 7},
		// dec: 0x0080 followed by 8 zero bytes = 2^71, scale 3.
		{U: "00000000-0000-0000-0000-000000000001", Dec: []byte{0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},
	} {
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	f, err := avro.Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	wantSchema := `table {
  1:ns: required timestamptz_ns
  2:local: required timestamp
  3:ms: required timestamptz
  4:u: required uuid
  5:dec: required decimal(20, 3)
  6:tail: string
  7:one: required int
}`
	if got := schemaText(f.Schema()); got != wantSchema {
		t.Errorf("schema:\n%s\nwant\n%s", got, wantSchema)
	}
	got, _ := readAll(t, f, f.Schema(), 0)
	want := `{"ns":"2017-07-14T02:40:00.000000123Z","local":"1970-01-02T00:00:00.000001","ms":"1970-01-01T00:00:01.001000Z","u":"95w+CWd8S72keT80nLeF5w==","dec":"-0.123","tail":"x","one":7}
{"ns":"1970-01-01T00:00:00.000000000Z","local":"1970-01-01T00:00:00.000000","ms":"1970-01-01T00:00:00.000000Z","u":"AAAAAAAAAAAAAAAAAAAAAQ==","dec":"2361183241434822606.848","tail":null,"one":0}
`
	if got != want {
		t.Errorf("rows:\n%s\nwant\n%s", got, want)
	}
}
