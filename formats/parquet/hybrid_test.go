package parquet

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// packHybrid encodes vals (width bits each) as the RLE / bit-packed
// hybrid: runs of at least 8 equal values starting at a multiple of 8 as
// RLE runs, the rest in bit-packed groups.
func packHybrid(vals []uint32, width int) []byte {
	var out []byte
	vb := (width + 7) / 8
	for i := 0; i < len(vals); {
		j := i
		for j < len(vals) && vals[j] == vals[i] {
			j++
		}
		if j-i >= 8 || j == len(vals) {
			out = binary.AppendUvarint(out, uint64(j-i)<<1)
			var w [4]byte
			binary.LittleEndian.PutUint32(w[:], vals[i])
			out = append(out, w[:vb]...)
			i = j
			continue
		}
		// One bit-packed group of eight (padded with zeros).
		out = binary.AppendUvarint(out, 1<<1|1)
		grp := make([]byte, width)
		for k := range 8 {
			var v uint64
			if i+k < len(vals) {
				v = uint64(vals[i+k])
			}
			for b := range width {
				if v>>b&1 != 0 {
					bit := k*width + b
					grp[bit>>3] |= 1 << (bit & 7)
				}
			}
		}
		out = append(out, grp...)
		i = min(i+8, len(vals))
	}
	return out
}

// refIndices decodes n values of width bits (1..32) of the hybrid
// encoding a bit at a time.
func refIndices(src []byte, width, n int) ([]int32, error) {
	var out []int32
	vb := (width + 7) / 8
	for len(out) < n {
		hdr, k := binary.Uvarint(src)
		if k <= 0 {
			return out, fmt.Errorf("header")
		}
		src = src[k:]
		if hdr&1 == 0 {
			if len(src) < vb {
				return out, fmt.Errorf("rle value")
			}
			var v uint32
			for b := vb - 1; b >= 0; b-- {
				v = v<<8 | uint32(src[b])
			}
			src = src[vb:]
			for c := uint64(0); c < hdr>>1 && len(out) < n; c++ {
				out = append(out, int32(v))
			}
			continue
		}
		groups := hdr >> 1
		if groups > uint64(len(src)/width) {
			return out, fmt.Errorf("packed")
		}
		p := src[:int(groups)*width]
		src = src[len(p):]
		for k := 0; k < int(groups)*8 && len(out) < n; k++ {
			var v uint32
			for b := range width {
				bit := k*width + b
				v |= uint32(p[bit>>3]>>(bit&7)&1) << b
			}
			out = append(out, int32(v))
		}
	}
	return out, nil
}

func TestDecodeLevels(t *testing.T) {
	cases := []struct {
		src     []byte
		width   int
		n       int
		md      byte
		want    []byte
		defined int
	}{
		{[]byte{5 << 1, 1}, 1, 5, 1, []byte{1, 1, 1, 1, 1}, 5},
		{[]byte{5 << 1, 0}, 1, 3, 1, []byte{0, 0, 0}, 0},
		{[]byte{2<<1 | 1, 0b11001101, 0b01}, 1, 10, 1, []byte{1, 0, 1, 1, 0, 0, 1, 1, 1, 0}, 6},
		{[]byte{1<<1 | 1, 0b11001101, 3 << 1, 1}, 1, 11, 1, []byte{1, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1}, 8},
		// Width 2: 3 2 1 0 3 3 0 1, then an RLE run of two 2s.
		{[]byte{1<<1 | 1, 0b00011011, 0b01001111, 2 << 1, 2}, 2, 10, 3, []byte{3, 2, 1, 0, 3, 3, 0, 1, 2, 2}, 3},
		// Width 3, a partial group.
		{[]byte{1<<1 | 1, 0b11010001, 0, 0}, 3, 3, 4, []byte{1, 2, 3}, 0},
	}
	for i, c := range cases {
		got, def, err := decodeLevels([]byte{9}, c.src, c.width, c.n, c.md)
		if err != nil || !bytes.Equal(got, append([]byte{9}, c.want...)) || def != c.defined {
			t.Errorf("case %d: %v, %d defined, %v; want %v, %d", i, got, def, err, c.want, c.defined)
		}
	}
	// Long runs and every width against the reference decoder.
	r := rand.New(rand.NewPCG(1, 2))
	for width := 1; width <= 8; width++ {
		vals := make([]uint32, 5000)
		for i := range vals {
			if r.IntN(3) == 0 {
				vals[i] = uint32(r.IntN(1 << width))
			} else if i > 0 {
				vals[i] = vals[i-1]
			}
		}
		src := packHybrid(vals, width)
		md := byte(1<<width - 1)
		got, def, err := decodeLevels(nil, src, width, len(vals), md)
		want, werr := decodeHybridLevels(nil, src, width, len(vals))
		if err != nil || werr != nil || !bytes.Equal(got, want) || def != bytes.Count(want, []byte{md}) {
			t.Errorf("width %d: %v / %v, %d defined", width, err, werr, def)
		}
	}
}

