package parquet

import (
	"context"
	"fmt"
	"io"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/internal/recycle"
	"github.com/lakecat/lakecat/schema"
)

// BatchOptions configures [File.NewBatchReader].
type BatchOptions struct {
	// BatchRows is the number of rows per record batch; 0 means
	// [DefaultBatchRows]. The last batch may be shorter.
	BatchRows int
	// Allocator allocates every Arrow buffer; nil means
	// memory.DefaultAllocator. The reader reuses the values, offsets and
	// validity buffers of batches the caller has released for later
	// batches (instead of allocating and zeroing new ones), and gives them
	// back to Allocator on Close; string and binary data buffers, whose
	// bytes Arrow hands out without copying, are never reused.
	Allocator memory.Allocator
	// FirstRowGroup and RowGroups select the row groups read: RowGroups
	// groups from FirstRowGroup (RowGroups 0: every group from
	// FirstRowGroup on). A range past the file's row groups is an error.
	FirstRowGroup, RowGroups int
	// Skip, when not nil, holds file rows (positions from 0 at the
	// file's first row, whatever FirstRowGroup is) the batches leave
	// out: their levels and values are stepped over in the decoded pages
	// and never copied into a batch, and each batch holds up to BatchRows
	// of the rows left ([BatchReader.LastRows] tells which). Positions
	// at or past the selected row groups' end are ignored. The bitmap is
	// read, never changed, and must not change while the reader is in
	// use.
	//
	// In a column chunk with an offset index (Parquet format,
	// PageIndex.md), a data page all of whose rows Skip holds is neither
	// read nor decompressed: the chunk is read as ranged reads of the
	// bytes before its first data page (the dictionary page) and of the
	// pages it still needs, and [BatchReader.Seeked] counts the pages
	// left. Each column decides on its own. A page location outside its
	// chunk or overlapping the page before it, or a page read that does
	// not hold the rows its location says, is a [*CorruptError].
	Skip *roaring64.Bitmap
	// DictionaryFields lists top-level fields of the projection (indices
	// into proj.Fields), each a string or binary column stored as
	// BYTE_ARRAY, that the batches return as Arrow dictionary arrays of
	// [DictionaryIndexType] indices over the column's values, the
	// batch schema's type for them. A batch whose values all come from
	// dictionary-encoded pages of one column chunk holds the page indices
	// over the chunk's dictionary page, decoded once and shared by the
	// chunk's batches (the same array, so an Arrow IPC writer writes it
	// once per chunk); any other batch (PLAIN pages, a reader with Skip)
	// holds the distinct values of the batch in order of first
	// appearance. The values are those of a read without it. With
	// DictionaryFields and without Skip, batches also end at row group
	// ends. A field that is not such a column is an error.
	DictionaryFields []int
}

// selNode is a projected node: the proj field, its file node and how its
// Arrow array is built.
type selNode struct {
	ln       *lnode
	dtype    arrow.DataType
	children []*selNode
	leaf     *leafReader // leaves: the column read
	ref      *leafReader // the leaf whose levels give this node's slots
}

// BatchReader reads record batches of a projection of a [File], row group
// after row group. It is not safe for concurrent use.
type BatchReader struct {
	f       *File
	mem     memory.Allocator
	pool    *recycle.Pool // mem: buffers of released batches are reused
	rows    int
	schema  *arrow.Schema
	top     []*selNode
	readers []*leafReader
	left    int64
	err     error
	closed  bool

	// Row selection: next is the file row of the next row not yet read
	// or skipped; skip and skipIt the rows to leave out (nil: none); runs
	// and ranges the last batch's selection.
	first   int64
	next    int64
	skip    *roaring64.Bitmap
	skipIt  roaring64.ManyIntIterable64
	skipBuf []uint64 // skipped rows read from skipIt, from skipAt on not passed yet
	skipAt  int
	runs    []rowRun
	ranges  []RowRange
	mask    []uint8
	// groupEnds: with dictionary columns, the file rows at which the row
	// groups not yet finished end (see dictBatchRows).
	groupEnds []int64
	endRG     int // the row group past the last selected
}

