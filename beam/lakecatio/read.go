package lakecatio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/util"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/formats/orc"
	"github.com/lakecat/lakecat/formats/parquet"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	tableopen "github.com/lakecat/lakecat/table/open"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*taskElement)(nil)).Elem())
	register.DoFn3x1[context.Context, []byte, func([]byte), error](&unitsFn{})
	register.DoFn3x1[context.Context, []byte, func(taskElement), error](&planFn{})
	register.DoFn3x1[context.Context, taskElement, func(taskElement), error](&describeFn{})
	register.DoFn4x2[context.Context, *sdf.LockRTracker, taskElement, func([]byte), sdf.ProcessContinuation, error](&readFn{})
	register.Emitter1[taskElement]()
	register.Emitter1[[]byte]()
}

// The counters of a read (namespace "lakecat").
var (
	filesCounter       = beam.NewCounter("lakecat", "files")
	rowGroupsCounter   = beam.NewCounter("lakecat", "row_groups")
	rowsCounter        = beam.NewCounter("lakecat", "rows")
	rowsDecodedCounter = beam.NewCounter("lakecat", "rows_decoded")
	bytesCounter       = beam.NewCounter("lakecat", "bytes")
	rowsDeletedCounter = beam.NewCounter("lakecat", "rows_deleted")
	retriesCounter     = beam.NewCounter("lakecat", "retries")
	restrictCounter    = beam.NewCounter("lakecat", "restrictions")
	unitsCounter       = beam.NewCounter("lakecat", "planning_units")
)

// Read reads the table at location (a folder or object-store URL, or an
// Iceberg metadata file, as `lakecat cat` takes it) and returns a
// PCollection of []byte: Arrow record batches in the read schema, each
// element one Arrow IPC stream holding the schema and one record batch.
// Decode one with ipc.NewReader(bytes.NewReader(b)).
//
// The rows are those of `lakecat cat` with the same options, in no
// particular order. Planning happens when the pipeline runs, in two
// steps: one worker splits it into planning units (table.Scan.Units: for
// Iceberg, the manifest list read and pruned by the filter, one unit per
// run of data manifests of about [PlanUnitBytes]; a Paimon or Hudi table
// is one unit), which are reshuffled, and workers plan each unit's tasks
// (table/open.UnitTasks), which are reshuffled in turn. An error in either
// step (a table that cannot be opened, a Paimon primary-key table or a
// Hudi table with log files that lakecat refuses, a filter naming no
// column) fails the pipeline with the reader's error.
func Read(s beam.Scope, location string, opts ...Option) beam.PCollection {
	s = s.Scope("lakecatio.Read")
	cfg := newConfig(location, opts)
	units := beam.ParDo(s, &unitsFn{Config: cfg}, beam.Impulse(s))
	units = beam.Reshuffle(s, units)
	tasks := beam.ParDo(s, &planFn{Config: cfg}, units)
	tasks = beam.Reshuffle(s, tasks)
	described := beam.ParDo(s, &describeFn{Config: cfg}, tasks)
	return beam.ParDo(s, &readFn{Config: cfg}, described)
}

// taskElement is one planned task on its way to a worker.
type taskElement struct {
	// Task is the table.Task in its JSON encoding.
	Task []byte
	// Keep lists the read schema's top-level columns that are output, by
	// index (nil: all): a filter may read columns that are not returned.
	Keep []int
	// First is the index of the task's first unit (row group); UnitBytes
	// and UnitRows the compressed bytes and rows of each of its units, set
	// by describeFn (nil before).
	First     int64
	UnitBytes []int64
	UnitRows  []int64
}

// scanOptions returns the table scan options of a read of cfg. No footer
// is read at planning: each task is a whole file, which the workers cut at
// row groups or stripes (readFn.SplitRestriction).
func scanOptions(cfg config) (table.ScanOptions, error) {
	o := table.ScanOptions{SnapshotID: cfg.SnapshotID, Columns: cfg.Columns, IgnoreDeletes: cfg.IgnoreDeletes, SplitBytes: -1, UnitBytes: cfg.UnitBytes}
	if cfg.Where != "" {
		f, err := expr.Parse(cfg.Where)
		if err != nil {
			return o, fmt.Errorf("lakecatio: table %s: filter: %w", cfg.Table, err)
		}
		o.Filter = f
	}
	return o, nil
}

