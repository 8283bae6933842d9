package orc

import (
	"bytes"
	"fmt"
	"io"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/schema"
)

// column decodes one ORC column (and its projected children) into Arrow
// data, batch by batch.
type column interface {
	// reset positions the column at the start of a stripe.
	reset(s *stripe) error
	// next decodes the next n rows. parent, when not nil, holds one byte per
	// row, 0 where an enclosing struct is null: such rows have no value in
	// this column's streams (spec section "Struct Columns") and come out
	// null.
	next(n int, parent []byte) (arrow.ArrayData, error)
	// node returns the column's file node; kids its projected children.
	node() *node
	kids() []column
	// ownPositions is how many row index positions the column's own
	// streams (not its children's) take in the loaded stripe; seekTo
	// puts them at p's row group (seek.go).
	ownPositions(x *stripeIndex) int
	seekTo(p *posCursor)
}

// base holds what every column has: its node, Arrow type, allocator and
// PRESENT stream (spec section "Column Encoding Section": PRESENT is a
// boolean stream, absent when every value is present).
type base struct {
	n   *node
	dt  arrow.DataType
	mem memory.Allocator // the batch reader's recycler
	// dataMem allocates the buffers whose bytes Arrow's accessors hand out
	// without copying (String.Value, Binary.Value, FixedSizeBinary.Value):
	// the caller's allocator, never the recycler, so that a value a caller
	// keeps after releasing its batch is not overwritten by a later batch.
	dataMem    memory.Allocator
	present    boolRLE
	hasPresent bool
	bits       []byte
	valid      []byte
}

func (b *base) resetPresent(s *stripe) {
	p, ok := s.stream(b.n.col, sPresent)
	b.hasPresent = ok
	b.present.resetStream(p)
}

func (b *base) errf(format string, args ...any) error {
	return fmt.Errorf("column %d (%s): "+format, append([]any{b.n.col, b.n.field.Name}, args...)...)
}

func (b *base) wrapErr(what string, err error) error {
	if err == nil {
		return nil
	}
	return b.errf("%s: %w", what, err)
}

// presence returns one byte per row (1 = value present) or nil when every
// row has a value, and the number of rows with a value.
func (b *base) presence(n int, parent []byte) ([]byte, int, error) {
	if parent == nil && !b.hasPresent {
		return nil, n, nil
	}
	if parent == nil {
		// Every row has a slot: the decoded PRESENT bytes are the validity.
		var err error
		b.bits, err = b.present.next(b.bits[:0], n)
		if err != nil {
			return nil, 0, b.wrapErr("PRESENT stream", err)
		}
		if len(b.bits) < n {
			return nil, 0, b.wrapErr("PRESENT stream", io.ErrUnexpectedEOF)
		}
		valid := b.bits[:n]
		return valid, n - bytes.Count(valid, []byte{0}), nil
	}
	m := n
	if parent != nil {
		m = 0
		for _, v := range parent[:n] {
			m += int(v)
		}
	}
	var err error
	if b.hasPresent {
		b.bits, err = b.present.next(b.bits[:0], m)
		if err != nil {
			return nil, 0, b.wrapErr("PRESENT stream", err)
		}
	}
	if cap(b.valid) < n {
		b.valid = make([]byte, n)
	}
	valid := b.valid[:n]
	k, j := 0, 0
	for i := range valid {
		if parent != nil && parent[i] == 0 {
			valid[i] = 0
			continue
		}
		v := byte(1)
		if b.hasPresent {
			v = b.bits[j]
		}
		j++
		valid[i] = v
		k += int(v)
	}
	return valid, k, nil
}

// newBuffer returns an allocator buffer of n bytes.
func newBuffer(mem memory.Allocator, n int) *memory.Buffer {
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n)
	return buf
}

// bitmap returns the Arrow validity bitmap of valid (nil when no row is
// null) and the null count.
func (b *base) bitmap(valid []byte, k int) *memory.Buffer {
	n := len(valid)
	if valid == nil || k == n {
		return nil
	}
	buf := newBuffer(b.mem, (n+7)/8)
	packBits(buf.Bytes(), valid)
	return buf
}

// packBits packs one byte per value (0 or 1) into an LSB-first bitmap.
func packBits(dst []byte, v []byte) {
	full := len(v) / 8
	for i := range full {
		s := v[i*8 : i*8+8]
		dst[i] = s[0] | s[1]<<1 | s[2]<<2 | s[3]<<3 | s[4]<<4 | s[5]<<5 | s[6]<<6 | s[7]<<7
	}
	if r := len(v) - full*8; r > 0 {
		var c byte
		for j := range r {
			c |= v[full*8+j] << uint(j)
		}
		dst[full] = c
	}
}

