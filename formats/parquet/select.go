package parquet

import (
	"bytes"
	"slices"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
)

// RowRange is the file rows [Start, End) (positions from 0 at the file's
// first row).
type RowRange struct{ Start, End int64 }

// rowRun is one step of a batch's row selection: skip rows are stepped
// over, then take rows are read.
type rowRun struct{ skip, take int }

// maxSkipSpan caps the file rows one batch of a reader with a skip set
// covers (its keep mask has a byte a row): a longer stretch of skipped
// rows is stepped over in batches of no rows.
var maxSkipSpan int64 = 1 << 20 // a variable for tests

// planSelected plans the next batch of a reader with a skip set: up to
// br.rows kept rows from br.next on, as runs into br.runs, the file row
// ranges they keep into br.ranges and a keep byte (0 or 1) per row covered
// into br.mask. It returns the kept rows and the file rows the batch
// covers (skipped rows after the last kept one are covered too when the
// batch reaches the end or maxSkipSpan); kept is 0 when the batch holds
// only skipped rows: every row left (covered is br.left) or maxSkipSpan of
// them.
func (br *BatchReader) planSelected() (kept int, covered int64) {
	runs, ranges := br.runs[:0], br.ranges[:0]
	pos, end := br.next, br.next+br.left
	lim := min(end, br.next+maxSkipSpan) // no skipped row planned past it
	skip := 0
	buf, at := br.skipBuf, br.skipAt // the skipped rows not yet passed
	for kept < br.rows && pos < lim {
		if at >= len(buf) {
			br.skipAt = at
			br.refillSkip()
			buf, at = br.skipBuf, br.skipAt
		}
		d := end
		if at < len(buf) {
			d = min(int64(buf[at]), end)
		}
		if d == pos {
			// Skipped rows: every consecutive one buffered at once.
			for at < len(buf) && int64(buf[at]) == pos && pos < lim {
				at++
				pos++
				skip++
			}
			continue
		}
		take := int(min(d-pos, int64(br.rows-kept)))
		runs = append(runs, rowRun{skip: skip, take: take})
		ranges = append(ranges, RowRange{Start: pos, End: pos + int64(take)})
		skip = 0
		kept += take
		pos += int64(take)
	}
	br.skipAt = at
	br.runs, br.ranges = runs, ranges
	if kept == 0 && pos == end {
		return 0, end - br.next
	}
	if skip > 0 {
		// The rows left are all skipped: the runs step over them too.
		br.runs = append(br.runs, rowRun{skip: skip})
	}
	covered = pos - br.next
	// The mask: every byte set, then the skipped rows' cleared (a tenth of
	// the rows for lakebench's pos10, mostly one at a time).
	m := slices.Grow(br.mask[:0], int(covered))[:covered]
	fillOnes(m)
	o := 0
	for _, r := range br.runs {
		switch {
		case r.skip == 1:
			m[o] = 0
		case r.skip > 1:
			clear(m[o : o+r.skip])
		}
		o += r.skip + r.take
	}
	br.mask = m
	return kept, covered
}

// fillOnes sets every byte of m to 1, doubling the bytes set by a copy.
func fillOnes(m []uint8) {
	if len(m) == 0 {
		return
	}
	m[0] = 1
	for n := 1; n < len(m); n *= 2 {
		copy(m[n:], m[:n])
	}
}

// refillSkip reads the next skipped rows from the skip set into skipBuf
// once every buffered one is passed, and returns the first not yet passed
// (false when none is left).
func (br *BatchReader) refillSkip() (int64, bool) {
	for br.skipAt >= len(br.skipBuf) {
		if cap(br.skipBuf) == 0 {
			br.skipBuf = make([]uint64, 1024)
		}
		n := br.skipIt.NextMany(br.skipBuf[:cap(br.skipBuf)])
		br.skipBuf, br.skipAt = br.skipBuf[:n], 0
		if n == 0 {
			return 0, false
		}
		// Rows before the reader's first (earlier row groups).
		for br.skipAt < n && int64(br.skipBuf[br.skipAt]) < br.next {
			br.skipAt++
		}
	}
	return int64(br.skipBuf[br.skipAt]), true
}

