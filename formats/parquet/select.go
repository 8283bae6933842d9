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

// longRun is the length from which a run of skipped or kept rows of a flat
// column is stepped over or taken on its own; shorter runs are gathered
// through a keep mask (see leafReader.takeMasked).
const longRun = 64

// planSelected plans the next batch of a reader with a skip set: up to
// br.rows kept rows from br.next on, as runs into br.runs and the file row
// ranges they keep into br.ranges. It returns the kept rows and the file
// rows the batch covers (skipped rows after the last kept one are left for
// the next batch); kept is 0 when every row left is skipped.
func (br *BatchReader) planSelected() (kept int, covered int64) {
	br.runs, br.ranges = br.runs[:0], br.ranges[:0]
	pos, end := br.next, br.next+br.left
	skip := 0
	it := br.skipIt
	for kept < br.rows && pos < end {
		d := end
		if it.HasNext() {
			d = min(int64(it.PeekNext()), end)
		}
		if d == pos {
			it.Next()
			skip++
			pos++
			continue
		}
		take := int(min(d-pos, int64(br.rows-kept)))
		br.runs = append(br.runs, rowRun{skip: skip, take: take})
		br.ranges = append(br.ranges, RowRange{Start: pos, End: pos + int64(take)})
		skip = 0
		kept += take
		pos += int64(take)
	}
	if kept == 0 {
		return 0, end - br.next
	}
	return kept, pos - br.next
}

// LastRows returns the file rows of the last batch [BatchReader.Next]
// returned, in order, as ranges: one range without [BatchOptions.Skip],
// else the rows between the skipped ones. The slice is valid until the
// next call of Next.
func (br *BatchReader) LastRows() []RowRange { return br.ranges }

// RowsDone returns the rows of the selected row groups read or skipped so
// far: after io.EOF, all of them.
func (br *BatchReader) RowsDone() int64 { return br.next - br.first }

// startSkip positions the skip iterator at the reader's first row.
func (br *BatchReader) startSkip(skip *roaring64.Bitmap) {
	br.skip = skip
	br.skipIt = skip.Iterator()
	br.skipIt.AdvanceIfNeeded(uint64(br.next))
}

// beginBatch resets the batch output for a batch of nRows rows.
func (lr *leafReader) beginBatch(nRows int) {
	lr.bdef, lr.brep = lr.bdef[:0], lr.brep[:0]
	lr.entries, lr.nvals, lr.nulls = 0, 0, 0
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
			lr.fixed.reserve(nRows * w)
		} else {
			lr.fixed.reserve(lr.hint[2])
		}
	}
	if lr.maxRep == 0 && lr.maxDef > 0 {
		lr.valid.reset(lr.mem)
		clear(lr.valid.extend(int(bitutil.BytesForBits(int64(nRows)))))
	}
}

// readRuns collects the rows runs select: kept rows in all.
func (lr *leafReader) readRuns(kept int, runs []rowRun) error {
	lr.beginBatch(kept)
	if lr.maxRep == 0 {
		return lr.readFlatRuns(runs)
	}
	for _, r := range runs {
		if r.skip > 0 {
			if err := lr.rows(r.skip, true); err != nil {
				return err
			}
		}
		if err := lr.rows(r.take, false); err != nil {
			return err
		}
	}
	return nil
}

// advance steps over entries [start, end) of the current page.
func (lr *leafReader) advance(start, end int) {
	lr.pos = end
	if lr.maxDef > 0 {
		lr.vpos += bytes.Count(lr.def[start:end], []byte{lr.maxDef})
	} else {
		lr.vpos += end - start
	}
}

var onesMask = bytes.Repeat([]byte{1}, longRun)
var zerosMask = make([]byte, longRun)

// readFlatRuns reads the runs of a flat column (an entry a row): long runs
// are stepped over or taken whole, stretches of short ones through a keep
// mask.
func (lr *leafReader) readFlatRuns(runs []rowRun) error {
	ri := 0
	s, t := 0, 0
	if len(runs) > 0 {
		s, t = runs[0].skip, runs[0].take
	}
	for {
		for s == 0 && t == 0 {
			ri++
			if ri >= len(runs) {
				return nil
			}
			s, t = runs[ri].skip, runs[ri].take
		}
		if lr.page == nil || lr.pos >= lr.nEntries {
			ok, err := lr.nextPage()
			if err != nil {
				return err
			}
			if !ok {
				left := s + t
				for _, r := range runs[ri+1:] {
					left += r.skip + r.take
				}
				return lr.corrupt("column ends %d rows early", left)
			}
		}
		avail := lr.nEntries - lr.pos
		switch {
		case s >= longRun:
			k := min(s, avail)
			lr.advance(lr.pos, lr.pos+k)
			s -= k
		case s == 0 && t >= longRun:
			k := min(t, avail)
			if err := lr.take(lr.pos, lr.pos+k); err != nil {
				return err
			}
			t -= k
		default:
			mask := lr.mask[:0]
			for len(mask) < avail {
				if s > 0 {
					if s >= longRun {
						break
					}
					k := min(s, avail-len(mask))
					mask = append(mask, zerosMask[:k]...)
					s -= k
					continue
				}
				if t > 0 {
					if t >= longRun {
						break
					}
					k := min(t, avail-len(mask))
					mask = append(mask, onesMask[:k]...)
					t -= k
					continue
				}
				ri++
				if ri >= len(runs) {
					break
				}
				s, t = runs[ri].skip, runs[ri].take
			}
			lr.mask = mask
			if err := lr.takeMasked(lr.pos, lr.pos+len(mask), mask); err != nil {
				return err
			}
		}
	}
}

// takeMasked appends the entries of [start, end) of the current page of a
// flat column whose mask byte (one an entry, 0 or 1) is 1: the kept levels
// and values are compacted into scratch slices, which take then reads as
// if they were the page.
func (lr *leafReader) takeMasked(start, end int, mask []uint8) error {
	kept := 0
	for _, m := range mask {
		kept += int(m)
	}
	v0 := lr.vpos
	nvals := end - start
	kv := mask // keep mask of the values
	var cdef []byte
	if lr.maxDef > 0 {
		d := lr.def[start:end]
		md := lr.maxDef
		lr.selDef = slices.Grow(lr.selDef[:0], kept+1)[:kept+1]
		lr.selKeep = slices.Grow(lr.selKeep[:0], len(d)+1)[:len(d)+1]
		cd, kk := lr.selDef, lr.selKeep
		o, j := 0, 0
		for i, m := range mask {
			x := d[i]
			cd[o] = x
			o += int(m)
			kk[j] = m
			j += b2i(x == md)
		}
		cdef, kv, nvals = cd[:kept], kk[:j], j
	}
	saveDef, saveIdx, saveRaw, saveOffs := lr.def, lr.idx, lr.raw, lr.offs
	restore := func() {
		lr.def, lr.idx, lr.raw, lr.offs = saveDef, saveIdx, saveRaw, saveOffs
		lr.pos, lr.vpos = end, v0+nvals
	}
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
		w := c.physWidth()
		if c.op == opBool {
			w = 1
		}
		if len(lr.raw) < (v0+nvals)*w {
			return lr.corrupt("%v", errShortPage)
		}
		src := lr.raw[v0*w : (v0+nvals)*w]
		lr.selRaw = slices.Grow(lr.selRaw[:0], (nvals+1)*w)[:(nvals+1)*w]
		lr.raw = lr.selRaw[:compactBytes(lr.selRaw, src, w, kv)*w]
	}
	lr.def = cdef
	lr.vpos = 0
	err := lr.take(0, kept)
	restore()
	return err
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
