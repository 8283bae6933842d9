package reader

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/internal/recycle"
	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	tableopen "github.com/lakecat/lakecat/table/open"
)

// The errors of planning a table read, from package table (the same
// values: errors.Is matches either name).
var (
	// ErrInvalidOption is [table.ErrInvalidOption]: an option the table's
	// format does not have.
	ErrInvalidOption = table.ErrInvalidOption
	// ErrDeleteFiles is [table.ErrDeleteFiles]: delete files a read does
	// not apply; set [TableOptions.IgnoreDeletes] to read anyway.
	ErrDeleteFiles = table.ErrDeleteFiles
	// ErrPrimaryKeyTable is [table.ErrPrimaryKeyTable]: a Paimon
	// primary-key table that cannot be read merged; paimon.Options Raw
	// reads every stored row with its system columns.
	ErrPrimaryKeyTable = table.ErrPrimaryKeyTable
	// ErrMergeOnRead is [table.ErrMergeOnRead]: Hudi log files that cannot
	// be merged; hudi.Options IgnoreLogs reads base files only.
	ErrMergeOnRead = table.ErrMergeOnRead
	// ErrListOnly is [table.ErrListOnly], returned by [Table.Scan] and
	// [Table.Tasks] for a table opened with [TableOptions.ListOnly].
	ErrListOnly = table.ErrListOnly
)

// TableOptions configure [OpenTable].
type TableOptions struct {
	// FS is the storage (nil: the local file system, storage.OSFS).
	// OpenTable wraps it in [storage.Confine]: every path the table's
	// metadata names (manifests, data and delete files, Paimon external
	// paths), after path rewrites, must lie inside the table's own folder
	// or URL prefix or inside one of AllowPaths, and a stored URL may not
	// carry a query; a refused path is an error matching
	// [storage.ErrPathNotAllowed] (class lakecat.ErrPermission).
	FS storage.FS
	// AllowPaths are the folders or URL prefixes ("s3://bucket/data",
	// "/mnt/warehouse/shared") outside the table's location that its
	// metadata may name too: Iceberg's write.data.path, Paimon's
	// data-file.external-paths, an Iceberg PathMap target elsewhere.
	AllowPaths []string
	// SnapshotID reads that snapshot (Iceberg, Paimon) with the schema it
	// was written with (Iceberg) instead of the current one.
	SnapshotID *int64
	// AsOf reads the latest snapshot committed at or before this time
	// (Iceberg; for Hudi, the latest instant at or before it; refused with
	// [ErrInvalidOption] for Paimon, which is read by SnapshotID).
	AsOf time.Time
	// Columns restricts the read schema to these dotted paths, its
	// top-level columns in the order the paths first name them. A metadata
	// column name (_file, _pos, _spec_id, _partition) among them is taken
	// as if listed in MetadataColumns, at its place in Columns; when Columns
	// names only metadata columns, every table column is read and they
	// follow, as MetadataColumns do.
	Columns []string
	// MetadataColumns adds metadata columns to the read schema, after the
	// table's columns, in this order: _file (string, the data file path as
	// the metadata stores it), _pos (long, the row's position in its file),
	// _deleted (boolean: the row is deleted; a read that selects it keeps
	// deleted rows, flagged, as Iceberg Java does), _spec_id (int) and
	// _partition (struct of the partition values), with the reserved field
	// ids of the Iceberg spec ([FieldIDFile], …) where no schema of the
	// table uses them ([Table.MetadataFieldID]). For
	// Paimon and Hudi tables _spec_id is 0 and _partition is an empty
	// struct.
	MetadataColumns []string
	// IgnoreDeletes reads a snapshot with delete files as if it had none
	// (Iceberg position and equality deletes and deletion vectors, which
	// are applied otherwise; Paimon deletion vectors, which are refused
	// otherwise); Warn is told.
	IgnoreDeletes bool
	// FormatOptions are the options of the table's format:
	// iceberg.Options, paimon.Options or hudi.Options (nil: none). Options
	// of another format than the table's are refused with
	// [ErrInvalidOption], naming them and the format.
	FormatOptions table.FormatOptions
	// SplitBytes is the size above which [Table.Tasks] splits a Parquet
	// file at row-group boundaries and an ORC file at stripe boundaries
	// (0: [DefaultSplitBytes]; negative: never).
	SplitBytes int64
	// ListOnly opens the table to list its schemas and live files, never to
	// read rows, whatever its format: what a scan would refuse (delete
	// files, a Paimon primary key, Hudi log files) is accepted and the files
	// are listed as stored, with no warning. [Table.Scan] and [Table.Tasks]
	// of such a table return [ErrListOnly]; [Table.Plan] works. The
	// format-specific Raw, IgnoreDeletes and IgnoreLogs keep their meaning
	// beside it (Raw still adds a primary-key table's system columns to the
	// read schema).
	ListOnly bool
	// Workers, MemoryBytes: see [ScanOptions].
	Workers     int
	MemoryBytes int64
	// BatchRows, Allocator and Limits: see [Options].
	BatchRows int
	Allocator memory.Allocator
	Limits    Limits
	// Warn receives warnings (deletes ignored); nil drops them.
	Warn func(msg string)
	// Progress: see [ScanOptions].
	Progress func(ScanProgress)
	// Filter keeps only the rows it selects (nil: all), bound by field id
	// to the table's read schema before Columns narrows it (a filter may
	// use a column that is not returned: it is read and dropped). Files
	// that cannot match are left out of [Table.Tasks] without being opened
	// — by their identity-partition values, and for Iceberg by the
	// partition transforms (iceberg.Scan.PartitionMayMatch) and the
	// manifest's column metrics — then, as each file is read, the whole
	// file by the columns it lacks and Parquet row groups by their
	// statistics; the rows of the rest are filtered exactly. See
	// [Options.Filter] and [Table.Prune]. Binding errors are
	// [expr.ErrUnknownColumn] and [expr.ErrType].
	Filter expr.Expr
	// Stats, when set, counts what the scan skipped and read.
	Stats *ScanStats

	// Dictionary returns the top-level string and binary columns as Arrow
	// dictionary arrays: see [Options.Dictionary].
	Dictionary bool
}