// unitsFn splits the planning of the read into units: one element per
// table.Unit, in its JSON encoding.
type unitsFn struct {
	Config config
}

func (fn *unitsFn) ProcessElement(ctx context.Context, _ []byte, emit func([]byte)) error {
	fsys, loc, err := openFS(fn.Config)
	if err != nil {
		return err
	}
	o, err := scanOptions(fn.Config)
	if err != nil {
		return err
	}
	tbl, err := tableopen.Open(ctx, fsys, loc)
	if err != nil {
		return err
	}
	units, err := tbl.NewScan(o).Units(ctx)
	if err != nil {
		return err
	}
	for _, u := range units {
		b, err := json.Marshal(u)
		if err != nil {
			return err
		}
		emit(b)
	}
	return nil
}

// planFn plans the tasks of one planning unit: one element per task.
type planFn struct {
	Config config
}

func (fn *planFn) ProcessElement(ctx context.Context, b []byte, emit func(taskElement)) error {
	var u table.Unit
	if err := json.Unmarshal(b, &u); err != nil {
		return fmt.Errorf("lakecatio: table %s: %w", fn.Config.Table, err)
	}
	unitsCounter.Inc(ctx, 1)
	if u.OutputSchema == nil {
		return fn.planWhole(ctx, emit)
	}
	fsys, _, err := openFS(fn.Config)
	if err != nil {
		return err
	}
	var keep []int
	first := true
	for task, err := range tableopen.UnitTasks(ctx, fsys, u, nil) {
		if err != nil {
			return err
		}
		if first {
			if keep, err = keptColumns(task.ReadSchema.Fields, u.OutputSchema.Fields); err != nil {
				return fmt.Errorf("lakecatio: table %s: %w", u.Location, err)
			}
			first = false
		}
		b, err := json.Marshal(task)
		if err != nil {
			return err
		}
		emit(taskElement{Task: b, Keep: keep})
	}
	return nil
}

// planWhole plans a unit of the whole scan (a Paimon or Hudi table), whose
// output schema its listing tells.
func (fn *planFn) planWhole(ctx context.Context, emit func(taskElement)) error {
	fsys, loc, err := openFS(fn.Config)
	if err != nil {
		return err
	}
	o, err := scanOptions(fn.Config)
	if err != nil {
		return err
	}
	t, err := reader.OpenTable(ctx, loc, reader.TableOptions{FS: fsys, AllowPaths: fn.Config.AllowPaths, SnapshotID: o.SnapshotID,
		Columns: o.Columns, IgnoreDeletes: o.IgnoreDeletes, SplitBytes: o.SplitBytes, Filter: o.Filter})
	if err != nil {
		return err
	}
	keep, err := keptColumns(t.ReadSchema.Fields, t.OutputSchema().Fields)
	if err != nil {
		return fmt.Errorf("lakecatio: table %s: %w", loc, err)
	}
	tasks, err := t.Tasks(ctx)
	if err != nil {
		return err
	}
	for _, task := range tasks {
		b, err := json.Marshal(task)
		if err != nil {
			return err
		}
		emit(taskElement{Task: b, Keep: keep})
	}
	return nil
}

// describeFn reads the footer of a Parquet or ORC task's file to list its
// row groups or stripes: the units of the task's restriction.
type describeFn struct {
	Config config
	fsys   storage.FS
}

func (fn *describeFn) Setup() error {
	var err error
	fn.fsys, _, err = openFS(fn.Config)
	return err
}

