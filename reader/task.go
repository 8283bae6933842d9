package reader

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
)

// TaskOptions configure [ReadTask]: what the machine reading a task
// chooses, as opposed to what the task says.
type TaskOptions struct {
	// BatchRows is the number of rows per batch (0: [DefaultBatchRows]).
	BatchRows int
	// Allocator allocates every Arrow buffer (nil: memory.DefaultAllocator).
	Allocator memory.Allocator
	// Limits cap the sizes the decoders accept from the file.
	Limits Limits
	// IgnoreDeletes reads a task that has delete files as if it had none
	// (the rows as stored); without it the deletes are applied.
	IgnoreDeletes bool
	// Filter and Stats: see [Options].
	Filter expr.Expr
	Stats  *ScanStats
	// MemoryBytes bounds what one task's read holds beyond its batches
	// (0: no bound): the estimated bytes of the equality delete key sets
	// [ReadTask] builds (over it: a [*KeySetBudgetError]) and the log
	// records a Hudi file slice's merge holds (over it: [ErrMergeBudget]),
	// and the source batches a Paimon merge holds (past it the merge emits
	// what it has: see merge.Options.MemoryBytes).
	// [ScanTasks] sets it from ScanOptions.MemoryBytes.
	MemoryBytes int64

	// Deletes, when not nil, shares delete files between ReadTask calls
	// ([DeleteCache]); its own bound replaces MemoryBytes' for the
	// equality key sets. ScanTasks ignores it (a scan shares its own).
	Deletes *DeleteCache

	// Dictionary: see [Options.Dictionary].
	Dictionary bool
}

// ReadTask reads one planned task (table.Scan planning, possibly on another
// machine, see [table.Task]) from fsys: it opens task.Path, resolves the
// file's schema (task.FileSchema, the file's ids or task.NameMapping; see
// [ResolveFileSchema]), builds the projection plan to task.ReadSchema and
// yields the rows of the task's row groups in the read schema's Arrow form.
// The file is closed when the reader is released. fsys is used as given:
// a task from elsewhere is confined to its table by passing
// storage.Confine(fsys, tableLocation, allowed), as [OpenTable] does.
//
// The task's delete files (task.Deletes) are applied unless
// opts.IgnoreDeletes (Iceberg spec, "Row-level Deletes"): they are read when
// the file is opened, from fsys; rows they delete are left out, or flagged
// in a _deleted column (field id [FieldIDDeleted]) when the read schema has
// one. _pos keeps each row's position in the file.
//
// A Hudi file slice's task (task.Hudi) merges its log files, read from
// fsys, onto the file (or reads them alone when the slice has no base
// file): see [table.HudiSlice] and the README's "Hudi merge-on-read"; the
// log records it holds are bounded by opts.MemoryBytes ([ErrMergeBudget]).
//
// Errors are those of [Open], an unknown task.Rules or task.TimeZone, and
// for a delete file that cannot be applied a [*DeleteFileError] (matching
// [ErrCorruptDeleteFile] or [ErrEqualityField]) naming it, and for
// equality key sets over opts.MemoryBytes a [*KeySetBudgetError]; every
// error names the data file.
func ReadTask(ctx context.Context, fsys storage.FS, task table.Task, opts TaskOptions) (array.RecordReader, error) {
	var cache *deleteCache
	switch {
	case opts.Deletes != nil:
		cache = opts.Deletes.c
	case opts.MemoryBytes > 0:
		cache = &deleteCache{budget: newBudget(opts.MemoryBytes)}
	}
	o, err := taskOptions(fsys, task, opts, cache)
	if err != nil {
		return nil, err
	}
	if o.open != nil {
		rr, err := o.open(ctx)
		if err == nil && o.Dictionary {
			rr = newDictReader(rr, o.Allocator)
		}
		return rr, err
	}
	f, err := fsys.Open(ctx, task.Path)
	if err != nil {
		return nil, pathError(task.Path, err)
	}
	rr, err := Open(ctx, f, f.Size(), o)
	if err != nil {
		f.Close()
		return nil, err
	}
	setCloser(rr, f)
	return rr, nil
}

// taskOptions returns the [Options] that read task from fsys; cache, when
// not nil, shares equality delete sets between the tasks of one scan.
func taskOptions(fsys storage.FS, task table.Task, opts TaskOptions, cache *deleteCache) (Options, error) {
	rules := project.IcebergV2
	if task.Rules != "" {
		r, err := project.ParseRules(task.Rules)
		if err != nil {
			return Options{}, pathError(task.Path, err)
		}
		rules = r
	}
	if task.TimeZone != "" {
		loc, err := time.LoadLocation(task.TimeZone)
		if err != nil {
			return Options{}, fmt.Errorf("%s: time zone %q: %w", task.Path, task.TimeZone, err)
		}
		rules = rules.WithTimeZone(loc)
	}
	var deletes *taskDeletes
	if len(task.Deletes) > 0 && !opts.IgnoreDeletes {
		paths := []string{task.Path}
		if task.StoredPath != "" && task.StoredPath != task.Path {
			paths = []string{task.StoredPath, task.Path}
		}
		deletes = &taskDeletes{fsys: fsys, files: task.Deletes, keys: task.DeleteSchema, dataPaths: paths, paths: task.Paths,
			nameMapping: task.NameMapping, rules: rules, limits: opts.Limits, cache: cache}
	}
	if task.Merge != nil {
		o := Options{Name: task.Path, ReadSchema: task.ReadSchema, WriterSchema: task.FileSchema, Rules: rules, Constants: task.Constants,
			BatchRows: opts.BatchRows, Allocator: opts.Allocator, Limits: opts.Limits, Stats: opts.Stats}
		for _, run := range task.Merge.Runs {
			for _, f := range run.Files {
				o.openSize += max(f.SizeBytes, 0)
			}
		}
		o.open = func(ctx context.Context) (array.RecordReader, error) {
			return openMerge(ctx, fsys, task, o, opts.Filter, opts.Stats, opts.MemoryBytes)
		}
		// The merge reads plain batches; the caller of open encodes its
		// output.
		withDict := o
		withDict.Dictionary = opts.Dictionary
		return withDict, nil
	}
	var hr *hudiRead
	if task.Hudi != nil {
		hr = &hudiRead{fsys: fsys, slice: task.Hudi, budget: opts.MemoryBytes}
	}
	first, count, stripes := taskRange(task)
	if stripes && (task.FirstRowGroup > 0 || task.RowGroups > 0) {
		return Options{}, fmt.Errorf("%s: %w: the task selects both row groups and stripes", task.Path, ErrStripeRange)
	}
	return Options{
		hudi:    hr,
		deletes: deletes,
		Name:    task.Path, ReadSchema: task.ReadSchema, WriterSchema: task.FileSchema, NameMapping: task.NameMapping,
		Rules: rules, Constants: task.Constants, PosFieldID: task.PosFieldID, DeletedFieldID: task.DeletedFieldID,
		BatchRows: opts.BatchRows, Allocator: opts.Allocator, Limits: opts.Limits,
		firstRowGroup: first, rowGroups: count, stripes: stripes, Filter: opts.Filter, Stats: opts.Stats,
		format: task.Format, Dictionary: opts.Dictionary,
	}, nil
}

// taskRange returns the range of row groups, or with stripes true of ORC
// stripes, that task selects.
func taskRange(task table.Task) (first, count int, stripes bool) {
	if task.FirstStripe > 0 || task.Stripes > 0 {
		return task.FirstStripe, task.Stripes, true
	}
	return task.FirstRowGroup, task.RowGroups, false
}