// TableFile is one live data file of a table read ([table.File]).
type TableFile = table.File

// LSMFile is a Paimon primary-key table file's place in its bucket's LSM
// tree ([table.LSMFile]).
type LSMFile = table.LSMFile

// Table is a planned table read: its read schema and live data files.
type Table struct {
	// Format is the table format.
	Format table.Format
	// MetadataGuessed reports that no version hint named the Iceberg
	// metadata file read and the highest version was taken (see
	// iceberg.Location.Guessed).
	MetadataGuessed bool
	// Location is the table folder (or metadata file) opened.
	Location string
	// ReadSchema is the schema batches come out in.
	ReadSchema *schema.Schema
	// Schemas are the table's schemas, oldest first; CurrentSchemaID names
	// the current one.
	Schemas         []*schema.Schema
	CurrentSchemaID int
	// Files are the live data files in scan order.
	Files []TableFile

	opts    TableOptions
	scan    table.Scan
	listing *table.Listing
}

// OpenTable plans a read of the table at location: it opens the table
// (table/open.Open, on opts.FS confined to the table's folder and
// opts.AllowPaths) and plans a [table.Scan] of it (the format's NewScan,
// where each format's rules live: iceberg.Table.NewScan,
// paimon.Table.NewScan, hudi.Table.NewScan). The scan finds the snapshot,
// lists the live data files and the schema each was written with, and
// chooses the read schema (the table's current schema by default: a column
// added after the last write still appears). Nothing is decoded yet; call
// [Table.Scan].
//
// Iceberg delete files and Paimon deletion vectors are planned per data
// file (TableFile.Task.Deletes) and applied by the scan unless
// opts.IgnoreDeletes; a Paimon primary-key table is read merged and a Hudi
// merge-on-read table's log files are merged onto their base files, unless
// opts.FormatOptions says otherwise (paimon.Options Raw, hudi.Options
// IgnoreLogs). It refuses, with an error naming the table, merge options
// lakecat cannot apply ([ErrPrimaryKeyTable]), deletion vectors in raw
// mode ([ErrDeleteFiles]), a Hudi merge it cannot plan ([ErrMergeOnRead])
// and options of another table format ([ErrInvalidOption]).
func OpenTable(ctx context.Context, location string, opts TableOptions) (*Table, error) {
	if opts.FS == nil {
		opts.FS = storage.OSFS{}
	}
	opts.FS = storage.Confine(opts.FS, table.Root(location), opts.AllowPaths)
	tbl, err := tableopen.Open(ctx, opts.FS, location)
	if err != nil {
		return nil, err
	}
	scan := tbl.NewScan(table.ScanOptions{
		SnapshotID: opts.SnapshotID, AsOf: opts.AsOf, Columns: opts.Columns, MetadataColumns: opts.MetadataColumns,
		Filter: opts.Filter, SplitBytes: opts.SplitBytes, FooterBytes: opts.Limits.FooterBytes,
		IgnoreDeletes: opts.IgnoreDeletes, ListOnly: opts.ListOnly, Warn: opts.Warn, Options: opts.FormatOptions,
	})
	l, err := scan.Files(ctx)
	if err != nil {
		return nil, err
	}
	return &Table{
		Format: l.Format, MetadataGuessed: l.MetadataGuessed, Location: location,
		ReadSchema: l.ReadSchema, Schemas: l.Schemas, CurrentSchemaID: l.CurrentSchemaID, Files: l.Files,
		opts: opts, scan: scan, listing: l,
	}, nil
}

