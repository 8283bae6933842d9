package parquet

import (
	"bytes"
	"io"
	"slices"

	"github.com/RoaringBitmap/roaring/v2/roaring64"

	"github.com/lakecat/lakecat/schema"
)

// Seeking by the offset index (Parquet format, PageIndex.md): a data page
// all of whose rows [BatchOptions.Skip] holds is neither read nor
// decompressed. Each column chunk decides on its own, since the pages of
// the columns of a row group begin at different rows.

// chunkPage is one data page of a column chunk as its offset index
// locates it.
type chunkPage struct {
	rows   int64 // rows of the page (records, for a repeated column)
	offset int64 // file offset of the page header
	size   int64 // bytes of the header and the compressed page
	skip   bool  // every row of the page is in the skip set
}

// chunkSeek is the seeking state of the column chunk being read: its data
// pages in order and the next one the reader meets.
type chunkSeek struct {
	pages []chunkPage
	at    int
}

// SeekCounts counts the data pages a [BatchReader] did not read because
// [BatchOptions.Skip] held every row of them: Pages pages of Bytes
// compressed bytes (page headers included), summed over the columns read.
type SeekCounts struct {
	Pages, Bytes int64
}

// Seeked returns the pages the reader has not read so far because the
// skip set held all their rows ([BatchOptions.Skip]); after the last
// batch, all of them.
func (br *BatchReader) Seeked() SeekCounts {
	var c SeekCounts
	for _, lr := range br.readers {
		c.Pages += lr.seekedPages
		c.Bytes += lr.seekedBytes
	}
	return c
}

// segment is a stretch of a column chunk read as stored: [off, off+n)
// of the file, at virtual offset at of the chunk's spliced view.
type segment struct{ off, n, at int64 }

// splicedChunk is an io.ReaderAt that shows the parquet-go page reader a
// column chunk with the skipped pages cut out: from the chunk's start, the
// needed segments one after the other, then the end of the data. Every
// read falls inside a needed segment.
type splicedChunk struct {
	r    io.ReaderAt
	segs []segment
	end  int64 // virtual offset past the last segment
}

// newSplicedChunk returns the spliced view of the segments segs of the
// chunk that starts at start.
func newSplicedChunk(r io.ReaderAt, start int64, segs []segment) *splicedChunk {
	end := start
	if k := len(segs) - 1; k >= 0 {
		end = segs[k].at + segs[k].n
	}
	return &splicedChunk{r: r, segs: segs, end: end}
}

func (s *splicedChunk) ReadAt(p []byte, off int64) (int, error) {
	done := 0
	for done < len(p) {
		v := off + int64(done)
		if v >= s.end {
			return done, io.EOF
		}
		if len(s.segs) == 0 {
			return done, io.EOF
		}
		i := 0
		for i+1 < len(s.segs) && s.segs[i+1].at <= v {
			i++
		}
		sg := s.segs[i]
		in := v - sg.at
		if in < 0 {
			return done, io.EOF // before the chunk: parquet-go never asks
		}
		k := min(int64(len(p)-done), sg.n-in)
		n, err := s.r.ReadAt(p[done:done+int(k)], sg.off+in)
		done += n
		if err != nil && !(err == io.EOF && int64(n) == k) {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return done, err
		}
	}
	return done, nil
}

// skipCount returns how many rows of [lo, hi) skip holds.
func skipCount(skip *roaring64.Bitmap, lo, hi int64) int64 {
	if hi <= lo {
		return 0
	}
	n := skip.Rank(uint64(hi - 1))
	if lo > 0 {
		n -= skip.Rank(uint64(lo - 1))
	}
	return int64(n)
}

