package orc

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// UnionTagName is the name of the tag field of the struct a uniontype column
// is read as: the index (int8, from 0) of the variant a row holds, null
// where the union itself is null. The variants follow as "field0",
// "field1", …, as Trino and Spark name them.
const UnionTagName = "tag"

// unionColumn decodes a uniontype column (spec section "Union Columns"):
// PRESENT, and DATA, a byte RLE stream with the tag of every present row;
// variant k holds values only for the rows tagged k, so it is decoded with
// those rows as its parent mask and comes out null elsewhere.
type unionColumn struct {
	base
	variants int
	order    []int // per projected field: variant index, -1 for the tag
	children []column
	tagType  arrow.DataType
	data     byteRLE
	tags     []byte // dense tags of the present rows
	rowTags  []byte // tag per row (0 where the union is null)
	mask     []byte
}

func (c *unionColumn) reset(s *stripe) error {
	if _, err := c.directOnly(s); err != nil {
		return err
	}
	c.resetPresent(s)
	d, _ := s.stream(c.n.col, sData)
	c.data.resetStream(d)
	for _, ch := range c.children {
		if err := ch.reset(s); err != nil {
			return err
		}
	}
	return nil
}

func (c *unionColumn) next(n int, parent []byte) (arrow.ArrayData, error) {
	valid, k, err := c.presence(n, parent)
	if err != nil {
		return nil, err
	}
	c.tags, err = c.data.next(c.tags[:0], k)
	if err != nil {
		return nil, c.wrapErr("DATA stream", err)
	}
	if cap(c.rowTags) < n {
		c.rowTags, c.mask = make([]byte, n), make([]byte, n)
	}
	rowTags, mask := c.rowTags[:n], c.mask[:n]
	j := 0
	for i := range rowTags {
		rowTags[i] = 0
		if valid != nil && valid[i] == 0 {
			continue
		}
		t := c.tags[j]
		j++
		if int(t) >= c.variants {
			return nil, c.errf("%w: tag %d of a union with %d variants", ErrCorrupt, t, c.variants)
		}
		rowTags[i] = t
	}
	kids := make([]arrow.ArrayData, 0, len(c.order))
	fail := func(err error) (arrow.ArrayData, error) {
		for _, kd := range kids {
			kd.Release()
		}
		return nil, err
	}
	ci := 0
	for _, idx := range c.order {
		if idx < 0 {
			buf := newBuffer(c.mem, n)
			scatter(buf.Bytes(), c.tags[:k], valid)
			kids = append(kids, makeData(c.tagType, n, n-k, []*memory.Buffer{c.bitmap(valid, k), buf}, nil))
			continue
		}
		for i := range mask {
			mask[i] = 0
			if (valid == nil || valid[i] != 0) && int(rowTags[i]) == idx {
				mask[i] = 1
			}
		}
		d, err := c.children[ci].next(n, mask)
		if err != nil {
			return fail(err)
		}
		ci++
		kids = append(kids, d)
	}
	return makeData(c.dt, n, n-k, []*memory.Buffer{c.bitmap(valid, k)}, kids), nil
}