// Tasks returns the table's read as tasks, in scan order ([table.Scan.Plan]):
// one per data file, and for a Parquet or ORC file larger than
// opts.SplitBytes (default [DefaultSplitBytes]) one per run of its row
// groups or stripes of about that many bytes ([table.SplitTask]), so several workers or machines can share it (this reads
// the footers of those files). The tasks are values: encode them with
// json.Marshal, read them anywhere with [ReadTask]. A Hudi file slice with
// log files is never split.
func (t *Table) Tasks(ctx context.Context) ([]table.Task, error) {
	return t.scan.Plan(ctx)
}

// TableScan returns the planned [table.Scan] the table was opened with.
func (t *Table) TableScan() table.Scan { return t.scan }

// DefaultSplitBytes is the size in bytes above which [Table.Tasks] splits a
// Parquet file at row-group boundaries, and an ORC file at stripe
// boundaries: 128 MiB ([table.DefaultSplitBytes]).
const DefaultSplitBytes = table.DefaultSplitBytes

// MetadataFieldID returns the field id the metadata column name (_file,
// _pos, _spec_id, _partition) has in this read, and whether the read has
// it. It is the Iceberg reserved id ([FieldIDFile], …) unless a schema of
// the table uses that id (Paimon's system columns do), then the highest
// free id below it.
func (t *Table) MetadataFieldID(name string) (int, bool) {
	id, ok := t.listing.MetadataFieldIDs[name]
	return id, ok
}

// Scan reads the table's files (concurrently, see [ScanFiles]) and yields
// their rows in the read schema, file by file in scan order.
func (t *Table) Scan(ctx context.Context) (array.RecordReader, error) {
	planned, err := t.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	for _, f := range t.Files {
		if f.Skip != "" {
			t.opts.Stats.add(filesSkipped, 1)
			t.opts.Stats.add(bytesSkippedFiles, max(f.Task.SizeBytes, 0))
			if f.Skip == table.SkipValueStats || f.Skip == table.SkipKeyStats {
				t.opts.Stats.add(filesSkippedStats, 1)
			}
		}
	}
	t.opts.Stats.add(manifestsSkipped, int64(t.listing.ManifestsSkipped))
	t.opts.Stats.add(filesSkipped, t.listing.ManifestFilesSkipped)
	if len(planned) == 0 {
		out := schema.ToArrowSchema(t.OutputSchema())
		if t.opts.Dictionary {
			out = DictionarySchema(out)
		}
		return array.NewRecordReader(out, nil)
	}
	// With a narrowed output, the narrowed batches are encoded; otherwise
	// each file's batches are, by the scan's workers.
	var narrow *schema.Schema
	if t.listing.OutputSchema != t.ReadSchema {
		narrow = t.listing.OutputSchema
	}
	rr, err := ScanTasks(ctx, t.opts.FS, planned, ScanOptions{Workers: t.opts.Workers, MemoryBytes: t.opts.MemoryBytes, Progress: t.opts.Progress},
		TaskOptions{BatchRows: t.opts.BatchRows, Allocator: t.opts.Allocator, Limits: t.opts.Limits, IgnoreDeletes: t.opts.IgnoreDeletes, Filter: t.opts.Filter, Stats: t.opts.Stats,
			Dictionary: t.opts.Dictionary && narrow == nil})
	if err != nil || narrow == nil {
		return rr, err
	}
	return NarrowReader(rr, narrow, t.opts.Dictionary, t.opts.Allocator), nil
}

// NarrowReader returns the batches of rr (read in a schema that holds the
// columns a filter uses, see [table.SelectForFilter]) in the schema out,
// whose fields (by id, recursively through structs) are a subset of rr's:
// the columns read only for the filter are dropped. rr must be read
// without [Options.Dictionary]; with dictionary set, the narrowed batches'
// top-level string and binary columns are dictionary encoded (allocated
// from mem) as that option would. Releasing the result releases rr.
func NarrowReader(rr array.RecordReader, out *schema.Schema, dictionary bool, mem memory.Allocator) array.RecordReader {
	nr := array.RecordReader(newNarrowReader(rr, out))
	if dictionary {
		nr = newDictReader(nr, mem)
	}
	return nr
}

