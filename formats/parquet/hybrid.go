package parquet

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/parquet-go/bitpack"
)

// This file decodes the RLE / bit-packed hybrid encoding (Parquet format,
// Encodings.md "Run Length Encoding / Bit-Packing Hybrid (RLE = 3)") for
// the direct page path (page_direct.go): definition levels, one byte per
// level, counting the defined ones as it goes, and dictionary indices
// (Encodings.md "Dictionary Encoding (PLAIN_DICTIONARY = 2 and
// RLE_DICTIONARY = 8)"). Each run starts with a ULEB128 header: an even
// header is an RLE run of header>>1 copies of one value stored in
// ceil(width/8) little-endian bytes; an odd header is header>>1 groups of
// eight values bit-packed least significant bit first, width bytes a
// group. The last bit-packed group may be padded past the values wanted;
// bytes after the last value wanted are ignored.

var errHybridShort = errors.New("hybrid run header past the end of its bytes")

// unpack1 maps a byte of eight 1-bit values to eight bytes of 0 or 1,
// least significant bit first (the first value in the lowest byte of the
// little-endian word).
var unpack1 = func() (t [256]uint64) {
	for b := range 256 {
		var w uint64
		for j := range 8 {
			w |= uint64(b>>j&1) << (8 * j)
		}
		t[b] = w
	}
	return t
}()

// decodeLevels appends n levels of width bits (1..8) decoded from src to
// dst and returns them with the number of levels equal to md. A level
// wider than width bits, a run past the end of src or fewer than n levels
// is an error.
func decodeLevels(dst, src []byte, width, n int, md byte) ([]byte, int, error) {
	if width < 1 || width > 8 {
		return dst, 0, fmt.Errorf("level bit width %d", width)
	}
	base := len(dst)
	dst = slices.Grow(dst, n)[:base+n]
	out := dst[base:]
	defined := 0
	i := 0
	for i < n {
		hdr, k := binary.Uvarint(src)
		if k <= 0 {
			return dst[:base+i], defined, fmt.Errorf("%d of %d levels: %w", i, n, errHybridShort)
		}
		src = src[k:]
		if hdr&1 == 0 {
			if len(src) < 1 {
				return dst[:base+i], defined, fmt.Errorf("%d of %d levels: RLE run without its value", i, n)
			}
			v := src[0]
			src = src[1:]
			if v>>width != 0 {
				return dst[:base+i], defined, fmt.Errorf("RLE level %d wider than %d bits", v, width)
			}
			take := int(min(hdr>>1, uint64(n-i)))
			fillBytes(out[i:i+take], v)
			if v == md {
				defined += take
			}
			i += take
			continue
		}
		groups := hdr >> 1
		if groups > uint64(len(src)/width) {
			return dst[:base+i], defined, fmt.Errorf("%d of %d levels: bit-packed run of %d groups, %d bytes left", i, n, groups, len(src))
		}
		packed := src[:int(groups)*width]
		src = src[len(packed):]
		take := min(int(groups)*8, n-i)
		defined += unpackLevels(out[i:i+take], packed, width, md)
		i += take
	}
	return dst, defined, nil
}

// fillBytes sets every byte of b to v, a word at a time.
func fillBytes(b []byte, v byte) {
	if v == 0 {
		clear(b)
		return
	}
	pat := uint64(v) * 0x0101010101010101
	j := 0
	for ; j+8 <= len(b); j += 8 {
		binary.LittleEndian.PutUint64(b[j:j+8], pat)
	}
	for ; j < len(b); j++ {
		b[j] = v
	}
}