// planSeek decides, for the column chunk of size bytes at start (the
// reader's current chunk, of row group lr.rg), which data pages the skip
// set rules out whole. It returns the needed segments of the chunk (the
// bytes before the first data page, which hold the dictionary page, then
// the kept pages, adjacent ones merged; none at all when every page is
// ruled out) and the chunk's pages, or nil segments when the chunk is
// read whole: no skip set, no rows of the chunk in it, no offset index,
// or no page ruled out. A page location
// outside the chunk, before the previous page's end, or pages whose rows
// are not those of the row group give a [*CorruptError] naming the file.
func (lr *leafReader) planSeek(start, size int64) ([]segment, *chunkSeek, error) {
	if lr.skip == nil || seekOff {
		return nil, nil, nil
	}
	rg := lr.rg
	first := lr.f.rowGroupStart(rg)
	rows := lr.f.meta.RowGroups[rg].NumRows
	if rows <= 0 || skipCount(lr.skip, first, first+rows) == 0 {
		return nil, nil, nil
	}
	locs, err := lr.f.offsetIndexAt(rg, lr.col)
	if locs == nil || err != nil {
		return nil, nil, err
	}
	cs := &chunkSeek{pages: make([]chunkPage, len(locs))}
	prevEnd := start
	cut := false
	for i, pl := range locs {
		end := rows
		if i+1 < len(locs) {
			end = locs[i+1].FirstRowIndex
		}
		if pl.Offset < prevEnd || int64(pl.CompressedPageSize) > start+size-pl.Offset {
			return nil, nil, corruptf(lr.f.name, pl.Offset, "offset index of "+lr.ln.phys.path,
				"row group %d: page %d at offset %d of %d bytes lies outside the column chunk [%d, %d) or before the end of the page before it (%d)",
				rg, i, pl.Offset, pl.CompressedPageSize, start, start+size, prevEnd)
		}
		prevEnd = pl.Offset + int64(pl.CompressedPageSize)
		p := chunkPage{rows: end - pl.FirstRowIndex, offset: pl.Offset, size: int64(pl.CompressedPageSize)}
		p.skip = skipCount(lr.skip, first+pl.FirstRowIndex, first+end) == p.rows
		cut = cut || p.skip
		cs.pages[i] = p
	}
	if !cut {
		return nil, nil, nil
	}
	segs := []segment{} // not nil: when every page is skipped, none is read
	add := func(off, n int64) {
		if k := len(segs) - 1; k >= 0 && segs[k].off+segs[k].n == off {
			segs[k].n += n
			return
		}
		at := start
		if k := len(segs) - 1; k >= 0 {
			at = segs[k].at + segs[k].n
		}
		segs = append(segs, segment{off: off, n: n, at: at})
	}
	for _, p := range cs.pages {
		if !p.skip {
			add(p.offset, p.size)
		}
	}
	if d := cs.pages[0].offset - start; d > 0 && len(segs) > 0 {
		// The bytes before the first data page (the dictionary page)
		// are read whenever a data page is.
		segs = slices.Insert(segs, 0, segment{off: start, n: d, at: start})
		for i := 1; i < len(segs); i++ {
			segs[i].at += d
		}
	}
	return segs, cs, nil
}

// countUnread counts, when every row left is skipped, the data pages the
// readers will not reach: the rest of their current chunk and, from the
// offset index, the chunks of the selected row groups after it.
func (br *BatchReader) countUnread() error {
	for _, lr := range br.readers {
		if cs := lr.seek; cs != nil && lr.pages != nil {
			for _, p := range cs.pages[cs.at:] {
				if p.skip {
					lr.seekedPages++
					lr.seekedBytes += p.size
				}
			}
			cs.at = len(cs.pages)
		}
		if lr.skip == nil || seekOff {
			continue
		}
		for ; lr.rg < br.endRG; lr.rg++ {
			locs, err := lr.f.offsetIndexAt(lr.rg, lr.col)
			if err != nil {
				return err
			}
			for _, pl := range locs {
				lr.seekedPages++
				lr.seekedBytes += int64(pl.CompressedPageSize)
			}
		}
	}
	return nil
}