func (fn *describeFn) ProcessElement(ctx context.Context, e taskElement, emit func(taskElement)) error {
	var task table.Task
	if err := json.Unmarshal(e.Task, &task); err != nil {
		return err
	}
	if !unitsSplit(task) {
		e.First, e.UnitBytes, e.UnitRows = 0, []int64{max(task.SizeBytes, 1)}, []int64{task.RecordCount}
		emit(e)
		return nil
	}
	f, err := fn.fsys.Open(ctx, task.Path)
	if err != nil {
		return fmt.Errorf("%s: %w", task.Path, err)
	}
	defer f.Close()
	var n, first, count int
	var unitBytes, unitRows func(int) int64
	if task.Format == "ORC" {
		of, err := orc.Open(f, f.Size())
		if err != nil {
			return fmt.Errorf("%s: %w", task.Path, err)
		}
		n, first, count, unitBytes, unitRows = of.NumStripes(), task.FirstStripe, task.Stripes, of.StripeBytes, of.StripeRows
	} else {
		pf, err := parquet.Open(f, f.Size())
		if err != nil {
			return fmt.Errorf("%s: %w", task.Path, err)
		}
		n, first, count, unitBytes, unitRows = pf.NumRowGroups(), task.FirstRowGroup, task.RowGroups, pf.RowGroupBytes, pf.RowGroupRows
	}
	end := n
	if count > 0 {
		end = min(first+count, end)
	}
	e.First, e.UnitBytes, e.UnitRows = int64(first), nil, nil
	for i := first; i < end; i++ {
		e.UnitBytes = append(e.UnitBytes, max(unitBytes(i), 1))
		e.UnitRows = append(e.UnitRows, unitRows(i))
	}
	emit(e)
	return nil
}

// unitsSplit reports whether the restriction of task is over its file's
// row groups (Parquet) or stripes (ORC); otherwise it is one unit: an Avro
// file, or a merge on read (a Paimon primary-key range, a Hudi file slice
// with log files), which reads its files together.
func unitsSplit(task table.Task) bool {
	return (task.Format == "PARQUET" || task.Format == "ORC") && task.Merge == nil && task.Hudi == nil
}

// readFn reads tasks; its restriction is an offset range over a task's
// units (the row groups of a Parquet file, the stripes of an ORC file; an
// Avro file or a merge is one).
type readFn struct {
	Config config
	fsys   storage.FS
	filter expr.Expr

	mu       sync.Mutex
	attempts map[string]int // "path#unit" → failed tries on this worker
}

func (fn *readFn) Setup() error {
	var err error
	if fn.fsys, _, err = openFS(fn.Config); err != nil {
		return err
	}
	if fn.Config.Where != "" {
		if fn.filter, err = expr.Parse(fn.Config.Where); err != nil {
			return fmt.Errorf("lakecatio: filter: %w", err)
		}
	}
	fn.attempts = map[string]int{}
	return nil
}

// CreateInitialRestriction is the task's units.
func (fn *readFn) CreateInitialRestriction(e taskElement) offsetrange.Restriction {
	return offsetrange.Restriction{Start: e.First, End: e.First + int64(len(e.UnitBytes))}
}

// SplitRestriction cuts the task's units into runs of about SplitBytes
// compressed bytes each (at least one unit per run; 0:
// reader.DefaultSplitBytes; negative: never), as reader.SplitTask cuts a
// file at planning: the footer was read on a worker (describeFn), not by
// the planning worker. Runners split further while reading.
func (fn *readFn) SplitRestriction(e taskElement, rest offsetrange.Restriction) []offsetrange.Restriction {
	return splitUnits(e, rest, fn.Config.SplitBytes)
}

// splitUnits cuts rest into runs of units of about split bytes each.
func splitUnits(e taskElement, rest offsetrange.Restriction, split int64) []offsetrange.Restriction {
	if split == 0 {
		split = reader.DefaultSplitBytes
	}
	if split < 0 || rest.End-rest.Start < 2 {
		return []offsetrange.Restriction{rest}
	}
	var out []offsetrange.Restriction
	start, bytes := rest.Start, int64(0)
	for i := rest.Start; i < rest.End; i++ {
		if j := i - e.First; j >= 0 && j < int64(len(e.UnitBytes)) {
			bytes += e.UnitBytes[j]
		}
		if bytes >= split || i == rest.End-1 {
			out = append(out, offsetrange.Restriction{Start: start, End: i + 1})
			start, bytes = i+1, 0
		}
	}
	return out
}

// RestrictionSize is the compressed size in bytes of the restriction's
// units.
func (fn *readFn) RestrictionSize(e taskElement, rest offsetrange.Restriction) float64 {
	var n int64
	for i := rest.Start; i < rest.End; i++ {
		if j := i - e.First; j >= 0 && j < int64(len(e.UnitBytes)) {
			n += e.UnitBytes[j]
		}
	}
	return float64(n)
}

