package orc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
	_ "time/tzdata" // writer time zones must resolve on hosts without a zoneinfo database

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/internal/recycle"
	"github.com/lakecat/lakecat/schema"
)

// Option configures [Open].
type Option func(*options)

type options struct {
	name   string
	limits Limits
}

// WithFileName sets the file name used in error messages.
func WithFileName(name string) Option { return func(o *options) { o.name = name } }

// File is an open ORC file: its decoded tail and schema. A File is safe for
// concurrent use by several batch readers when its io.ReaderAt is.
type File struct {
	r    io.ReaderAt
	size int64
	name string
	tail *tail
	root *node
	sch  *schema.Schema
	// limits are the size limits, defaults filled in.
	limits Limits
}

// Open reads the tail of an ORC file of size bytes (postscript, footer and
// metadata; spec section "File Tail") and returns the file. It reads no
// stripe data. Errors match [ErrCorrupt] (a *[CorruptError]), [ErrTooLarge],
// [ErrUnsupported] (a future file version, a union type, encryption) or
// [ErrUnsupportedCodec], or are I/O errors from r.
func Open(r io.ReaderAt, size int64, opts ...Option) (*File, error) {
	var o options
	for _, fn := range opts {
		fn(&o)
	}
	o.limits = o.limits.withDefaults()
	t, err := readTail(r, size, o.name, o.limits)
	if err != nil {
		return nil, err
	}
	root, sch, err := buildTree(t.footer.types)
	if err != nil {
		if errors.Is(err, ErrUnsupported) {
			return nil, withFile(err, o.name)
		}
		return nil, &CorruptError{File: o.name, Offset: -1, Section: "footer types", Err: err}
	}
	return &File{r: r, size: size, name: o.name, tail: t, root: root, sch: sch, limits: o.limits}, nil
}

// Schema returns the file schema: ids from the "iceberg.id" or "paimon.id"
// type attributes, [schema.NoID] where a type has none. The result is shared;
// callers must not modify it (Clone it first).
func (f *File) Schema() *schema.Schema { return f.sch }

// NumRows returns the number of rows in the file: the footer's
// numberOfRows, or the sum of the stripes' row counts when the footer has
// none (some early writers left it out).
func (f *File) NumRows() int64 {
	n := f.tail.footer.numberOfRows
	if n == 0 {
		for _, s := range f.tail.footer.stripes {
			n += s.numberOfRows
		}
	}
	return int64(min(n, 1<<62))
}

// NumStripes returns the number of stripes.
func (f *File) NumStripes() int { return len(f.tail.footer.stripes) }

// StripeRows returns the number of rows of stripe i (0 <= i < NumStripes),
// as its stripe information in the footer states.
func (f *File) StripeRows(i int) int64 {
	return int64(min(f.tail.footer.stripes[i].numberOfRows, 1<<62))
}

// Compression returns the compression codec name: "NONE", "ZLIB", "SNAPPY",
// "LZO", "LZ4" or "ZSTD".
func (f *File) Compression() string { return compName(f.tail.ps.compression) }

// Version returns the file format version ("0.12"); files from before Hive
// 0.12 that record none give "0.11".
func (f *File) Version() string {
	v := f.tail.ps.version
	if len(v) < 2 {
		return "0.11"
	}
	return strconv.Itoa(int(v[0])) + "." + strconv.Itoa(int(v[1]))
}

// Metadata returns the user metadata of the footer as a map.
func (f *File) Metadata() map[string]string {
	m := make(map[string]string, len(f.tail.footer.metadata))
	for _, kv := range f.tail.footer.metadata {
		m[kv.key] = kv.value
	}
	return m
}

