package reader

import (
	"context"
	"errors"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/formats/orc"
	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/schema"
)

// stripeFilter decides which stripes of an ORC file, and which row groups
// of the row index within them, may match the filter. Each statistics value
// is converted from the file's type to the read type ([expr.PromoteBound])
// or left unknown; a read field the file lacks is its constant
// ([constantStats]), as for Parquet row groups.
type stripeFilter struct {
	file         *orc.File
	filter       *expr.Bound
	readByID     map[int]*schema.Field
	resolvedByID map[int]*schema.Field
	fields       map[int]*schema.Field // read field id → the file's own field
	topLevel     map[int]bool
	constants    map[int]any
	posID        int
}

func newStripeFilter(of *orc.File, filter *expr.Bound, resolved, read *schema.Schema, constants map[int]any, posID int) *stripeFilter {
	top := map[int]bool{}
	for _, f := range read.Fields {
		top[f.ID] = true
	}
	return &stripeFilter{file: of, filter: filter, readByID: idIndex(read), resolvedByID: idIndex(resolved),
		fields: fileFields(resolved, of.Schema()), topLevel: top, constants: constants, posID: posID}
}

// mayMatch evaluates the filter on a unit of rows rows whose column
// statistics col returns (by the file's own field).
func (g *stripeFilter) mayMatch(rows int64, col func(ff *schema.Field) (orc.ColumnStats, bool)) bool {
	return g.filter.MayMatch(func(id int) (expr.Stats, bool) {
		rf := g.readByID[id]
		if rf == nil {
			return expr.Stats{}, false
		}
		if g.resolvedByID[id] == nil {
			return constantStats(rf, g.topLevel[id], g.constants, rows, g.posID)
		}
		ff, ok := g.fields[id]
		if !ok {
			return expr.Stats{}, false
		}
		cs, ok := col(ff)
		if !ok {
			return expr.Stats{}, false
		}
		return orcStats(cs, ff, rf), true
	})
}

// orcStats converts the ORC statistics of the file field ff into the
// [expr.Stats] of the read field rf.
func orcStats(cs orc.ColumnStats, ff, rf *schema.Field) expr.Stats {
	st := expr.Stats{Rows: cs.Rows, Nulls: cs.Nulls, NaNs: -1}
	from, ok1 := ff.Type.(schema.PrimitiveType)
	to, ok2 := rf.Type.(schema.PrimitiveType)
	if ok1 && ok2 {
		st.Lower, _ = expr.PromoteBound(cs.Min, from, to)
		st.Upper, _ = expr.PromoteBound(cs.Max, from, to)
	}
	return st
}

// stripeMayMatch evaluates the filter on stripe i's statistics.
func (g *stripeFilter) stripeMayMatch(i int) bool {
	return g.mayMatch(g.file.StripeRows(i), func(ff *schema.Field) (orc.ColumnStats, bool) {
		return g.file.StripeStats(i, ff)
	})
}

// keptStripes returns the stripes of [first, first+count) that may match
// (count 0: to the end), counting the skipped ones.
func (g *stripeFilter) keptStripes(first, count int, stats *ScanStats) []int {
	end := g.file.NumStripes()
	if count > 0 && first+count < end {
		end = first + count
	}
	var kept []int
	for i := first; i < end; i++ {
		if g.stripeMayMatch(i) {
			kept = append(kept, i)
			stats.add(stripesRead, 1)
			continue
		}
		stats.add(stripesSkipped, 1)
		stats.add(bytesSkippedStripes, g.file.StripeBytes(i))
	}
	return kept
}

// stripesSource reads chosen stripes of an ORC file, each run of
// consecutive stripes through one batch reader; batchStart tells the file
// row of the last batch's first row.
type stripesSource struct {
	file  *orc.File
	proj  *schema.Schema
	n     int
	mem   memory.Allocator
	kept  []int // ascending
	cur   *orc.BatchReader
	start int64 // file row of the next batch's first row
	last  int64
}

func (s *stripesSource) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if s.cur == nil {
			if len(s.kept) == 0 {
				return nil, io.EOF
			}
			first, count := s.kept[0], 1
			for count < len(s.kept) && s.kept[count] == first+count {
				count++
			}
			s.kept = s.kept[count:]
			var before int64
			for i := 0; i < first; i++ {
				before += s.file.StripeRows(i)
			}
			br, err := s.file.NewBatchReader(s.proj, orc.BatchOptions{BatchRows: s.n, Allocator: s.mem, FirstStripe: first, Stripes: count})
			if err != nil {
				return nil, err
			}
			s.cur, s.start = br, before
		}
		b, err := s.cur.Next(ctx)
		if errors.Is(err, io.EOF) {
			s.cur.Close()
			s.cur = nil
			continue
		}
		if err != nil {
			return nil, err
		}
		s.last = s.start
		s.start += b.NumRows()
		return b, nil
	}
}

func (s *stripesSource) batchStart() int64 { return s.last }

func (s *stripesSource) Close() error {
	if s.cur != nil {
		err := s.cur.Close()
		s.cur = nil
		return err
	}
	return nil
}

// stripeRangeValid reports whether the stripe range of opts (firstRowGroup,
// rowGroups) lies within the file.
func stripeRangeValid(of *orc.File, opts Options) bool {
	first, count := opts.firstRowGroup, opts.rowGroups
	return first >= 0 && count >= 0 && first <= of.NumStripes() && count <= of.NumStripes()-first
}

// newOrcFilteredSource returns the source of the stripes of the read's
// range that the filter keeps, counting the stripes read and skipped.
func newOrcFilteredSource(of *orc.File, filter *expr.Bound, p *project.Plan, opts Options, n int, mem memory.Allocator) *stripesSource {
	g := newStripeFilter(of, filter, p.FileSchema(), p.ReadSchema(), opts.Constants, opts.posFieldID())
	kept := g.keptStripes(opts.firstRowGroup, opts.rowGroups, opts.Stats)
	return &stripesSource{file: of, proj: p.FileProjection(), n: n, mem: mem, kept: kept}
}

// orcPruning is [Table.Prune] for an ORC file: its stripes ruled out by
// their statistics (or all of them by the columns the file lacks), counted
// as a scan counts them.
func orcPruning(of *orc.File, filter *expr.Bound, p *project.Plan, o Options, lacking bool) FilePruning {
	var st ScanStats
	g := newStripeFilter(of, filter, p.FileSchema(), p.ReadSchema(), o.Constants, o.posFieldID())
	kept := g.keptStripes(o.firstRowGroup, o.rowGroups, &st)
	c := st.Counts()
	out := FilePruning{MayMatch: len(kept) > 0, RowGroups: int(c.StripesRead + c.StripesSkipped), RowGroupsKept: len(kept), BytesSkipped: c.BytesSkippedStripes}
	switch {
	case lacking && len(kept) == 0:
		out.Reason = "columns the file lacks"
	case c.StripesSkipped > 0:
		out.Reason = "stripe statistics"
	}
	return out
}
