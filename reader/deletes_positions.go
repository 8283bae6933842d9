package reader

import (
	"github.com/RoaringBitmap/roaring/v2"
	"github.com/RoaringBitmap/roaring/v2/roaring64"
)

// posBuilder collects the positions a position delete file deletes in
// one data file into a bitmap. When the positions are dense enough (at
// least one for every 64 rows of the data file, as the delete file's
// record count states: the bits then take no more memory than the
// positions' own 8 bytes each) they are set in a bitset of a bit per row,
// turned into a roaring bitmap at the end (roaring.FromDense): a store
// each, where adding them to the bitmap one by one costs a container
// lookup and insertion each. Other positions, and any beyond the data
// file's rows (which the caller rejects), go to the bitmap directly.
type posBuilder struct {
	dense []uint64 // bit r: row r is deleted; nil when not dense
	rows  uint64   // the data file's rows when dense
	bm    *roaring64.Bitmap
}

// newPosBuilder returns a builder for a data file of numRows rows (or
// fewer than 0: unknown) and a delete file of records rows (fewer than 0:
// unknown).
func newPosBuilder(numRows, records int64) *posBuilder {
	b := &posBuilder{bm: roaring64.New()}
	if numRows > 0 && numRows <= 1<<32 && records > 0 && numRows/64 <= records {
		b.dense = make([]uint64, (numRows+63)/64)
		b.rows = uint64(numRows)
	}
	return b
}

// addMany adds the positions ps (not negative).
func (b *posBuilder) addMany(ps []uint64) {
	if b.dense == nil {
		b.bm.AddMany(ps)
		return
	}
	d, rows := b.dense, b.rows
	for _, p := range ps {
		if p < rows {
			d[p>>6] |= 1 << (p & 63)
		} else {
			b.bm.Add(p)
		}
	}
}

// bitmap returns the positions added.
func (b *posBuilder) bitmap() *roaring64.Bitmap {
	if b.dense == nil {
		return b.bm
	}
	bm32 := roaring.FromDense(b.dense, false)
	b.dense = nil
	if bm32.IsEmpty() {
		return b.bm
	}
	out := roaring64.Roaring32AsRoaring64(bm32)
	if !b.bm.IsEmpty() {
		out.Or(b.bm)
	}
	return out
}