// NewBatchReader returns a reader of the columns in proj, a pruned copy of
// [File.Schema] (same names and nesting, a subset of the fields at each
// struct level, in file order). Fields are matched to the file by name path;
// field ids in proj are ignored. Only the leaf columns in proj are decoded; a
// struct or list of proj none of whose leaves is selected (an empty struct)
// takes its lengths and nulls from the first leaf under it in the file. The
// batches have the Arrow schema schema.ToArrowSchema(proj).
//
// Errors: a proj field the file does not have gives an error; a selected
// column this package cannot read (a decimal over 38 digits, ...) gives
// [ErrUnsupported]; a footer parquet-go cannot read gives [ErrCorrupt] or
// [ErrUnsupported].
func (f *File) NewBatchReader(proj *schema.Schema, opts BatchOptions) (*BatchReader, error) {
	if proj == nil {
		proj = f.schema
	}
	rows := opts.BatchRows
	if rows <= 0 {
		rows = DefaultBatchRows
	}
	if rows > maxBatchRows {
		return nil, fmt.Errorf("parquet: BatchRows %d above the cap %d", rows, maxBatchRows)
	}
	mem := opts.Allocator
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	first, count := opts.FirstRowGroup, opts.RowGroups
	if count == 0 {
		count = len(f.meta.RowGroups) - first
	}
	if first < 0 || count < 0 || first+count > len(f.meta.RowGroups) {
		return nil, fmt.Errorf("parquet: %s: row groups %d..%d of %d", displayName(f.name), first, first+count-1, len(f.meta.RowGroups))
	}
	left := f.numRows
	var next int64
	if first > 0 || count < len(f.meta.RowGroups) {
		left = 0
		for i := 0; i < first+count; i++ {
			if i < first {
				next += f.meta.RowGroups[i].NumRows
			} else {
				left += f.meta.RowGroups[i].NumRows
			}
		}
	}
	pool := recycle.New(mem, 0)
	br := &BatchReader{f: f, mem: pool, pool: pool, rows: rows, schema: schema.ToArrowSchema(proj), left: left, first: next, next: next, endRG: first + count}
	if opts.Skip != nil && !opts.Skip.IsEmpty() {
		br.startSkip(opts.Skip)
	}
	dictSet, err := dictionaryFields(len(proj.Fields), opts.DictionaryFields)
	if err != nil {
		return nil, err
	}
	byCol := map[int]*leafReader{}
	top := childIndex(f.lroot)
	for i, pf := range proj.Fields {
		ln := top[pf.Name]
		if ln == nil {
			return nil, fmt.Errorf("parquet: %s has no column %q", displayName(f.name), pf.Name)
		}
		sn, err := br.selectNode(pf, ln, byCol)
		if err != nil {
			br.Close()
			return nil, err
		}
		br.top = append(br.top, sn)
		if dictSet[i] {
			if err := br.setDictionary(sn, i); err != nil {
				br.Close()
				return nil, err
			}
		}
	}
	if dictSet != nil {
		br.groupEnds = br.dictGroupEnds(first, count)
		for _, lr := range br.readers {
			if lr.dout != nil {
				lr.dout.always = br.skip != nil
			}
		}
	}
	// Enough for the buffers of about two batches in flight.
	pool.SetKeep(8 + 8*len(br.readers))
	if br.left > 0 && len(br.readers) > 0 {
		pf, err := f.pqFileOnce()
		if err != nil {
			br.Close()
			return nil, err
		}
		for _, lr := range br.readers {
			lr.pf = pf
			lr.rg = first
			lr.skip = br.skip
		}
	}
	return br, nil
}

// childIndex maps the names of ln's children to them, the first child of
// each name when several share it, so that selecting k fields of a struct
// of n children costs O(n + k), not O(n·k): files have up to 2^20 columns.
func childIndex(ln *lnode) map[string]*lnode {
	m := make(map[string]*lnode, len(ln.children))
	for _, c := range ln.children {
		if _, dup := m[c.field.Name]; !dup {
			m[c.field.Name] = c
		}
	}
	return m
}

