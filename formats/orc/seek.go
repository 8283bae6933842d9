package orc

import (
	"cmp"
	"fmt"
	"io"
	"slices"
)

// Seeking by the row index (spec section "Row Group Index"): each
// RowIndexEntry of a column lists, for each of its streams in the order
// the column's decoder reads them (PRESENT first when the stripe has it),
// where the row group starts: in a compressed file the offset of the
// compression chunk in the stream and the offset of the row group in the
// decompressed chunk, in an uncompressed file the byte offset; then the
// run-length encoder's position: the values of the run starting there
// that belong to earlier row groups (for a boolean stream, the bytes of
// the byte run, then the bits of the next byte). A column is put at a
// row group by putting each stream there and decoding, then dropping,
// those values.

// stripeIndex holds the stream positions of the row index of the needed
// columns of the loaded stripe.
type stripeIndex struct {
	st         *stripe
	compressed bool
	stride     int64
	groups     int
	pos        map[int][][]uint64 // column → row group → positions
}

// fits reports whether column col has one entry of n positions per row
// group (the first may have none: see seekColumn).
func (x *stripeIndex) fits(col, n int) bool {
	e := x.pos[col]
	if len(e) != x.groups {
		return false
	}
	for g, p := range e {
		if len(p) != n && (g > 0 || len(p) > 0) {
			return false
		}
	}
	return true
}

// posCursor walks the positions of one column at two row groups: from,
// where skipping starts (for the byte count), and to, where the column is
// put. A nil to only counts the bytes from from to the ends of the
// streams and changes nothing.
type posCursor struct {
	x        *stripeIndex
	from, to []uint64
	// check compares each stream's decoder with the positions to, of
	// row group group, which the column reached by decoding, instead of
	// putting it there; atEnd compares them with the streams' ends, at
	// the end of a stripe decoded to its last row (no positions read).
	check, atEnd bool
	group        int
	compared     *[2]int64 // counts the comparisons: exact, then past a run's start
	s            *stream   // the stream compared
	e            int64     // where its decoder should be (stream.expected)
	i            int
	bytes        int64
	err          error
	ints         []int64
	bits         []byte
}

func (c *posCursor) apply() bool { return c.to != nil && c.err == nil && !c.check && !c.atEnd }

// compares reports whether the cursor compares decoders rather than
// seeking or counting.
func (c *posCursor) compares() bool { return c.check || c.atEnd }

// compare checks the decoder of the stream compared, at offset d of its
// decompressed bytes and between runs or not, against a position k values
// into a run. Two facts are exact: a row group whose position is 0 values
// into a run starts a run (every writer starts one there), so the decoder
// must be between runs at the position; one k > 0 values into a run has
// its first k values in a run starting at the position, which the decoder
// has read into, so it must be past it (where in the run depends on how
// the writer split its runs, which is not checked).
func (c *posCursor) compare(d int64, between bool, k int) {
	if c.err != nil || c.s == nil || !c.compares() {
		return
	}
	if c.compared != nil {
		c.compared[min(k, 1)]++
	}
	if k == 0 && between && d == c.e || k > 0 && d > c.e {
		return
	}
	name, in := streamName(c.s.kind), ""
	if !between {
		in = " inside a run"
	}
	switch {
	case c.atEnd && d == c.e:
		c.fail(fmt.Errorf("%w: %s stream: decoding the stripe's rows left values of its last run", ErrCorrupt, name))
	case c.atEnd:
		c.fail(fmt.Errorf("%w: %s stream: decoding the stripe's rows ended at byte %d%s, not at the stream's end, byte %d",
			ErrCorrupt, name, d, in, c.e))
	default:
		c.fail(fmt.Errorf("%w: %s stream: decoding reached row group %d at byte %d%s; the row index puts it at byte %d, %d values into a run",
			ErrCorrupt, name, c.group, d, in, c.e, k))
	}
}

func (c *posCursor) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

