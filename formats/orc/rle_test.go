package orc

import (
	"errors"
	"slices"
	"testing"
)

// The examples of the specification's "Run Length Encoding" page.

func TestByteRLESpec(t *testing.T) {
	var d byteRLE
	d.reset([]byte{0x61, 0x00, 0xfe, 0x44, 0x45})
	got, err := d.next(nil, 102)
	if err != nil {
		t.Fatal(err)
	}
	want := append(make([]byte, 100), 0x44, 0x45)
	if !slices.Equal(got, want) {
		t.Errorf("got %v", got)
	}
	if _, err := d.next(nil, 1); !errors.Is(err, errShort) {
		t.Errorf("past the end: %v", err)
	}
}

func TestBoolRLESpec(t *testing.T) {
	var d boolRLE
	d.reset([]byte{0xff, 0x80})
	var got []byte
	for range 8 { // one value at a time crosses the byte state
		var err error
		if got, err = d.next(got, 1); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(got, []byte{1, 0, 0, 0, 0, 0, 0, 0}) {
		t.Errorf("got %v", got)
	}
}

func TestIntRLEv1Spec(t *testing.T) {
	d := &intRLEv1{b: []byte{0x61, 0x00, 0x07, 0xfb, 0x02, 0x03, 0x06, 0x07, 0x0b}}
	got, err := d.next(nil, 105)
	if err != nil {
		t.Fatal(err)
	}
	want := append(slices.Repeat([]int64{7}, 100), 2, 3, 6, 7, 11)
	if !slices.Equal(got, want) {
		t.Errorf("got %v", got)
	}
	// A run with a negative delta, signed base -1 (zigzag 1): -1, -3, -5.
	d = &intRLEv1{b: []byte{0x00, 0xfe, 0x01}, signed: true}
	if got, err = d.next(nil, 3); err != nil || !slices.Equal(got, []int64{-1, -3, -5}) {
		t.Errorf("got %v %v", got, err)
	}
}

func TestIntRLEv2Spec(t *testing.T) {
	cases := []struct {
		name string
		in   []byte
		want []int64
	}{
		{"short repeat", []byte{0x0a, 0x27, 0x10}, []int64{10000, 10000, 10000, 10000, 10000}},
		{"direct", []byte{0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef}, []int64{23713, 43806, 57005, 48879}},
		{"patched base", []byte{0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70, 0x28, 0x32, 0x3c, 0x46, 0x50,
			0x5a, 0x64, 0x6e, 0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8},
			[]int64{2030, 2000, 2020, 1000000, 2040, 2050, 2060, 2070, 2080, 2090, 2100, 2110, 2120, 2130, 2140, 2150,
				2160, 2170, 2180, 2190}},
		{"delta", []byte{0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46}, []int64{2, 3, 5, 7, 11, 13, 17, 19, 23, 29}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Whole, then in odd-sized pieces to cross run boundaries.
			for _, step := range []int{len(c.want), 3} {
				d := &intRLEv2{b: c.in}
				var got []int64
				for len(got) < len(c.want) {
					var err error
					if got, err = d.next(got, min(step, len(c.want)-len(got))); err != nil {
						t.Fatal(err)
					}
				}
				if !slices.Equal(got, c.want) {
					t.Errorf("step %d: got %v", step, got)
				}
			}
		})
	}
}

// TestUnpackWidths round-trips every bit width through the generic and the
// fast unpacking paths.
func TestUnpackWidths(t *testing.T) {
	for _, w := range widthTable {
		vals := []uint64{0, 1, 1<<uint(w) - 1, 0x5555555555555555 & (1<<uint(w) - 1), 3 & (1<<uint(w) - 1)}
		if w == 64 {
			vals[2] = ^uint64(0)
		}
		var bits []byte
		var n uint
		var cur byte
		for _, v := range vals {
			for i := int(w) - 1; i >= 0; i-- {
				cur = cur<<1 | byte(v>>uint(i)&1)
				n++
				if n == 8 {
					bits = append(bits, cur)
					cur, n = 0, 0
				}
			}
		}
		if n > 0 {
			bits = append(bits, cur<<(8-n))
		}
		got := make([]uint64, len(vals))
		p, err := unpack(got, bits, 0, int(w))
		if err != nil || p != len(bits) {
			t.Fatalf("width %d: %v at %d", w, err, p)
		}
		for i, v := range vals {
			if uint64(got[i]) != v {
				t.Errorf("width %d value %d: got %x want %x", w, i, uint64(got[i]), v)
			}
		}
	}
}

func TestDecimalVarint(t *testing.T) {
	cases := []struct {
		in     []byte
		hi, lo uint64
	}{
		{[]byte{0x00}, 0, 0},
		{[]byte{0x01}, ^uint64(0), ^uint64(0)}, // -1
		{[]byte{0x02}, 0, 1},
		{[]byte{0xf2, 0xc0, 0x01}, 0, 12345},
		// 2^64 is zigzag 2^65: bits 65 → byte 9 holds bit 63..69.
		{[]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x04}, 1, 0},
	}
	for _, c := range cases {
		hi, lo, p, err := readVarint128(c.in, 0)
		if err != nil || hi != c.hi || lo != c.lo || p != len(c.in) {
			t.Errorf("%x: got %x %x at %d (%v)", c.in, hi, lo, p, err)
		}
	}
	long := slices.Repeat([]byte{0xff}, 20)
	if _, _, _, err := readVarint128(long, 0); !errors.Is(err, ErrCorrupt) {
		t.Errorf("20-byte varint: %v", err)
	}
}

func TestDecodeNanos(t *testing.T) {
	for _, ns := range []int64{0, 1, 10, 100, 1000, 123456000, 500000000, 999999999, 100000000} {
		if got := decodeNanos(encNanos(ns)); got != ns {
			t.Errorf("%d: got %d (encoded %d)", ns, got, encNanos(ns))
		}
	}
	if got := decodeNanos(5<<3 | 7); got != 500000000 {
		t.Errorf("got %d", got)
	}
}
