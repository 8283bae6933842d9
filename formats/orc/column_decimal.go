package orc

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// decimalColumn decodes decimal columns (spec section "Decimal Columns"):
// DATA holds each present value's unscaled integer as an unbounded zigzag
// varint and SECONDARY its scale as a signed integer RLE stream. Values are
// rescaled to the column's scale. Files of version 1.9999 (ORC "pre-2.0",
// decimal64) write precision ≤ 18 decimals as a signed RLE v2 DATA stream
// of unscaled values at the column's scale and no SECONDARY stream.
type decimalColumn struct {
	base
	s       *stream
	data    []byte
	p       int
	scales  intReader
	dec64   intReader
	scaleSt []int64
	vals    []int64
}

func (c *decimalColumn) reset(s *stripe) error {
	e, err := c.directOnly(s)
	if err != nil {
		return err
	}
	c.resetPresent(s)
	c.s, _ = s.stream(c.n.col, sData)
	c.data, c.p = nil, 0
	sec, ok := s.stream(c.n.col, sSecondary)
	c.dec64, c.scales = nil, nil
	if s.decimal64 && !ok && c.n.t.precision <= 18 {
		c.dec64 = newIntReader(c.s, true, encDirectV2)
		return nil
	}
	c.scales = newIntReader(sec, true, e)
	return nil
}

func (c *decimalColumn) next(n int, parent []byte) (arrow.ArrayData, error) {
	valid, k, err := c.presence(n, parent)
	if err != nil {
		return nil, err
	}
	scale := int64(c.dt.(*arrow.Decimal128Type).Scale)
	// The k present values are written to the last k slots of the buffer,
	// then spread over the rows in place.
	buf := newBuffer(c.mem, 16*n)
	out := arrow.Decimal128Traits.CastFromBytes(buf.Bytes())
	if err := c.decode(out[n-k:], scale); err != nil {
		buf.Release()
		return nil, err
	}
	expandPairs(arrow.Uint64Traits.CastFromBytes(buf.Bytes()), valid, k)
	return makeData(c.dt, n, n-k, []*memory.Buffer{c.bitmap(valid, k), buf}, nil), nil
}

// decode decodes len(dst) present values into dst at the column's scale.
func (c *decimalColumn) decode(dst []decimal128.Num, scale int64) error {
	k := len(dst)
	var err error
	if c.dec64 != nil {
		c.vals, err = c.dec64.next(c.vals[:0], k)
		if err != nil {
			return c.wrapErr("DATA stream", err)
		}
		for i, v := range c.vals {
			dst[i] = decimal128.FromI64(v)
		}
		return nil
	}
	c.scaleSt, err = c.scales.next(c.scaleSt[:0], k)
	if err != nil {
		return c.wrapErr("SECONDARY stream", err)
	}
	// Each unscaled value is a varint of at most maxDecimalVarint bytes.
	if c.data, c.p, err = c.s.more(c.data, c.p, maxDecimalVarint*k); err != nil {
		return c.wrapErr("DATA stream", err)
	}
	for i, sc := range c.scaleSt {
		var num decimal128.Num
		if v, p, ok := readVarint63(c.data, c.p); ok {
			num, c.p = decimal128.FromI64(v), p
		} else {
			hi, lo, p, err := readVarint128(c.data, c.p)
			if err != nil {
				return c.wrapErr("DATA stream", err)
			}
			c.p = p
			num = decimal128.New(int64(hi), lo)
		}
		if sc != scale {
			num, err = rescale(num, sc, scale)
			if err != nil {
				return c.wrapErr("DATA stream", err)
			}
		}
		dst[i] = num
	}
	return nil
}

// rescale changes the scale of an unscaled value from `from` to `to`
// digits; extra digits are truncated toward zero.
func rescale(v decimal128.Num, from, to int64) (decimal128.Num, error) {
	d := to - from
	if d < -76 || d > 76 {
		return v, fmt.Errorf("%w: value scale %d for a column of scale %d", ErrCorrupt, from, to)
	}
	b := v.BigInt()
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(max(d, -d)), nil)
	if d > 0 {
		b.Mul(b, p)
	} else {
		b.Quo(b, p)
	}
	if b.BitLen() > 127 {
		return v, fmt.Errorf("%w: decimal value does not fit 128 bits at scale %d", ErrCorrupt, to)
	}
	return decimal128.FromBigInt(b), nil
}

// readVarint63 reads a zigzag varint of at most 9 bytes (a value of 63
// bits, what most decimals hold) at b[p]; ok is false when the varint is
// longer or b holds fewer than 9 bytes from p, and readVarint128 must read
// it. A varint of at most 8 bytes is decoded from one 64-bit load without
// a branch per byte: the first byte whose continuation bit is clear ends
// it, and three shift-and-mask steps pack its 7-bit groups together.
func readVarint63(b []byte, p int) (v int64, np int, ok bool) {
	if p < 0 || len(b)-p < 9 {
		return 0, p, false
	}
	w := b[p : p+9]
	x := binary.LittleEndian.Uint64(w)
	if end := ^x & 0x8080808080808080; end != 0 {
		n := (bits.TrailingZeros64(end) + 1) / 8 // bytes in the varint
		x &= 1<<(8*uint(n)) - 1                  // all ones for n == 8
		x &= 0x7f7f7f7f7f7f7f7f
		x = x&0x007f007f007f007f | x&0x7f007f007f007f00>>1
		x = x&0x00003fff00003fff | x&0x3fff00003fff0000>>2
		x = x&0x000000000fffffff | x&0x0fffffff00000000>>4
		return int64(x>>1) ^ -int64(x&1), p + n, true
	}
	if c := w[8]; c < 0x80 {
		x &= 0x7f7f7f7f7f7f7f7f
		x = x&0x007f007f007f007f | x&0x7f007f007f007f00>>1
		x = x&0x00003fff00003fff | x&0x3fff00003fff0000>>2
		x = x&0x000000000fffffff | x&0x0fffffff00000000>>4
		x |= uint64(c) << 56
		return int64(x>>1) ^ -int64(x&1), p + 9, true
	}
	return 0, p, false
}

// readVarint128 reads an unbounded zigzag varint into a 128-bit two's
// complement value.
func readVarint128(b []byte, p int) (hi, lo uint64, np int, err error) {
	var uhi, ulo uint64
	for i := 0; ; i++ {
		if i >= maxDecimalVarint {
			return 0, 0, p, fmt.Errorf("%w: decimal varint longer than %d bytes", ErrCorrupt, maxDecimalVarint)
		}
		if p >= len(b) {
			return 0, 0, p, errShort
		}
		c := b[p]
		p++
		v := uint64(c & 0x7f)
		sh := uint(7 * i)
		if sh < 64 {
			ulo |= v << sh
			if sh > 57 {
				uhi |= v >> (64 - sh)
			}
		} else {
			uhi |= v << (sh - 64)
		}
		if c < 0x80 {
			break
		}
	}
	lo = ulo>>1 | uhi<<63
	hi = uhi >> 1
	if ulo&1 == 1 {
		lo, hi = ^lo, ^hi
	}
	return hi, lo, p, nil
}
