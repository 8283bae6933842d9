package reader

import (
	"context"
	"errors"
	"io"
	"sync/atomic"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/formats/parquet"
	"github.com/lakecat/lakecat/internal/osfile"
	"github.com/lakecat/lakecat/internal/recycle"
	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/schema"
)

// DefaultBatchRows is the number of rows per record batch when
// [Options.BatchRows] is 0.
const DefaultBatchRows = 64 * 1024

// Options configure reading one data file.
type Options struct {
	// Name names the file in errors (a path or URL). Optional.
	Name string
	// ReadSchema is the schema the batches come out in, usually the table's
	// current schema. Nil means the file's own schema (fields without ids get
	// fresh ones).
	ReadSchema *schema.Schema
	// WriterSchema is the schema the file was written with, for files whose
	// columns are located by name: Paimon (schema-N of the file's schema id),
	// Hudi, or an Iceberg schema for a file without ids. See
	// [ResolveFileSchema].
	WriterSchema *schema.Schema
	// NameMapping assigns ids to a file written without ids (Iceberg
	// schema.name-mapping.default).
	NameMapping schema.NameMapping
	// Rules are the type promotions the table format allows. The zero value
	// is Iceberg format v1/v2.
	Rules project.Rules
	// Constants fill fields the file lacks by field id (identity-partition
	// values, metadata columns), in the Go forms of [schema.Field]. The
	// top-level read field _pos with id PosFieldID needs none: it is filled
	// with each row's position in the file.
	Constants map[int]any
	// PosFieldID is the field id of the _pos metadata column in ReadSchema
	// (0: [FieldIDPos]); [OpenTable] sets it to an id the table does not
	// use.
	PosFieldID int
	// DeletedFieldID is the field id of the _deleted metadata column in
	// ReadSchema (0: [FieldIDDeleted]): a top-level boolean read field
	// _deleted with that id is false for every row, and true for the rows
	// a task's deletes delete, which are then kept.
	DeletedFieldID int
	// BatchRows is the number of rows per batch (0: [DefaultBatchRows]).
	BatchRows int
	// Allocator allocates every Arrow buffer (nil: memory.DefaultAllocator).
	Allocator memory.Allocator
	// Limits cap the sizes the decoders accept from the file (zero: the
	// decoders' defaults).
	Limits Limits
	// Filter keeps only the rows it selects (nil: every row). It is bound
	// to the read schema by field id ([expr.Bind]); a Parquet file's row
	// groups whose statistics, or whose constants for the fields the file
	// lacks, rule every row out are not decoded, nor are an ORC file's
	// stripes ruled out so by their stripe statistics; an ORC stripe's row
	// groups ruled out by the row index or bloom filters are decoded and
	// dropped. The rows of the rest are filtered exactly (the residual
	// filter, applied last). Binding
	// errors are [expr.ErrUnknownColumn] and [expr.ErrType].
	Filter expr.Expr
	// Stats, when set, counts the row groups and rows read and skipped; it
	// may be shared by the files of a scan.
	Stats *ScanStats

	// Workers is the number of row groups (Parquet) or stripes (ORC) of
	// the file decoded at once (0 or 1: one after another). Batches come
	// out in file order either way; with Workers > 1 a batch never spans
	// two row groups. The io.ReaderAt must allow concurrent ReadAt calls
	// (its contract does).
	Workers int
	// MemoryBytes bounds the bytes of decoded batches that row groups
	// ahead of the one being read hold when Workers > 1 (0:
	// [DefaultQueueBytes]); the batches of the row group being read and
	// one batch per worker come on top.
	MemoryBytes int64

	// Dictionary returns every top-level string and binary column of the
	// read schema as an Arrow dictionary array (int32 indices over the
	// column's string or binary values; [DictionarySchema]) in every
	// batch, whatever the file's encoding: each batch's dictionary holds
	// that batch's distinct values, in order of first appearance, so it
	// may differ from batch to batch (an Arrow IPC stream writes a
	// dictionary replacement). The encoding is applied to the batches as
	// they come out, after projection, deletes, the filter and merges:
	// rows and values are those of a read without it, and a column filled
	// with nulls or an initial-default is a dictionary array too. Strings
	// nested in lists, maps and structs stay plain. The tasks of one
	// [ScanFiles] must all set it or all leave it (the scan's schema
	// follows the first task's).
	Dictionary bool

	// firstRowGroup and rowGroups select a range of a Parquet file's row
	// groups (rowGroups 0: the whole file), set by [ReadTask]; with
	// stripes, a range of an ORC file's stripes (table.Task.FirstStripe
	// and Stripes).
	firstRowGroup, rowGroups int
	stripes                  bool
	// format is the file's format as its table names it ("PARQUET",
	// "ORC", "AVRO"), or "": a file in none of them is then corrupt
	// ([ErrNotItsFormat]), set by [ReadTask].
	format string
	// deletes are the task's delete files to apply, set by [ReadTask].
	deletes *taskDeletes
	// hudi is the Hudi file slice to merge onto the file, set by
	// [ReadTask] (hudi_merge.go).
	hudi *hudiRead
	// open, when set, reads a task of several files (a merge) instead of
	// the one file; openSize is their total size.
	open     func(ctx context.Context) (array.RecordReader, error)
	openSize int64
}

