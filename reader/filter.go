package reader

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/formats/parquet"
	"github.com/lakecat/lakecat/internal/arrowtake"
	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table"
)

// ScanStats counts what reads with a filter skipped and read. One value
// may be shared by every file of a scan (the counters are atomic); read it
// with [ScanStats.Counts] once the reads are done.
type ScanStats struct {
	c [numCounters]atomic.Int64
}

// The counters of [ScanStats].
const (
	filesRead = iota
	filesSkipped
	rowGroupsRead
	rowGroupsSkipped
	bytesSkippedFiles
	bytesSkippedRowGroups
	rowsRead
	rowsSelected
	manifestsSkipped
	rowGroupsSkippedBloom
	// ORC (orc_prune.go).
	stripesRead
	stripesSkipped
	bytesSkippedStripes
	orcRowGroupsRead
	orcRowGroupsSkipped
	orcBloomSkipped
	// Parquet page index (filter_pageindex.go).
	pageIndexRowsSkipped
	pageIndexPagesSkipped
	filesSkippedStats
	// ORC row index seeking (orc_prune.go).
	orcRowIndexRowsSkipped
	orcRowIndexRowsDecoded
	orcRowIndexBytesSkipped
	// Parquet pages not read (filter_pageindex.go).
	pageIndexBytesSkipped
	numCounters
)

// ScanCounts is a snapshot of [ScanStats].
type ScanCounts struct {
	// FilesRead counts the data files some of whose rows were decoded;
	// FilesSkipped those the filter ruled out: without opening them (their
	// constants: partition values; Iceberg's column metrics and manifest
	// summaries) or from their footer (the columns they lack, every row
	// group's statistics), as [Table.Prune] and `lakecat plan --where`
	// count them.
	FilesRead, FilesSkipped int64
	// RowGroupsRead and RowGroupsSkipped count Parquet row groups decoded
	// and ruled out by their statistics or bloom filters (an Avro file
	// counts as one group, never skipped; an ORC file ruled out by the
	// columns it lacks as one group skipped).
	RowGroupsRead, RowGroupsSkipped int64
	// RowGroupsSkippedBloom counts the row groups among RowGroupsSkipped
	// that their statistics let through and their bloom filters ruled out
	// (= and IN predicates).
	RowGroupsSkippedBloom int64
	// BytesSkippedFiles is the size of the files skipped, in bytes (as the
	// metadata states it); BytesSkippedRowGroups the compressed size of the
	// row groups skipped.
	BytesSkippedFiles, BytesSkippedRowGroups int64
	// RowsRead is the number of rows decoded; RowsSelected the rows the
	// residual filter kept.
	RowsRead, RowsSelected int64
	// ManifestsSkipped counts the Iceberg data manifests ruled out by the
	// manifest list's partition summaries, not read; the files they list
	// (when the list counts them) are among FilesSkipped, their bytes
	// (unknown) not among BytesSkippedFiles.
	ManifestsSkipped int64

	// StripesRead and StripesSkipped count the ORC stripes decoded and
	// those ruled out by their stripe statistics (the metadata section);
	// BytesSkippedStripes is the size of the stripes skipped.
	StripesRead, StripesSkipped, BytesSkippedStripes int64
	// OrcRowGroupsRead and OrcRowGroupsSkipped count the row groups of the
	// ORC row index (rowIndexStride rows each, 10,000 by default) within
	// the stripes read, read and ruled out by their index statistics or
	// bloom filters; OrcBloomSkipped counts those of the skipped that
	// only a bloom filter ruled out.
	OrcRowGroupsRead, OrcRowGroupsSkipped, OrcBloomSkipped int64
	// PageIndexRowsSkipped counts the rows of Parquet row groups read
	// that the page index ruled out (never decoded into a batch);
	// PageIndexPagesSkipped the pages of the filter's columns all of
	// whose rows it ruled out.
	PageIndexRowsSkipped, PageIndexPagesSkipped int64
	// FilesSkippedStats counts the Paimon data files among FilesSkipped
	// ruled out by their manifest entry's value or key statistics (see
	// paimon.Scan.ValueStats and paimon.Scan.KeyStats), not opened.
	FilesSkippedStats int64

	// OrcRowIndexRowsSkipped counts the rows of the ORC row groups the
	// row index ruled out (OrcRowGroupsSkipped): never returned, and
	// passed over by seeking each column's streams by the index
	// positions, except OrcRowIndexRowsDecoded of them, which some column
	// decoded and dropped (a column whose index positions the decoder
	// cannot use, or a file without them). OrcRowIndexBytesSkipped is the
	// compressed stream bytes of the projected columns the seeks passed
	// over, not decompressed nor decoded, plus the data section of each
	// stripe whose row groups were all ruled out (not read).
	OrcRowIndexRowsSkipped, OrcRowIndexRowsDecoded, OrcRowIndexBytesSkipped int64
	// PageIndexBytesSkipped is the compressed size (page headers
	// included) of the Parquet data pages, of every column read, that
	// were neither read nor decompressed because the rows the page index
	// ruled out (with the rows deleted, when the decoder leaves those out
	// too) held every row of them.
	PageIndexBytesSkipped int64
}

