package avro_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/hamba/avro/v2/ocf"

	"github.com/lakecat/lakecat/formats/avro"
	"github.com/lakecat/lakecat/internal/hostile"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/schema"
)

// recordsSchema has one field of every shape metadata files use.
const recordsSchema = `{"type":"record","name":"r","fields":[
 {"name":"l","type":["null","long"],"field-id":1},
 {"name":"i","type":"int","field-id":2},
 {"name":"s","type":"string","field-id":3},
 {"name":"b","type":["null","bytes"],"field-id":4},
 {"name":"fx","type":{"type":"fixed","name":"f3","size":3},"field-id":5},
 {"name":"u","type":{"type":"string","logicalType":"uuid"},"field-id":6},
 {"name":"dec","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2},"field-id":7},
 {"name":"d","type":{"type":"int","logicalType":"date"},"field-id":8},
 {"name":"ts","type":{"type":"long","logicalType":"timestamp-millis"},"field-id":9},
 {"name":"e","type":{"type":"enum","name":"e1","symbols":["A","B"]},"field-id":10},
 {"name":"xs","type":["null",{"type":"array","items":"int","element-id":12}],"field-id":11},
 {"name":"m","type":{"type":"map","values":"long"},"field-id":13},
 {"name":"kv","type":["null",{"type":"array","logicalType":"map","items":{"type":"record","name":"k15_v16","fields":[
   {"name":"key","type":"int","field-id":15},{"name":"value","type":"bytes","field-id":16}]}}],"field-id":14},
 {"name":"rec","type":{"type":"record","name":"r17","fields":[{"name":"ok","type":"boolean","field-id":18},{"name":"f","type":"float","field-id":19},{"name":"g","type":"double","field-id":20}]},"field-id":17}]}`

func recordsFile(t *testing.T, codec ocf.CodecName) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc, err := ocf.NewEncoder(recordsSchema, &buf, ocf.WithCodec(codec), ocf.WithMetadata(map[string][]byte{"format-version": []byte("2")}))
	if err != nil {
		t.Fatal(err)
	}
	recs := []map[string]any{
		{"l": map[string]any{"long": int64(-5)}, "i": 7, "s": "héllo", "b": map[string]any{"bytes": []byte{1, 2}}, "fx": [3]byte{9, 8, 7},
			"u": "f79c3e09-677c-4bbd-a479-3f349cb785e7", "dec": []byte{0x30, 0x39}, "d": 19000, "ts": int64(1500),
			"e": "B", "xs": map[string]any{"array": []any{1, 2, 3}}, "m": map[string]any{"a": int64(1)},
			"kv":  map[string]any{"array": []any{map[string]any{"key": 3, "value": []byte("x")}}},
			"rec": map[string]any{"ok": true, "f": float32(1.5), "g": 2.25}},
		{"l": nil, "i": 0, "s": "", "b": nil, "fx": [3]byte{}, "u": "00000000-0000-0000-0000-000000000000", "dec": []byte{0xff}, "d": 0, "ts": int64(0),
			"e": "A", "xs": nil, "m": map[string]any{}, "kv": nil, "rec": map[string]any{"ok": false, "f": float32(0), "g": 0.0}},
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

// TestRecords decodes every value shape of File.Records into its Go form,
// with the null, deflate and zstandard codecs.
func TestRecords(t *testing.T) {
	want := []map[string]any{
		{"l": int64(-5), "i": int32(7), "s": "héllo", "b": []byte{1, 2}, "fx": []byte{9, 8, 7},
			"u":   [16]byte{0xf7, 0x9c, 0x3e, 0x09, 0x67, 0x7c, 0x4b, 0xbd, 0xa4, 0x79, 0x3f, 0x34, 0x9c, 0xb7, 0x85, 0xe7},
			"dec": schema.DecimalValue{Hi: 0, Lo: 12345}, "d": int32(19000), "ts": int64(1500000),
			"e": "B", "xs": []any{int32(1), int32(2), int32(3)}, "m": map[string]any{"a": int64(1)},
			"kv":  []any{map[string]any{"key": int32(3), "value": []byte("x")}},
			"rec": map[string]any{"ok": true, "f": float32(1.5), "g": 2.25}},
		{"l": nil, "i": int32(0), "s": "", "b": nil, "fx": []byte{0, 0, 0}, "u": [16]byte{}, "dec": schema.DecimalValue{Hi: -1, Lo: ^uint64(0)},
			"d": int32(0), "ts": int64(0), "e": "A", "xs": nil, "m": map[string]any{}, "kv": nil,
			"rec": map[string]any{"ok": false, "f": float32(0), "g": 0.0}},
	}
	for _, codec := range []ocf.CodecName{ocf.Null, ocf.Deflate, ocf.ZStandard} {
		data := recordsFile(t, codec)
		f, err := avro.Open(bytes.NewReader(data), int64(len(data)), avro.WithName("r.avro"))
		if err != nil {
			t.Fatal(err)
		}
		if string(f.Metadata("format-version")) != "2" {
			t.Errorf("%s: format-version %q", codec, f.Metadata("format-version"))
		}
		var got []map[string]any
		for rec, err := range f.Records(context.Background()) {
			if err != nil {
				t.Fatalf("%s: %v", codec, err)
			}
			got = append(got, rec)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v\nwant %#v", codec, got, want)
		}
	}
}

// TestRecordsHostile: the framing attacks of TestHostileAvro and an array
// of more than MaxRecordItems items each end File.Records with an error
// matching ErrCorrupt naming the file, within testutil.HeapBound.
func TestRecordsHostile(t *testing.T) {
	n := int64(avro.MaxRecordItems + 1)
	items := binary.AppendUvarint(nil, uint64(n<<1))
	items = append(items, make([]byte, n)...)
	items = append(items, 0)
	cases := map[string][]byte{
		"block-size":     hostile.AvroHugeBlockSize(),
		"block-count":    hostile.AvroHugeBlockCount(),
		"array-count":    hostile.AvroHugeArrayCount(),
		"deflate-bomb":   hostile.AvroBomb("deflate"),
		"zstandard-bomb": hostile.AvroBomb("zstandard"),
		"snappy-claim":   hostile.AvroSnappyClaim(),
		"many-items":     hostile.AvroContainer("null", 1, -1, items),
	}
	for name, data := range cases {
		var err error
		peak := testutil.PeakHeap(func() {
			var f *avro.File
			f, err = avro.Open(bytes.NewReader(data), int64(len(data)), avro.WithName(name+".avro"))
			if err != nil {
				return
			}
			for _, e := range f.Records(context.Background()) {
				if e != nil {
					err = e
				}
			}
		})
		if !errors.Is(err, avro.ErrCorrupt) || !strings.Contains(err.Error(), name+".avro") {
			t.Errorf("%s: %v, want ErrCorrupt naming the file", name, err)
		}
		if peak > testutil.HeapBound {
			t.Errorf("%s: peak heap %d bytes, above %d", name, peak, testutil.HeapBound)
		}
	}
	// MaxRecordItems items are fine.
	ok := binary.AppendUvarint(nil, uint64((n-1)<<1))
	ok = append(ok, make([]byte, n-1)...)
	ok = append(ok, 0)
	data := hostile.AvroContainer("null", 1, -1, ok)
	f, err := avro.Open(bytes.NewReader(data), int64(len(data)), avro.WithName("max.avro"))
	if err != nil {
		t.Fatal(err)
	}
	for rec, err := range f.Records(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		if xs := rec["xs"].([]any); len(xs) != avro.MaxRecordItems {
			t.Fatalf("%d items", len(xs))
		}
	}
}