// Open reads the data file r of size bytes (Parquet, ORC or Avro, detected by its
// magic bytes) in opts.ReadSchema. The plan is built before anything is
// decoded, so a missing required field or an incompatible type fails here
// ([project.ErrRequiredFieldMissing], [project.ErrIncompatibleType]); so do a
// file that is not Parquet, ORC or Avro ([ErrUnknownFormat]; one of them
// whose leading magic is damaged: [ErrBadMagic]), a corrupt footer
// (the format package's ErrCorrupt) and a file without ids that nothing
// resolves ([ErrNoFieldIDs]). Every error names the file.
//
// The returned reader yields batches of at most opts.BatchRows rows in the
// read schema's Arrow form ([schema.ToArrowSchema]); ctx is checked between
// batches. Release it when done.
func Open(ctx context.Context, r io.ReaderAt, size int64, opts Options) (array.RecordReader, error) {
	if opts.Dictionary {
		opts.Dictionary = false
		rr, err := Open(ctx, r, size, opts)
		if err != nil {
			return nil, err
		}
		return newDictReader(rr, opts.Allocator), nil
	}
	if opts.hudi != nil {
		// Its errors name the base or log file they come from.
		m, err := openHudiMerge(ctx, r, size, opts)
		if err != nil {
			return nil, err
		}
		return m, nil
	}
	rr, err := open(ctx, r, size, opts)
	if err != nil {
		return nil, withFile(opts.Name, err)
	}
	return rr, nil
}

// OpenFile is [Open] on a local file; the file is closed when the reader is
// released. opts.Name defaults to path.
func OpenFile(ctx context.Context, path string, opts Options) (array.RecordReader, error) {
	if opts.Name == "" {
		opts.Name = path
	}
	f, size, err := osfile.Open(path)
	if err != nil {
		return nil, err
	}
	rr, err := Open(ctx, f, size, opts)
	if err != nil {
		f.Close()
		return nil, err
	}
	setCloser(rr, f)
	return rr, nil
}

// setCloser makes the reader Open returned close c once released.
func setCloser(rr array.RecordReader, c io.Closer) {
	switch x := unwrapDict(rr).(type) {
	case *fileReader:
		x.closer = c
	case *hudiMerge:
		x.closer = c
	}
}

// Plan returns the projection plan Open would use for the file, without
// decoding anything: for `lakecat plan` and for callers that want to explain
// a read. The caller releases the plan.
func Plan(r io.ReaderAt, size int64, opts Options) (*project.Plan, error) {
	dec, _, err := openDecoder(r, size, opts)
	if err != nil {
		return nil, withFile(opts.Name, err)
	}
	p, err := plan(dec, opts)
	if err != nil {
		return nil, withFile(opts.Name, err)
	}
	return p, nil
}