// unpackLevels writes the first len(out) values of the bit-packed groups
// of packed (width bits a value, 1..8; len(packed) is a multiple of width
// holding at least len(out) values) to out and returns how many equal md.
// Width 1 with md 1, the levels of every flat optional column, takes a
// table lookup and a population count per eight levels.
func unpackLevels(out, packed []byte, width int, md byte) int {
	n := len(out)
	defined := 0
	if width == 1 && md == 1 {
		g := 0
		for ; g+8 <= n; g += 8 {
			b := packed[g>>3]
			binary.LittleEndian.PutUint64(out[g:g+8], unpack1[b])
			defined += bits.OnesCount8(b)
		}
		if g < n {
			b := packed[g>>3] & (1<<(n-g) - 1)
			var w [8]byte
			binary.LittleEndian.PutUint64(w[:], unpack1[b])
			copy(out[g:], w[:n-g])
			defined += bits.OnesCount8(b)
		}
		return defined
	}
	mask := uint64(1)<<width - 1
	for g := 0; g < n; g += 8 {
		var w [8]byte
		copy(w[:], packed[g/8*width:g/8*width+width])
		x := binary.LittleEndian.Uint64(w[:])
		m := min(8, n-g)
		for j := range m {
			v := byte(x >> (j * width) & mask)
			out[g+j] = v
			defined += b2i(v == md)
		}
	}
	return defined
}

// decodeIndices appends n dictionary indices of width bits (0..32)
// decoded from src to dst. Width 0 (a dictionary of one value) gives n
// zeros without reading src. A run past the end of src or fewer than n
// indices is an error; indices are not checked against the dictionary
// here (the gathers do that).
func decodeIndices(dst []int32, src []byte, width, n int) ([]int32, error) {
	if width < 0 || width > 32 {
		return dst, fmt.Errorf("dictionary index bit width %d", width)
	}
	base := len(dst)
	dst = slices.Grow(dst, n)[:base+n]
	out := dst[base:]
	if width == 0 {
		clear(out)
		return dst, nil
	}
	vb := (width + 7) / 8
	i := 0
	for i < n {
		hdr, k := binary.Uvarint(src)
		if k <= 0 {
			return dst[:base+i], fmt.Errorf("%d of %d indices: %w", i, n, errHybridShort)
		}
		src = src[k:]
		if hdr&1 == 0 {
			if len(src) < vb {
				return dst[:base+i], fmt.Errorf("%d of %d indices: RLE run without its value", i, n)
			}
			var w [4]byte
			copy(w[:], src[:vb])
			src = src[vb:]
			v := int32(binary.LittleEndian.Uint32(w[:]))
			take := int(min(hdr>>1, uint64(n-i)))
			s := out[i : i+take]
			for j := range s {
				s[j] = v
			}
			i += take
			continue
		}
		groups := hdr >> 1
		if groups > uint64(len(src)/width) {
			return dst[:base+i], fmt.Errorf("%d of %d indices: bit-packed run of %d groups, %d bytes left", i, n, groups, len(src))
		}
		packed := src[:int(groups)*width]
		take := min(int(groups)*8, n-i)
		// bitpack.Unpack (SIMD on amd64 and arm64) reads up to
		// bitpack.PaddingInt32 bytes past the values it unpacks: it takes
		// the groups whose padding lies inside src, unpackIndices the
		// rest.
		fast := 0
		if room := 8*len(src) - 8*bitpack.PaddingInt32; room > 0 {
			fast = min(take, room/width) &^ 7
		}
		if fast > 0 {
			bitpack.Unpack(out[i:i+fast], src, uint(width))
		}
		unpackIndices(out[i+fast:i+take], packed[fast/8*width:], width)
		src = src[len(packed):]
		i += take
	}
	return dst, nil
}

// unpackIndices writes the first len(out) values of the bit-packed groups
// of packed (width bits a value, 1..32; len(packed) is a multiple of
// width holding at least len(out) values) to out, least significant bit
// first, through a 64-bit accumulator refilled 32 bits at a time (a byte
// at a time in the last four bytes).
func unpackIndices(out []int32, packed []byte, width int) {
	mask := uint64(1)<<width - 1
	var acc uint64
	nb, p := 0, 0
	for i := range out {
		if nb < width {
			if p+4 <= len(packed) {
				acc |= uint64(binary.LittleEndian.Uint32(packed[p:])) << nb
				p += 4
				nb += 32
			} else {
				for nb < width {
					acc |= uint64(packed[p]) << nb
					p++
					nb += 8
				}
			}
		}
		out[i] = int32(acc & mask)
		acc >>= width
		nb -= width
	}
}
