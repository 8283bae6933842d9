package parquet

import (
	"bytes"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// TestZstdContentSize: frames that state their sizes sum up (skippable
// frames count 0); a frame without a size, a truncated frame or another
// magic give ok false.
func TestZstdContentSize(t *testing.T) {
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	a := enc.EncodeAll(bytes.Repeat([]byte("abc"), 100000), nil)
	b := enc.EncodeAll(bytes.Repeat([]byte("z"), 5000), nil)
	small := enc.EncodeAll([]byte("hello"), nil) // klauspost states no size for tiny inputs
	skip := []byte{0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3}
	var stream bytes.Buffer
	w, _ := zstd.NewWriter(&stream)
	w.Write([]byte("no size stated"))
	w.Close()
	for _, c := range []struct {
		name  string
		src   []byte
		total uint64
		ok    bool
	}{
		{"one frame", a, 300000, true},
		{"two frames and a skippable one", append(append(append([]byte{}, a...), skip...), b...), 305000, true},
		{"tiny frame, no size", small, 0, false},
		{"streamed, no size", stream.Bytes(), 0, false},
		{"truncated", a[:len(a)-1], 0, false},
		{"not zstd", []byte("PAR1PAR1PAR1"), 0, false},
	} {
		total, ok := zstdContentSize(c.src)
		if total != c.total || ok != c.ok {
			t.Errorf("%s: (%d, %v), want (%d, %v)", c.name, total, ok, c.total, c.ok)
		}
	}
}