// seekOff turns seeking by the offset index off (tests compare both ways).
var seekOff = false

// rowGroupStart returns the file row of row group rg's first row.
func (f *File) rowGroupStart(rg int) int64 {
	var n int64
	for i := 0; i < rg; i++ {
		n += f.meta.RowGroups[i].NumRows
	}
	return n
}

// nextSkipped sets up, when the next pages of the chunk are ruled out
// whole, a stand-in page of their rows that the reader can only step over,
// counting them as not read. It reports whether it did.
func (lr *leafReader) nextSkipped() bool {
	cs := lr.seek
	if cs == nil {
		return false
	}
	var rows int64
	for cs.at < len(cs.pages) && cs.pages[cs.at].skip {
		p := cs.pages[cs.at]
		rows += p.rows
		lr.seekedPages++
		lr.seekedBytes += p.size
		cs.at++
	}
	if rows == 0 {
		return false
	}
	lr.skipped = true
	lr.pos, lr.vpos = 0, 0
	lr.def, lr.rep = nil, nil
	lr.idx, lr.raw, lr.offs = nil, nil, nil
	lr.dictPage = false
	lr.nEntries = int(rows)
	return true
}

// checkSeekedPage checks that the page just loaded from a chunk some of
// whose pages were cut out holds the rows its offset index entry says
// (a repeated column's page begins at a record boundary and holds as many
// records), so that the rows stepped over stay aligned with the other
// columns.
func (lr *leafReader) checkSeekedPage() error {
	cs := lr.seek
	if cs == nil {
		return nil
	}
	if cs.at >= len(cs.pages) {
		return lr.corrupt("row group %d: more data pages than the %d of its offset index", lr.rg-1, len(cs.pages))
	}
	p := cs.pages[cs.at]
	cs.at++
	got := int64(lr.nEntries)
	if lr.maxRep > 0 {
		if lr.nEntries > 0 && lr.rep[0] != 0 {
			return lr.corrupt("row group %d: data page at offset %d does not begin at a record boundary, as its offset index requires", lr.rg-1, p.offset)
		}
		got = int64(bytes.Count(lr.rep[:lr.nEntries], zero))
	}
	if got != p.rows {
		return lr.corrupt("row group %d: data page at offset %d holds %d rows, its offset index says %d", lr.rg-1, p.offset, got, p.rows)
	}
	return nil
}

// PagesSkipped returns the data pages that a batch reader of the columns
// in proj with opts ([File.NewBatchReader]) would not read because
// opts.Skip holds every row of them, without reading any page: the offset
// index of each column chunk of the selected row groups is read. It
// returns zero counts when opts.Skip is nil or empty. The errors are
// those of NewBatchReader, and a corrupt offset index's [*CorruptError].
func (f *File) PagesSkipped(proj *schema.Schema, opts BatchOptions) (SeekCounts, error) {
	var c SeekCounts
	if opts.Skip == nil || opts.Skip.IsEmpty() || seekOff {
		return c, nil
	}
	br, err := f.NewBatchReader(proj, opts)
	if err != nil {
		return c, err
	}
	defer br.Close()
	for rg := opts.FirstRowGroup; rg < br.endRG; rg++ {
		start := f.rowGroupStart(rg)
		rows := f.meta.RowGroups[rg].NumRows
		if rows <= 0 || skipCount(opts.Skip, start, start+rows) == 0 {
			continue
		}
		for _, lr := range br.readers {
			locs, err := f.offsetIndexAt(rg, lr.col)
			if err != nil {
				return SeekCounts{}, err
			}
			for i, pl := range locs {
				end := rows
				if i+1 < len(locs) {
					end = locs[i+1].FirstRowIndex
				}
				if skipCount(opts.Skip, start+pl.FirstRowIndex, start+end) == end-pl.FirstRowIndex {
					c.Pages++
					c.Bytes += int64(pl.CompressedPageSize)
				}
			}
		}
	}
	return c, nil
}