// stream puts s (nil: a stream the stripe lacks) at the cursor's next
// stream position.
func (c *posCursor) stream(s *stream) {
	k := 1
	if c.x.compressed {
		k = 2
	}
	if c.err != nil {
		return
	}
	if c.atEnd {
		c.s = s
		if s != nil {
			var err error
			c.e, err = s.end()
			c.fail(err)
		}
		return
	}
	if c.i+k > len(c.from) {
		c.fail(fmt.Errorf("%w: too few row index positions", ErrCorrupt))
		return
	}
	if c.check {
		off, inner := c.to[c.i], uint64(0)
		if k == 2 {
			inner = c.to[c.i+1]
		}
		c.i += k
		c.s = s
		if s == nil {
			c.fail(s.seek(off, inner)) // fails unless the position is 0
			return
		}
		var ok bool
		if c.e, ok = s.expected(off, inner); !ok {
			c.fail(fmt.Errorf("%w: %s stream: the row index puts row group %d in a chunk at byte %d, which decoding did not pass",
				ErrCorrupt, streamName(s.kind), c.group, off))
		}
		return
	}
	var size uint64
	if s != nil {
		size = uint64(s.size)
	}
	from := min(c.from[c.i], size)
	if c.to == nil {
		c.bytes += int64(size - from)
		c.i += k
		return
	}
	off, inner := c.to[c.i], uint64(0)
	if k == 2 {
		inner = c.to[c.i+1]
	}
	c.i += k
	if to := min(off, size); to > from {
		c.bytes += int64(to - from)
	}
	c.fail(s.seek(off, inner))
}

// value returns the cursor's next encoder position (0 when only
// counting).
func (c *posCursor) value() int {
	if c.err != nil || c.atEnd {
		return 0
	}
	if c.i >= len(c.from) {
		c.fail(fmt.Errorf("%w: too few row index positions", ErrCorrupt))
		return 0
	}
	c.i++
	if c.to == nil {
		return 0
	}
	v := c.to[c.i-1]
	if v > maxSeekValues {
		c.fail(fmt.Errorf("%w: row index position of %d values in a run (limit %d)", ErrCorrupt, v, maxSeekValues))
		return 0
	}
	return int(v)
}

// intStream positions a fresh integer decoder on stream s and drops the
// values of the run before the row group; when comparing, it compares
// cur, the column's decoder of s, and returns nil.
func (c *posCursor) intStream(s *stream, signed bool, enc uint64, cur intReader) intReader {
	c.stream(s)
	k := c.value()
	if c.compares() {
		if cur != nil {
			d, between := cur.at()
			c.compare(d, between, k)
		}
		return nil
	}
	if !c.apply() {
		return nil
	}
	d := newIntReader(s, signed, enc)
	if k > 0 {
		var err error
		if c.ints, err = d.next(c.ints[:0], k); err != nil {
			c.fail(err)
		} else if len(c.ints) < k {
			c.fail(io.ErrUnexpectedEOF)
		}
	}
	return d
}

// byteStream positions d, a byte RLE decoder, on stream s.
func (c *posCursor) byteStream(d *byteRLE, s *stream) {
	c.stream(s)
	k := c.value()
	if c.compares() {
		off, between := d.at()
		c.compare(off, between, k)
		return
	}
	if !c.apply() {
		return
	}
	d.resetStream(s)
	if k > 0 {
		var err error
		if c.bits, err = d.next(c.bits[:0], k); err != nil {
			c.fail(err)
		}
	}
}

// boolStream positions d, a boolean decoder, on stream s.
func (c *posCursor) boolStream(d *boolRLE, s *stream) {
	c.stream(s)
	k := c.value()
	bits := c.value()
	if bits > 8 {
		c.fail(fmt.Errorf("%w: row index position of bit %d in a byte", ErrCorrupt, bits))
		return
	}
	if c.compares() {
		// The bits of the current byte before the row group are all the
		// decoder has taken of it (it reads a byte when it needs a bit);
		// at a stripe's end the rest of the last byte is padding.
		if c.check && s != nil && d.left != (8-bits)%8 {
			c.fail(fmt.Errorf("%w: %s stream: decoding reached row group %d with %d bits of a byte left; the row index puts it %d bits into one",
				ErrCorrupt, streamName(s.kind), c.group, d.left, bits))
			return
		}
		off, between := d.br.at()
		c.compare(off, between, k+bits)
		return
	}
	if !c.apply() {
		return
	}
	d.resetStream(s)
	if n := 8*k + bits; n > 0 {
		var err error
		if c.bits, err = d.next(c.bits[:0], n); err != nil {
			c.fail(err)
		}
	}
}

// rawStream puts a stream read without runs (float and double values,
// string bytes, decimal varints) at the cursor's next stream position and
// reports whether its decoder's window must be dropped; when comparing,
// it compares the decoder at p of its window (0: no window yet) instead.
func (c *posCursor) rawStream(s *stream, p int) bool {
	c.stream(s)
	if c.compares() {
		c.compare(s.offset(p), true, 0)
		return false
	}
	return c.apply()
}