func (br *BatchReader) leafFor(ln *lnode, byCol map[int]*leafReader) (*leafReader, error) {
	if ln.conv.op == opRefuse {
		return nil, unsupportedf("%s: %s", displayName(br.f.name), ln.conv.msg)
	}
	col := ln.phys.column
	if lr := byCol[col]; lr != nil {
		return lr, nil
	}
	lr := &leafReader{f: br.f, ln: ln, conv: ln.conv, col: col, mem: br.mem, dataMem: br.pool.Parent(),
		maxDef: byte(ln.phys.defLevel), maxRep: byte(ln.phys.repLevel)}
	// Flat top-level leaves build their validity while reading; every other
	// leaf keeps its levels for the assembly of its ancestors.
	lr.keepLevels = ln.r != 0 || ln.p != 0 || ln.phys.repLevel > 0 || !ln.top
	byCol[col] = lr
	br.readers = append(br.readers, lr)
	return lr, nil
}

// firstLeaf returns the first readable leaf lnode under ln in file order,
// or nil.
func firstLeaf(ln *lnode) *lnode {
	if ln.phys != nil {
		if ln.conv.op == opRefuse {
			return nil
		}
		return ln
	}
	for _, c := range ln.children {
		if l := firstLeaf(c); l != nil {
			return l
		}
	}
	return nil
}

// instantOfWall reports whether t asks for a wall-clock timestamp column
// (timestamp, timestamp_ns) as the instant kind of the same unit. A caller
// that knows better than the file may say so: INT96 carries no UTC flag, and
// Paimon writes TIMESTAMP(7..9) WITH LOCAL TIME ZONE as INT96. Both kinds
// have the same Arrow type, so the output is the same.
func instantOfWall(t schema.PrimitiveType, ln *lnode) bool {
	f := ln.field.Type.Kind()
	return (f == schema.KindTimestamp && t.K == schema.KindTimestampTz) ||
		(f == schema.KindTimestampNs && t.K == schema.KindTimestampTzNs)
}

func (br *BatchReader) selectNode(pf *schema.Field, ln *lnode, byCol map[int]*leafReader) (*selNode, error) {
	sn := &selNode{ln: ln, dtype: schema.ToArrowType(pf.Type)}
	if pf.Type.Kind() != ln.kind && !(pf.Type.Kind().IsPrimitive() && ln.phys != nil) {
		return nil, fmt.Errorf("parquet: projected field %q is a %s, the file's is a %s", pf.Name, pf.Type.Kind(), ln.kind)
	}
	switch t := pf.Type.(type) {
	case schema.PrimitiveType:
		if ln.phys == nil {
			return nil, fmt.Errorf("parquet: projected field %q is primitive, the file's is not", pf.Name)
		}
		if !schema.Equal(t, ln.field.Type) && !instantOfWall(t, ln) {
			return nil, fmt.Errorf("parquet: projected field %q has type %s, the file's is %s", pf.Name, t, ln.field.Type)
		}
		lr, err := br.leafFor(ln, byCol)
		if err != nil {
			return nil, err
		}
		sn.leaf, sn.ref = lr, lr
		return sn, nil
	case *schema.StructType:
		byName := childIndex(ln)
		for _, cf := range t.Fields {
			cl := byName[cf.Name]
			if cl == nil {
				return nil, fmt.Errorf("parquet: %s has no field %q in %q", displayName(br.f.name), cf.Name, pf.Name)
			}
			c, err := br.selectNode(cf, cl, byCol)
			if err != nil {
				return nil, err
			}
			sn.children = append(sn.children, c)
		}
	case *schema.ListType:
		c, err := br.selectNode(t.Element, ln.children[0], byCol)
		if err != nil {
			return nil, err
		}
		sn.children = []*selNode{c}
	case *schema.MapType:
		k, err := br.selectNode(t.Key, ln.children[0], byCol)
		if err != nil {
			return nil, err
		}
		v, err := br.selectNode(t.Value, ln.children[1], byCol)
		if err != nil {
			return nil, err
		}
		sn.children = []*selNode{k, v}
	}
	for _, c := range sn.children {
		if c.ref != nil {
			sn.ref = c.ref
			break
		}
	}
	if sn.ref == nil {
		// No selected leaf below: read the levels of the first leaf under
		// the file node without emitting it.
		fl := firstLeaf(ln)
		if fl == nil {
			return nil, unsupportedf("%s: group %q has no leaf column to take its levels from", displayName(br.f.name), pf.Name)
		}
		lr, err := br.leafFor(fl, byCol)
		if err != nil {
			return nil, err
		}
		sn.ref = lr
	}
	return sn, nil
}