// FileSchema returns the schema of the data file r as stored (ids from the
// file, [schema.NoID] where it has none) and its format.
func FileSchema(r io.ReaderAt, size int64) (*schema.Schema, Format, error) {
	dec, f, err := openDecoder(r, size, Options{})
	if err != nil {
		return nil, f, err
	}
	return dec.Schema(), f, nil
}

func plan(dec decoder, opts Options) (*project.Plan, error) {
	file := dec.Schema()
	read := opts.ReadSchema
	var resolved *schema.Schema
	if read == nil && opts.WriterSchema == nil && opts.NameMapping == nil {
		resolved = SelfDescribed(file)
		read = resolved
	} else {
		var err error
		if resolved, err = ResolveFileSchema(file, opts.WriterSchema, opts.NameMapping); err != nil {
			return nil, err
		}
		if _, pq := dec.(parquetDecoder); pq && opts.WriterSchema != nil && opts.Rules.SameFormat(project.Paimon) {
			alignInstants(resolved.Fields, opts.WriterSchema)
		}
		if read == nil {
			read = SelfDescribed(resolved)
		}
	}
	return project.NewPlan(resolved, read, project.Options{FileName: opts.Name, Rules: opts.Rules,
		Constants: withDeletedConstant(read, withPosConstant(read, opts.Constants, opts.posFieldID()), opts.deletedFieldID())})
}

func open(ctx context.Context, r io.ReaderAt, size int64, opts Options) (*fileReader, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dec, _, err := openDecoder(r, size, opts)
	if err != nil {
		return nil, err
	}
	rr, err := newFileReader(ctx, dec, opts)
	if err == nil && rr.filter != nil {
		// A file whose footer rules out every row (the columns it lacks,
		// every row group's statistics) counts as skipped, as
		// [Table.Prune] reports it.
		switch src := rr.src.(type) {
		case emptySource:
			opts.Stats.add(filesSkipped, 1)
			opts.Stats.add(bytesSkippedFiles, size)
		case *stripesSource:
			if len(src.kept) == 0 {
				opts.Stats.add(filesSkipped, 1)
			} else {
				opts.Stats.add(filesRead, 1)
			}
		case *rowGroupsSource:
			if len(src.kept) == 0 {
				opts.Stats.add(filesSkipped, 1)
			} else {
				opts.Stats.add(filesRead, 1)
			}
		default:
			opts.Stats.add(filesRead, 1)
		}
	}
	return rr, err
}