// makeData wraps buffers into Arrow data and releases the caller's
// references to them.
func makeData(dt arrow.DataType, n int, nulls int, bufs []*memory.Buffer, children []arrow.ArrayData) arrow.ArrayData {
	d := array.NewData(dt, n, bufs, children, nulls, 0)
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
	for _, c := range children {
		c.Release()
	}
	return d
}

// checkCount guards allocations sized by a value count decoded from a
// stream (list lengths can claim many values in few bytes).
func checkCount(n int) error {
	if n < 0 || n > valueCap {
		return fmt.Errorf("%w: %d values in one batch (limit %d)", ErrTooLarge, n, valueCap)
	}
	return nil
}

// newColumn builds the decoder of file node n exposed as the projected
// field pf, and records the ORC columns it needs.
func (r *BatchReader) newColumn(n *node, pf *schema.Field) (column, error) {
	r.needed[n.col] = true
	b := base{n: n, dt: schema.ToArrowType(pf.Type), mem: r.mem, dataMem: r.pool.Parent()}
	if pt, ok := pf.Type.(schema.PrimitiveType); (ok && pt != n.field.Type) || pf.Type.Kind() != n.field.Type.Kind() {
		return nil, fmt.Errorf("orc: projected field %q is %s, the file has %s", pf.Name, pf.Type, n.field.Type)
	}
	switch n.t.kind {
	case kStruct:
		st := pf.Type.(*schema.StructType)
		c := &structColumn{base: b}
		byName := childIndex(n.children)
		for _, cf := range st.Fields {
			cn := byName[cf.Name]
			if cn == nil {
				return nil, fmt.Errorf("orc: projected field %q.%q is not in the file", pf.Name, cf.Name)
			}
			cc, err := r.newColumn(cn, cf)
			if err != nil {
				return nil, err
			}
			c.children = append(c.children, cc)
		}
		return c, nil
	case kUnion:
		st := pf.Type.(*schema.StructType)
		c := &unionColumn{base: b, variants: len(n.children)}
		for _, cf := range st.Fields {
			if cf.Name == UnionTagName {
				c.order = append(c.order, -1)
				c.tagType = schema.ToArrowType(cf.Type)
				continue
			}
			idx := slices.IndexFunc(n.children, func(cn *node) bool { return cn.field.Name == cf.Name })
			if idx < 0 {
				return nil, fmt.Errorf("orc: projected field %q.%q is not in the file", pf.Name, cf.Name)
			}
			cc, err := r.newColumn(n.children[idx], cf)
			if err != nil {
				return nil, err
			}
			c.order = append(c.order, idx)
			c.children = append(c.children, cc)
		}
		return c, nil
	case kList:
		el, err := r.newColumn(n.children[0], pf.Type.(*schema.ListType).Element)
		if err != nil {
			return nil, err
		}
		return &listColumn{base: b, children: []column{el}}, nil
	case kMap:
		mt := pf.Type.(*schema.MapType)
		k, err := r.newColumn(n.children[0], mt.Key)
		if err != nil {
			return nil, err
		}
		v, err := r.newColumn(n.children[1], mt.Value)
		if err != nil {
			return nil, err
		}
		return &listColumn{base: b, children: []column{k, v}}, nil
	case kBoolean:
		return &boolColumn{base: b}, nil
	case kByte:
		return &byteColumn{base: b}, nil
	case kShort, kInt, kLong, kDate:
		return &intColumn{base: b}, nil
	case kFloat, kDouble:
		return &floatColumn{base: b}, nil
	case kString, kChar, kVarchar, kBinary:
		c := &stringColumn{base: b}
		if ft, ok := b.dt.(*arrow.FixedSizeBinaryType); ok {
			c.fixed = ft.ByteWidth
		}
		return c, nil
	case kDecimal:
		return &decimalColumn{base: b}, nil
	case kTimestamp, kTimestampInstant:
		return &timestampColumn{base: b}, nil
	}
	return nil, fmt.Errorf("%w: column %d of kind %s", ErrUnsupported, n.col, kindName(n.t.kind))
}

// directOnly checks that a column uses DIRECT or DIRECT_V2 encoding.
func (b *base) directOnly(s *stripe) (uint64, error) {
	e := s.encoding(b.n.col)
	if e != encDirect && e != encDirectV2 {
		return 0, b.errf("encoding %d where DIRECT or DIRECT_V2 was expected", e)
	}
	return e, nil
}