// BatchOptions configures a [BatchReader].
type BatchOptions struct {
	// BatchRows is the number of rows per batch; 0 means 65536. A batch
	// never spans two stripes, so batches at stripe ends are shorter.
	BatchRows int
	// Allocator allocates every Arrow buffer; nil means
	// memory.DefaultAllocator. The reader reuses the values, offsets and
	// validity buffers of batches the caller has released for later
	// batches (instead of allocating and zeroing new ones), and gives them
	// back to Allocator on Close; string, binary and fixed-size binary data
	// buffers, whose bytes Arrow hands out without copying, are never
	// reused.
	Allocator memory.Allocator
	// FirstStripe and Stripes select the stripes read: Stripes stripes
	// from FirstStripe (Stripes 0: every stripe from FirstStripe on).
	FirstStripe, Stripes int
	// Skip lists ranges of file rows not returned (ascending, disjoint),
	// such as row groups of the row index a filter rules out; see
	// [BatchReader.BatchStart]. Where a range reaches the start of a row
	// group of the row index, the reader seeks each column's streams
	// there by the index's positions instead of decoding the rows before
	// it ([BatchReader.SkipCounts]). A position inside its stream that
	// puts a decoder elsewhere is reported as [ErrCorrupt] where that
	// is exact: at the next row group start the reader reaches by
	// decoding, against that group's positions, and at the end of a
	// stripe decoded to its last row, against the streams' ends (spec
	// section "Row Group Index"; see checkColumn).
	Skip []RowRange

	// noSeek makes the reader decode and drop every skipped row (for the
	// tests comparing both ways).
	noSeek bool
}

// BatchReader decodes the projected columns of a file stripe by stripe into
// Arrow record batches.
type BatchReader struct {
	f      *File
	mem    memory.Allocator // pool, as an allocator
	pool   *recycle.Pool    // opts.Allocator's buffers, those of released batches reused
	rows   int
	schema *arrow.Schema
	cols   []column
	needed map[int]bool
	stripe int   // index of the next stripe to load
	end    int   // index after the last stripe to load
	left   int64 // rows left in the loaded stripe
	st     stripe
	closed bool
	zones  map[string]*time.Location
	bufs   map[uint64]*stream // the needed streams, their buffers reused stripe to stripe
	// dec decompresses this reader's streams (its own: a zlib inflater
	// keeps state between chunks).
	dec *decompressor
	// skip, at and last: see rowskip.go.
	skip     []RowRange
	at, last int64
	noSeek   bool
	index    *stripeIndex // the loaded stripe's row index positions, nil when not read
	seekCols []bool       // per column of cols: seekable by index
	seeked   []bool       // per column of cols: seeked in the loaded stripe
	ends     stripeIndex  // the loaded stripe, for checkStripeEnd when index is nil
	compared [2]int64     // streams checked against the row index: exactly, past a run's start
	counts   SkipCounts
}

// NewBatchReader returns a reader of the leaves of proj, a pruned copy of
// [File.Schema] (same names and nesting, a subset of the fields of each
// struct, in file order); nil proj reads every column. Fields are matched by
// name path; ids in proj are ignored. Each batch has the Arrow schema
// schema.ToArrowSchema(proj). It returns an error, before decoding
// anything, when the options are out of range, when proj names a field the
// file lacks, or when a projected field's type differs from the file's.
func (f *File) NewBatchReader(proj *schema.Schema, opts BatchOptions) (*BatchReader, error) {
	if proj == nil {
		proj = f.sch
	}
	rows := opts.BatchRows
	if rows == 0 {
		rows = defaultBatchRows
	}
	if rows < 0 || rows > maxBatchRows {
		return nil, fmt.Errorf("orc: BatchRows %d outside [1, %d]", rows, maxBatchRows)
	}
	end, err := f.stripesEnd(opts.FirstStripe, opts.Stripes)
	if err != nil {
		return nil, err
	}
	mem := opts.Allocator
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	pool := recycle.New(mem, 0)
	br := &BatchReader{f: f, mem: pool, pool: pool, rows: rows, schema: schema.ToArrowSchema(proj), stripe: opts.FirstStripe, end: end,
		needed: map[int]bool{}, zones: map[string]*time.Location{}, bufs: map[uint64]*stream{},
		dec: &decompressor{kind: f.tail.dec.kind, blockSize: f.tail.dec.blockSize}}
	var top []*node
	if f.root.t.kind == kStruct {
		top = f.root.children
	} else {
		top = []*node{f.root}
	}
	if err := br.setSkip(opts); err != nil {
		return nil, err
	}
	byName := childIndex(top)
	for _, pf := range proj.Fields {
		n := byName[pf.Name]
		if n == nil {
			return nil, fmt.Errorf("orc: projected field %q is not in the file", pf.Name)
		}
		c, err := br.newColumn(n, pf)
		if err != nil {
			return nil, err
		}
		br.cols = append(br.cols, c)
	}
	// A batch holds at most about three buffers per ORC column; keep two
	// batches' worth.
	pool.SetKeep(8 + 6*len(br.needed))
	return br, nil
}