// newFileReader plans the read of dec in opts.ReadSchema, loads the deletes
// of opts (reading the delete files) and returns the reader.
func newFileReader(ctx context.Context, dec decoder, opts Options) (*fileReader, error) {
	read := opts.ReadSchema
	if opts.deletes != nil && read != nil && opts.deletes.hasEquality() {
		// Key columns the read does not select are read too, and
		// dropped once the keys are probed.
		opts.ReadSchema = withKeyColumns(read, opts.deletes.keys)
	}
	if err := checkRange(dec, opts); err != nil {
		return nil, err
	}
	p, err := plan(dec, opts)
	if err != nil {
		return nil, err
	}
	out := p.ArrowSchema()
	if opts.ReadSchema != read {
		out = arrow.NewSchema(out.Fields()[:len(read.Fields)], nil)
	}
	var del *fileDeletes
	if opts.deletes != nil {
		if del, err = opts.deletes.load(ctx, dec.NumRows(), opts.Allocator); err != nil {
			p.Release()
			return nil, err
		}
		del.keep, del.deleted = out.NumFields(), deletedIndex(read, opts.deletedFieldID())
		if err := del.keyColumns(opts.ReadSchema); err != nil {
			p.Release()
			return nil, err
		}
	}
	mem := opts.Allocator
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	n := opts.BatchRows
	if n <= 0 {
		n = DefaultBatchRows
	}
	if del != nil {
		// The survivors of each batch are copied into buffers of the
		// batches already released: the scan's pool, or the file's own
		// (three per column, validity, values or offsets and string
		// bytes, of the four batches a file being read holds at once).
		if c := opts.deletes.cache; c != nil && c.pool != nil {
			del.pool = c.pool
		} else {
			del.pool, del.ownPool = recycle.New(mem, 4*3*out.NumFields()), true
		}
	}
	filter, err := bindFilter(opts.Filter, p.ReadSchema())
	if err != nil {
		del.close()
		p.Release()
		return nil, err
	}
	var src batchSource
	var before int64
	if opts.Workers > 1 {
		src = parallelGroups(ctx, dec, p, filter, opts, n, mem)
	}
	var skip *roaring64.Bitmap // rows the decoder leaves out
	if src == nil {
		skip = decoderSkip(dec, del)
	}
	if src != nil {
		// Row groups or stripes decoded by opts.Workers goroutines.
	} else if pd, ok := dec.(parquetDecoder); ok && filter != nil {
		g := newRowGroupFilter(pd.File, filter, p.FileSchema(), p.ReadSchema(), opts.Constants, opts.posFieldID())
		kept, err := g.keptRowGroups(opts.firstRowGroup, opts.rowGroups, opts.Stats)
		if err != nil {
			del.close()
			p.Release()
			return nil, err
		}
		rs := &rowGroupsSource{file: pd.File, proj: p.FileProjection(), n: n, mem: mem, skip: skip, kept: kept}
		if err := rs.withPageSkips(g, opts.Stats); err != nil {
			del.close()
			p.Release()
			return nil, err
		}
		src = rs
	} else if od, ok := dec.(orcDecoder); ok && filter != nil && stripeRangeValid(od.File, opts) {
		src = newOrcFilteredSource(od.File, filter, p, opts, n, mem)
	} else if pd, ok := dec.(parquetDecoder); ok && skip != nil {
		var br *parquet.BatchReader
		br, err = pd.NewBatchReader(p.FileProjection(), parquet.BatchOptions{BatchRows: n, Allocator: mem,
			FirstRowGroup: opts.firstRowGroup, RowGroups: opts.rowGroups, Skip: skip})
		if err == nil {
			src = skipReader{br}
		}
	} else if filter != nil && !lackingMayMatch(filter, dec, p, opts) {
		// Avro: the columns the file lacks rule it out.
		src = emptySource{}
		opts.Stats.add(rowGroupsSkipped, 1)
	} else if opts.firstRowGroup > 0 || opts.rowGroups > 0 {
		rd, ok := dec.(rowGroupDecoder)
		if !ok {
			del.close()
			p.Release()
			return nil, ErrRowGroupRange
		}
		src, before, err = rd.rowGroupBatches(p.FileProjection(), n, mem, opts.firstRowGroup, opts.rowGroups)
	} else {
		src, err = dec.batches(p.FileProjection(), n, mem)
	}
	if err != nil {
		del.close()
		p.Release()
		return nil, err
	}
	if _, ok := dec.(avroDecoder); ok && filter != nil {
		if _, empty := src.(emptySource); !empty {
			opts.Stats.add(rowGroupsRead, 1)
		}
	}
	if skip != nil {
		del.inDecoder = true
	}
	return &fileReader{refs: 1, ctx: ctx, name: opts.Name, plan: p, src: src, mem: mem, schema: out, pos: posIndex(read, opts.posFieldID()), rows: before, del: del, skipped: skip != nil, filter: filter, stats: opts.Stats,
		decode: func() int64 { return decodeBytes(dec, p.FileProjection(), opts.firstRowGroup, opts.rowGroups, n) }}, nil
}

