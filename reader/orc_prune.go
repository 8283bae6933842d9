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
	starts       []int64         // file row of each stripe's first row
	indexed      []*schema.Field // the file fields the filter reads, for the row index
}

func newStripeFilter(of *orc.File, filter *expr.Bound, resolved, read *schema.Schema, constants map[int]any, posID int) *stripeFilter {
	top := map[int]bool{}
	for _, f := range read.Fields {
		top[f.ID] = true
	}
	g := &stripeFilter{file: of, filter: filter, readByID: read.FieldsByID(), resolvedByID: resolved.FieldsByID(),
		fields: fileFields(resolved, of.Schema()), topLevel: top, constants: constants, posID: posID,
		starts: rowStarts(of.NumStripes(), of.StripeRows)}
	for _, id := range filter.FieldIDs() {
		if ff := g.fields[id]; ff != nil && g.resolvedByID[id] != nil {
			g.indexed = append(g.indexed, ff)
		}
	}
	return g
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
	g     *stripeFilter // decides the row groups of each stripe
	stats *ScanStats
	proj  *schema.Schema
	n     int
	mem   memory.Allocator
	kept  []int // ascending
	cur   *orc.BatchReader
	last  int64 // file row of the last batch's first row
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
			var skip []orc.RowRange
			if s.g != nil {
				var err error
				if skip, err = s.g.rowGroupSkips(first, count, s.stats); err != nil {
					return nil, err
				}
			}
			br, err := s.file.NewBatchReader(s.proj, orc.BatchOptions{BatchRows: s.n, Allocator: s.mem, FirstStripe: first, Stripes: count, Skip: skip})
			if err != nil {
				return nil, err
			}
			s.cur = br
		}
		b, err := s.cur.Next(ctx)
		if errors.Is(err, io.EOF) {
			s.closeCur()
			continue
		}
		if err != nil {
			return nil, err
		}
		s.last = s.cur.BatchStart()
		return b, nil
	}
}

func (s *stripesSource) batchStart() int64 { return s.last }

func (s *stripesSource) Close() error { return s.closeCur() }

// closeCur closes the current batch reader, counting what it seeked over.
func (s *stripesSource) closeCur() error {
	if s.cur == nil {
		return nil
	}
	countOrcSkips(s.stats, s.cur.SkipCounts())
	err := s.cur.Close()
	s.cur = nil
	return err
}

// countOrcSkips adds what an ORC batch reader did with its skipped rows
// (the row groups the row index or bloom filters ruled out) to stats.
func countOrcSkips(stats *ScanStats, c orc.SkipCounts) {
	stats.add(orcRowIndexRowsSkipped, c.RowsSeeked+c.RowsDropped)
	stats.add(orcRowIndexRowsDecoded, c.RowsDropped)
	stats.add(orcRowIndexBytesSkipped, c.BytesSeeked)
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
	return &stripesSource{file: of, g: g, stats: opts.Stats, proj: p.FileProjection(), n: n, mem: mem, kept: kept}
}

// orcPruning is [Table.Prune] for an ORC file: its stripes ruled out by
// their statistics (or all of them by the columns the file lacks), counted
// as a scan counts them, and the row groups of the kept stripes that the
// row index rules out (it reads the row index of each kept stripe).
func orcPruning(of *orc.File, filter *expr.Bound, p *project.Plan, o Options, lacking bool) (FilePruning, error) {
	var st ScanStats
	g := newStripeFilter(of, filter, p.FileSchema(), p.ReadSchema(), o.Constants, o.posFieldID())
	kept := g.keptStripes(o.firstRowGroup, o.rowGroups, &st)
	for _, i := range kept {
		skip, err := g.rowGroupSkips(i, 1, &st)
		if err != nil {
			return FilePruning{}, err
		}
		for _, r := range skip {
			st.add(orcRowIndexRowsSkipped, r.End-r.Start)
		}
	}
	c := st.Counts()
	out := FilePruning{MayMatch: len(kept) > 0, RowGroups: int(c.StripesRead + c.StripesSkipped), RowGroupsKept: len(kept), BytesSkipped: c.BytesSkippedStripes,
		OrcRowGroups: int(c.OrcRowGroupsRead + c.OrcRowGroupsSkipped), OrcRowGroupsKept: int(c.OrcRowGroupsRead), OrcRowsSkipped: c.OrcRowIndexRowsSkipped}
	switch {
	case lacking && len(kept) == 0:
		out.Reason = "columns the file lacks"
	case c.StripesSkipped > 0:
		out.Reason = "stripe statistics"
	}
	return out, nil
}

