package orc

import "fmt"

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

func (d *intRLEv1) next(dst []int64, n int) ([]int64, error) {
	for n > 0 {
		if d.run == 0 {
			if d.s != nil && len(d.b)-d.p < maxRunBytes {
				var err error
				if d.b, d.p, err = d.s.more(d.b, d.p, maxRunBytes); err != nil {
					return dst, err
				}
			}
			if d.p >= len(d.b) {
				return dst, errShort
			}
			c := int8(d.b[d.p])
			d.p++
			if c >= 0 {
				if d.p >= len(d.b) {
					return dst, errShort
				}
				d.run, d.lit = int(c)+3, false
				d.delta = int64(int8(d.b[d.p]))
				d.p++
				v, err := d.varint()
				if err != nil {
					return dst, fmt.Errorf("int RLE v1 run base: %w", err)
				}
				d.val = v
			} else {
				d.run, d.lit = -int(c), true
			}
		}
		k := min(n, d.run)
		if d.lit {
			for range k {
				v, err := d.varint()
				if err != nil {
					return dst, fmt.Errorf("int RLE v1 literal: %w", err)
				}
				dst = append(dst, v)
			}
		} else {
			v, delta := d.val, d.delta
			for range k {
				dst = append(dst, v)
				v += delta
			}
			d.val = v
		}
		d.run -= k
		n -= k
	}
	return dst, nil
}
