package orc

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// structColumn decodes a struct column: only a PRESENT stream; the fields
// hold values only for rows where the struct is present.
type structColumn struct {
	base
	children []column
}

func (c *structColumn) reset(s *stripe) error {
	c.resetPresent(s)
	for _, ch := range c.children {
		if err := ch.reset(s); err != nil {
			return err
		}
	}
	return nil
}

func (c *structColumn) next(n int, parent []byte) (arrow.ArrayData, error) {
	valid, k, err := c.presence(n, parent)
	if err != nil {
		return nil, err
	}
	mask := valid // children keep their own masks, so c.valid stays intact
	kids := make([]arrow.ArrayData, 0, len(c.children))
	for _, ch := range c.children {
		d, err := ch.next(n, mask)
		if err != nil {
			for _, kd := range kids {
				kd.Release()
			}
			return nil, err
		}
		kids = append(kids, d)
	}
	return makeData(c.dt, n, n-k, []*memory.Buffer{c.bitmap(mask, k)}, kids), nil
}

// listColumn decodes list and map columns: LENGTH (unsigned integer RLE)
// holds the number of elements (entries) of each present row; the children
// (element, or key and value) hold the elements back to back.
type listColumn struct {
	base
	children []column
	lengths  intReader
	lens     []int64
}

func (c *listColumn) reset(s *stripe) error {
	e, err := c.directOnly(s)
	if err != nil {
		return err
	}
	c.resetPresent(s)
	l, _ := s.stream(c.n.col, sLength)
	c.lengths = newIntReader(l, false, e)
	for _, ch := range c.children {
		if err := ch.reset(s); err != nil {
			return err
		}
	}
	return nil
}

func (c *listColumn) next(n int, parent []byte) (arrow.ArrayData, error) {
	valid, k, err := c.presence(n, parent)
	if err != nil {
		return nil, err
	}
	if c.lens, err = c.lengths.next(c.lens[:0], k); err != nil {
		return nil, c.wrapErr("LENGTH stream", err)
	}
	var total int64
	for _, l := range c.lens {
		if l < 0 {
			return nil, c.errf("%w: negative length %d", ErrCorrupt, l)
		}
		total += l
		if total > int64(valueCap) {
			return nil, c.wrapErr("LENGTH stream", checkCount(int(min(total, 1<<40))))
		}
	}
	offBuf := newBuffer(c.mem, 4*(n+1))
	offs := arrow.Int32Traits.CastFromBytes(offBuf.Bytes())
	offs[0] = 0
	var pos int32
	j := 0
	for i := range n {
		if valid == nil || valid[i] != 0 {
			pos += int32(c.lens[j])
			j++
		}
		offs[i+1] = pos
	}
	var bm *memory.Buffer
	if valid != nil && k < n {
		bm = newBuffer(c.mem, (n+7)/8)
		packBits(bm.Bytes(), valid)
	}
	m := int(total)
	kids := make([]arrow.ArrayData, 0, 2)
	for _, ch := range c.children {
		d, err := ch.next(m, nil)
		if err != nil {
			for _, kd := range kids {
				kd.Release()
			}
			offBuf.Release()
			if bm != nil {
				bm.Release()
			}
			return nil, err
		}
		kids = append(kids, d)
	}
	if mt, ok := c.dt.(*arrow.MapType); ok {
		entries := makeData(mt.Elem(), m, 0, []*memory.Buffer{nil}, kids)
		kids = []arrow.ArrayData{entries}
	}
	return makeData(c.dt, n, n-k, []*memory.Buffer{bm, offBuf}, kids), nil
}