// OutputSchema is the schema of the batches [Table.Scan] returns: the read
// schema, without the columns read only for the filter.
func (t *Table) OutputSchema() *schema.Schema { return t.listing.OutputSchema }

// MayMatch reports whether file i (an index into Files) may hold a row the
// filter selects, from its constants alone ([TaskMayMatch]); true without
// a filter.
func (t *Table) MayMatch(i int) bool { return TaskMayMatch(t.Files[i].Task, t.listing.Filter) }

// ScanTasks reads tasks (from [Table.Tasks], or decoded from JSON) from
// fsys concurrently and yields their batches in task order, as [ScanFiles]
// does; every task must have the same read schema. Deletes are applied as
// [ReadTask] applies them; the key set of a set of equality delete files is
// built once and shared by the tasks it applies to, and a position delete
// file that applies to several tasks is read once, its positions held
// until the last of them has taken its own. The key sets count against
// opts.MemoryBytes for the scan's life (their estimated size: see
// [KeySetBudgetError]); sets that alone exceed it fail the scan with a
// [*KeySetBudgetError]. The held positions count against it too, while
// held; positions that do not fit are read again by each task.
// topts.MemoryBytes is not used: opts.MemoryBytes bounds the scan.
func ScanTasks(ctx context.Context, fsys storage.FS, tasks []table.Task, opts ScanOptions, topts TaskOptions) (array.RecordReader, error) {
	files := make([]FileTask, 0, len(tasks))
	mem := topts.Allocator
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	cols := 1
	if len(tasks) > 0 && tasks[0].ReadSchema != nil {
		cols += len(tasks[0].ReadSchema.Fields)
	}
	// The survivors of deleted rows are copied into buffers of the batches
	// already released, by every file of the scan: three per column
	// (validity, values or offsets, string bytes) of the four batches a
	// file being read holds at once, for each worker.
	cache := &deleteCache{budget: newBudget(opts.MemoryBytes), pool: recycle.New(mem, 3*4*cols*workers)}
	if topts.MemoryBytes == 0 {
		topts.MemoryBytes = opts.MemoryBytes
	}
	for _, task := range tasks {
		o, err := taskOptions(fsys, task, topts, cache)
		if err != nil {
			return nil, err
		}
		if topts.Filter != nil {
			b, err := bindFilter(topts.Filter, task.ReadSchema)
			if err != nil {
				return nil, fmt.Errorf("%s: filter: %w", task.Path, err)
			}
			if !TaskMayMatch(task, b) {
				topts.Stats.add(filesSkipped, 1)
				if task.SizeBytes > 0 {
					topts.Stats.add(bytesSkippedFiles, task.SizeBytes)
				}
				continue
			}
		}
		if !topts.IgnoreDeletes {
			cache.countPositionRefs(task)
		}
		files = append(files, FileTask{Name: task.Path, Open: openTask(fsys, task.Path), Options: o})
	}
	if len(files) == 0 && len(tasks) > 0 {
		out := schema.ToArrowSchema(tasks[0].ReadSchema)
		if topts.Dictionary {
			out = DictionarySchema(out)
		}
		return array.NewRecordReader(out, nil)
	}
	return scanFiles(ctx, files, opts, cache.budget, cache.pool.Close)
}

// Plan builds the projection plan of one of the table's files (index into
// Files) without decoding data: what `lakecat files` and `lakecat plan`
// report. The caller releases the plan.
func (t *Table) Plan(ctx context.Context, i int) (*project.Plan, error) {
	f := t.Files[i]
	o, err := taskOptions(t.opts.FS, f.Task, TaskOptions{Limits: t.opts.Limits, IgnoreDeletes: true}, nil)
	if err != nil {
		return nil, err
	}
	if f.Task.Hudi != nil && f.Task.Hudi.NoBase {
		return planHudiLogs(ctx, t.opts.FS, f.Task, o) // a Hudi file slice of log files only
	}
	r, size, closeFn, err := openTask(t.opts.FS, f.Path)(ctx)
	if err != nil {
		return nil, pathError(f.Path, err)
	}
	defer closeFn()
	if o.format == "" {
		o.format = f.Format // a merge task's options name none: this file's
	}
	return Plan(r, size, o)
}

// openTask returns the Open function of a file task on fsys.
func openTask(fsys storage.FS, p string) func(ctx context.Context) (io.ReaderAt, int64, func() error, error) {
	return func(ctx context.Context) (io.ReaderAt, int64, func() error, error) {
		f, err := fsys.Open(ctx, p)
		if err != nil {
			return nil, 0, nil, err
		}
		return f, f.Size(), f.Close, nil
	}
}