// rowGroupSkips returns the file rows of stripes [first, first+count) that
// the row index rules out: the row groups whose index statistics, or else
// whose bloom filters (for = and IN), cannot match, counting the row
// groups read and skipped. Without a row index, or when the filter reads
// no column the file has, it skips nothing. The index is read as each run
// of stripes is reached, so a stripe all of whose row groups are skipped
// still counts as a stripe read.
func (g *stripeFilter) rowGroupSkips(first, count int, stats *ScanStats) ([]orc.RowRange, error) {
	if g.file.RowIndexStride() <= 0 || len(g.indexed) == 0 {
		return nil, nil
	}
	var out []orc.RowRange
	for i := first; i < first+count; i++ {
		x, err := g.file.ReadRowIndex(i, g.indexed)
		if err != nil {
			return nil, err
		}
		for rg := 0; rg < x.NumRowGroups(); rg++ {
			start, rows := x.RowGroupRows(rg)
			keep := g.mayMatch(rows, func(ff *schema.Field) (orc.ColumnStats, bool) { return x.Stats(rg, ff) })
			bloom := false
			if keep && !g.bloomMayMatch(x, rg) {
				keep, bloom = false, true
			}
			if keep {
				stats.add(orcRowGroupsRead, 1)
				continue
			}
			stats.add(orcRowGroupsSkipped, 1)
			if bloom {
				stats.add(orcBloomSkipped, 1)
			}
			r := orc.RowRange{Start: g.starts[i] + start, End: g.starts[i] + start + rows}
			if n := len(out); n > 0 && out[n-1].End == r.Start {
				out[n-1].End = r.End
			} else {
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// bloomMayMatch evaluates the = and IN predicates of the filter on row
// group rg's bloom filters; every other predicate may match.
func (g *stripeFilter) bloomMayMatch(x *orc.RowIndex, rg int) bool {
	return g.filter.MayMatchLeaves(func(id int, op expr.Op, values []any) (bool, bool) {
		if op != expr.Eq && op != expr.In {
			return true, false
		}
		ff, rf := g.fields[id], g.readByID[id]
		if ff == nil || rf == nil || g.resolvedByID[id] == nil {
			return true, false
		}
		for _, v := range values {
			fv, ok := fileValue(v, ff.Type)
			if !ok {
				return true, false
			}
			may, known := x.MayContain(rg, ff, fv)
			if !known {
				return true, false
			}
			if may {
				return true, true
			}
		}
		return false, true
	})
}

// fileValue converts a literal in the Go form of the read type to the Go
// form of the file's type t, for the bloom filters: an integer to a
// narrower integer it fits, a double to a float it equals, a string as is.
// false means it cannot be converted exactly.
func fileValue(v any, t schema.Type) (any, bool) {
	pt, ok := t.(schema.PrimitiveType)
	if !ok {
		return nil, false
	}
	var i int64
	isInt := true
	switch x := v.(type) {
	case int8:
		i = int64(x)
	case int16:
		i = int64(x)
	case int32:
		i = int64(x)
	case int64:
		i = x
	default:
		isInt = false
	}
	switch pt.K {
	case schema.KindTinyInt:
		if isInt && i == int64(int8(i)) {
			return int8(i), true
		}
	case schema.KindSmallInt:
		if isInt && i == int64(int16(i)) {
			return int16(i), true
		}
	case schema.KindInt:
		if isInt && i == int64(int32(i)) {
			return int32(i), true
		}
	case schema.KindLong:
		if isInt {
			return i, true
		}
	case schema.KindFloat:
		switch x := v.(type) {
		case float32:
			return x, true
		case float64:
			if float64(float32(x)) == x {
				return float32(x), true
			}
		}
	case schema.KindDouble:
		switch x := v.(type) {
		case float32:
			return float64(x), true
		case float64:
			return x, true
		}
	case schema.KindString, schema.KindVarchar:
		if s, ok := v.(string); ok {
			return s, true
		}
	}
	return nil, false
}
