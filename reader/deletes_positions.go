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
// file's rows (which the caller rejects), are added to the bitmap in
// batches.
type posBuilder struct {
	dense   []uint64 // bit r: row r is deleted; nil when not dense
	rows    uint64   // the data file's rows when dense, else 0
	pending []uint64 // positions not yet added to bm
	bm      *roaring64.Bitmap
}

// maxPending is how many positions posBuilder holds before adding them
// to its bitmap.
const maxPending = 1 << 14

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

// add adds the position p.
func (b *posBuilder) add(p uint64) {
	if p < b.rows {
		b.dense[p>>6] |= 1 << (p & 63)
		return
	}
	if b.pending == nil {
		b.pending = make([]uint64, 0, maxPending)
	}
	b.pending = append(b.pending, p)
	if len(b.pending) == maxPending {
		b.bm.AddMany(b.pending)
		b.pending = b.pending[:0]
	}
}

// bitmap returns the positions added.
func (b *posBuilder) bitmap() *roaring64.Bitmap {
	b.bm.AddMany(b.pending)
	b.pending = nil
	if b.dense == nil {
		return b.bm
	}
	bm32 := roaring.FromDense(b.dense, false)
	b.dense, b.rows = nil, 0
	if bm32.IsEmpty() {
		return b.bm
	}
	out := roaring64.Roaring32AsRoaring64(bm32)
	if !b.bm.IsEmpty() {
		out.Or(b.bm)
	}
	return out
}
