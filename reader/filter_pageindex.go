package reader

import (
	"context"
	"slices"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/formats/parquet"
	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/schema"
)

// pageIndexOff turns the page index off (tests compare both ways).
var pageIndexOff = false

// pageSkips returns the file rows of row group i that the page index
// (Parquet format, PageIndex.md) rules out, or nil when it rules out none.
// The row group is cut at every page boundary of the filter's columns;
// each piece is judged by the filter on the statistics of the page of each
// column that holds it (promoted to the read type as the row group's
// statistics are, [expr.Bound.MayMatch]: AND, OR and NOT as for row
// groups), a column without a page index by its chunk statistics and a
// column the file lacks by its constant. A piece that cannot match is
// skipped. It counts the rows skipped and the pages of the filter's
// columns all of whose rows are skipped. A corrupt index is an error,
// never a skip; a missing one skips nothing.
func (g *rowGroupFilter) pageSkips(i int, start int64, stats *ScanStats) (*roaring64.Bitmap, error) {
	if pageIndexOff || len(g.pageIDs) == 0 {
		return nil, nil
	}
	rows := g.file.RowGroupRows(i)
	pages := map[int][]parquet.PageStats{}
	cuts := []int64{0, rows}
	for _, id := range g.pageIDs {
		ps, err := g.file.PageIndexOf(i, g.fields[id])
		if err != nil {
			return nil, err
		}
		if len(ps) < 2 {
			continue // one page: the chunk's statistics said it all
		}
		pages[id] = ps
		for _, p := range ps {
			cuts = append(cuts, p.FirstRow)
		}
	}
	if len(pages) == 0 {
		return nil, nil
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	base := g.statsOf(i)
	at := map[int]int{}      // id → index of the page holding the current piece
	kept := map[int][]bool{} // id → pages with a kept row
	for id, ps := range pages {
		kept[id] = make([]bool, len(ps))
	}
	var out *roaring64.Bitmap
	var skipped int64
	for k := 0; k+1 < len(cuts); k++ {
		lo, hi := cuts[k], cuts[k+1]
		for id, ps := range pages {
			j := at[id]
			for j+1 < len(ps) && ps[j+1].FirstRow <= lo {
				j++
			}
			at[id] = j
		}
		ok := g.filter.MayMatch(func(id int) (expr.Stats, bool) {
			ps, has := pages[id]
			if !has {
				return base(id)
			}
			p := ps[at[id]]
			st := expr.Stats{Rows: p.Rows, Nulls: p.NullCount, NaNs: -1}
			if p.NullPage {
				st.Nulls = p.Rows
			}
			from, ok1 := g.fields[id].Type.(schema.PrimitiveType)
			to, ok2 := g.readByID[id].Type.(schema.PrimitiveType)
			if ok1 && ok2 {
				st.Lower, _ = expr.PromoteBound(p.Min, from, to)
				st.Upper, _ = expr.PromoteBound(p.Max, from, to)
			}
			return st, true
		})
		if ok {
			for id := range pages {
				kept[id][at[id]] = true
			}
			continue
		}
		if out == nil {
			out = roaring64.New()
		}
		out.AddRange(uint64(start+lo), uint64(start+hi))
		skipped += hi - lo
	}
	if out == nil {
		return nil, nil
	}
	var n int64
	for _, ks := range kept {
		for _, k := range ks {
			if !k {
				n++
			}
		}
	}
	stats.add(pageIndexRowsSkipped, skipped)
	stats.add(pageIndexPagesSkipped, n)
	return out, nil
}

// filterPageIDs returns the field ids of the filter's predicates on
// columns the file stores outside lists and maps, in order, once each.
func (g *rowGroupFilter) filterPageIDs() []int {
	var ids []int
	g.filter.MayMatchLeaves(func(id int, _ expr.Op, _ []any) (bool, bool) {
		if g.resolvedByID[id] != nil && g.fields[id] != nil && g.readByID[id] != nil && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
		return true, false
	})
	return ids
}

// groupsPageSkips returns the rows of the row groups groups the page
// index rules out ([rowGroupFilter.pageSkips]), nil when none.
func (g *rowGroupFilter) groupsPageSkips(groups []int, stats *ScanStats) (*roaring64.Bitmap, error) {
	if pageIndexOff || len(g.pageIDs) == 0 || len(groups) == 0 {
		return nil, nil
	}
	starts := rowStarts(g.file.NumRowGroups(), g.file.RowGroupRows)
	var out *roaring64.Bitmap
	for _, i := range groups {
		b, err := g.pageSkips(i, starts[i], stats)
		if err != nil {
			return nil, err
		}
		if b == nil {
			continue
		}
		if out == nil {
			out = b
		} else {
			out.Or(b)
		}
	}
	return out, nil
}

// batchSplitter cuts a batch whose rows are several ranges of file rows
// (a batch reader with a skip set) into zero-copy slices of one range
// each, so that each slice's file rows follow from its first.
type batchSplitter struct {
	pending []arrow.RecordBatch
	starts  []int64
}

// split queues the slices of b, whose rows are rows, and releases b.
func (s *batchSplitter) split(b arrow.RecordBatch, rows []parquet.RowRange) {
	var at int64
	for _, r := range rows {
		n := r.End - r.Start
		if n <= 0 {
			continue
		}
		s.pending = append(s.pending, b.NewSlice(at, at+n))
		s.starts = append(s.starts, r.Start)
		at += n
	}
	b.Release()
}

// pop returns the next queued slice and its first file row.
func (s *batchSplitter) pop() (arrow.RecordBatch, int64, bool) {
	if len(s.pending) == 0 {
		return nil, 0, false
	}
	b, at := s.pending[0], s.starts[0]
	s.pending[0] = nil
	s.pending, s.starts = s.pending[1:], s.starts[1:]
	return b, at, true
}

func (s *batchSplitter) release() {
	for _, b := range s.pending {
		b.Release()
	}
	s.pending, s.starts = nil, nil
}

// pageSkipReader is a Parquet batch reader with the page index's skip
// set whose batches each hold one range of file rows: BatchStart is the
// file row of the first row of the batch Next returned last.
type pageSkipReader struct {
	br    *parquet.BatchReader
	sp    batchSplitter
	last  int64
	stats *ScanStats // counts the pages br did not read
}

func (r *pageSkipReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if b, at, ok := r.sp.pop(); ok {
			r.last = at
			return b, nil
		}
		b, err := r.br.Next(ctx)
		if err != nil {
			return nil, err
		}
		r.sp.split(b, r.br.LastRows())
	}
}

