package parquet

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// This file turns repetition and definition levels (Parquet format,
// "Nested Encoding", the Dremel encoding) into Arrow validity bitmaps and
// list offsets.
//
// For a node of the logical tree, a slot (one Arrow value of that node)
// exists at level entry i when rep[i] <= r and def[i] >= p, where r is the
// repetition level of the nearest enclosing list or map (0 at the top level)
// and p the definition level at which that enclosing list has an element.
// The slot is non-null when def[i] >= d, the node's own definition level.
// An element slot of a list or map exists when rep[i] <= er and def[i] >= e,
// the levels of its repeated group. rep is nil for columns without
// repetition (every entry then starts a row).

// newBitmap returns a zeroed allocator-backed bitmap of n bits.
func newBitmap(mem memory.Allocator, n int) *memory.Buffer {
	b := memory.NewResizableBuffer(mem)
	b.Resize(int(bitutil.BytesForBits(int64(n))))
	clear(b.Bytes())
	return b
}

// slotValidity counts the slots of a node and builds its validity bitmap.
// It returns a nil bitmap when no slot is null.
func slotValidity(mem memory.Allocator, def, rep []byte, r, p, d int) (n, nulls int, bm *memory.Buffer) {
	if len(def) == 0 {
		return 0, 0, nil
	}
	// Count first so that the bitmap is allocated once.
	for i, x := range def {
		if int(x) >= p && (rep == nil || int(rep[i]) <= r) {
			n++
			if int(x) < d {
				nulls++
			}
		}
	}
	if nulls == 0 {
		return n, 0, nil
	}
	bm = newBitmap(mem, n)
	bits := bm.Bytes()
	s := 0
	for i, x := range def {
		if int(x) >= p && (rep == nil || int(rep[i]) <= r) {
			if int(x) >= d {
				bitutil.SetBit(bits, s)
			}
			s++
		}
	}
	return n, nulls, bm
}

// listOffsets builds the offsets (n+1 int32) of a list or map node with
// slots (r, p) and element slots (er, e), and the number of elements.
func listOffsets(mem memory.Allocator, def, rep []byte, r, p, n, er, e int) (*memory.Buffer, int) {
	b := memory.NewResizableBuffer(mem)
	b.Resize(4 * (n + 1))
	offs := arrow.Int32Traits.CastFromBytes(b.Bytes())
	s, cnt := 0, 0
	for i, x := range def {
		rv := 0
		if rep != nil {
			rv = int(rep[i])
		}
		if int(x) >= p && rv <= r {
			if s < n {
				offs[s] = int32(cnt)
			}
			s++
		}
		if int(x) >= e && rv <= er {
			cnt++
		}
	}
	offs[n] = int32(cnt)
	return b, cnt
}

// spreadFixed moves nvals dense values of width w, stored at the start of
// b, to their slots (valid bits of bm), back to front in place, zeroing
// null slots. b holds n*w bytes.
func spreadFixed(b []byte, bm []byte, w, n, nvals int) {
	k := nvals
	switch w {
	case 4:
		v := arrow.Uint32Traits.CastFromBytes(b[:n*4])
		for s := n - 1; s >= 0 && k <= s; s-- {
			if bitutil.BitIsSet(bm, s) {
				k--
				v[s] = v[k]
			} else {
				v[s] = 0
			}
		}
	case 8:
		v := arrow.Uint64Traits.CastFromBytes(b[:n*8])
		for s := n - 1; s >= 0 && k <= s; s-- {
			if bitutil.BitIsSet(bm, s) {
				k--
				v[s] = v[k]
			} else {
				v[s] = 0
			}
		}
	default:
		for s := n - 1; s >= 0 && k <= s; s-- {
			if bitutil.BitIsSet(bm, s) {
				k--
				copy(b[s*w:s*w+w], b[k*w:k*w+w])
			} else {
				clear(b[s*w : s*w+w])
			}
		}
	}
}

// spreadOffsets turns nvals+1 dense offsets at the start of offs into n+1
// slot offsets, null slots getting empty values, in place.
func spreadOffsets(offs []int32, bm []byte, n, nvals int) {
	k := nvals
	offs[n] = offs[nvals]
	for s := n - 1; s >= 0 && k <= s; s-- {
		if bitutil.BitIsSet(bm, s) {
			k--
			offs[s] = offs[k]
		} else {
			offs[s] = offs[s+1]
		}
	}
}

// spreadFixedDefs moves cnt dense values of width w at the start of b to the
// entries of d that equal md, back to front in place, zeroing the others.
// b holds len(d)*w bytes.
func spreadFixedDefs(b []byte, d []byte, md byte, w, cnt int) {
	n := len(d)
	k := cnt
	switch w {
	case 4:
		v := arrow.Uint32Traits.CastFromBytes(b[:n*4])
		for s := n - 1; s >= 0 && k <= s; s-- {
			if d[s] == md {
				k--
				v[s] = v[k]
			} else {
				v[s] = 0
			}
		}
	case 8:
		v := arrow.Uint64Traits.CastFromBytes(b[:n*8])
		for s := n - 1; s >= 0 && k <= s; s-- {
			if d[s] == md {
				k--
				v[s] = v[k]
			} else {
				v[s] = 0
			}
		}
	default:
		for s := n - 1; s >= 0 && k <= s; s-- {
			if d[s] == md {
				k--
				copy(b[s*w:s*w+w], b[k*w:k*w+w])
			} else {
				clear(b[s*w : s*w+w])
			}
		}
	}
}

// spreadOffsetsDefs turns cnt+1 dense offsets at the start of offs into
// len(d)+1 offsets, entries of d below md getting empty values, in place.
func spreadOffsetsDefs(offs []int32, d []byte, md byte, cnt int) {
	n := len(d)
	k := cnt
	offs[n] = offs[cnt]
	for s := n - 1; s >= 0 && k <= s; s-- {
		if d[s] == md {
			k--
			offs[s] = offs[k]
		} else {
			offs[s] = offs[s+1]
		}
	}
}