// Counts returns the counters.
func (s *ScanStats) Counts() ScanCounts {
	if s == nil {
		return ScanCounts{}
	}
	return ScanCounts{
		FilesRead: s.c[filesRead].Load(), FilesSkipped: s.c[filesSkipped].Load(),
		RowGroupsRead: s.c[rowGroupsRead].Load(), RowGroupsSkipped: s.c[rowGroupsSkipped].Load(),
		BytesSkippedFiles: s.c[bytesSkippedFiles].Load(), BytesSkippedRowGroups: s.c[bytesSkippedRowGroups].Load(),
		RowsRead: s.c[rowsRead].Load(), RowsSelected: s.c[rowsSelected].Load(),
		ManifestsSkipped:      s.c[manifestsSkipped].Load(),
		RowGroupsSkippedBloom: s.c[rowGroupsSkippedBloom].Load(),
		StripesRead:           s.c[stripesRead].Load(), StripesSkipped: s.c[stripesSkipped].Load(), BytesSkippedStripes: s.c[bytesSkippedStripes].Load(),
		OrcRowGroupsRead: s.c[orcRowGroupsRead].Load(), OrcRowGroupsSkipped: s.c[orcRowGroupsSkipped].Load(), OrcBloomSkipped: s.c[orcBloomSkipped].Load(),
		PageIndexRowsSkipped: s.c[pageIndexRowsSkipped].Load(), PageIndexPagesSkipped: s.c[pageIndexPagesSkipped].Load(),
		FilesSkippedStats: s.c[filesSkippedStats].Load(),

		OrcRowIndexRowsSkipped: s.c[orcRowIndexRowsSkipped].Load(), OrcRowIndexRowsDecoded: s.c[orcRowIndexRowsDecoded].Load(),
		OrcRowIndexBytesSkipped: s.c[orcRowIndexBytesSkipped].Load(),
		PageIndexBytesSkipped:   s.c[pageIndexBytesSkipped].Load(),
	}
}

// add adds n to counter c; a nil ScanStats counts nothing.
func (s *ScanStats) add(c int, n int64) {
	if s != nil {
		s.c[c].Add(n)
	}
}

// bindFilter binds the filter to the read schema of a plan.
func bindFilter(f expr.Expr, read *schema.Schema) (*expr.Bound, error) {
	if f == nil {
		return nil, nil
	}
	b, err := table.BindFilter(f, read)
	if err != nil {
		return nil, err
	}
	if b.AlwaysTrue() {
		return nil, nil
	}
	return b, nil
}

