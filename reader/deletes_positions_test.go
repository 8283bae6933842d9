package reader

import (
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
)

// TestPosBuilder compares the positions posBuilder collects, through its
// bitset and its bitmap, with roaring64's AddMany of the same positions:
// dense and sparse sets, positions past the data file's rows (kept for the
// caller to reject), across 65,536-row containers, unknown counts.
func TestPosBuilder(t *testing.T) {
	every := func(n, step, from uint64) []uint64 {
		var ps []uint64
		for p := from; p < n; p += step {
			ps = append(ps, p)
		}
		return ps
	}
	cases := []struct {
		name             string
		numRows, records int64
		batches          [][]uint64
		dense            bool
	}{
		{"pos10", 500_000, 50_000, [][]uint64{every(250_000, 10, 3), every(500_000, 10, 250_003)}, true},
		{"every row", 70_000, 70_000, [][]uint64{every(70_000, 1, 0)}, true},
		{"one per 64 rows", 64 * 1000, 1000, [][]uint64{every(64*1000, 64, 63)}, true},
		{"sparse", 1_000_000, 10, [][]uint64{{0, 5, 99_999, 999_999}}, false},
		{"beyond the rows", 1000, 100, [][]uint64{{0, 999, 1000, 5000, 1 << 40}}, true},
		{"unsorted", 1000, 100, [][]uint64{{900, 3, 500}, {2, 999}}, true},
		{"no positions", 1000, 100, [][]uint64{{}}, true},
		{"unknown record count", 1000, -1, [][]uint64{{1, 2}}, false},
		{"unknown rows", -1, 100, [][]uint64{{1, 1 << 33}}, false},
		{"sparse, more than held at once", 1 << 30, 100, [][]uint64{every(3*maxPending*7, 7, 5)}, false},
		{"rows past 32 bits", 1<<32 + 1, 1 << 30, [][]uint64{{1, 1 << 32}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pb := newPosBuilder(c.numRows, c.records)
			if got := pb.dense != nil; got != c.dense {
				t.Fatalf("dense = %v, want %v", got, c.dense)
			}
			want := roaring64.New()
			for _, b := range c.batches {
				for _, p := range b {
					pb.add(p)
				}
				want.AddMany(slices.Clone(b))
			}
			got := pb.bitmap()
			if !got.Equals(want) || got.GetCardinality() != want.GetCardinality() || got.IsEmpty() != want.IsEmpty() {
				t.Fatalf("got %d positions %v, want %d %v", got.GetCardinality(), head(got), want.GetCardinality(), head(want))
			}
			if !want.IsEmpty() && got.Maximum() != want.Maximum() {
				t.Fatalf("maximum %d, want %d", got.Maximum(), want.Maximum())
			}
		})
	}
}

// head returns up to the first 8 positions of bm.
func head(bm *roaring64.Bitmap) []uint64 {
	out := make([]uint64, 8)
	return out[:bm.ManyIterator().NextMany(out)]
}