// stripesEnd returns the index after the last of count stripes from first
// (count 0: to the end of the file), or an error when they are not all in
// the file.
func (f *File) stripesEnd(first, count int) (int, error) {
	ns := len(f.tail.footer.stripes)
	if first < 0 || count < 0 || first > ns || count > ns-first {
		return 0, fmt.Errorf("orc: stripes [%d, +%d) outside the file's %d", first, count, ns)
	}
	if count == 0 {
		return ns, nil
	}
	return first + count, nil
}

// SetStripes makes r read count stripes from first next (count 0: to the
// end of the file), leaving out the rows of skip as
// [BatchOptions.Skip] does, as a reader made by [File.NewBatchReader] with
// those options would, from the next call to Next on; the rest of the
// stripe being read is dropped. r keeps its columns, stream buffers and
// decompressor, so a reader moved from stripe to stripe allocates its
// state once (a caller that decodes stripes concurrently keeps one reader
// per goroutine). [BatchReader.SkipCounts] go on counting. It returns an
// error, and r then returns io.EOF, when the stripes are not all in the
// file or skip's ranges are not ascending and disjoint.
func (r *BatchReader) SetStripes(first, count int, skip []RowRange) error {
	if r.closed {
		return errors.New("orc: SetStripes on a closed BatchReader")
	}
	r.stripe, r.left, r.at, r.last, r.index, r.skip = r.end, 0, 0, 0, nil, nil
	end, err := r.f.stripesEnd(first, count)
	if err != nil {
		return err
	}
	if err := r.setSkip(BatchOptions{FirstStripe: first, Skip: skip, noSeek: r.noSeek}); err != nil {
		return err
	}
	r.stripe, r.end = first, end
	return nil
}

// childIndex maps the field names of nodes to them, the first node of each
// name when several share it, so that selecting k fields of a struct of n
// children costs O(n + k), not O(n·k): files have up to 2^20 columns.
func childIndex(nodes []*node) map[string]*node {
	m := make(map[string]*node, len(nodes))
	for _, n := range nodes {
		if _, dup := m[n.field.Name]; !dup {
			m[n.field.Name] = n
		}
	}
	return m
}

// Schema returns the Arrow schema of the batches.
func (r *BatchReader) Schema() *arrow.Schema { return r.schema }