// constantStats returns the statistics of a read field the file does not
// store: its constant (identity-partition value, metadata column) or, for a
// top-level field, its initial-default, else null (Iceberg spec, "Default
// values"). ok is false when the field's value is not one constant for the
// file: _pos, or a nested field with a default (null where its parent is).
func constantStats(f *schema.Field, topLevel bool, constants map[int]any, rows int64, posID int) (expr.Stats, bool) {
	if f.ID == posID {
		return expr.Stats{}, false
	}
	if v, ok := constants[f.ID]; ok {
		if !topLevel {
			return expr.Stats{}, false
		}
		return expr.ConstantStats(v, rows), true
	}
	if f.ID >= reservedFieldIDs {
		return expr.Stats{}, false
	}
	if f.InitialDefault != nil {
		if !topLevel {
			return expr.Stats{}, false
		}
		return expr.ConstantStats(f.InitialDefault, rows), true
	}
	return expr.ConstantStats(nil, rows), true
}

// reservedFieldIDs is the lowest field id the Iceberg spec reserves for
// metadata columns (spec, "Reserved Field IDs": 2147483447 and above).
const reservedFieldIDs = 2147483447

// fileFields maps the ids of the resolved file schema's fields (outside
// lists and maps) to the fields of the decoder's own schema, which the
// resolved one clones.
func fileFields(resolved, own *schema.Schema) map[int]*schema.Field {
	out := map[int]*schema.Field{}
	var walk func(r, o []*schema.Field)
	walk = func(r, o []*schema.Field) {
		if len(r) != len(o) {
			return
		}
		for i := range r {
			if r[i].Name != o[i].Name {
				continue
			}
			if r[i].ID != schema.NoID {
				out[r[i].ID] = o[i]
			}
			rs, ok1 := r[i].Type.(*schema.StructType)
			os, ok2 := o[i].Type.(*schema.StructType)
			if ok1 && ok2 {
				walk(rs.Fields, os.Fields)
			}
		}
	}
	walk(resolved.Fields, own.Fields)
	return out
}

// rowGroupFilter decides which row groups of a Parquet file may match.
type rowGroupFilter struct {
	file         *parquet.File
	filter       *expr.Bound
	read         *schema.Schema
	readByID     map[int]*schema.Field
	resolvedByID map[int]*schema.Field // the file schema with the ids the plan uses
	fields       map[int]*schema.Field // read field id → the file's own field
	topLevel     map[int]bool
	constants    map[int]any
	posID        int   // field id of _pos
	equalities   bool  // the filter has = or IN predicates (bloom filters)
	pageIDs      []int // the filter's columns the file stores (page index)
}

func newRowGroupFilter(pf *parquet.File, filter *expr.Bound, resolved, read *schema.Schema, constants map[int]any, posID int) *rowGroupFilter {
	top := map[int]bool{}
	for _, f := range read.Fields {
		top[f.ID] = true
	}
	g := &rowGroupFilter{file: pf, filter: filter, read: read, readByID: read.FieldsByID(), resolvedByID: resolved.FieldsByID(), fields: fileFields(resolved, pf.Schema()), topLevel: top, constants: constants, posID: posID, equalities: hasEqualities(filter)}
	g.pageIDs = g.filterPageIDs()
	return g
}

// mayMatch evaluates the filter on row group i's statistics, each
// converted from the file's type to the read type ([expr.PromoteBound]) or
// left unknown.
func (g *rowGroupFilter) mayMatch(i int) bool {
	return g.filter.MayMatch(g.statsOf(i))
}

// statsOf returns the statistics of row group i, for [expr.Bound.MayMatch].
func (g *rowGroupFilter) statsOf(i int) expr.StatsFunc {
	rows := g.file.RowGroupRows(i)
	return func(id int) (expr.Stats, bool) {
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
		cs, ok := g.file.ColumnStatsOf(i, ff)
		if !ok {
			return expr.Stats{}, false
		}
		st := expr.Stats{Rows: rows, Nulls: cs.NullCount, NaNs: -1}
		from, ok1 := cs.Field.Type.(schema.PrimitiveType)
		to, ok2 := rf.Type.(schema.PrimitiveType)
		if ok1 && ok2 {
			st.Lower, _ = expr.PromoteBound(cs.Min, from, to)
			st.Upper, _ = expr.PromoteBound(cs.Max, from, to)
		}
		return st, true
	}
}