// CreateTracker tracks the claimed units.
func (fn *readFn) CreateTracker(rest offsetrange.Restriction) *sdf.LockRTracker {
	return sdf.NewLockRTracker(offsetrange.NewTracker(rest))
}

// retryBufferBytes is how much of a unit's output is held back until the
// unit is read in full, so that a unit whose read fails before that can be
// read again without duplicating rows. A unit with more output is emitted
// as it is read past that size, and a later failure of it fails the bundle.
const retryBufferBytes = 64 << 20

// ProcessElement reads the claimed units one by one. A unit is read before
// it is claimed (its output held back, up to retryBufferBytes): when its
// read fails with a transient error, the rest of the restriction, that unit
// included, is handed back to the runner (a checkpoint) to be read again
// after a backoff, up to Retries times per unit on this worker.
func (fn *readFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, e taskElement, emit func([]byte)) (sdf.ProcessContinuation, error) {
	var task table.Task
	if err := json.Unmarshal(e.Task, &task); err != nil {
		return sdf.StopProcessing(), err
	}
	restrictCounter.Inc(ctx, 1)
	// The end is read again each time: a split by the runner moves it.
	end := func() int64 { return rt.GetRestriction().(offsetrange.Restriction).End }
	// The units' reads share the task's delete files: each is read once
	// for the restriction, not once per unit.
	var deletes *reader.DeleteCache
	if len(task.Deletes) > 0 && !fn.Config.IgnoreDeletes {
		deletes = reader.NewDeleteCache(0)
		for i := rt.GetRestriction().(offsetrange.Restriction).Start; i < end(); i++ {
			deletes.Add(task)
		}
	}
	for i := rt.GetRestriction().(offsetrange.Restriction).Start; i < end(); i++ {
		var held [][]byte
		heldBytes, claimed := 0, false
		out := func(b []byte) error {
			if claimed {
				emit(b)
				return nil
			}
			held, heldBytes = append(held, b), heldBytes+len(b)
			if heldBytes > retryBufferBytes {
				if !rt.TryClaim(i) {
					return errSplitAway
				}
				claimed = true
				for _, h := range held {
					emit(h)
				}
				held = nil
			}
			return nil
		}
		counts, err := fn.readUnit(ctx, task, e, i, deletes, out)
		if errors.Is(err, errSplitAway) {
			return sdf.StopProcessing(), nil
		}
		if err != nil {
			if !claimed && storage.IsTransient(err) && ctx.Err() == nil {
				if wait, ok := fn.retry(task.Path, i); ok {
					retriesCounter.Inc(ctx, 1)
					return sdf.ResumeProcessingIn(wait), nil
				}
			}
			return sdf.StopProcessing(), err
		}
		if !claimed {
			if !rt.TryClaim(i) {
				return sdf.StopProcessing(), nil // the runner split this unit away
			}
			for _, h := range held {
				emit(h)
			}
		}
		counts.add(ctx, i, fn.filter == nil)
	}
	rt.TryClaim(end()) // the restriction is done
	return sdf.StopProcessing(), nil
}

var errSplitAway = errors.New("lakecatio: unit split away")

// retry records a failed try of unit i of path and returns the wait before
// the next, or false when the tries are spent.
func (fn *readFn) retry(path string, i int64) (time.Duration, bool) {
	key := fmt.Sprintf("%s#%d", path, i)
	fn.mu.Lock()
	defer fn.mu.Unlock()
	n := fn.attempts[key] + 1
	fn.attempts[key] = n
	if n > fn.Config.retries() {
		return 0, false
	}
	return min(50*time.Millisecond<<(n-1), 2*time.Second), true
}

// unitCounts is what reading one unit counted.
type unitCounts struct {
	rows, decoded, bytes int64
}

// add adds the counts of unit i to the counters, once the unit is claimed
// (a unit read and then split away is read again by the residual's worker).
func (c unitCounts) add(ctx context.Context, i int64, deletes bool) {
	if i == 0 {
		filesCounter.Inc(ctx, 1)
	}
	rowGroupsCounter.Inc(ctx, 1)
	rowsCounter.Inc(ctx, c.rows)
	rowsDecodedCounter.Inc(ctx, c.decoded)
	bytesCounter.Inc(ctx, c.bytes)
	if deletes {
		rowsDeletedCounter.Inc(ctx, c.decoded-c.rows)
	}
}