// seek puts the stream at a row index position: off is the byte offset
// in the stream (of a compression chunk when the file is compressed),
// inner the offset in that chunk's decompressed bytes. The stream's
// decoders must be reset after it.
func (s *stream) seek(off, inner uint64) error {
	if s == nil {
		if off == 0 && inner == 0 {
			return nil
		}
		return fmt.Errorf("%w: row index position %d in a stream the stripe lacks", ErrCorrupt, off)
	}
	if off > uint64(s.size) {
		return fmt.Errorf("%w: row index position %d beyond the stream's %d bytes", ErrCorrupt, off, s.size)
	}
	s.read, s.raw, s.rawStore, s.buf, s.base = int(off), nil, s.rawStore[:0], s.buf[:0], 0
	if s.dec.kind == compNone {
		s.base = int64(off)
		return nil
	}
	s.marks = s.marks[:0]
	if inner == 0 {
		return nil
	}
	if s.done() {
		return fmt.Errorf("%w: row index position %d in a chunk at the stream's end", ErrCorrupt, inner)
	}
	if err := s.chunk(0); err != nil {
		return err
	}
	if inner > uint64(len(s.buf)) {
		return fmt.Errorf("%w: row index position %d in a chunk of %d bytes", ErrCorrupt, inner, len(s.buf))
	}
	s.buf = s.buf[:copy(s.buf, s.buf[inner:])]
	s.base += int64(inner)
	return nil
}

// expected returns the offset in the decompressed bytes (counted as
// s.base is) of the row index position off, inner: off itself in an
// uncompressed file; else the offset of the chunk at off among the chunks
// decompressed since the stream was loaded or seeked, or of the next one,
// plus inner. ok is false when off names neither: no row group a decoder
// has reached by decoding starts there.
func (s *stream) expected(off, inner uint64) (e int64, ok bool) {
	if s.dec.kind == compNone {
		return int64(min(off, 1<<62)), true
	}
	o := int64(min(off, 1<<62))
	i, found := slices.BinarySearchFunc(s.marks, o, func(m chunkMark, o int64) int { return cmp.Compare(m.raw, o) })
	switch {
	case found:
		return s.marks[i].dec + int64(min(inner, 1<<62)), true
	case o == int64(s.read-len(s.raw)): // the chunk not yet decompressed
		return s.base + int64(len(s.buf)) + int64(min(inner, 1<<62)), true
	}
	return 0, false
}

// end returns the offset in the decompressed bytes of the stream's end:
// its size in a file without compression (nothing read), else the offset
// after the chunks no decoder asked for (none in a stream read to its
// end), which it reads and decompresses.
func (s *stream) end() (int64, error) {
	if s.dec.kind == compNone {
		return int64(s.size), nil
	}
	for !s.done() {
		if err := s.chunk(0); err != nil {
			return 0, err
		}
	}
	return s.base + int64(len(s.buf)), nil
}

// streamPositions is how many positions a stream's place takes: the
// chunk and the offset in it when the file is compressed, else the byte
// offset.
func (x *stripeIndex) streamPositions() int {
	if x.compressed {
		return 2
	}
	return 1
}

func (b *base) node() *node    { return b.n }
func (b *base) kids() []column { return nil }

// presentPositions is how many positions the PRESENT stream takes.
func (b *base) presentPositions(x *stripeIndex) int {
	if !b.hasPresent {
		return 0
	}
	return x.streamPositions() + 2
}

func (b *base) seekPresent(c *posCursor) {
	if b.hasPresent {
		c.boolStream(&b.present, b.present.br.s)
	}
}

func (c *boolColumn) ownPositions(x *stripeIndex) int {
	return c.presentPositions(x) + x.streamPositions() + 2
}

func (c *boolColumn) seekTo(p *posCursor) {
	c.seekPresent(p)
	d, _ := p.x.st.stream(c.n.col, sData)
	p.boolStream(&c.data, d)
}

func (c *byteColumn) ownPositions(x *stripeIndex) int {
	return c.presentPositions(x) + x.streamPositions() + 1
}

func (c *byteColumn) seekTo(p *posCursor) {
	c.seekPresent(p)
	d, _ := p.x.st.stream(c.n.col, sData)
	p.byteStream(&c.data, d)
}

func (c *intColumn) ownPositions(x *stripeIndex) int {
	return c.presentPositions(x) + x.streamPositions() + 1
}

