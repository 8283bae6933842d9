package parquet

import (
	"encoding/binary"
	"fmt"

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

// slotValidity counts the slots of a node and builds its validity bitmap
// in one pass. It returns a nil bitmap when no slot is null.
func slotValidity(mem memory.Allocator, def, rep []byte, r, p, d int) (n, nulls int, bm *memory.Buffer) {
	if len(def) == 0 {
		return 0, 0, nil
	}
	bm = newBitmap(mem, len(def))
	bits := bm.Bytes()
	pb, db, rb := byte(p), byte(d), byte(r)
	switch {
	case rep == nil && p == 0:
		n = len(def)
		for i, x := range def {
			if x >= db {
				bits[i>>3] |= 1 << (i & 7)
			} else {
				nulls++
			}
		}
	case rep == nil:
		for _, x := range def {
			if x >= pb {
				if x >= db {
					bits[n>>3] |= 1 << (n & 7)
				} else {
					nulls++
				}
				n++
			}
		}
	default:
		rep = rep[:len(def)]
		for i, x := range def {
			if x >= pb && rep[i] <= rb {
				if x >= db {
					bits[n>>3] |= 1 << (n & 7)
				} else {
					nulls++
				}
				n++
			}
		}
	}
	if nulls == 0 {
		bm.Release()
		return n, 0, nil
	}
	bm.Resize(int(bitutil.BytesForBits(int64(n))))
	return n, nulls, bm
}

// listSlots does for a list or map node what slotValidity does, and builds
// its offsets (n+1 int32) in the same pass: an entry with rep <= er and
// def >= e adds an element to the current slot.
func listSlots(mem memory.Allocator, def, rep []byte, r, p, d, er, e int) (n, nulls int, bm, offs *memory.Buffer, cnt int) {
	bm = newBitmap(mem, len(def))
	bits := bm.Bytes()
	offs = memory.NewResizableBuffer(mem)
	offs.Resize(4 * (len(def) + 1))
	o := arrow.Int32Traits.CastFromBytes(offs.Bytes())
	pb, db, rb, erb, eb := byte(p), byte(d), byte(r), byte(er), byte(e)
	if rep == nil {
		rep = make([]byte, len(def)) // a list always has repetition levels; stay safe
	}
	rep = rep[:len(def)]
	for i, x := range def {
		rv := rep[i]
		if x >= pb && rv <= rb {
			o[n] = int32(cnt)
			if x >= db {
				bits[n>>3] |= 1 << (n & 7)
			} else {
				nulls++
			}
			n++
		}
		if x >= eb && rv <= erb {
			cnt++
		}
	}
	o[n] = int32(cnt)
	offs.Resize(4 * (n + 1))
	if nulls == 0 {
		bm.Release()
		bm = nil
	} else {
		bm.Resize(int(bitutil.BytesForBits(int64(n))))
	}
	return n, nulls, bm, offs, cnt
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

// scatterFixed writes the values of src (width w, 4 or 8) to the entries of
// d equal to md and zeroes the others; out holds len(d)*w bytes and src
// exactly the values of the entries equal to md. The loop has no branch on
// the levels (nulls fall at random, so a branch would mispredict): every
// entry takes the next value masked to zero unless it is defined.
func scatterFixed(out, src []byte, w int, d []byte, md byte) {
	k := 0
	if w == 4 {
		o := arrow.Uint32Traits.CastFromBytes(out[:len(d)*4])
		v := arrow.Uint32Traits.CastFromBytes(src)
		if len(v) == 0 {
			clear(o)
			return
		}
		last := len(v) - 1
		for j, x := range d {
			one := b2i(x == md)
			o[j] = v[min(k, last)] & -uint32(one)
			k += one
		}
		return
	}
	o := arrow.Uint64Traits.CastFromBytes(out[:len(d)*8])
	v := arrow.Uint64Traits.CastFromBytes(src)
	if len(v) == 0 {
		clear(o)
		return
	}
	last := len(v) - 1
	for j, x := range d {
		one := b2i(x == md)
		o[j] = v[min(k, last)] & -uint64(one)
		k += one
	}
}

// scatterDecimal writes the INT32 (w 4) or INT64 (w 8) decimal values of
// src as little-endian decimal128 (sign-extended) to the entries of d equal
// to md and zeroes the others, without a branch on the levels; out holds
// len(d)*16 bytes and src exactly the values of the entries equal to md.
func scatterDecimal(out, src []byte, w int, d []byte, md byte) {
	o := arrow.Uint64Traits.CastFromBytes(out[:len(d)*16])
	k := 0
	if w == 4 {
		v := arrow.Int32Traits.CastFromBytes(src)
		if len(v) == 0 {
			clear(o)
			return
		}
		last := len(v) - 1
		for j, x := range d {
			one := b2i(x == md)
			m := -uint64(one)
			val := int64(v[min(k, last)])
			o[2*j] = uint64(val) & m
			o[2*j+1] = uint64(val>>63) & m
			k += one
		}
		return
	}
	v := arrow.Int64Traits.CastFromBytes(src)
	if len(v) == 0 {
		clear(o)
		return
	}
	last := len(v) - 1
	for j, x := range d {
		one := b2i(x == md)
		m := -uint64(one)
		val := v[min(k, last)]
		o[2*j] = uint64(val) & m
		o[2*j+1] = uint64(val>>63) & m
		k += one
	}
}

// b2i is 1 for true and 0 for false, without a branch.
func b2i(b bool) int {
	var i int
	if b {
		i = 1
	}
	return i
}

// scatterDict writes dict[idx[k]] (width w: 4, 8 or 16) to the entries of
// d equal to md and zeroes the others; out holds len(d)*w bytes and idx one
// index per entry equal to md.
func scatterDict(out, dict []byte, w int, idx []int32, d []byte, md byte) error {
	switch w {
	case 4:
		return scatterDictValues(arrow.Uint32Traits.CastFromBytes(out[:len(d)*4]), arrow.Uint32Traits.CastFromBytes(dict[:len(dict)/4*4]), idx, d, md)
	case 8:
		return scatterDictValues(arrow.Uint64Traits.CastFromBytes(out[:len(d)*8]), arrow.Uint64Traits.CastFromBytes(dict[:len(dict)/8*8]), idx, d, md)
	case 16:
		return scatterDictValues(arrow.Decimal128Traits.CastFromBytes(out[:len(d)*16]), arrow.Decimal128Traits.CastFromBytes(dict[:len(dict)/16*16]), idx, d, md)
	}
	return fmt.Errorf("scatterDict: width %d", w)
}

// scatterDictValues is scatterDict for one value type: o[j] is the next
// dictionary value where d[j] == md and the zero value elsewhere.
func scatterDictValues[T any](o, dv []T, idx []int32, d []byte, md byte) error {
	var zero T
	k := 0
	nd := uint32(len(dv))
	o = o[:len(d)]
	for j, x := range d {
		if x == md {
			i := uint32(idx[k])
			if i >= nd {
				return errDictIndex(idx[k], nd)
			}
			o[j] = dv[i]
			k++
		} else {
			o[j] = zero
		}
	}
	return nil
}

// setValidity sets bit base+j of bits for every d[j] equal to md (the bits
// are zero on entry), eight levels per byte store where aligned: the eight
// levels are compared at once in a word (SWAR) and their equality bits
// gathered by a multiplication.
func setValidity(bits []byte, base int, d []byte, md byte) {
	j, k := 0, base
	for ; j < len(d) && k&7 != 0; j, k = j+1, k+1 {
		if d[j] == md {
			bits[k>>3] |= 1 << (k & 7)
		}
	}
	const lo7 = 0x7f7f7f7f7f7f7f7f
	pat := uint64(md) * 0x0101010101010101
	out := bits[k>>3:]
	o := 0
	for ; j+8 <= len(d); j, k, o = j+8, k+8, o+1 {
		y := binary.LittleEndian.Uint64(d[j:j+8]) ^ pat
		// High bit of each byte: set when the byte of y is non-zero.
		nz := ((y & lo7) + lo7) | y
		eq := (^nz >> 7) & 0x0101010101010101 // 1 in each byte equal to md
		out[o] = byte((eq * 0x0102040810204080) >> 56)
	}
	for ; j < len(d); j, k = j+1, k+1 {
		if d[j] == md {
			bits[k>>3] |= 1 << (k & 7)
		}
	}
}
