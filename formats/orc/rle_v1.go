package orc

import (
	"fmt"
	"slices"
)

// intRLEv1 decodes integer run-length encoding version 1 (spec section
// "Integer Run Length Encoding, version 1"): a control byte c in [0,127]
// starts a run of c+3 values from a signed delta byte and a varint base;
// c in [-128,-1] starts -c literal varints. Signed values are zigzag encoded.
type intRLEv1 struct {
	b      []byte
	p      int
	s      *stream // when set, more bytes are decompressed from it as needed
	signed bool
	run    int
	lit    bool
	val    int64
	delta  int64
}

func (d *intRLEv1) varint() (int64, error) {
	u, p, err := readVarint(d.b, d.p)
	d.p = p
	if d.signed {
		return unzigzag(u), err
	}
	return int64(u), err
}

func (d *intRLEv1) at() (int64, bool) { return d.s.offset(d.p), d.run == 0 }

func (d *intRLEv1) next(dst []int64, n int) ([]int64, error) {
	at := len(dst)
	dst = slices.Grow(dst, n)[:at+n]
	m, err := d.fill(dst[at:])
	return dst[:at+m], err
}

func (d *intRLEv1) fill(dst []int64) (int, error)    { return fillV1(d, int64Words(dst)) }
func (d *intRLEv1) fill32(dst []uint32) (int, error) { return fillV1(d, dst) }
func (d *intRLEv1) fill16(dst []uint16) (int, error) { return fillV1(d, dst) }

// fillV1 decodes len(dst) values into dst, each narrowed to U, and returns
// how many it wrote (len(dst) unless err is set).
func fillV1[U word](d *intRLEv1, dst []U) (int, error) {
	i := 0
	for i < len(dst) {
		if d.run == 0 {
			if d.s != nil && len(d.b)-d.p < maxRunBytes {
				var err error
				if d.b, d.p, err = d.s.more(d.b, d.p, maxRunBytes); err != nil {
					return i, err
				}
			}
			if d.p >= len(d.b) {
				return i, errShort
			}
			c := int8(d.b[d.p])
			d.p++
			if c >= 0 {
				if d.p >= len(d.b) {
					return i, errShort
				}
				d.run, d.lit = int(c)+3, false
				d.delta = int64(int8(d.b[d.p]))
				d.p++
				v, err := d.varint()
				if err != nil {
					return i, fmt.Errorf("int RLE v1 run base: %w", err)
				}
				d.val = v
			} else {
				d.run, d.lit = -int(c), true
			}
		}
		out := dst[i:min(len(dst), i+d.run)]
		if d.lit {
			for j := range out {
				v, err := d.varint()
				if err != nil {
					return i + j, fmt.Errorf("int RLE v1 literal: %w", err)
				}
				out[j] = U(v)
			}
		} else {
			v, delta := d.val, d.delta
			for j := range out {
				out[j] = U(v)
				v += delta
			}
			d.val = v
		}
		d.run -= len(out)
		i += len(out)
	}
	return i, nil
}
