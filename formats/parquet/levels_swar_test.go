package parquet

import (
	"math/rand/v2"
	"testing"
)

// TestSetValidityAndScatter checks the word-at-a-time validity bits and the
// branch-free scatter against one-level-at-a-time loops, at every alignment
// and with levels above and below the maximum.
func TestSetValidityAndScatter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 300; trial++ {
		n := rng.IntN(100)
		base := rng.IntN(20)
		md := byte(1 + rng.IntN(3))
		d := make([]byte, n)
		for i := range d {
			d[i] = byte(rng.IntN(int(md) + 2)) // some above md
		}
		bits := make([]byte, (base+n+7)/8+1)
		setValidity(bits, base, d, md)
		want := make([]byte, len(bits))
		cnt := 0
		for i, x := range d {
			if x == md {
				want[(base+i)>>3] |= 1 << ((base + i) & 7)
				cnt++
			}
		}
		if string(bits) != string(want) {
			t.Fatalf("trial %d: bits %08b, want %08b (d %v md %d base %d)", trial, bits, want, d, md, base)
		}
		for _, w := range []int{4, 8} {
			src := make([]byte, cnt*w)
			for i := range src {
				src[i] = byte(rng.Uint32())
			}
			out := make([]byte, n*w)
			for i := range out {
				out[i] = 0xee
			}
			scatterFixed(out, src, w, d, md)
			exp := make([]byte, n*w)
			k := 0
			for i, x := range d {
				if x == md {
					copy(exp[i*w:], src[k*w:k*w+w])
					k++
				}
			}
			if string(out) != string(exp) {
				t.Fatalf("trial %d width %d: scatter %v, want %v", trial, w, out, exp)
			}
		}
	}
}