// keptRowGroups returns the row groups of [first, first+count) that may
// match (count 0: to the end), judged by their statistics and then their
// bloom filters, counting the skipped ones. The error is that of a bloom
// filter that cannot be read or is corrupt.
func (g *rowGroupFilter) keptRowGroups(first, count int, stats *ScanStats) ([]int, error) {
	end := g.file.NumRowGroups()
	if count > 0 && first+count < end {
		end = first + count
	}
	var kept []int
	for i := first; i < end; i++ {
		if g.mayMatch(i) {
			ok, err := g.bloomMayMatch(i)
			if err != nil {
				return nil, err
			}
			if ok {
				kept = append(kept, i)
				stats.add(rowGroupsRead, 1)
				continue
			}
			stats.add(rowGroupsSkippedBloom, 1)
		}
		stats.add(rowGroupsSkipped, 1)
		stats.add(bytesSkippedRowGroups, g.file.RowGroupBytes(i))
	}
	return kept, nil
}

// rowGroupsSource reads chosen row groups of a Parquet file, each run of
// consecutive groups through one batch reader; batchStart tells the file
// row of the last batch's first row.
type rowGroupsSource struct {
	file  *parquet.File
	proj  *schema.Schema
	n     int
	mem   memory.Allocator
	kept  []int // ascending
	cur   *parquet.BatchReader
	start int64 // file row of the next batch's first row
	last  int64
	// skip, when not nil, holds the rows the decoder leaves out (see
	// [skipSource]); done counts the rows of the readers closed so far.
	skip *roaring64.Bitmap
	done int64
	// split: skip is the page index's alone, and each batch is cut into
	// slices of one range of file rows ([batchSplitter]).
	split bool
	sp    batchSplitter
	// stats counts the pages the batch readers did not read (nil: none).
	stats *ScanStats
}

func (s *rowGroupsSource) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if b, at, ok := s.sp.pop(); ok {
			s.last = at
			return b, nil
		}
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
				before += s.file.RowGroupRows(i)
			}
			br, err := s.file.NewBatchReader(s.proj, parquet.BatchOptions{BatchRows: s.n, Allocator: s.mem, FirstRowGroup: first, RowGroups: count, Skip: s.skip})
			if err != nil {
				return nil, err
			}
			s.cur, s.start = br, before
		}
		b, err := s.cur.Next(ctx)
		if errors.Is(err, io.EOF) {
			s.done += s.cur.RowsDone()
			countSeeked(s.cur, s.stats)
			s.cur.Close()
			s.cur = nil
			continue
		}
		if err != nil {
			return nil, err
		}
		if s.split {
			s.sp.split(b, s.cur.LastRows())
			continue
		}
		s.last = s.start
		s.start += b.NumRows()
		return b, nil
	}
}

func (s *rowGroupsSource) batchStart() int64 { return s.last }

func (s *rowGroupsSource) lastRows() []parquet.RowRange {
	if s.cur == nil {
		return nil
	}
	return s.cur.LastRows()
}

func (s *rowGroupsSource) rowsDone() int64 {
	if s.cur == nil {
		return s.done
	}
	return s.done + s.cur.RowsDone()
}

func (s *rowGroupsSource) Close() error {
	s.sp.release()
	if s.cur != nil {
		countSeeked(s.cur, s.stats)
		err := s.cur.Close()
		s.cur = nil
		return err
	}
	return nil
}

// positioned is a batch source that skips rows: batchStart is the file row
// of the first row of the batch Next returned last.
type positioned interface{ batchStart() int64 }

