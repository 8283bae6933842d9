package reader

import (
	"context"
	"fmt"
	"io"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/merge"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/paimon"
)

// mergeSchema returns the schema the files of a merge task are read in:
// the task's read schema, then the key, sequence and aggregated fields it
// lacks (from the merge's full schema), then _SEQUENCE_NUMBER and
// _VALUE_KIND.
func mergeSchema(task table.Task) (*schema.Schema, error) {
	m := task.Merge
	out := &schema.Schema{ID: task.ReadSchema.ID, Fields: append([]*schema.Field(nil), task.ReadSchema.Fields...)}
	have := map[int]bool{}
	for _, f := range out.Fields {
		have[f.ID] = true
	}
	need := append(append([]int(nil), m.Spec.KeyIDs...), m.Spec.SequenceIDs...)
	for _, g := range m.Spec.SequenceGroups {
		need = append(append(need, g.SequenceIDs...), g.FieldIDs...)
	}
	for _, id := range need {
		if have[id] {
			continue
		}
		var f *schema.Field
		if m.Schema != nil {
			f = findTopByID(m.Schema.Fields, id)
		}
		if f == nil {
			return nil, fmt.Errorf("%s: %w: merge field id %d is not in the table schema", task.Path, ErrInvalidOption, id)
		}
		out.Fields = append(out.Fields, f)
		have[id] = true
	}
	for _, id := range []int{m.Spec.SequenceNumberID, m.Spec.ValueKindID} {
		if have[id] {
			return nil, fmt.Errorf("%s: %w: system field id %d is also a read field", task.Path, ErrInvalidOption, id)
		}
	}
	out.Fields = append(out.Fields,
		&schema.Field{ID: m.Spec.SequenceNumberID, Name: "_SEQUENCE_NUMBER", Type: schema.Long, Required: true},
		&schema.Field{ID: m.Spec.ValueKindID, Name: "_VALUE_KIND", Type: schema.TinyInt, Required: true})
	return out, nil
}

func findTopByID(fs []*schema.Field, id int) *schema.Field {
	for _, f := range fs {
		if f.ID == id {
			return f
		}
	}
	return nil
}

// mergeSpec turns the task's spec, by field id, into merge.Spec's column
// indices in the merge schema ms.
func mergeSpecOf(task table.Task, ms *schema.Schema) (merge.Spec, error) {
	idx := make(map[int]int, len(ms.Fields))
	for i, f := range ms.Fields {
		idx[f.ID] = i
	}
	cols := func(ids []int) ([]int, error) {
		out := make([]int, len(ids))
		for i, id := range ids {
			c, ok := idx[id]
			if !ok {
				return nil, fmt.Errorf("%s: %w: merge field id %d is not read", task.Path, ErrInvalidOption, id)
			}
			out[i] = c
		}
		return out, nil
	}
	sp := task.Merge.Spec
	out := merge.Spec{Engine: merge.Engine(sp.Engine), IgnoreDelete: sp.IgnoreDelete, RemoveRecordOnDelete: sp.RemoveRecordOnDelete,
		SequenceNumber: idx[sp.SequenceNumberID], ValueKind: idx[sp.ValueKindID]}
	var err error
	if out.Keys, err = cols(sp.KeyIDs); err != nil {
		return out, err
	}
	if out.Sequence, err = cols(sp.SequenceIDs); err != nil {
		return out, err
	}
	for _, g := range sp.SequenceGroups {
		var mg merge.SequenceGroup
		if mg.Sequence, err = cols(g.SequenceIDs); err != nil {
			return out, err
		}
		if mg.Fields, err = cols(g.FieldIDs); err != nil {
			return out, err
		}
		out.SequenceGroups = append(out.SequenceGroups, mg)
	}
	for _, a := range sp.Aggregates {
		c, ok := idx[a.FieldID]
		if !ok {
			continue // a field not read needs no aggregate
		}
		if out.Aggregates == nil {
			out.Aggregates = map[int]merge.Aggregate{}
		}
		out.Aggregates[c] = merge.Aggregate{Function: a.Function, Delimiter: a.Delimiter, IgnoreRetract: a.IgnoreRetract}
	}
	if a := sp.DefaultAggregate; a != nil {
		out.DefaultAggregate = merge.Aggregate{Function: a.Function, Delimiter: a.Delimiter, IgnoreRetract: a.IgnoreRetract}
	}
	return out, nil
}

