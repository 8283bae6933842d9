package orc

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/lakecat/lakecat/schema"
)

// MayContain reports, from the bloom filter of the column of field over row
// group g, whether the row group may hold the value v (in the Go form of
// the field's type; spec section "Bloom Filter Index"). known is false when
// the filter cannot tell: no filter, a type without a usable filter, or a
// filter a writer is known to have hashed wrongly:
//   - strings only from BLOOM_FILTER_UTF8 (the older BLOOM_FILTER hashed
//     strings in the JVM's default charset, ORC-101); char columns never
//     (their values are padded);
//   - integers, floats and doubles from either stream, from the Java writer
//     and the C++ writer from 1.6.12 and 1.7.1 on (before, it hashed them
//     unlike the Java writer, ORC-1024; apache/orc's
//     bad_bloom_filter_1.6.11.orc has such filters); not from other
//     writers;
//   - no other types (decimals, dates, timestamps, binary, booleans).
func (x *RowIndex) MayContain(g int, field *schema.Field, v any) (may, known bool) {
	n := x.f.stats().nodes[field]
	if n == nil {
		return true, false
	}
	bfs := x.blooms[n.col]
	if g < 0 || g >= len(bfs) || len(bfs) != x.groups() {
		return true, false
	}
	bf := bfs[g]
	if bf.k <= 0 || len(bf.bits) == 0 {
		return true, false
	}
	var h uint64
	switch n.t.kind {
	case kString, kVarchar:
		s, ok := v.(string)
		if !ok || !x.utf8[n.col] {
			return true, false
		}
		h = murmur3Hash64([]byte(s))
	case kByte, kShort, kInt, kLong, kFloat, kDouble:
		if !x.f.numericBloomsSafe() {
			return true, false
		}
		switch y := v.(type) {
		case int8:
			h = longHash(int64(y))
		case int16:
			h = longHash(int64(y))
		case int32:
			h = longHash(int64(y))
		case int64:
			h = longHash(y)
		case float32:
			h = longHash(doubleBits(float64(y)))
		case float64:
			h = longHash(doubleBits(y))
		default:
			return true, false
		}
		if (n.t.kind == kFloat || n.t.kind == kDouble) != isFloat(v) {
			return true, false
		}
	default:
		return true, false
	}
	return bf.test(h), true
}

func isFloat(v any) bool {
	switch v.(type) {
	case float32, float64:
		return true
	}
	return false
}

// doubleBits is Java's Double.doubleToLongBits: NaNs are one NaN.
func doubleBits(f float64) int64 {
	if f != f {
		return 0x7ff8000000000000
	}
	return int64(math.Float64bits(f))
}

// numericBloomsSafe reports whether the file's writer hashes numbers into
// bloom filters as the Java writer does: the Java writer (footer writer 0
// or absent), or the C++ writer (1) from 1.6.12 and 1.7.1 on (ORC-1024).
func (f *File) numericBloomsSafe() bool {
	switch f.tail.footer.writer {
	case 0:
		return true
	case 1:
		v := strings.SplitN(f.tail.footer.software, ".", 4)
		if len(v) < 3 {
			return false
		}
		var n [3]int
		for i := range n {
			d, err := strconv.Atoi(strings.TrimFunc(v[i], func(r rune) bool { return r < '0' || r > '9' }))
			if err != nil {
				return false
			}
			n[i] = d
		}
		switch {
		case n[0] != 1:
			return n[0] > 1
		case n[1] == 6:
			return n[2] >= 12
		case n[1] == 7:
			return n[2] >= 1
		}
		return n[1] > 7
	}
	return false
}

// test reports whether every bit of the hash's k positions is set (the
// positions of the Java writer's BloomFilter.addHash: two 32-bit halves
// combined as h1 + i·h2 for i in 1..k, negative sums bit-flipped, modulo
// the number of bits).
func (bf bloomFilter) test(h uint64) bool {
	m := int64(len(bf.bits)) * 64
	h1, h2 := int32(uint32(h)), int32(uint32(h>>32))
	for i := int32(1); i <= int32(bf.k); i++ {
		c := h1 + i*h2
		if c < 0 {
			c = ^c
		}
		pos := int64(c) % m
		if bf.bits[pos>>6]&(1<<uint(pos&63)) == 0 {
			return false
		}
	}
	return true
}

// longHash is Thomas Wang's 64-bit integer hash with Java's arithmetic
// shifts, as ORC's bloom filters hash integers and doubles.
func longHash(key int64) uint64 {
	key = (^key) + (key << 21)
	key ^= key >> 24
	key = (key + (key << 3)) + (key << 8)
	key ^= key >> 14
	key = (key + (key << 2)) + (key << 4)
	key ^= key >> 28
	key += key << 31
	return uint64(key)
}

// murmur3Hash64 is the 64-bit Murmur3 variant ORC's bloom filters hash
// strings with (its UTF-8 bytes; seed 104729): 8-byte blocks mixed into
// one 64-bit state, then the tail and the length, then fmix64.
func murmur3Hash64(data []byte) uint64 {
	const (
		c1   = 0x87c37b91114253d5
		c2   = 0x4cf5ad432745937f
		seed = 104729
	)
	h := uint64(seed)
	n := len(data) / 8
	for i := 0; i < n; i++ {
		k := binary.LittleEndian.Uint64(data[i*8:])
		k *= c1
		k = bits.RotateLeft64(k, 31)
		k *= c2
		h ^= k
		h = bits.RotateLeft64(h, 27)*5 + 0x52dce729
	}
	tail := data[n*8:]
	if len(tail) > 0 {
		var k uint64
		for i := len(tail) - 1; i >= 0; i-- {
			k = k<<8 | uint64(tail[i])
		}
		k *= c1
		k = bits.RotateLeft64(k, 31)
		k *= c2
		h ^= k
	}
	h ^= uint64(len(data))
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}
