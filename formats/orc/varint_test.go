package orc

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// TestReadVarint63 checks the short-varint path of decimal decoding
// against readVarint128: equal values and positions where it accepts a
// varint, a refusal where the varint is longer than 9 bytes or the buffer
// ends within 9 bytes.
func TestReadVarint63(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vals := []int64{0, 1, -1, 63, -64, 64, math.MaxInt64 >> 1, math.MinInt64 >> 1, math.MaxInt64, math.MinInt64}
	for range 1000 {
		vals = append(vals, rng.Int64()>>rng.IntN(64))
	}
	for _, v := range vals {
		b := binary.AppendUvarint(nil, uint64(v<<1)^uint64(v>>63))
		n := len(b)
		b = append(b, make([]byte, 9)...) // room after it
		got, p, ok := readVarint63(b, 0)
		hi, lo, p128, err := readVarint128(b, 0)
		if err != nil {
			t.Fatalf("%d: readVarint128: %v", v, err)
		}
		if n > 9 {
			if ok {
				t.Errorf("%d: %d-byte varint accepted", v, n)
			}
			continue
		}
		if !ok || p != p128 || p != n || got != int64(lo) || int64(hi) != got>>63 {
			t.Errorf("%d: got %d at %d (ok %v), readVarint128 %d:%d at %d", v, got, p, ok, int64(hi), lo, p128)
		}
		if _, _, ok := readVarint63(b[:n], 0); ok && n < 9 {
			t.Errorf("%d: accepted with fewer than 9 bytes left", v)
		}
	}
}

// TestReadVarint63Lengths compares readVarint63 with readVarint128 on
// varints of every bit length (1 to 10 bytes) followed by 0xff bytes,
// which the 64-bit load reads and must mask off.
func TestReadVarint63Lengths(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for n := 0; n <= 64; n++ {
		for range 200 {
			u := r.Uint64() >> uint(64-n)
			if n == 0 {
				u = 0
			}
			var buf []byte
			buf = append(buf, 0xaa) // p = 1
			for x := u; ; x >>= 7 {
				if x < 0x80 {
					buf = append(buf, byte(x))
					break
				}
				buf = append(buf, byte(x)|0x80)
			}
			size := len(buf) - 1
			for _, tail := range []int{9, max(0, 9-size)} {
				b := append(append([]byte{}, buf...), make([]byte, tail)...)
				for i := len(buf); i < len(b); i++ {
					b[i] = 0xff
				}
				hi, lo, wantP, err := readVarint128(b, 1)
				if err != nil {
					t.Fatal(err)
				}
				v, p, ok := readVarint63(b, 1)
				if size > 9 || len(b)-1 < 9 {
					if ok {
						t.Fatalf("%x: ok for a varint of %d bytes with %d bytes", buf, size, len(b)-1)
					}
					continue
				}
				if !ok || p != wantP || uint64(v) != lo || uint64(v>>63) != hi {
					t.Fatalf("%x: %d at %d (ok %v), want %x:%x at %d", buf, v, p, ok, hi, lo, wantP)
				}
			}
		}
	}
}
