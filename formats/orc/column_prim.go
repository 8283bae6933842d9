package orc

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// boolColumn decodes a boolean column: DATA is a boolean RLE stream.
type boolColumn struct {
	base
	data boolRLE
	vals []byte
	full []byte
}

func (c *boolColumn) reset(s *stripe) error {
	if _, err := c.directOnly(s); err != nil {
		return err
	}
	c.resetPresent(s)
	d, _ := s.stream(c.n.col, sData)
	c.data.resetStream(d)
	return nil
}

func (c *boolColumn) next(n int, parent []byte) (arrow.ArrayData, error) {
	valid, k, err := c.presence(n, parent)
	if err != nil {
		return nil, err
	}
	c.vals, err = c.data.next(c.vals[:0], k)
	if err != nil {
		return nil, c.wrapErr("DATA stream", err)
	}
	vals := c.vals
	if valid != nil {
		c.full = scatter(grow(c.full, n), vals, valid)
		vals = c.full
	}
	buf := newBuffer(c.mem, (n+7)/8)
	packBits(buf.Bytes(), vals)
	return makeData(c.dt, n, n-k, []*memory.Buffer{c.bitmap(valid, k), buf}, nil), nil
}

// byteColumn decodes a tinyint column: DATA is a byte RLE stream.
type byteColumn struct {
	base
	data byteRLE
	vals []byte
}

func (c *byteColumn) reset(s *stripe) error {
	if _, err := c.directOnly(s); err != nil {
		return err
	}
	c.resetPresent(s)
	d, _ := s.stream(c.n.col, sData)
	c.data.resetStream(d)
	return nil
}

func (c *byteColumn) next(n int, parent []byte) (arrow.ArrayData, error) {
	valid, k, err := c.presence(n, parent)
	if err != nil {
		return nil, err
	}
	c.vals, err = c.data.next(c.vals[:0], k)
	if err != nil {
		return nil, c.wrapErr("DATA stream", err)
	}
	buf := newBuffer(c.mem, n)
	scatter(buf.Bytes(), c.vals, valid)
	return makeData(c.dt, n, n-k, []*memory.Buffer{c.bitmap(valid, k), buf}, nil), nil
}

// intColumn decodes smallint, int, bigint (and Iceberg time) and date
// columns: DATA is a signed integer RLE stream (v1 or v2 by encoding),
// decoded straight into the Arrow buffer of the column's width.
type intColumn struct {
	base
	data intReader
}

func (c *intColumn) reset(s *stripe) error {
	e, err := c.directOnly(s)
	if err != nil {
		return err
	}
	c.resetPresent(s)
	d, _ := s.stream(c.n.col, sData)
	c.data = newIntReader(d, true, e)
	return nil
}

func (c *intColumn) next(n int, parent []byte) (arrow.ArrayData, error) {
	valid, k, err := c.presence(n, parent)
	if err != nil {
		return nil, err
	}
	// The k present values are decoded into the last k slots of the
	// buffer, then spread over the rows in place.
	var buf *memory.Buffer
	switch c.dt.ID() {
	case arrow.INT16:
		buf = newBuffer(c.mem, 2*n)
		out := arrow.Uint16Traits.CastFromBytes(buf.Bytes())
		if _, err = c.data.fill16(out[n-k:]); err == nil {
			expand(out, valid, k)
		}
	case arrow.INT32, arrow.DATE32:
		buf = newBuffer(c.mem, 4*n)
		out := arrow.Uint32Traits.CastFromBytes(buf.Bytes())
		if _, err = c.data.fill32(out[n-k:]); err == nil {
			expand(out, valid, k)
		}
	default:
		buf = newBuffer(c.mem, 8*n)
		out := arrow.Int64Traits.CastFromBytes(buf.Bytes())
		if _, err = c.data.fill(out[n-k:]); err == nil {
			expand(out, valid, k)
		}
	}
	if err != nil {
		buf.Release()
		return nil, c.wrapErr("DATA stream", err)
	}
	return makeData(c.dt, n, n-k, []*memory.Buffer{c.bitmap(valid, k), buf}, nil), nil
}

// floatColumn decodes float and double columns: DATA holds IEEE 754 values,
// 4 or 8 bytes little endian each, for present rows only; they are read
// (decompressed) straight into the Arrow buffer and spread over the rows in
// place when some are null.
type floatColumn struct {
	base
	s    *stream
	data []byte
	p    int
}

func (c *floatColumn) reset(s *stripe) error {
	if _, err := c.directOnly(s); err != nil {
		return err
	}
	c.resetPresent(s)
	c.s, _ = s.stream(c.n.col, sData)
	c.data, c.p = nil, 0
	return nil
}

func (c *floatColumn) next(n int, parent []byte) (arrow.ArrayData, error) {
	valid, k, err := c.presence(n, parent)
	if err != nil {
		return nil, err
	}
	w := 8
	if c.dt.ID() == arrow.FLOAT32 {
		w = 4
	}
	buf := newBuffer(c.mem, n*w)
	out := buf.Bytes()
	if c.data, c.p, err = c.s.readInto(out[(n-k)*w:], c.data, c.p); err != nil {
		buf.Release()
		if err == errShort {
			return nil, c.errf("DATA stream: %w (%d values)", errShort, k)
		}
		return nil, c.wrapErr("DATA stream", err)
	}
	if w == 8 {
		expand(arrow.Uint64Traits.CastFromBytes(out), valid, k)
	} else {
		expand(arrow.Uint32Traits.CastFromBytes(out), valid, k)
	}
	return makeData(c.dt, n, n-k, []*memory.Buffer{c.bitmap(valid, k), buf}, nil), nil
}

// grow returns s resized to n elements, reallocating only when too small.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// scatter writes dense values to the rows of out where valid is 1 and zero
// elsewhere; nil valid means every row. It returns out.
func scatter[T any](out, dense []T, valid []byte) []T {
	if valid == nil {
		copy(out, dense)
		return out
	}
	var zero T
	j := 0
	for i, v := range valid {
		if v != 0 {
			out[i] = dense[j]
			j++
		} else {
			out[i] = zero
		}
	}
	return out
}
