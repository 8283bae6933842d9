package orc

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// unpackBits is the reference of unpack: one bit at a time, most
// significant bit first.
func unpackBits(b []byte, n, w int) []int64 {
	out := make([]int64, n)
	bit := 0
	for i := range out {
		var v uint64
		for range w {
			v = v<<1 | uint64(b[bit>>3]>>(7-uint(bit&7))&1)
			bit++
		}
		out[i] = int64(v)
	}
	return out
}

// TestUnpackReference compares unpack with the bit-by-bit reference for
// every width from 1 to 64 bits (the RLE v2 widths and the patch widths
// closestFixedBits gives) and counts 1 to 512, from an offset into the
// buffer and appended after existing values: long runs take the 64-bit
// load path, their last values and short runs the byte path.
func TestUnpackReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for w := 1; w <= 64; w++ {
		for _, n := range []int{1, 2, 3, 7, 8, 9, 31, 64, 100, 511, 512} {
			need := (n*w + 7) / 8
			b := make([]byte, 5+need+3)
			for i := range b {
				b[i] = byte(r.Uint32())
			}
			want := append([]int64{-1, -2}, unpackBits(b[5:], n, w)...)
			got, p, err := unpack([]int64{-1, -2}, b, 5, n, w)
			if err != nil || p != 5+need || !slices.Equal(got, want) {
				t.Fatalf("w=%d n=%d: got %v (p %d, err %v), want %v (p %d)", w, n, got, p, err, want, 5+need)
			}
			if _, _, err := unpack(nil, b[:5+need-1], 5, n, w); err == nil {
				t.Fatalf("w=%d n=%d: no error on a short buffer", w, n)
			}
		}
	}
}