// LastRows returns the file rows of the last batch [BatchReader.Next]
// returned, in order, as ranges: one range without [BatchOptions.Skip],
// else the rows between the skipped ones. The slice is valid until the
// next call of Next.
func (br *BatchReader) LastRows() []RowRange { return br.ranges }

// RowsDone returns the rows of the selected row groups read or skipped so
// far: after io.EOF, all of them.
func (br *BatchReader) RowsDone() int64 { return br.next - br.first }

// startSkip starts reading the skipped rows of skip (refillSkip passes
// those before the reader's first row).
func (br *BatchReader) startSkip(skip *roaring64.Bitmap) {
	br.skip = skip
	br.skipIt = skip.ManyIterator()
}

// beginBatch resets the batch output for a batch of nRows rows.
func (lr *leafReader) beginBatch(nRows int) {
	lr.bdef, lr.brep = lr.bdef[:0], lr.brep[:0]
	lr.entries, lr.nvals, lr.nulls, lr.validTo = 0, 0, 0, 0
	if lr.conv.variable() {
		lr.voffs.reset(lr.mem)
		lr.vdata.reset(lr.dataMem)
		lr.voffs.reserve(max(lr.hint[0], 4*(nRows+1)))
		// An eighth more than the last batch's data: a batch a little
		// larger than the last then does not double the buffer (a new,
		// zeroed allocation and a copy).
		lr.vdata.reserve(lr.hint[1] + lr.hint[1]/8)
		clear(lr.voffs.extend(4))
	} else {
		if lr.conv.op == opFixed {
			lr.fixed.reset(lr.dataMem)
		} else {
			lr.fixed.reset(lr.mem)
		}
		w := max(lr.conv.width, 1)
		if lr.maxRep == 0 {
			// One value more than the batch holds: scatterMasked writes
			// one past the kept values of a stretch, and without the room
			// its last stretch would double the buffer (a new allocation
			// and a copy of the batch) once a column and batch.
			lr.fixed.reserve((nRows + 1) * w)
		} else {
			lr.fixed.reserve(lr.hint[2])
		}
	}
	if lr.maxRep == 0 && lr.maxDef > 0 {
		lr.valid.reset(lr.mem)
		clear(lr.valid.extend(int(bitutil.BytesForBits(int64(nRows)))))
	}
	if lr.dout != nil {
		lr.beginDict(nRows)
	}
}

