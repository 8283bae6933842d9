package avro_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/formats/avro"
)

// container writes an Avro object container (codec null) of one record
// {"id": long} per value in ids, with the header entries meta (avro.schema
// and avro.codec are added), by hand.
func container(schemaJSON string, meta [][2]string, ids ...int64) []byte {
	var b bytes.Buffer
	long := func(v int64) {
		var tmp [binary.MaxVarintLen64]byte
		b.Write(tmp[:binary.PutVarint(tmp[:], v)])
	}
	str := func(s string) { long(int64(len(s))); b.WriteString(s) }
	b.WriteString(avro.Magic)
	meta = append([][2]string{{"avro.schema", schemaJSON}, {"avro.codec", "null"}}, meta...)
	long(int64(len(meta)))
	for _, kv := range meta {
		str(kv[0])
		str(kv[1])
	}
	long(0)
	sync := []byte("0123456789abcdef")
	b.Write(sync)
	var body bytes.Buffer
	for _, id := range ids {
		var tmp [binary.MaxVarintLen64]byte
		body.Write(tmp[:binary.PutVarint(tmp[:], id)])
	}
	long(int64(len(ids)))
	long(int64(body.Len()))
	b.Write(body.Bytes())
	b.Write(sync)
	return b.Bytes()
}

// TestLargeHeader reads a container whose schema carries a 70,000-character
// doc (a header past the first 64 KiB read): the header keys and values
// within the 16 MiB cap are read in full.
func TestLargeHeader(t *testing.T) {
	doc := strings.Repeat("d", 70000)
	sch := fmt.Sprintf(`{"type":"record","name":"r","doc":%q,"fields":[{"name":"id","type":"long","field-id":1}]}`, doc)
	for _, c := range []struct {
		name string
		meta [][2]string
	}{
		{"long schema", nil},
		{"long value after the schema", [][2]string{{"iceberg.schema", strings.Repeat("x", 300000)}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := container(sch, c.meta, 7, 8)
			f, err := avro.Open(bytes.NewReader(b), int64(len(b)), avro.WithName("wide.avro"))
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for rec, err := range f.Records(context.Background()) {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, rec["id"].(int64))
			}
			if fmt.Sprint(got) != "[7 8]" {
				t.Errorf("ids %v, want [7 8]", got)
			}
		})
	}
}

// TestHeaderLengthPastCap opens a container whose header value claims
// 32 MiB (past the 16 MiB header cap) or a negative length: ErrCorrupt
// naming the file, without reading on.
func TestHeaderLengthPastCap(t *testing.T) {
	for _, n := range []int64{32 << 20, -5} {
		var b bytes.Buffer
		b.WriteString(avro.Magic)
		var tmp [binary.MaxVarintLen64]byte
		b.Write(tmp[:binary.PutVarint(tmp[:], 1)])
		b.Write(tmp[:binary.PutVarint(tmp[:], 11)])
		b.WriteString("avro.schema")
		b.Write(tmp[:binary.PutVarint(tmp[:], n)])
		b.Write(bytes.Repeat([]byte{' '}, 100))
		_, err := avro.Open(bytes.NewReader(b.Bytes()), int64(b.Len()), avro.WithName("huge.avro"))
		if !errors.Is(err, avro.ErrCorrupt) || !strings.Contains(err.Error(), "huge.avro") {
			t.Errorf("length %d: error %v, want avro.ErrCorrupt naming huge.avro", n, err)
		}
	}
}
