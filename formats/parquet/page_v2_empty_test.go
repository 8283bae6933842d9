package parquet

import (
	"bytes"
	"testing"
)

// TestDecodeHybridLevels: RLE and bit-packed runs of the level encoding,
// and the errors of short or malformed input.
func TestDecodeHybridLevels(t *testing.T) {
	for _, c := range []struct {
		name  string
		src   []byte
		width int
		n     int
		want  []byte
	}{
		{"rle one null", []byte{0x02, 0x00}, 1, 1, []byte{0}},
		{"rle run cut at n", []byte{0x0a, 0x01}, 1, 3, []byte{1, 1, 1}},
		// One group of 8 levels of width 1: 0b10110010.
		{"bit-packed", []byte{0x03, 0xb2}, 1, 8, []byte{0, 1, 0, 0, 1, 1, 0, 1}},
		// Width 3, levels 0..7 packed LSB first: 3 bytes.
		{"bit-packed width 3", []byte{0x03, 0x88, 0xc6, 0xfa}, 3, 8, []byte{0, 1, 2, 3, 4, 5, 6, 7}},
		{"rle then bit-packed", []byte{0x04, 0x01, 0x03, 0x01}, 1, 4, []byte{1, 1, 1, 0}},
	} {
		got, err := decodeHybridLevels(nil, c.src, c.width, c.n)
		if err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("%s: %v, %v; want %v", c.name, got, err, c.want)
		}
	}
	for _, c := range []struct {
		name  string
		src   []byte
		width int
		n     int
	}{
		{"empty", nil, 1, 1},
		{"rle without value", []byte{0x02}, 1, 1},
		{"rle value too wide", []byte{0x02, 0x02}, 1, 1},
		{"bit-packed past the end", []byte{0x05, 0xff}, 1, 16},
		{"too few levels", []byte{0x02, 0x00}, 1, 2},
		{"width 0", []byte{0x02, 0x00}, 0, 1},
	} {
		if got, err := decodeHybridLevels(nil, c.src, c.width, c.n); err == nil {
			t.Errorf("%s: %v, no error", c.name, got)
		}
	}
}