// Next returns the next record batch, or io.EOF after the last one. The
// caller owns the batch and must Release it. Decoding errors match
// [ErrCorrupt] (a *[CorruptError] naming the stripe and column), or
// [ErrTooLarge] or [ErrUnsupportedCodec]; ctx's error is returned when it is
// done.
func (r *BatchReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if r.closed {
		return nil, errors.New("orc: Next on a closed BatchReader")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for {
		for r.left == 0 {
			if r.stripe >= r.end {
				return nil, io.EOF
			}
			if r.skipStripe(r.stripe) {
				r.stripe++
				continue
			}
			if err := r.loadStripe(r.stripe); err != nil {
				return nil, err
			}
			r.stripe++
		}
		if dropped, err := r.dropSkipped(); err != nil {
			return nil, err
		} else if !dropped {
			break
		}
	}
	n := r.untilSkip(int(min(int64(r.rows), r.left)))
	arrs := make([]arrow.Array, 0, len(r.cols))
	release := func() {
		for _, a := range arrs {
			a.Release()
		}
	}
	for _, c := range r.cols {
		d, err := c.next(n, nil)
		if err != nil {
			release()
			return nil, r.wrap(err)
		}
		arrs = append(arrs, array.MakeFromData(d))
		d.Release()
	}
	r.left -= int64(n)
	r.last = r.at
	r.at += int64(n)
	if err := r.checkStripeEnd(); err != nil {
		release()
		return nil, err
	}
	rec := array.NewRecordBatch(r.schema, arrs, int64(n))
	release()
	return rec, nil
}

func (r *BatchReader) wrap(err error) error {
	s := r.f.tail.footer.stripes[r.st.idx]
	var ce *CorruptError
	if errors.As(err, &ce) {
		return err
	}
	var re *readError
	if errors.As(err, &re) {
		return withFile(fmt.Errorf("orc: reading stripe %d: %w", r.st.idx, re.err), r.f.name)
	}
	if errors.Is(err, ErrUnsupported) {
		return withFile(fmt.Errorf("orc: stripe %d: %w", r.st.idx, err), r.f.name)
	}
	return &CorruptError{File: r.f.name, Offset: int64(s.offset), Section: fmt.Sprintf("stripe %d", r.st.idx), Err: err}
}

// Close releases the reader's buffers. It does not close the file's
// io.ReaderAt.
func (r *BatchReader) Close() error {
	r.closed = true
	r.pool.Close()
	r.cols = nil
	r.st = stripe{}
	for _, s := range r.bufs {
		s.release()
	}
	r.bufs = nil
	return nil
}

// stripe holds the streams of the needed columns of one stripe.
type stripe struct {
	idx       int
	streams   map[uint64]*stream
	encodings []columnEncoding
	loc       *time.Location
	decimal64 bool
}

func streamKey(col int, kind uint64) uint64 { return uint64(col)<<8 | kind }

// stream returns a stream and whether the stripe has it.
func (s *stripe) stream(col int, kind uint64) (*stream, bool) {
	b, ok := s.streams[streamKey(col, kind)]
	return b, ok
}

func (s *stripe) encoding(col int) uint64 {
	if col < len(s.encodings) {
		return s.encodings[col].kind
	}
	return encDirect
}

// loadStripe reads the stripe footer and the needed streams of stripe i
// (spec section "Stripes": index streams, then data streams, then the
// stripe footer).
func (r *BatchReader) loadStripe(i int) error {
	si := r.f.tail.footer.stripes[i]
	cerr := func(off uint64, section string, err error) error {
		return &CorruptError{File: r.f.name, Offset: int64(off), Section: fmt.Sprintf("stripe %d %s", i, section), Err: err}
	}
	footOff := si.offset + si.indexLength + si.dataLength
	raw := make([]byte, si.footerLength)
	if _, err := r.f.r.ReadAt(raw, int64(footOff)); err != nil && err != io.EOF {
		return withFile(fmt.Errorf("orc: reading stripe %d footer: %w", i, err), r.f.name)
	}
	fb, err := r.dec.decompress(nil, raw, int(r.f.limits.FooterBytes))
	if err != nil {
		return cerr(footOff, "footer", err)
	}
	sf, err := parseStripeFooter(fb)
	if err != nil {
		return cerr(footOff, "footer", err)
	}
	if len(sf.encodings) != len(r.f.tail.footer.types) {
		return cerr(footOff, "footer", fmt.Errorf("%d column encodings for %d columns", len(sf.encodings), len(r.f.tail.footer.types)))
	}
	st := stripe{idx: i, streams: map[uint64]*stream{}, encodings: sf.encodings, decimal64: r.f.tail.decimal64}
	tz := sf.timezone
	if tz == "" {
		tz = "UTC"
	}
	if st.loc = r.zones[tz]; st.loc == nil {
		loc, err := time.LoadLocation(tz)
		if err != nil {
			return cerr(footOff, "footer", fmt.Errorf("writer time zone %q: %w", tz, err))
		}
		r.zones[tz] = loc
		st.loc = loc
	}
	off := si.offset
	end := footOff
	for _, s := range sf.streams {
		if s.length > end-off {
			return cerr(footOff, "footer", fmt.Errorf("%s stream of column %d (%d bytes) beyond the stripe", streamName(s.kind), s.column, s.length))
		}
		soff := off
		off += s.length
		if !r.needed[int(min(s.column, 1<<31))] {
			continue
		}
		switch s.kind {
		case sPresent, sData, sLength, sDictionaryData, sSecondary:
		default:
			continue
		}
		key := streamKey(int(s.column), s.kind)
		sr := r.bufs[key]
		if sr == nil {
			sr = &stream{}
			r.bufs[key] = sr
		}
		// The stream's bytes are read window by window and decompressed
		// chunk by chunk as the column decoders need them.
		if int64(s.length) > r.f.limits.StreamBytes && r.dec.kind == compNone {
			return cerr(soff, fmt.Sprintf("column %d %s stream", s.column, streamName(s.kind)),
				fmt.Errorf("%w: %d bytes above %d", ErrTooLarge, s.length, r.f.limits.StreamBytes))
		}
		sr.reset(r.dec, r.f.r, s.kind, int64(soff), int(s.length), int(min(r.f.limits.StreamBytes, 1<<62)))
		st.streams[key] = sr
	}
	r.st = st
	for _, c := range r.cols {
		if err := c.reset(&r.st); err != nil {
			return r.wrap(err)
		}
	}
	r.left = int64(min(si.numberOfRows, 1<<62))
	return r.loadIndex(i, sf)
}