// fileReader is the array.RecordReader over one data file.
type fileReader struct {
	refs   int64
	ctx    context.Context
	name   string
	plan   *project.Plan
	src    batchSource
	mem    memory.Allocator
	schema *arrow.Schema
	cur    arrow.RecordBatch
	err    error
	done   bool
	rows   int64        // rows returned so far: the file row of the next batch's first
	pos    int          // index of the _pos metadata column, or -1
	del    *fileDeletes // the deletes applied, or nil
	// skipped: the decoder leaves the position-deleted rows out (src is
	// a [skipSource]); counted is its rowsDone counted in the stats so far.
	skipped bool
	counted int64
	closer  io.Closer
	filter  *expr.Bound // the residual filter, or nil
	stats   *ScanStats
	decode  func() int64 // the decode state expected, in bytes ([decodeBytes])
}

func (r *fileReader) Retain() { atomic.AddInt64(&r.refs, 1) }

func (r *fileReader) Release() {
	if atomic.AddInt64(&r.refs, -1) != 0 {
		return
	}
	r.releaseCur()
	if r.src != nil {
		r.src.Close()
		r.src = nil
	}
	if r.plan != nil {
		r.plan.Release()
		r.plan = nil
	}
	r.del.close()
	if r.closer != nil {
		r.closer.Close()
		r.closer = nil
	}
}

func (r *fileReader) releaseCur() {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
}

func (r *fileReader) Schema() *arrow.Schema { return r.schema }

// Next decodes and aligns the next batch, releasing the previous one. It
// returns false at the end, on error and when the context is done; Err tells
// which.
func (r *fileReader) Next() bool {
	r.releaseCur()
	if r.done || r.err != nil {
		return false
	}
	for {
		if err := r.ctx.Err(); err != nil {
			r.err = err
			return false
		}
		b, err := r.src.Next(r.ctx)
		if r.skipped {
			// Rows read, the deleted ones the decoder stepped over
			// included.
			done := r.src.(skipSource).rowsDone()
			r.stats.add(rowsRead, done-r.counted)
			r.counted = done
		}
		if errors.Is(err, io.EOF) {
			r.done = true
			return false
		}
		if err != nil {
			r.err = withFile(r.name, err)
			return false
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		var rows []parquet.RowRange
		if r.skipped {
			rows = r.src.(skipSource).lastRows()
			r.rows = rows[0].Start
		} else {
			if ps, ok := r.src.(positioned); ok {
				r.rows = ps.batchStart()
			}
			r.stats.add(rowsRead, b.NumRows())
		}
		out, err := r.plan.Apply(b, r.mem)
		n := b.NumRows()
		b.Release()
		if err != nil {
			var ve *project.ValueError
			if errors.As(err, &ve) {
				// Apply counts rows from the batch's first.
				if r.skipped {
					ve.Row = rowAt(rows, ve.Row)
				} else {
					ve.Row += r.rows
				}
			}
			r.err = withFile(r.name, err)
			return false
		}
		if r.pos >= 0 {
			if r.skipped {
				out = setRangePositions(out, r.pos, rows, r.mem)
			} else {
				out = setPositions(out, r.pos, r.rows, r.mem)
			}
		}
		first := r.rows
		r.rows += n
		if r.del != nil {
			// Deletes first: the residual filter sees only live rows.
			if out, err = r.del.apply(r.ctx, out, first, r.schema, r.mem); err != nil {
				r.err = withFile(r.name, err)
				return false
			}
			if out == nil {
				continue // every row deleted
			}
		}
		if r.filter != nil {
			if out, err = applyFilter(r.ctx, r.filter, out, r.mem, r.stats); err != nil {
				r.err = withFile(r.name, err)
				return false
			}
			if out == nil {
				continue // no row selected
			}
		}
		r.cur = out
		return true
	}
}

func (r *fileReader) RecordBatch() arrow.RecordBatch { return r.cur }

// Record is RecordBatch (the deprecated name of array.RecordReader).
func (r *fileReader) Record() arrow.RecordBatch { return r.cur }

func (r *fileReader) Err() error { return r.err }

// withFile names the file in err, unless the plan's error already does.
func withFile(name string, err error) error {
	var fe *project.FieldError
	var ve *project.ValueError
	if (errors.As(err, &fe) && fe.File != "") || (errors.As(err, &ve) && ve.File != "") {
		return err
	}
	return pathError(fileLabel(name), err)
}
