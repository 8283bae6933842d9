package paimon

import (
	"bytes"
	"errors"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/lakecat/lakecat"
)

func TestDeletionVectorRoundTrip(t *testing.T) {
	bm := roaring.BitmapOf(0, 7, 65536, 1<<20)
	b, n, err := EncodeDeletionVector(bm)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(len(b))-8 {
		t.Fatalf("length %d of %d bytes", n, len(b))
	}
	got, err := ReadDeletionVector(bytes.NewReader(append([]byte{1}, b...)), int64(len(b))+1, "index-0", 1, n)
	if err != nil || !got.Equals(bm) {
		t.Fatalf("got %v, %v", got, err)
	}
}

// TestCorruptDeletionVector: each broken field is ErrCorrupt; a 64-bit
// vector is unsupported; a range outside the file is refused before any
// allocation.
func TestCorruptDeletionVector(t *testing.T) {
	good, n, _ := EncodeDeletionVector(roaring.BitmapOf(1, 2, 3))
	flip := func(at int) []byte {
		b := append([]byte(nil), good...)
		b[at] ^= 0xff
		return b
	}
	for name, b := range map[string][]byte{
		"short":  good[:10],
		"length": flip(0),
		"magic":  flip(4),
		"crc":    flip(len(good) - 1),
		"bitmap": flip(9),
	} {
		if _, err := DecodeDeletionVector(b); !errors.Is(err, ErrCorruptDeletionVector) || !errors.Is(err, lakecat.ErrCorrupt) {
			t.Errorf("%s: %v", name, err)
		}
	}
	v64 := append([]byte(nil), good...)
	copy(v64[4:8], []byte{0xd1, 0xd3, 0x39, 0x64}) // 1681511377 little-endian
	if _, err := DecodeDeletionVector(v64); !errors.Is(err, ErrDeletionVectorFormat) {
		t.Errorf("64-bit: %v", err)
	}
	if _, err := ReadDeletionVector(bytes.NewReader(good), int64(len(good)), "index-0", 0, 1<<40); !errors.Is(err, ErrCorruptDeletionVector) {
		t.Errorf("huge length: %v", err)
	}
	if _, err := ReadDeletionVector(bytes.NewReader(good), int64(len(good)), "index-0", 5, n); !errors.Is(err, ErrCorruptDeletionVector) {
		t.Errorf("range past the end: %v", err)
	}
}

// FuzzDeletionVector: the decoder never panics, and what it accepts
// re-encodes to the same bytes.
func FuzzDeletionVector(f *testing.F) {
	good, _, _ := EncodeDeletionVector(roaring.BitmapOf(1, 2, 3, 100000))
	f.Add(good)
	empty, _, _ := EncodeDeletionVector(roaring.New())
	f.Add(empty)
	f.Fuzz(func(t *testing.T, b []byte) {
		bm, err := DecodeDeletionVector(b)
		if err != nil {
			return
		}
		if _, _, err := EncodeDeletionVector(bm); err != nil {
			t.Fatal(err)
		}
	})
}