// applyFilter keeps the rows of out the residual filter selects: out
// itself when all match, nil when none do, else the rows the selection bitmap
// keeps, gathered. It releases out when it returns another batch.
func applyFilter(ctx context.Context, f *expr.Bound, out arrow.RecordBatch, mem memory.Allocator, stats *ScanStats) (arrow.RecordBatch, error) {
	sel, n, err := f.Select(out)
	if err != nil {
		out.Release()
		return nil, err
	}
	rows := int(out.NumRows())
	stats.add(rowsSelected, int64(n))
	switch n {
	case rows:
		return out, nil
	case 0:
		out.Release()
		return nil, nil
	}
	res, err := arrowtake.FilterRecordBatch(mem, out, sel)
	out.Release()
	if err != nil {
		return nil, fmt.Errorf("reader: residual filter: %w", err)
	}
	return res, nil
}

// TaskMayMatch reports whether task may hold a row the filter (bound to
// task.ReadSchema) selects, judged only from what the task states, without
// opening its file: its constants (identity-partition values, _file,
// _spec_id). Other fields may match anything.
func TaskMayMatch(task table.Task, filter *expr.Bound) bool { return table.TaskMayMatch(task, filter) }

// narrowReader returns the batches of rr in the schema out, whose fields
// (by id, recursively through structs) are a subset of rr's: the columns
// read only for the filter are dropped.
type narrowReader struct {
	array.RecordReader
	out  *schema.Schema
	aout *arrow.Schema
	cur  arrow.RecordBatch
}

func newNarrowReader(rr array.RecordReader, out *schema.Schema) *narrowReader {
	return &narrowReader{RecordReader: rr, out: out, aout: schema.ToArrowSchema(out)}
}

func (n *narrowReader) Schema() *arrow.Schema { return n.aout }

func (n *narrowReader) Next() bool {
	if n.cur != nil {
		n.cur.Release()
		n.cur = nil
	}
	if !n.RecordReader.Next() {
		return false
	}
	rec := n.RecordReader.RecordBatch()
	in := rec.Schema()
	cols := make([]arrow.Array, len(n.out.Fields))
	for i, f := range n.out.Fields {
		j := fieldIndexByID(in.Fields(), f.ID)
		cols[i] = narrowArray(rec.Column(j), f.Type, n.aout.Field(i).Type)
	}
	n.cur = array.NewRecordBatch(n.aout, cols, rec.NumRows())
	for _, c := range cols {
		c.Release()
	}
	return true
}

func (n *narrowReader) RecordBatch() arrow.RecordBatch { return n.cur }
func (n *narrowReader) Record() arrow.RecordBatch      { return n.cur }

func (n *narrowReader) Release() {
	if n.cur != nil {
		n.cur.Release()
		n.cur = nil
	}
	n.RecordReader.Release()
}

func fieldIndexByID(fs []arrow.Field, id int) int {
	for i, f := range fs {
		if schema.FieldIDOf(f) == id {
			return i
		}
	}
	return -1
}

// narrowArray returns a (retained) array of type want holding a's values,
// dropping struct children want lacks.
func narrowArray(a arrow.Array, t schema.Type, want arrow.DataType) arrow.Array {
	st, ok := t.(*schema.StructType)
	sa, ok2 := a.(*array.Struct)
	if !ok || !ok2 || arrow.TypeEqual(a.DataType(), want) {
		a.Retain()
		return a
	}
	inFields := sa.DataType().(*arrow.StructType).Fields()
	wantFields := want.(*arrow.StructType).Fields()
	// The children of the data are unsliced (the struct's Field arrays are
	// sliced by its offset), so the new struct keeps the offset.
	d := sa.Data()
	children := make([]arrow.ArrayData, len(st.Fields))
	for i, f := range st.Fields {
		j := fieldIndexByID(inFields, f.ID)
		child := array.MakeFromData(d.Children()[j])
		c := narrowArray(child, f.Type, wantFields[i].Type)
		child.Release()
		children[i] = c.Data()
		defer c.Release()
	}
	nd := array.NewData(want, d.Len(), []*memory.Buffer{d.Buffers()[0]}, children, d.NullN(), d.Offset())
	defer nd.Release()
	return array.MakeFromData(nd)
}