// Schema returns the Arrow schema of the batches.
func (br *BatchReader) Schema() *arrow.Schema { return br.schema }

// Next returns the next record batch, or io.EOF after the last one. The
// caller owns the batch and must Release it. ctx is checked before the batch
// is decoded. After an error, every later call returns the same error.
func (br *BatchReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if br.err != nil {
		return nil, br.err
	}
	if br.closed {
		return nil, fmt.Errorf("parquet: batch reader is closed")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if br.left <= 0 {
		return nil, io.EOF
	}
	var n int
	var covered int64
	if br.skip != nil {
		for {
			n, covered = br.planSelected()
			if n > 0 {
				break
			}
			if covered == br.left {
				// Every row left is skipped.
				if err := br.countUnread(); err != nil {
					br.err = err
					return nil, err
				}
				br.next += br.left
				br.left = 0
				br.ranges = br.ranges[:0]
				return nil, io.EOF
			}
			// A long stretch of skipped rows: stepped over.
			if err := br.skipRows(); err != nil {
				br.err = err
				return nil, err
			}
			br.left -= covered
			br.next += covered
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
	} else {
		n = br.rows
		if int64(n) > br.left {
			n = int(br.left)
		}
		if br.groupEnds != nil {
			n = br.dictBatchRows(n)
		}
		covered = int64(n)
		br.ranges = append(br.ranges[:0], RowRange{Start: br.next, End: br.next + covered})
	}
	rec, err := br.readBatch(n)
	if err != nil {
		br.err = err
		return nil, err
	}
	br.left -= covered
	br.next += covered
	return rec, nil
}

func (br *BatchReader) readBatch(n int) (rec arrow.RecordBatch, err error) {
	defer func() {
		if r := recover(); r != nil {
			rec, err = nil, &CorruptError{File: br.f.name, Offset: -1, Section: "data", Err: fmt.Errorf("decoder panic: %v", r)}
		}
	}()
	for _, lr := range br.readers {
		var err error
		if br.skip != nil {
			err = lr.readRuns(n, br.runs, br.mask)
		} else {
			err = lr.readRows(n)
		}
		if err != nil {
			return nil, err
		}
	}
	cols := make([]arrow.Array, 0, len(br.top))
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	for _, sn := range br.top {
		d, err := br.build(sn)
		if err != nil {
			return nil, err
		}
		if d.Len() != n {
			d.Release()
			return nil, corruptf(br.f.name, -1, "data", "column %q has %d values for %d rows", sn.ln.field.Name, d.Len(), n)
		}
		cols = append(cols, array.MakeFromData(d))
		d.Release()
	}
	return array.NewRecordBatch(br.schema, cols, int64(n)), nil
}

// skipRows steps every column over the rows of the planned batch, none
// of which is kept.
func (br *BatchReader) skipRows() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &CorruptError{File: br.f.name, Offset: -1, Section: "data", Err: fmt.Errorf("decoder panic: %v", r)}
		}
	}()
	for _, lr := range br.readers {
		if err := lr.readRuns(0, br.runs, br.mask); err != nil {
			return err
		}
	}
	return nil
}

// Close releases the reader's buffers and pages. It is safe to call twice.
func (br *BatchReader) Close() error {
	if br.closed {
		return nil
	}
	br.closed = true
	for _, lr := range br.readers {
		lr.close()
	}
	br.pool.Close()
	return nil
}
