package orc

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// stringColumn decodes string, char, varchar and binary columns (spec
// section "String, Char, and VarChar Columns", "Binary Columns"). DIRECT:
// DATA holds the bytes of present values back to back and LENGTH their
// lengths. DICTIONARY: DATA holds dictionary indexes, LENGTH the lengths of
// the dictionary entries and DICTIONARY_DATA their bytes. fixed > 0 makes a
// fixed_size_binary of that width (Iceberg uuid and fixed[L]).
type stringColumn struct {
	base
	fixed   int
	dict    bool
	s       *stream
	data    []byte
	p       int
	lengths intReader
	index   intReader
	dictOff []int64 // entry i is dictData[dictOff[i]:dictOff[i+1]]
	dictDat []byte  // the dictionary's bytes followed by gatherSlack zero bytes
	vals    []int64 // lengths of the batch's present values
	idxs    []int64 // dictionary indexes of the batch's present values
}

func (c *stringColumn) reset(s *stripe) error {
	c.resetPresent(s)
	e := s.encoding(c.n.col)
	data, _ := s.stream(c.n.col, sData)
	lens, _ := s.stream(c.n.col, sLength)
	switch e {
	case encDirect, encDirectV2:
		c.dict = false
		c.s, c.data, c.p = data, nil, 0
		c.lengths = newIntReader(lens, false, e)
		return nil
	case encDictionary, encDictionaryV2:
		if c.n.t.kind == kBinary {
			return c.errf("binary column with dictionary encoding")
		}
	default:
		return c.errf("unknown encoding %d", e)
	}
	c.dict = true
	// The dictionary is read whole: its LENGTH and DICTIONARY_DATA streams.
	lb, err := lens.all()
	if err != nil {
		return c.wrapErr("dictionary LENGTH stream", err)
	}
	size := s.encodings[c.n.col].dictSize
	if size > maxDictSize || size > uint64(len(lb))*512+512 {
		return c.errf("%w: dictionary of %d entries with a %d-byte LENGTH stream", ErrCorrupt, size, len(lb))
	}
	lr := newIntReader(lens, false, e)
	c.dictOff, err = lr.next(c.dictOff[:0], int(size))
	if err != nil {
		return c.wrapErr("dictionary LENGTH stream", err)
	}
	// The LENGTH stream holds the dictionary's lengths and nothing else
	// (spec section "Column Encodings", string DICTIONARY_V2): values or
	// bytes left in it mean a damaged run header or dictionary size.
	if at, between := lr.at(); !between || at != lens.offset(len(lb)) {
		in := ""
		if !between {
			in = " inside a run"
		}
		return c.errf("%w: dictionary LENGTH stream: %d entries ended at byte %d%s, not at the stream's end, byte %d",
			ErrCorrupt, size, at, in, lens.offset(len(lb)))
	}
	dd, _ := s.stream(c.n.col, sDictionaryData)
	dict, err := dd.all()
	if err != nil {
		return c.wrapErr("DICTIONARY_DATA stream", err)
	}
	// A copy of its own with slack behind it: the stream's buffer is
	// reused, and copyDict moves short entries as 16-byte blocks.
	c.dictDat = append(append(c.dictDat[:0], dict...), make([]byte, gatherSlack)...)[:len(dict)]
	var off int64
	for i, l := range c.dictOff {
		if l < 0 || l > int64(len(c.dictDat))-off {
			return c.errf("%w: dictionary entry %d of length %d with %d bytes of DICTIONARY_DATA left", ErrCorrupt, i, l, int64(len(c.dictDat))-off)
		}
		c.dictOff[i] = off
		off += l
	}
	if off != int64(len(dict)) {
		// DICTIONARY_DATA is the entries' bytes and nothing else: bytes
		// no entry covers mean a damaged length.
		return c.errf("%w: dictionary entries cover %d of the %d bytes of DICTIONARY_DATA", ErrCorrupt, off, len(dict))
	}
	c.dictOff = append(c.dictOff, off)
	c.index = newIntReader(data, false, e)
	return nil
}