// FilePruning is what a filter decides about one data file before any of
// its data is decoded.
type FilePruning struct {
	// MayMatch is false when no row of the file can match.
	MayMatch bool
	// Reason says why the file or some of its row groups are skipped:
	// "partition values", "columns the file lacks", "row group statistics",
	// "bloom filters", "row group statistics, bloom filters", "stripe
	// statistics"; "" when nothing is skipped.
	Reason string
	// RowGroupsSkippedBloom counts the row groups that their statistics
	// let through and their bloom filters ruled out.
	RowGroupsSkippedBloom int
	// RowGroups and RowGroupsKept count the file's row groups (Parquet),
	// stripes (ORC; 1 for Avro) and those that may match.
	RowGroups, RowGroupsKept int
	// BytesSkipped is the compressed size of the row groups skipped, or
	// the file's size when the file is ruled out whole without its row
	// groups (its constants; an ORC or Avro file by the columns it lacks),
	// as [ScanCounts] count them.
	BytesSkipped int64

	// OrcRowGroups counts the row groups of the ORC row index in the
	// stripes kept; OrcRowGroupsKept those its statistics and bloom
	// filters let through, OrcRowsSkipped the rows of the others (which a
	// read seeks over). Zero for other formats and files without a row
	// index.
	OrcRowGroups, OrcRowGroupsKept int
	OrcRowsSkipped                 int64
	// PageIndexPages and PageIndexRows count, within the row groups kept,
	// the pages of the filter's columns and the rows the Parquet page
	// index rules out, as [ScanCounts] count them; PageIndexBytes is the
	// compressed size of the data pages of the columns read that are
	// then not read (every row of them ruled out). Only
	// [Table.PrunePages] sets them.
	PageIndexPages, PageIndexRows, PageIndexBytes int64
}

// ManifestsSkipped returns how many Iceberg data manifests the filter
// ruled out by the manifest list's partition summaries (not read: their
// files are not in Files) and how many files they list, as far as the
// manifest list counts them; 0, 0 for other tables or without a filter.
func (t *Table) ManifestsSkipped() (manifests int, files int64) {
	return t.listing.ManifestsSkipped, t.listing.ManifestFilesSkipped
}

// Prune reports what the filter of [TableOptions.Filter] skips of file i
// (an index into Files): the whole file, from its constants (no I/O) or the
// columns it lacks, or some of its Parquet row groups, from their
// statistics. It reads the file's footer. Without a filter every file may
// match. The page index counts of the result are zero; [Table.PrunePages]
// sets them.
func (t *Table) Prune(ctx context.Context, i int) (FilePruning, error) {
	return t.prune(ctx, i, false)
}

// PrunePages is [Table.Prune] that also reports, for a Parquet file,
// what the page index skips within the row groups kept
// ([FilePruning.PageIndexPages], PageIndexRows, PageIndexBytes): it reads
// the column and offset indexes of the filter's columns and the offset
// indexes of the columns read, never a data page.
func (t *Table) PrunePages(ctx context.Context, i int) (FilePruning, error) {
	return t.prune(ctx, i, true)
}