func (c *intColumn) seekTo(p *posCursor) {
	c.seekPresent(p)
	d, _ := p.x.st.stream(c.n.col, sData)
	if r := p.intStream(d, true, p.x.st.encoding(c.n.col), c.data); r != nil {
		c.data = r
	}
}

func (c *floatColumn) ownPositions(x *stripeIndex) int {
	return c.presentPositions(x) + x.streamPositions()
}

func (c *floatColumn) seekTo(p *posCursor) {
	c.seekPresent(p)
	if p.rawStream(c.s, c.p) {
		c.data, c.p = nil, 0
	}
}

func (c *stringColumn) ownPositions(x *stripeIndex) int {
	if c.dict {
		return c.presentPositions(x) + x.streamPositions() + 1
	}
	return c.presentPositions(x) + 2*x.streamPositions() + 1
}

func (c *stringColumn) seekTo(p *posCursor) {
	c.seekPresent(p)
	e := p.x.st.encoding(c.n.col)
	data, _ := p.x.st.stream(c.n.col, sData)
	if c.dict {
		if r := p.intStream(data, false, e, c.index); r != nil {
			c.index = r
		}
		return
	}
	if p.rawStream(data, c.p) {
		c.data, c.p = nil, 0
	}
	lens, _ := p.x.st.stream(c.n.col, sLength)
	if r := p.intStream(lens, false, e, c.lengths); r != nil {
		c.lengths = r
	}
}

func (c *decimalColumn) ownPositions(x *stripeIndex) int {
	if c.dec64 != nil {
		return c.presentPositions(x) + x.streamPositions() + 1
	}
	return c.presentPositions(x) + 2*x.streamPositions() + 1
}

func (c *decimalColumn) seekTo(p *posCursor) {
	c.seekPresent(p)
	if c.dec64 != nil {
		if r := p.intStream(c.s, true, encDirectV2, c.dec64); r != nil {
			c.dec64 = r
		}
		return
	}
	if p.rawStream(c.s, c.p) {
		c.data, c.p = nil, 0
	}
	sec, _ := p.x.st.stream(c.n.col, sSecondary)
	if r := p.intStream(sec, true, p.x.st.encoding(c.n.col), c.scales); r != nil {
		c.scales = r
	}
}

func (c *timestampColumn) ownPositions(x *stripeIndex) int {
	return c.presentPositions(x) + 2*(x.streamPositions()+1)
}

func (c *timestampColumn) seekTo(p *posCursor) {
	c.seekPresent(p)
	e := p.x.st.encoding(c.n.col)
	d, _ := p.x.st.stream(c.n.col, sData)
	n, _ := p.x.st.stream(c.n.col, sSecondary)
	if r := p.intStream(d, true, e, c.secs); r != nil {
		c.secs = r
	}
	if r := p.intStream(n, false, e, c.nanos); r != nil {
		c.nanos = r
	}
}

func (c *structColumn) ownPositions(x *stripeIndex) int { return c.presentPositions(x) }
func (c *structColumn) seekTo(p *posCursor)             { c.seekPresent(p) }
func (c *structColumn) kids() []column                  { return c.children }

func (c *listColumn) ownPositions(x *stripeIndex) int {
	return c.presentPositions(x) + x.streamPositions() + 1
}

func (c *listColumn) seekTo(p *posCursor) {
	c.seekPresent(p)
	l, _ := p.x.st.stream(c.n.col, sLength)
	if r := p.intStream(l, false, p.x.st.encoding(c.n.col), c.lengths); r != nil {
		c.lengths = r
	}
}

func (c *listColumn) kids() []column { return c.children }

func (c *unionColumn) ownPositions(x *stripeIndex) int {
	return c.presentPositions(x) + x.streamPositions() + 1
}

func (c *unionColumn) seekTo(p *posCursor) {
	c.seekPresent(p)
	d, _ := p.x.st.stream(c.n.col, sData)
	p.byteStream(&c.data, d)
}

func (c *unionColumn) kids() []column { return c.children }

// seekable reports whether the row index has entries of the shape column
// c and its projected children read in the stripe (a writer that records
// other positions, or none, leaves the column to be decoded and dropped).
func seekable(c column, x *stripeIndex) bool {
	if !x.fits(c.node().col, c.ownPositions(x)) {
		return false
	}
	for _, k := range c.kids() {
		if !seekable(k, x) {
			return false
		}
	}
	return true
}

