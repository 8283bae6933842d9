package puffin

import (
	"bytes"
	"errors"
	"hash/crc32"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2/roaring64"

	"github.com/lakecat/lakecat"
)

func TestDeletionVectorRoundTrip(t *testing.T) {
	want := []uint64{0, 1, 2, 99, 70000, 1<<32 + 5, 1<<40 + 1}
	bm := roaring64.BitmapOf(want...)
	blob := EncodeDeletionVector(bm)
	var file bytes.Buffer
	locs, err := WriteDeletionVectors(&file, []DeletionVectorBlob{{ReferencedDataFile: "data/a.parquet", Cardinality: int64(len(want)), Blob: blob}})
	if err != nil {
		t.Fatal(err)
	}
	if locs[0].Offset != 4 || locs[0].Length != int64(len(blob)) {
		t.Fatalf("location %+v, want offset 4 length %d", locs[0], len(blob))
	}
	b := file.Bytes()
	got, err := ReadDeletionVector(bytes.NewReader(b), int64(len(b)), locs[0].Offset, locs[0].Length)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.ToArray(), want) {
		t.Fatalf("positions %v, want %v", got.ToArray(), want)
	}
}

// TestCorruptDeletionVector: every malformed blob is an ErrCorrupt naming
// the section, never a panic.
func TestCorruptDeletionVector(t *testing.T) {
	good := EncodeDeletionVector(roaring64.BitmapOf(3, 5, 8))
	flip := func(i int) []byte { b := slices.Clone(good); b[i] ^= 0xff; return b }
	cases := []struct {
		name, section string
		blob          []byte
	}{
		{"short", "length", good[:8]},
		{"length field", "length", flip(3)},
		{"magic", "magic", flip(5)},
		{"crc", "crc", flip(len(good) - 1)},
		{"bitmap byte", "crc", flip(14)},
		{"truncated", "length", good[:len(good)-3]},
	}
	for _, c := range cases {
		_, err := DecodeDeletionVector(c.blob)
		var ce *CorruptError
		if !errors.As(err, &ce) || ce.Section != c.section || !errors.Is(err, ErrCorrupt) || !errors.Is(err, lakecat.ErrCorrupt) {
			t.Errorf("%s: err = %v, want a corrupt %s", c.name, err, c.section)
		}
	}
	if _, err := ReadDeletionVector(bytes.NewReader(good), int64(len(good)), 4, int64(len(good))); !errors.Is(err, ErrCorrupt) {
		t.Errorf("blob beyond the file: err = %v, want ErrCorrupt", err)
	}
}

// TestCorruptBitmapWithGoodCRC: a bitmap that the CRC vouches for but that
// is malformed (keys out of order, a count over the bytes, trailing bytes).
func TestCorruptBitmapWithGoodCRC(t *testing.T) {
	frame := func(vec []byte) []byte {
		body := append(slices.Clone(dvMagic[:]), vec...)
		out := []byte{0, 0, 0, byte(len(body))}
		out = append(out, body...)
		c := crc32IEEE(body)
		return append(out, byte(c>>24), byte(c>>16), byte(c>>8), byte(c))
	}
	cases := map[string][]byte{
		"count over bytes": frame([]byte{9, 0, 0, 0, 0, 0, 0, 0}),
		"short count":      frame([]byte{1, 0}),
		"trailing bytes":   frame([]byte{0, 0, 0, 0, 0, 0, 0, 0, 7}),
		"bad inner":        frame([]byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8}),
	}
	for name, blob := range cases {
		if _, err := DecodeDeletionVector(blob); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: err = %v, want ErrCorrupt", name, err)
		}
	}
}

func FuzzDecodeDeletionVector(f *testing.F) {
	f.Add(EncodeDeletionVector(roaring64.BitmapOf(3, 5, 8)))
	f.Add(EncodeDeletionVector(roaring64.BitmapOf(0, 1<<33)))
	f.Add(EncodeDeletionVector(roaring64.New()))
	f.Fuzz(func(t *testing.T, b []byte) {
		bm, err := DecodeDeletionVector(b)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error not ErrCorrupt: %v", err)
			}
			return
		}
		// What decodes re-encodes to a blob that decodes to the same set.
		again, err := DecodeDeletionVector(EncodeDeletionVector(bm))
		if err != nil || !again.Equals(bm) {
			t.Fatalf("re-encoded: %v", err)
		}
	})
}

func crc32IEEE(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

// FuzzDecodeBitmap64 fuzzes the bitmap decoder behind the CRC check, which
// random bytes rarely pass.
func FuzzDecodeBitmap64(f *testing.F) {
	good := EncodeDeletionVector(roaring64.BitmapOf(3, 5, 8, 1<<32|7))
	f.Add(good[8 : len(good)-4])
	f.Fuzz(func(t *testing.T, vec []byte) {
		if _, err := decodeBitmap64(vec, 8); err != nil && !errors.Is(err, ErrCorrupt) {
			t.Fatalf("error not ErrCorrupt: %v", err)
		}
	})
}