func (t *Table) prune(ctx context.Context, i int, pages bool) (FilePruning, error) {
	f := t.Files[i]
	filter := t.listing.Filter
	if filter == nil {
		return FilePruning{MayMatch: true}, nil
	}
	if f.Skip != "" {
		return FilePruning{Reason: f.Skip, BytesSkipped: max(f.Task.SizeBytes, 0)}, nil
	}
	if f.Task.Hudi != nil {
		// A Hudi file slice: its log records may match whatever the base
		// file's statistics say.
		return FilePruning{MayMatch: true}, nil
	}
	o, err := taskOptions(t.opts.FS, f.Task, TaskOptions{Limits: t.opts.Limits, IgnoreDeletes: true}, nil)
	if err != nil {
		return FilePruning{}, err
	}
	r, size, closeFn, err := openTask(t.opts.FS, f.Path)(ctx)
	if err != nil {
		return FilePruning{}, pathError(f.Path, err)
	}
	defer closeFn()
	if o.format == "" {
		o.format = f.Format // a merge task's options name none: this file's
	}
	dec, _, err := openDecoder(r, size, o)
	if err != nil {
		return FilePruning{}, withFile(f.Path, err)
	}
	if f.Task.Merge != nil || f.InMerge {
		// A file of a merge section: its rows replace or delete those of
		// the section's other files, so it is read whole, as the merge
		// reads it (a scan counts it so).
		n := decoderRowGroups(dec)
		return FilePruning{MayMatch: true, RowGroups: n, RowGroupsKept: n}, nil
	}
	p, err := plan(dec, o)
	if err != nil {
		return FilePruning{}, withFile(f.Path, err)
	}
	defer p.Release()
	lacking := !lackingMayMatch(filter, dec, p, o)
	if od, ok := dec.(orcDecoder); ok && stripeRangeValid(od.File, o) {
		pr, err := orcPruning(od.File, filter, p, o, lacking)
		if err != nil {
			return FilePruning{}, withFile(f.Path, err)
		}
		return pr, nil
	}
	pd, ok := dec.(parquetDecoder)
	if !ok {
		// Avro: the file is one group, read or skipped whole.
		if lacking {
			return FilePruning{Reason: "columns the file lacks", RowGroups: 1, BytesSkipped: size}, nil
		}
		return FilePruning{MayMatch: true, RowGroups: 1, RowGroupsKept: 1}, nil
	}
	var st ScanStats
	g := newRowGroupFilter(pd.File, filter, p.FileSchema(), p.ReadSchema(), o.Constants, o.posFieldID())
	kept, err := g.keptRowGroups(o.firstRowGroup, o.rowGroups, &st)
	if err != nil {
		return FilePruning{}, withFile(f.Path, err)
	}
	c := st.Counts()
	out := FilePruning{MayMatch: len(kept) > 0, RowGroups: int(c.RowGroupsRead + c.RowGroupsSkipped), RowGroupsKept: len(kept), BytesSkipped: c.BytesSkippedRowGroups}
	switch {
	case lacking && len(kept) == 0:
		// The row group filter rules every group out by the same
		// constants; its bytes are those of the groups, as a scan counts.
		out.Reason = "columns the file lacks"
	case c.RowGroupsSkippedBloom > 0 && c.RowGroupsSkippedBloom == c.RowGroupsSkipped:
		out.Reason = "bloom filters"
	case c.RowGroupsSkippedBloom > 0:
		out.Reason = "row group statistics, bloom filters"
	case c.RowGroupsSkipped > 0:
		out.Reason = "row group statistics"
	}
	out.RowGroupsSkippedBloom = int(c.RowGroupsSkippedBloom)
	if pages {
		if err := pagePruning(&out, g, pd.File, p, o, kept); err != nil {
			return FilePruning{}, withFile(f.Path, err)
		}
	}
	return out, nil
}

// lackingMayMatch evaluates the filter on the fields the file lacks alone:
// each is one constant for the whole file (its partition value,
// initial-default or null); the fields the file has may match anything.
func lackingMayMatch(filter *expr.Bound, dec decoder, p *project.Plan, o Options) bool {
	read := p.ReadSchema()
	readByID, fileByID := read.FieldsByID(), p.FileSchema().FieldsByID()
	top := map[int]bool{}
	for _, fl := range read.Fields {
		top[fl.ID] = true
	}
	return filter.MayMatch(func(id int) (expr.Stats, bool) {
		rf := readByID[id]
		if rf == nil || fileByID[id] != nil {
			return expr.Stats{}, false
		}
		return constantStats(rf, top[id], o.Constants, dec.NumRows(), o.posFieldID())
	})
}

// emptySource is a batch source without batches: a file the filter rules
// out.
type emptySource struct{}

func (emptySource) Next(context.Context) (arrow.RecordBatch, error) { return nil, io.EOF }
func (emptySource) Close() error                                    { return nil }
