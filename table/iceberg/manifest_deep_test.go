package iceberg

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/lakecat/lakecat"
)

// TestDecodeManifestRecursiveSchema decodes a manifest and a manifest list
// whose Avro schema is recursive: ErrUnsupported, as for a data file
// (README, Errors), in one short message.
func TestDecodeManifestRecursiveSchema(t *testing.T) {
	var b bytes.Buffer
	long := func(v int64) {
		var tmp [binary.MaxVarintLen64]byte
		b.Write(tmp[:binary.PutVarint(tmp[:], v)])
	}
	str := func(s string) { long(int64(len(s))); b.WriteString(s) }
	b.WriteString("Obj\x01")
	long(1)
	str("avro.schema")
	str(`{"type":"record","name":"j","fields":[{"name":"j","type":["null","j"]}]}`)
	long(0)
	b.WriteString("0123456789abcdef")
	long(0)
	long(0)
	b.WriteString("0123456789abcdef")
	const want = "avro: j.j.j.…: schema nested deeper than 128 levels (or recursive)"
	_, _, err := DecodeManifest(bytes.NewReader(b.Bytes()), nil)
	if !errors.Is(err, lakecat.ErrUnsupported) || errors.Is(err, lakecat.ErrCorrupt) || err.Error() != "iceberg: manifest: manifest: "+want {
		t.Errorf("manifest: error %v, want ErrUnsupported %q", err, want)
	}
	_, err = DecodeManifestList(bytes.NewReader(b.Bytes()))
	if !errors.Is(err, lakecat.ErrUnsupported) || len(err.Error()) > 200 || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("manifest list: error %v, want ErrUnsupported %q", err, want)
	}
}