// seekColumn puts column c and its children at the start of row group to
// (to < 0: only counts the bytes from row group from to the streams'
// ends), adding the stream bytes between the two groups to *bytes.
func seekColumn(c column, x *stripeIndex, from, to int, bytes *int64) error {
	e := x.pos[c.node().col]
	p := posCursor{x: x, from: e[from]}
	if len(p.from) == 0 {
		// The first row group starts every stream at its start; Java
		// writers leave its positions out when they give up a string
		// dictionary (TestStringDictionary.testRowIndex.orc).
		p.from = make([]uint64, c.ownPositions(x))
	}
	if to >= 0 {
		p.to = e[to]
	}
	c.seekTo(&p)
	if p.err != nil {
		return c.node().errf("row index of row group %d: %w", max(to, from), p.err)
	}
	*bytes += p.bytes
	for _, k := range c.kids() {
		if err := seekColumn(k, x, from, to, bytes); err != nil {
			return err
		}
	}
	return nil
}

// checkColumn compares the stream decoders of column c and its children,
// which reached row group g of the stripe by decoding, with the group's
// row index positions (atEnd: with the streams' ends, the stripe decoded
// to its last row), where that is exact (see [posCursor.compare]): a
// damaged position that still lies in its stream, used by an earlier
// seek, leaves a decoder elsewhere.
func checkColumn(c column, x *stripeIndex, g int, atEnd bool, compared *[2]int64) error {
	p := posCursor{x: x, check: !atEnd, atEnd: atEnd, group: g, compared: compared}
	if !atEnd {
		p.from = x.pos[c.node().col][g]
		p.to = p.from
	}
	if atEnd || len(p.to) > 0 {
		c.seekTo(&p)
	}
	if p.err != nil {
		if atEnd {
			return c.node().errf("at the stripe's end: %w", p.err)
		}
		return c.node().errf("row index of row group %d: %w", g, p.err)
	}
	for _, k := range c.kids() {
		if err := checkColumn(k, x, g, atEnd, compared); err != nil {
			return err
		}
	}
	return nil
}

// errf formats an error about column n.
func (n *node) errf(format string, args ...any) error {
	return fmt.Errorf("column %d (%s): "+format, append([]any{n.col, n.field.Name}, args...)...)
}

// readIndex reads the positions of the ROW_INDEX streams of the needed
// columns of stripe i, whose footer is sf, for the loaded stripe st. It
// returns nil when the file has no row index.
func (r *BatchReader) readIndex(i int, sf *stripeFooter, st *stripe) (*stripeIndex, error) {
	stride := r.f.RowIndexStride()
	rows := r.f.StripeRows(i)
	if stride <= 0 || rows <= 0 {
		return nil, nil
	}
	si := r.f.tail.footer.stripes[i]
	x := &stripeIndex{st: st, compressed: r.dec.kind != compNone, stride: stride,
		groups: int((rows + stride - 1) / stride), pos: map[int][][]uint64{}}
	off, end := si.offset, si.offset+si.indexLength
	footOff := end + si.dataLength
	for _, s := range sf.streams {
		soff := off
		if soff >= end {
			break
		}
		if s.length > footOff-soff {
			return nil, &CorruptError{File: r.f.name, Offset: int64(footOff), Section: fmt.Sprintf("stripe %d footer", i),
				Err: fmt.Errorf("%s stream of column %d (%d bytes) beyond the stripe", streamName(s.kind), s.column, s.length)}
		}
		off += s.length
		col := int(min(s.column, 1<<31))
		if s.kind != sRowIndex || !r.needed[col] {
			continue
		}
		section := fmt.Sprintf("stripe %d column %d ROW_INDEX stream", i, s.column)
		cerr := func(err error) error {
			return &CorruptError{File: r.f.name, Offset: int64(soff), Section: section, Err: err}
		}
		if int64(s.length) > r.f.limits.FooterBytes {
			return nil, cerr(fmt.Errorf("%w: %d bytes above %d", ErrTooLarge, s.length, r.f.limits.FooterBytes))
		}
		rb := make([]byte, s.length)
		if _, err := r.f.r.ReadAt(rb, int64(soff)); err != nil && err != io.EOF {
			return nil, withFile(fmt.Errorf("orc: reading stripe %d: %w", i, err), r.f.name)
		}
		b, err := r.dec.decompress(nil, rb, int(r.f.limits.FooterBytes))
		if err != nil {
			return nil, cerr(err)
		}
		entries, err := parseRowIndex(b, x.groups)
		if err != nil {
			return nil, cerr(err)
		}
		ps := make([][]uint64, len(entries))
		for g, e := range entries {
			ps[g] = e.positions
		}
		x.pos[col] = ps
	}
	return x, nil
}