func (r *pageSkipReader) BatchStart() int64 { return r.last }

func (r *pageSkipReader) Close() error {
	r.sp.release()
	countSeeked(r.br, r.stats)
	r.stats = nil // counted once
	return r.br.Close()
}

// countSeeked adds the pages br did not read, all of whose rows its skip
// set held ([parquet.BatchReader.Seeked]), to stats.
func countSeeked(br *parquet.BatchReader, stats *ScanStats) {
	stats.add(pageIndexBytesSkipped, br.Seeked().Bytes)
}

// withPageSkips adds the rows of s's row groups that the page index of g
// rules out to the rows the decoder leaves out: to the deleted rows when
// the decoder drops those too (the reader then takes each batch's rows
// from [parquet.BatchReader.LastRows]), else alone, each batch then cut
// into slices of one range of file rows.
func (s *rowGroupsSource) withPageSkips(g *rowGroupFilter, stats *ScanStats) error {
	pages, err := g.groupsPageSkips(s.kept, stats)
	if err != nil || pages == nil {
		return err
	}
	s.stats = stats
	if s.skip != nil {
		s.skip = roaring64.Or(s.skip, pages)
		return nil
	}
	s.skip, s.split = pages, true
	return nil
}

// pagePruning sets the page index counts of out: what the page index of
// g rules out within the kept row groups of a Parquet file pf read with
// plan p and options o.
func pagePruning(out *FilePruning, g *rowGroupFilter, pf *parquet.File, p *project.Plan, o Options, kept []int) error {
	var st ScanStats
	skip, err := g.groupsPageSkips(kept, &st)
	if err != nil || skip == nil {
		return err
	}
	c := st.Counts()
	out.PageIndexPages, out.PageIndexRows = c.PageIndexPagesSkipped, c.PageIndexRowsSkipped
	sc, err := pf.PagesSkipped(p.FileProjection(), parquet.BatchOptions{FirstRowGroup: o.firstRowGroup, RowGroups: o.rowGroups, Skip: skip})
	if err != nil {
		return err
	}
	out.PageIndexBytes = sc.Bytes
	return nil
}