func TestDecodeIndices(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, width := range []int{1, 2, 3, 7, 8, 9, 13, 16, 17, 20, 24, 31, 32} {
		for _, n := range []int{1, 7, 8, 9, 100, 4099} {
			vals := make([]uint32, n)
			for i := range vals {
				if r.IntN(4) == 0 && i > 0 {
					vals[i] = vals[i-1]
				} else {
					vals[i] = uint32(r.Uint64() & (1<<width - 1))
				}
			}
			src := packHybrid(vals, width)
			got, err := decodeIndices([]int32{-1}, src, width, n)
			if err != nil {
				t.Fatalf("width %d, %d values: %v", width, n, err)
			}
			want := []int32{-1}
			for _, v := range vals {
				want = append(want, int32(v))
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("width %d, %d values: got %v, want %v", width, n, got[:min(len(got), 20)], want[:min(len(want), 20)])
			}
		}
	}
	if got, err := decodeIndices(nil, nil, 0, 3); err != nil || !reflect.DeepEqual(got, []int32{0, 0, 0}) {
		t.Errorf("width 0: %v, %v", got, err)
	}
	for _, c := range []struct {
		src   []byte
		width int
	}{
		{nil, 33},
		{[]byte{}, 3},
		{[]byte{4 << 1}, 3},           // RLE run without its value
		{[]byte{4 << 1, 1, 0}, 9},     // a 9-bit value takes two bytes: run ends early
		{[]byte{2<<1 | 1, 0, 0}, 3},   // two groups of three bytes, two bytes left
		{[]byte{0x80, 0x80, 0x80}, 3}, // unfinished header
	} {
		if _, err := decodeIndices(nil, c.src, c.width, 16); err == nil {
			t.Errorf("%v width %d: no error", c.src, c.width)
		}
	}
}

func FuzzHybridLevels(f *testing.F) {
	f.Add([]byte{2<<1 | 1, 0b11001101, 0b01}, uint8(1), uint16(10), uint8(1))
	f.Add([]byte{1<<1 | 1, 0b00011011, 0b01001111, 2 << 1, 2}, uint8(2), uint16(10), uint8(3))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x0f, 1}, uint8(1), uint16(100), uint8(1))
	f.Add(packHybrid([]uint32{1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 2, 2, 2}, 2), uint8(2), uint16(15), uint8(2))
	f.Fuzz(func(t *testing.T, src []byte, width uint8, n uint16, md uint8) {
		w := int(width%8) + 1
		got, def, err := decodeLevels(nil, src, w, int(n), md)
		want, werr := decodeHybridLevels(nil, src, w, int(n))
		if (err == nil) != (werr == nil) {
			t.Fatalf("error %v, reference %v", err, werr)
		}
		if err != nil {
			return
		}
		if !bytes.Equal(got, want) || def != bytes.Count(want, []byte{md}) {
			t.Fatalf("got %v (%d defined), reference %v", got, def, want)
		}
	})
}

func FuzzHybridIndices(f *testing.F) {
	f.Add([]byte{2 << 1, 2, 1<<1 | 1, 0b01010001, 0}, uint8(2), uint16(10))
	f.Add(packHybrid([]uint32{5, 9, 1 << 19, 3, 3, 3, 3, 3, 3, 3, 3, 3, 7}, 20), uint8(20), uint16(13))
	f.Add(packHybrid([]uint32{1<<32 - 1, 0, 1}, 32), uint8(32), uint16(3))
	f.Fuzz(func(t *testing.T, src []byte, width uint8, n uint16) {
		w := int(width%32) + 1
		got, err := decodeIndices(nil, src, w, int(n))
		want, werr := refIndices(src, w, int(n))
		if (err == nil) != (werr == nil) {
			t.Fatalf("error %v, reference %v", err, werr)
		}
		if err == nil && !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("got %v, reference %v", got, want)
		}
	})
}
