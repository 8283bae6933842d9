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
// buffer, into 64-, 32- and 16-bit words (a value cut to the word's low
// bits): long runs take the 64-bit load path, their last values and short
// runs the byte path.
func TestUnpackReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for w := 1; w <= 64; w++ {
		for _, n := range []int{1, 2, 3, 7, 8, 9, 31, 64, 100, 511, 512} {
			need := (n*w + 7) / 8
			b := make([]byte, 5+need+3)
			for i := range b {
				b[i] = byte(r.Uint32())
			}
			want := unpackBits(b[5:], n, w)
			got := make([]uint64, n)
			p, err := unpack(got, b, 5, w)
			if err != nil || p != 5+need || !slices.Equal(int64Words(want), got) {
				t.Fatalf("w=%d n=%d: got %v (p %d, err %v), want %v (p %d)", w, n, got, p, err, want, 5+need)
			}
			got32, got16 := make([]uint32, n), make([]uint16, n)
			if _, err := unpack(got32, b, 5, w); err != nil {
				t.Fatal(err)
			}
			if _, err := unpack(got16, b, 5, w); err != nil {
				t.Fatal(err)
			}
			for i, v := range want {
				if got32[i] != uint32(v) || got16[i] != uint16(v) {
					t.Fatalf("w=%d n=%d value %d: %#x and %#x in 32 and 16 bits, want %#x", w, n, i, got32[i], got16[i], v)
				}
			}
			if _, err := unpack(got, b[:5+need-1], 5, w); err == nil {
				t.Fatalf("w=%d n=%d: no error on a short buffer", w, n)
			}
		}
	}
}