// readRuns collects the rows runs select, kept rows in all; mask has a
// keep byte for each row the runs cover.
func (lr *leafReader) readRuns(kept int, runs []rowRun, mask []uint8) error {
	lr.beginBatch(kept)
	if lr.maxRep == 0 {
		return lr.readFlatMask(mask)
	}
	for _, r := range runs {
		if r.skip > 0 {
			if err := lr.rows(r.skip, true); err != nil {
				return err
			}
		}
		if r.take > 0 {
			if err := lr.rows(r.take, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// advance steps over entries [start, end) of the current page.
func (lr *leafReader) advance(start, end int) {
	lr.pos = end
	if lr.skipped {
		return
	}
	if lr.maxDef > 0 {
		lr.vpos += bytes.Count(lr.def[start:end], []byte{lr.maxDef})
	} else {
		lr.vpos += end - start
	}
}

var one = []byte{1}

// readFlatMask reads the rows of a flat column (an entry a row) whose
// mask byte is 1, stepping over the others: page by page, a stretch of
// the page with no kept row is stepped over, one with only kept rows taken
// whole, others taken through the mask.
func (lr *leafReader) readFlatMask(mask []uint8) error {
	for off := 0; off < len(mask); {
		if !lr.loaded || lr.pos >= lr.nEntries {
			ok, err := lr.nextPage()
			if err != nil {
				return err
			}
			if !ok {
				return lr.corrupt("column ends %d rows early", len(mask)-off)
			}
		}
		k := min(lr.nEntries-lr.pos, len(mask)-off)
		seg := mask[off : off+k]
		off += k
		kept := bytes.Count(seg, one)
		if lr.skipped && kept > 0 {
			return lr.corrupt("rows of a page the skip set rules out asked for")
		}
		switch kept {
		case 0:
			lr.advance(lr.pos, lr.pos+k)
		case k:
			if err := lr.take(lr.pos, lr.pos+k); err != nil {
				return err
			}
		default:
			if err := lr.takeMasked(lr.pos, lr.pos+k, seg, kept); err != nil {
				return err
			}
		}
	}
	return nil
}

// takeMasked appends the entries of [start, end) of the current page of a
// flat column whose mask byte (one an entry, 0 or 1) is 1: the kept levels
// and values are compacted into scratch slices, which take then reads as
// if they were the page.
func (lr *leafReader) takeMasked(start, end int, mask []uint8, kept int) error {
	if ok, err := lr.scatterMasked(start, end, mask, kept); ok {
		return err
	}
	if ok, err := lr.scatterMaskedVar(start, end, mask, kept); ok {
		return err
	}
	v0 := lr.vpos
	saveDef, saveIdx, saveRaw, saveOffs := lr.def, lr.idx, lr.raw, lr.offs
	c := lr.conv
	w := c.physWidth()
	if c.op == opBool {
		w = 1
	}
	var nvals int
	var cdef []byte
	if lr.maxDef == 0 {
		nvals = end - start
		if err := lr.compactValues(v0, nvals, mask, w); err != nil {
			return err
		}
	} else {
		d := lr.def[start:end]
		md := lr.maxDef
		nvals = bytes.Count(d, []byte{md})
		lr.selDef = slices.Grow(lr.selDef[:0], kept+1)[:kept+1]
		cd := lr.selDef
		switch {
		case lr.dictPage:
			if len(lr.idx) < v0+nvals {
				return lr.corrupt("%v", errShortPage)
			}
			lr.selIdx = slices.Grow(lr.selIdx[:0], nvals+1)[:nvals+1]
			_, k := compactLevels(cd, lr.selIdx, d, lr.idx[v0:v0+nvals], mask, md)
			lr.idx = lr.selIdx[:k]
		case w == 4 || w == 8 || w == 16:
			if len(lr.raw) < (v0+nvals)*w {
				return lr.corrupt("%v", errShortPage)
			}
			src := lr.raw[v0*w : (v0+nvals)*w]
			lr.selRaw = slices.Grow(lr.selRaw[:0], (nvals+1)*w)[:(nvals+1)*w]
			var k int
			switch w {
			case 4:
				_, k = compactLevels(cd, arrow.Uint32Traits.CastFromBytes(lr.selRaw), d, arrow.Uint32Traits.CastFromBytes(src), mask, md)
			case 8:
				_, k = compactLevels(cd, arrow.Uint64Traits.CastFromBytes(lr.selRaw), d, arrow.Uint64Traits.CastFromBytes(src), mask, md)
			default:
				_, k = compactLevels(cd, arrow.Decimal128Traits.CastFromBytes(lr.selRaw), d, arrow.Decimal128Traits.CastFromBytes(src), mask, md)
			}
			lr.raw = lr.selRaw[:k*w]
		default:
			// The levels, and a keep byte per value.
			lr.selKeep = slices.Grow(lr.selKeep[:0], len(d)+1)[:len(d)+1]
			kk := lr.selKeep
			o, j := 0, 0
			for i, m := range mask {
				x := d[i]
				cd[o] = x
				o += int(m)
				kk[j] = m
				j += b2i(x == md)
			}
			if err := lr.compactValues(v0, nvals, kk[:j], w); err != nil {
				return err
			}
		}
		cdef = cd[:kept]
	}
	lr.def = cdef
	lr.vpos = 0
	err := lr.take(0, kept)
	lr.def, lr.idx, lr.raw, lr.offs = saveDef, saveIdx, saveRaw, saveOffs
	lr.pos, lr.vpos = end, v0+nvals
	return err
}

// scatterMasked is takeMasked in one pass for the flat optional columns
// of plain 4- or 8-byte values (copied as stored) and of INT32 or INT64
// decimals (widened to decimal128): the kept levels are
// compacted and each kept entry's value (zero for a null) written straight
// at its place in the batch. It returns false, doing nothing, for other
// columns.
func (lr *leafReader) scatterMasked(start, end int, mask []uint8, kept int) (bool, error) {
	c := lr.conv
	w, pw := c.width, c.physWidth()
	dec := c.op == opDecInt32 || c.op == opDecInt64
	if lr.maxDef == 0 || lr.dictPage || !((w == 4 || w == 8) && (c.op == opCopy || c.op == opFixed) || dec && (pw == 4 || pw == 8)) {
		return false, nil
	}
	d := lr.def[start:end]
	md := lr.maxDef
	nvals := bytes.Count(d, []byte{md})
	v0 := lr.vpos
	if len(lr.raw) < (v0+nvals)*pw {
		return true, lr.corrupt("%v", errShortPage)
	}
	src := lr.raw[v0*pw : (v0+nvals)*pw]
	lr.selDef = slices.Grow(lr.selDef[:0], kept+1)[:kept+1]
	cd := lr.selDef
	// One value of room more: the last write may be one past the kept.
	out := lr.fixed.extend((kept + 1) * w)
	lr.fixed.n -= w
	switch {
	case dec && pw == 4:
		scatterMaskedDecimal(arrow.Uint64Traits.CastFromBytes(out), cd, arrow.Int32Traits.CastFromBytes(src), d, mask, md)
	case dec:
		scatterMaskedDecimal(arrow.Uint64Traits.CastFromBytes(out), cd, arrow.Int64Traits.CastFromBytes(src), d, mask, md)
	case w == 4:
		scatterMaskedValues(arrow.Uint32Traits.CastFromBytes(out), cd, arrow.Uint32Traits.CastFromBytes(src), d, mask, md)
	default:
		scatterMaskedValues(arrow.Uint64Traits.CastFromBytes(out), cd, arrow.Uint64Traits.CastFromBytes(src), d, mask, md)
	}
	cd = cd[:kept]
	base := lr.entries
	lr.entries += kept
	if lr.keepLevels {
		lr.bdef = append(lr.bdef, cd...)
	}
	defined := bytes.Count(cd, []byte{md})
	lr.setValid(base, cd, md, defined)
	lr.nvals += defined
	lr.pos, lr.vpos = end, v0+nvals
	return true, nil
}

// scatterMaskedVar is takeMasked in one pass for the flat optional
// columns of plain byte arrays: the kept levels are compacted, and each
// run of kept entries has its values' bytes copied at once into the
// batch's data and its offsets written, levels giving the nulls. It
// returns false, doing nothing, for other columns.
func (lr *leafReader) scatterMaskedVar(start, end int, mask []uint8, kept int) (bool, error) {
	if lr.maxDef == 0 || lr.dictPage || !lr.conv.variable() {
		return false, nil
	}
	d := lr.def[start:end]
	md := lr.maxDef
	nvals := bytes.Count(d, []byte{md})
	v0 := lr.vpos
	if len(lr.offs) < v0+nvals+1 {
		return true, lr.corrupt("%v", errShortPage)
	}
	offs := lr.offs[v0 : v0+nvals+1]
	for j := 1; j < len(offs); j++ {
		if offs[j] < offs[j-1] {
			return true, lr.corrupt("byte array offsets decrease")
		}
	}
	if int(offs[nvals]) > len(lr.raw) {
		return true, lr.corrupt("byte array offsets out of range")
	}
	// Room for every value of the stretch; the data is trimmed after.
	room := int(offs[nvals] - offs[0])
	if lr.vdata.n+room > maxBatchBytes {
		return false, nil // takeMasked's own path checks the exact bytes
	}
	lr.selDef = slices.Grow(lr.selDef[:0], kept)[:kept]
	cd := lr.selDef
	base := lr.vdata.n
	data := lr.vdata.extend(room)
	out := arrow.Int32Traits.CastFromBytes(lr.voffs.extend(4 * kept))[:kept]
	n := len(mask)
	d = d[:n]
	i, v, k, p := 0, 0, 0, 0
	for i < n {
		for i < n && mask[i] == 0 {
			v += b2i(d[i] == md)
			i++
		}
		vs := v
		first := offs[vs]
		for i < n && mask[i] != 0 {
			x := d[i]
			cd[k] = x
			v += b2i(x == md)
			out[k] = int32(base + p + int(offs[v]-first))
			k++
			i++
		}
		p += copy(data[p:], lr.raw[first:offs[v]])
	}
	lr.vdata.n = base + p
	ent := lr.entries
	lr.entries += kept
	if lr.keepLevels {
		lr.bdef = append(lr.bdef, cd...)
	}
	defined := bytes.Count(cd, []byte{md})
	lr.setValid(ent, cd, md, defined)
	lr.nvals += defined
	lr.pos, lr.vpos = end, v0+nvals
	return true, nil
}

// scatterMaskedValues writes, for each level of d whose mask byte is 1, the
// level to cd and the entry's value to out (the next value of src where
// the level is md, zero elsewhere), without a branch; cd and out have room
// for one more than they keep.
func scatterMaskedValues[T uint32 | uint64](out []T, cd []byte, src []T, d []byte, mask []uint8, md byte) {
	d = d[:len(mask)]
	o, v := 0, 0
	last := len(src) - 1
	if last < 0 {
		for i, m := range mask {
			cd[o] = d[i]
			out[o] = 0
			o += int(m)
		}
		return
	}
	for i, m := range mask {
		x := d[i]
		def := b2i(x == md)
		cd[o] = x
		out[o] = src[min(v, last)] & -T(def)
		o += int(m)
		v += def
	}
}

// scatterMaskedDecimal is scatterMaskedValues for INT32 or INT64 decimal
// values, written to out (two words an entry) as little-endian decimal128,
// sign-extended.
func scatterMaskedDecimal[T int32 | int64](out []uint64, cd []byte, src []T, d []byte, mask []uint8, md byte) {
	d = d[:len(mask)]
	o, v := 0, 0
	last := len(src) - 1
	if last < 0 {
		for i, m := range mask {
			cd[o] = d[i]
			out[2*o], out[2*o+1] = 0, 0
			o += int(m)
		}
		return
	}
	for i, m := range mask {
		x := d[i]
		def := b2i(x == md)
		keep := -uint64(def)
		val := int64(src[min(v, last)])
		cd[o] = x
		out[2*o] = uint64(val) & keep
		out[2*o+1] = uint64(val>>63) & keep
		o += int(m)
		v += def
	}
}

// compactLevels writes the levels d whose mask byte is 1 to cd, and the
// values of src (one for each level equal to md) whose level's mask byte
// is 1 to dv, in one pass without a branch; cd has room for one level
// more than it keeps and dv for len(src)+1 values. It returns how many
// levels and values it kept.
func compactLevels[T any](cd []byte, dv []T, d []byte, src []T, mask []uint8, md byte) (int, int) {
	o, k, v := 0, 0, 0
	d = d[:len(mask)]
	last := len(src) - 1
	if last < 0 {
		for i, m := range mask {
			cd[o] = d[i]
			o += int(m)
		}
		return o, 0
	}
	for i, m := range mask {
		x := d[i]
		cd[o] = x
		o += int(m)
		def := b2i(x == md)
		dv[k] = src[min(v, last)]
		k += int(m) & def
		v += def
	}
	return o, k
}

// compactValues sets the page view (lr.idx, lr.raw, lr.offs) to the nvals
// values from v0 on whose keep byte is 1; w is the byte width of a plain
// value.
func (lr *leafReader) compactValues(v0, nvals int, kv []uint8, w int) error {
	c := lr.conv
	switch {
	case lr.dictPage:
		if len(lr.idx) < v0+nvals {
			return lr.corrupt("%v", errShortPage)
		}
		lr.selIdx = slices.Grow(lr.selIdx[:0], nvals+1)[:nvals+1]
		lr.idx = lr.selIdx[:compact(lr.selIdx, lr.idx[v0:v0+nvals], kv)]
	case c.variable() || c.op == opDecBytes:
		if len(lr.offs) < v0+nvals+1 {
			return lr.corrupt("%v", errShortPage)
		}
		raw, offs, err := lr.compactVar(lr.offs[v0:v0+nvals+1], kv)
		if err != nil {
			return err
		}
		lr.raw, lr.offs = raw, offs
	default:
		if len(lr.raw) < (v0+nvals)*w {
			return lr.corrupt("%v", errShortPage)
		}
		src := lr.raw[v0*w : (v0+nvals)*w]
		lr.selRaw = slices.Grow(lr.selRaw[:0], (nvals+1)*w)[:(nvals+1)*w]
		lr.raw = lr.selRaw[:compactBytes(lr.selRaw, src, w, kv)*w]
	}
	return nil
}

// compact writes the values of src whose keep byte is 1 to dst (room for
// len(src)+1: each value is written, then kept by moving on) and returns
// how many.
func compact[T any](dst, src []T, keep []uint8) int {
	o := 0
	keep = keep[:len(src)]
	for i, x := range src {
		dst[o] = x
		o += int(keep[i])
	}
	return o
}

// compactBytes is compact over values of w bytes in byte slices.
func compactBytes(dst, src []byte, w int, keep []uint8) int {
	n := len(src) / w
	switch w {
	case 1:
		return compact(dst, src, keep)
	case 4:
		return compact(arrow.Uint32Traits.CastFromBytes(dst), arrow.Uint32Traits.CastFromBytes(src), keep)
	case 8:
		return compact(arrow.Uint64Traits.CastFromBytes(dst), arrow.Uint64Traits.CastFromBytes(src), keep)
	case 16:
		return compact(arrow.Decimal128Traits.CastFromBytes(dst), arrow.Decimal128Traits.CastFromBytes(src), keep)
	}
	o := 0
	for i := 0; i < n; i++ {
		if keep[i] != 0 {
			copy(dst[o*w:], src[i*w:(i+1)*w])
			o++
		}
	}
	return o
}

// compactVar returns the byte-array values of the page (offsets offs into
// lr.raw) whose keep byte is 1, as data and offsets from 0, copying each
// run of kept values at once.
func (lr *leafReader) compactVar(offs []uint32, keep []uint8) ([]byte, []uint32, error) {
	n := len(offs) - 1
	data := lr.selRaw[:0]
	out := append(lr.selOffs[:0], 0)
	for i := 0; i < n; {
		for i < n && keep[i] == 0 {
			i++
		}
		s := i
		for i < n && keep[i] != 0 {
			i++
		}
		if i == s {
			break
		}
		a, b := offs[s], offs[i]
		if a > b || int(b) > len(lr.raw) {
			return nil, nil, lr.corrupt("byte array offsets out of range")
		}
		base := uint32(len(data)) - a
		data = append(data, lr.raw[a:b]...)
		for k := s + 1; k <= i; k++ {
			if offs[k] < offs[k-1] {
				return nil, nil, lr.corrupt("byte array offsets decrease")
			}
			out = append(out, offs[k]+base)
		}
	}
	lr.selRaw, lr.selOffs = data, out
	return data, out, nil
}