func (c *stringColumn) next(n int, parent []byte) (arrow.ArrayData, error) {
	valid, k, err := c.presence(n, parent)
	if err != nil {
		return nil, err
	}
	if c.dict {
		c.idxs, err = c.index.next(c.idxs[:0], k)
		if err != nil {
			return nil, c.wrapErr("DATA stream", err)
		}
		nd := int64(len(c.dictOff) - 1)
		c.vals = grow(c.vals, k)
		for i, ix := range c.idxs {
			if ix < 0 || ix >= nd {
				return nil, c.errf("%w: dictionary index %d of %d entries", ErrCorrupt, ix, nd)
			}
			c.vals[i] = c.dictOff[ix+1] - c.dictOff[ix]
		}
	} else {
		c.vals, err = c.lengths.next(c.vals[:0], k)
		if err != nil {
			return nil, c.wrapErr("LENGTH stream", err)
		}
	}
	var total int64
	for _, l := range c.vals {
		if l < 0 {
			return nil, c.errf("%w: negative length %d", ErrCorrupt, l)
		}
		total += l
		if total > maxBatchBytes {
			return nil, c.errf("%w: more than %d bytes in one batch", ErrTooLarge, maxBatchBytes)
		}
	}
	if !c.dict && total > int64(len(c.data)-c.p) && (c.fixed > 0 || !c.s.mayHold(int(total)-(len(c.data)-c.p))) {
		// Fixed-width values are taken from the window; lengths claiming
		// more bytes than the stream can plausibly hold: decompress what
		// there is before allocating total bytes.
		if c.data, c.p, err = c.s.more(c.data, c.p, int(total)); err != nil {
			return nil, c.wrapErr("DATA stream", err)
		}
		if total > int64(len(c.data)-c.p) {
			return nil, c.errf("DATA stream: %w (%d bytes wanted, %d left)", errShort, total, len(c.data)-c.p)
		}
	}
	if c.fixed > 0 {
		return c.nextFixed(n, k, valid)
	}
	offBuf := newBuffer(c.mem, 4*(n+1))
	offs := arrow.Int32Traits.CastFromBytes(offBuf.Bytes())
	// gatherSlack bytes past the end let copyDict store whole blocks; the
	// buffer is cut back to total bytes once they are written.
	dataBuf := newBuffer(c.dataMem, int(total)+gatherSlack)
	out := dataBuf.Bytes()
	offs[0] = 0
	var pos int32
	if valid == nil {
		for i, l := range c.vals[:n] {
			pos += int32(l)
			offs[i+1] = pos
		}
	} else {
		// Without a branch per row: a null row adds the next value's
		// length masked to zero (c.vals has a zero after the last one).
		c.vals = append(c.vals[:k], 0)
		j := 0
		for i, v := range valid[:n] {
			pos += int32(c.vals[j]) & -int32(v)
			j += int(v)
			offs[i+1] = pos
		}
	}
	if c.dict {
		c.copyDict(out, k)
	} else if c.data, c.p, err = c.s.readInto(out[:total], c.data, c.p); err != nil {
		offBuf.Release()
		dataBuf.Release()
		if err == errShort {
			return nil, c.errf("DATA stream: %w (%d bytes wanted)", errShort, total)
		}
		return nil, c.wrapErr("DATA stream", err)
	}
	dataBuf.ResizeNoShrink(int(total))
	return makeData(c.dt, n, n-k, []*memory.Buffer{c.bitmap(valid, k), offBuf, dataBuf}, nil), nil
}

// gatherSlack is how many bytes past its end copyDict may write to out and
// read from the dictionary.
const gatherSlack = 16

// copyDict copies the dictionary entries of the batch's k indexes to out
// (total bytes and gatherSlack more), in one pass: an entry of at most 16
// bytes, what most dictionary strings are, as one 16-byte block (the bytes
// past it are overwritten by the next entry or lie in the slack), a longer
// one with copy.
func (c *stringColumn) copyDict(out []byte, k int) {
	dict, off := c.dictDat[:len(c.dictDat)+gatherSlack], c.dictOff
	p := 0
	for _, ix := range c.idxs[:k] {
		s, e := off[ix], off[ix+1]
		if l := e - s; l <= 16 {
			*(*[16]byte)(out[p : p+16]) = *(*[16]byte)(dict[s : s+16])
			p += int(l)
			continue
		}
		p += copy(out[p:], dict[s:e])
	}
}

func (c *stringColumn) nextFixed(n, k int, valid []byte) (arrow.ArrayData, error) {
	w := c.fixed
	buf := newBuffer(c.dataMem, n*w)
	out := buf.Bytes()
	j := 0
	for i := range n {
		o := out[i*w : i*w+w]
		if valid != nil && valid[i] == 0 {
			clear(o)
			continue
		}
		l := c.vals[j]
		if l != int64(w) {
			buf.Release()
			return nil, c.errf("%w: value of %d bytes in a fixed[%d] column", ErrCorrupt, l, w)
		}
		if c.dict {
			ix := c.idxs[j]
			copy(o, c.dictDat[c.dictOff[ix]:])
		} else {
			copy(o, c.data[c.p:c.p+w])
			c.p += w
		}
		j++
	}
	return makeData(c.dt, n, n-k, []*memory.Buffer{c.bitmap(valid, k), buf}, nil), nil
}
