package orc

import (
	"math/rand/v2"
	"testing"
)

// encV2DirectW writes vals as one RLE v2 DIRECT run of width code c
// (values already zigzagged when signed; each below 2^width).
func encV2DirectW(vals []uint64, c int) []byte {
	w := int(widthTable[c])
	n := len(vals)
	out := []byte{byte(0x40 | c<<1 | (n-1)>>8), byte(n - 1)}
	var acc uint64
	bits := 0
	for _, v := range vals {
		for i := w - 1; i >= 0; i-- {
			acc = acc<<1 | v>>uint(i)&1
			if bits++; bits == 8 {
				out = append(out, byte(acc))
				acc, bits = 0, 0
			}
		}
	}
	if bits > 0 {
		out = append(out, byte(acc<<(8-bits)))
	}
	return out
}

// wordsStream returns an RLE v2 stream mixing every run kind: the spec's
// examples (short repeat, direct, patched base, delta), a delta run with a
// negative base delta, a fixed delta run, and direct runs of random widths
// and lengths, including 40- to 64-bit values that wrap in 32 and 16 bits.
func wordsStream(r *rand.Rand) []byte {
	var b []byte
	for range 40 {
		switch r.IntN(6) {
		case 0:
			b = append(b, 0x0a, 0x27, 0x10)
		case 1:
			b = append(b, 0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70, 0x28, 0x32, 0x3c, 0x46, 0x50,
				0x5a, 0x64, 0x6e, 0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8)
		case 2:
			b = append(b, 0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46)
		case 3:
			// Delta: 600 unsigned base, -3 (zigzag 5) first delta, then
			// 8-bit deltas subtracted; and a fixed delta of +7.
			b = append(b, 0xc0|7<<1, 19, 0xd8, 0x04, 0x05, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18)
			b = append(b, 0xc0, 99, 0x02, 0x0e)
		default:
			c := r.IntN(32)
			w := int(widthTable[c])
			vals := make([]uint64, 1+r.IntN(512))
			for i := range vals {
				vals[i] = r.Uint64() >> uint(64-w)
			}
			b = append(b, encV2DirectW(vals, c)...)
		}
	}
	return b
}

// TestRLEWords checks that decoding RLE v1 and v2 straight into 32- and
// 16-bit words gives the 64-bit values narrowed, signed and unsigned, in
// pieces that take the in-place path (≥ 512 values) and the straddling one.
func TestRLEWords(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for round := range 20 {
		v2 := wordsStream(r)
		var lits []int64
		for range 300 {
			lits = append(lits, int64(r.Uint64())>>uint(r.IntN(64)))
		}
		v1 := encV1(round%2 == 0, lits...)
		for _, signed := range []bool{false, true} {
			for _, tc := range []struct {
				name string
				dec  func() intReader
			}{
				{"v2", func() intReader { return &intRLEv2{b: v2, signed: signed} }},
				{"v1", func() intReader { return &intRLEv1{b: v1, signed: signed} }},
			} {
				want, err := tc.dec().next(nil, 1<<20)
				if err == nil || len(want) == 0 {
					t.Fatalf("%s: %d values, err %v: want the stream's end", tc.name, len(want), err)
				}
				for _, step := range []int{len(want), 600, 37} {
					d32, d16, d64 := tc.dec(), tc.dec(), tc.dec()
					got32, got16, got64 := make([]uint32, len(want)), make([]uint16, len(want)), make([]int64, len(want))
					for at := 0; at < len(want); at += step {
						end := min(at+step, len(want))
						if _, err := d32.fill32(got32[at:end]); err != nil {
							t.Fatal(err)
						}
						if _, err := d16.fill16(got16[at:end]); err != nil {
							t.Fatal(err)
						}
						if _, err := d64.fill(got64[at:end]); err != nil {
							t.Fatal(err)
						}
					}
					for i, v := range want {
						if got32[i] != uint32(v) || got16[i] != uint16(v) || got64[i] != v {
							t.Fatalf("round %d %s signed %v step %d value %d: %#x, %#x, %#x; want %#x", round, tc.name, signed, step, i, got32[i], got16[i], got64[i], v)
						}
					}
				}
			}
		}
	}
}