// fileRun is a sorted run of data files read one after another.
type fileRun struct {
	ctx   context.Context
	fsys  storage.FS
	files []table.MergeFile
	next  int
	opts  Options
	cur   array.RecordReader
	name  string
	// stats, when not nil (a filtered scan), counts each file opened as
	// read whole: a merge section is never pruned file by file.
	stats *ScanStats
}

func (r *fileRun) Name() string { return r.name }

func (r *fileRun) Next() (arrow.RecordBatch, error) {
	for {
		if r.cur == nil {
			if r.next >= len(r.files) {
				return nil, io.EOF
			}
			f := r.files[r.next]
			r.next++
			r.name = f.Path
			file, err := r.fsys.Open(r.ctx, f.Path)
			if err != nil {
				return nil, pathError(f.Path, err)
			}
			o := r.opts
			o.Name, o.WriterSchema, o.format = f.Path, f.FileSchema, f.Format
			dec, _, err := openDecoder(file, file.Size(), o)
			if err != nil {
				file.Close()
				return nil, withFile(f.Path, err)
			}
			rr, err := newFileReader(r.ctx, dec, o)
			if err != nil {
				file.Close()
				return nil, withFile(f.Path, err)
			}
			if r.stats != nil {
				r.stats.add(filesRead, 1)
				r.stats.add(rowGroupsRead, int64(decoderRowGroups(dec)))
			}
			rr.closer = file
			r.cur = rr
		}
		if r.cur.Next() {
			rec := r.cur.RecordBatch()
			rec.Retain()
			if r.stats != nil {
				r.stats.add(rowsRead, rec.NumRows()) // decoded, before the merge
			}
			return rec, nil
		}
		err := r.cur.Err()
		r.cur.Release()
		r.cur = nil
		if err != nil {
			return nil, err
		}
	}
}

func (r *fileRun) Close() error {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	return nil
}

// openMerge reads a merge task (task.Merge): each sorted run's files in
// turn, aligned by field id to the merge schema, merged by the task's
// spec, narrowed to task.ReadSchema; the filter applies to merged rows.
//
// memoryBytes (TaskOptions.MemoryBytes, 0: none) bounds the source batches
// the merge holds ([merge.Options.MemoryBytes]); each run of several also
// decodes one batch ahead, not counted.
func openMerge(ctx context.Context, fsys storage.FS, task table.Task, base Options, filter expr.Expr, stats *ScanStats, memoryBytes int64) (array.RecordReader, error) {
	ms, err := mergeSchema(task)
	if err != nil {
		return nil, err
	}
	spec, err := mergeSpecOf(task, ms)
	if err != nil {
		return nil, err
	}
	mem := base.Allocator
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	o := Options{ReadSchema: ms, Rules: base.Rules, Constants: base.Constants, BatchRows: base.BatchRows, Allocator: mem, Limits: base.Limits,
		PosFieldID: task.PosFieldID, DeletedFieldID: task.DeletedFieldID}
	var runs []merge.Run
	for _, run := range task.Merge.Runs {
		if len(run.Files) == 0 {
			continue
		}
		fr := &fileRun{ctx: ctx, fsys: fsys, files: run.Files, opts: o, name: run.Files[0].Path}
		if filter != nil {
			fr.stats = stats
		}
		if len(task.Merge.Runs) > 1 {
			runs = append(runs, newPrefetchRun(fr))
		} else {
			runs = append(runs, fr)
		}
	}
	batch := base.BatchRows
	if batch <= 0 {
		batch = DefaultBatchRows
	}
	m, err := merge.NewReader(schema.ToArrowSchema(ms), runs, spec, merge.Options{BatchRows: batch, Allocator: mem, MemoryBytes: memoryBytes})
	if err != nil {
		return nil, pathError(task.Path, err)
	}
	out := &mergedReader{refs: 1, ctx: ctx, m: m, n: len(task.ReadSchema.Fields), schema: schema.ToArrowSchema(task.ReadSchema), mem: mem, stats: stats}
	if filter != nil {
		if out.filter, err = bindFilter(filter, task.ReadSchema); err != nil {
			m.Release()
			return nil, fmt.Errorf("%s: filter: %w", task.Path, err)
		}
	}
	return out, nil
}

