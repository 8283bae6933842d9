package parquet

import (
	"encoding/binary"
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
			dec := make([]byte, n*16)
			for i := range dec {
				dec[i] = 0xee
			}
			scatterDecimal(dec, src, w, d, md)
			expDec := make([]byte, n*16)
			k = 0
			for i, x := range d {
				if x != md {
					continue
				}
				var v int64
				if w == 4 {
					v = int64(int32(binary.LittleEndian.Uint32(src[k*4:])))
				} else {
					v = int64(binary.LittleEndian.Uint64(src[k*8:]))
				}
				binary.LittleEndian.PutUint64(expDec[i*16:], uint64(v))
				binary.LittleEndian.PutUint64(expDec[i*16+8:], uint64(v>>63))
				k++
			}
			if string(dec) != string(expDec) {
				t.Fatalf("trial %d width %d: decimal scatter %v, want %v", trial, w, dec, expDec)
			}
		}
	}
}