// readUnit reads unit i of the task and passes its batches, IPC-encoded,
// to out.
func (fn *readFn) readUnit(ctx context.Context, task table.Task, e taskElement, i int64, deletes *reader.DeleteCache, out func([]byte) error) (unitCounts, error) {
	switch {
	case !unitsSplit(task):
	case task.Format == "ORC":
		task.FirstStripe, task.Stripes = int(i), 1
	default:
		task.FirstRowGroup, task.RowGroups = int(i), 1
	}
	var read atomic.Int64
	stats := &reader.ScanStats{}
	rr, err := reader.ReadTask(ctx, countingFS{FS: fn.fsys, n: &read}, task, reader.TaskOptions{
		BatchRows: fn.Config.BatchRows, IgnoreDeletes: fn.Config.IgnoreDeletes, Filter: fn.filter, Stats: stats, Deletes: deletes})
	if err != nil {
		return unitCounts{}, err
	}
	defer rr.Release()
	var rows int64
	var sch *arrow.Schema
	for rr.Next() {
		rec := rr.RecordBatch()
		if e.Keep != nil {
			if sch == nil {
				sch = keepSchema(rec.Schema(), e.Keep)
			}
			cols := make([]arrow.Array, len(e.Keep))
			for j, k := range e.Keep {
				cols[j] = rec.Column(k)
			}
			rec = array.NewRecordBatch(sch, cols, rec.NumRows())
		} else {
			rec.Retain()
		}
		rows += rec.NumRows()
		err := encodeBatches(rec, fn.Config.maxBatchBytes(), out)
		rec.Release()
		if err != nil {
			return unitCounts{}, err
		}
	}
	if err := rr.Err(); err != nil {
		return unitCounts{}, err
	}
	return unitCounts{rows: rows, decoded: stats.Counts().RowsRead, bytes: read.Load()}, nil
}

// encodeBatches passes rec to out as Arrow IPC streams of one batch each,
// cut into slices of about maxBytes of Arrow buffers.
func encodeBatches(rec arrow.RecordBatch, maxBytes int64, out func([]byte) error) error {
	n := rec.NumRows()
	step := n
	if size := util.TotalRecordSize(rec); size > maxBytes && n > 1 {
		step = max(1, n*maxBytes/size)
	}
	for off := int64(0); off < n; off += step {
		part := rec
		if off > 0 || step < n {
			part = rec.NewSlice(off, min(off+step, n))
		} else {
			part.Retain()
		}
		b, err := encodeIPC(part)
		part.Release()
		if err != nil {
			return err
		}
		if err := out(b); err != nil {
			return err
		}
	}
	return nil
}

func encodeIPC(rec arrow.RecordBatch) ([]byte, error) {
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(rec.Schema()), ipc.WithAllocator(memory.DefaultAllocator))
	if err := w.Write(rec); err != nil {
		w.Close()
		return nil, fmt.Errorf("lakecatio: encoding a batch: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("lakecatio: encoding a batch: %w", err)
	}
	return buf.Bytes(), nil
}

// keepSchema is sch with only the fields at the indices keep.
func keepSchema(sch *arrow.Schema, keep []int) *arrow.Schema {
	fields := make([]arrow.Field, len(keep))
	for j, k := range keep {
		fields[j] = sch.Field(k)
	}
	md := sch.Metadata()
	return arrow.NewSchema(fields, &md)
}

// keptColumns returns the index in read of each field of out, matched by
// field id, or nil when out is read itself.
func keptColumns(read, out []*schema.Field) ([]int, error) {
	if len(read) == len(out) {
		same := true
		for i := range read {
			same = same && read[i].ID == out[i].ID
		}
		if same {
			return nil, nil
		}
	}
	keep := make([]int, len(out))
	for j, f := range out {
		keep[j] = -1
		for i, r := range read {
			if r.ID == f.ID {
				keep[j] = i
			}
		}
		if keep[j] < 0 {
			return nil, fmt.Errorf("output column %s (field id %d) is not in the read schema", f.Name, f.ID)
		}
	}
	return keep, nil
}
