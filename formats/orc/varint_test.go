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