// mergedReader narrows merged batches to the read schema's columns and
// applies the residual filter.
type mergedReader struct {
	refs   int64
	ctx    context.Context
	m      *merge.Reader
	n      int
	schema *arrow.Schema
	mem    memory.Allocator
	filter *expr.Bound
	stats  *ScanStats
	cur    arrow.RecordBatch
	err    error
}

func (r *mergedReader) Schema() *arrow.Schema { return r.schema }

func (r *mergedReader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	for r.err == nil && r.m.Next() {
		rec := r.m.RecordBatch()
		out := array.NewRecordBatch(r.schema, rec.Columns()[:r.n], rec.NumRows())
		if r.filter != nil {
			var err error
			if out, err = applyFilter(r.ctx, r.filter, out, r.mem, r.stats); err != nil {
				r.err = err
				return false
			}
			if out == nil {
				continue
			}
		}
		r.cur = out
		return true
	}
	if r.err == nil {
		r.err = r.m.Err()
	}
	return false
}

func (r *mergedReader) RecordBatch() arrow.RecordBatch { return r.cur }
func (r *mergedReader) Record() arrow.RecordBatch      { return r.cur }
func (r *mergedReader) Err() error                     { return r.err }
func (r *mergedReader) Retain()                        { r.refs++ }
func (r *mergedReader) Release() {
	r.refs--
	if r.refs != 0 {
		return
	}
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	r.m.Release()
}

// readPaimonDeletionVector reads a Paimon deletion vector (its index file
// f.Path, at f.ContentOffset, f.ContentSizeBytes long) as positions.
func readPaimonDeletionVector(ctx context.Context, fsys storage.FS, f table.DeleteFile) (*roaring64.Bitmap, error) {
	file, err := fsys.Open(ctx, f.Path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	bm, err := paimon.ReadDeletionVector(file, file.Size(), f.Path, f.ContentOffset, f.ContentSizeBytes)
	if err != nil {
		return nil, err
	}
	out := roaring64.New()
	it := bm.Iterator()
	for it.HasNext() {
		out.Add(uint64(it.Next()))
	}
	return out, nil
}

// prefetchRun decodes a run's next batch on its own goroutine while the
// merge works on the current one, so the runs of a section decode in
// parallel. It holds at most one decoded batch waiting (the channel is
// unbuffered): with the merge's, two batches per run.
type prefetchRun struct {
	name string
	ch   chan prefetched
	stop chan struct{}
	done chan struct{}
}

type prefetched struct {
	rec  arrow.RecordBatch
	err  error
	name string
}

func newPrefetchRun(r *fileRun) *prefetchRun {
	p := &prefetchRun{name: r.name, ch: make(chan prefetched), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		defer close(p.ch)
		defer r.Close()
		for {
			rec, err := r.Next()
			select {
			case p.ch <- prefetched{rec, err, r.Name()}:
			case <-p.stop:
				if rec != nil {
					rec.Release()
				}
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return p
}

func (p *prefetchRun) Name() string { return p.name }

func (p *prefetchRun) Next() (arrow.RecordBatch, error) {
	it, ok := <-p.ch
	if !ok {
		return nil, io.EOF
	}
	p.name = it.name
	return it.rec, it.err
}

func (p *prefetchRun) Close() error {
	select {
	case <-p.stop:
	default:
		close(p.stop)
	}
	for it := range p.ch {
		if it.rec != nil {
			it.rec.Release()
		}
	}
	<-p.done
	return nil
}

// decoderRowGroups returns the row groups of a Parquet file, 1 for an ORC
// or Avro file (read or skipped whole, as [ScanStats] count them).
func decoderRowGroups(dec decoder) int {
	if pd, ok := dec.(parquetDecoder); ok {
		return pd.NumRowGroups()
	}
	return 1
}
