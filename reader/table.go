package reader

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/internal/recycle"
	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/iceberg"
)

var (
	// ErrInvalidOption is returned for a table option the table's format
	// does not have (a Paimon schema id or branch on an Iceberg table, …).
	ErrInvalidOption = lakecat.NewSentinel(lakecat.ErrInvalidArgument, "reader: option does not apply to this table format")
	// ErrDeleteFiles is matched by the error for a snapshot whose delete
	// files a read does not apply (Paimon deletion vectors in raw mode);
	// set [TableOptions.IgnoreDeletes] to read anyway. Iceberg deletes and
	// Paimon deletion vectors are otherwise applied.
	ErrDeleteFiles = lakecat.NewSentinel(lakecat.ErrUnsupported, "reader: table has delete files")
	// ErrPrimaryKeyTable is matched by the error for a Paimon primary-key
	// table that cannot be read merged (merge options lakecat cannot apply,
	// matching paimon.ErrMergeOption too; a primary-key fallback branch of
	// an append table whose buckets need a merge); set [PaimonOptions.Raw]
	// to read every stored row with its system columns.
	ErrPrimaryKeyTable = lakecat.NewSentinel(lakecat.ErrUnsupported, "reader: primary-key table needs merge on read")
	// ErrMergeOnRead is matched by the error for a Hudi table whose file
	// slices' log files cannot be merged (a record merge mode or payload
	// class the merge does not implement); set [HudiOptions.IgnoreLogs] to
	// read base files only.
	ErrMergeOnRead = lakecat.NewSentinel(lakecat.ErrUnsupported, "reader: merge-on-read table has log files")
	// ErrListOnly is returned by [Table.Scan] for a table opened with
	// [TableOptions.ListOnly].
	ErrListOnly = lakecat.NewSentinel(lakecat.ErrInvalidArgument, "reader: table opened to list files, not to read rows")
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
	// Iceberg, Paimon and Hudi are the options of one table format. Paimon's
	// SchemaID, Branch and TimeZone set for a table of another format return
	// [ErrInvalidOption] (they would change what is read); the other
	// options, refusals lifted (Raw, IgnoreLogs) and path rewrites, do not
	// apply to other formats and are ignored there.
	Iceberg IcebergOptions
	Paimon  PaimonOptions
	Hudi    HudiOptions
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
	// partition transforms ([iceberg.Scan.PartitionMayMatch]) and the
	// manifest's column metrics — then, as each file is read, the whole
	// file by the columns it lacks and Parquet row groups by their
	// statistics; the rows of the rest are filtered exactly. See
	// [Options.Filter] and [Table.Prune]. Binding errors are
	// [expr.ErrUnknownColumn] and [expr.ErrType].
	Filter expr.Expr
	// Stats, when set, counts what the scan skipped and read.
	Stats *ScanStats
}

// IcebergOptions are the options of an Iceberg table read.
type IcebergOptions struct {
	// PathMap rewrites data file paths stored in the metadata that point to
	// another warehouse root (the longest Old prefix wins; see
	// iceberg.PathMap).
	PathMap iceberg.PathMap
	// NoRebase turns off re-rooting stored paths under the table location
	// recorded in the metadata at the opened folder; with it, only PathMap
	// rewrites paths.
	NoRebase bool
}

// PaimonOptions are the options of a Paimon table read.
type PaimonOptions struct {
	// SchemaID reads with schema-N instead of the latest.
	SchemaID *int64
	// Branch reads a branch (branch/branch-<name>/).
	Branch string
	// Raw reads a primary-key table's files as stored, with their system
	// columns, instead of merged (the default: one row per key by the
	// table's merge engine, Paimon docs "Primary Key Table").
	Raw bool
	// TimeZone is the session time zone of Paimon's casts between
	// TIMESTAMP (a wall clock) and TIMESTAMP WITH LOCAL TIME ZONE (an
	// instant), and from either to INT, DATE or STRING (see
	// project.Rules.WithTimeZone). Nil means UTC; Paimon Java uses the
	// JVM's default zone.
	TimeZone *time.Location
}

// HudiOptions are the options of a Hudi table read.
type HudiOptions struct {
	// IgnoreLogs reads a merge-on-read table's base files only, as stored
	// (without it their file slices' log files are merged onto them).
	IgnoreLogs bool
}

// TableFile is one live data file of a table read.
type TableFile struct {
	// Path is the file's path for the table's FS.
	Path string
	// Format is "PARQUET", "ORC" or "AVRO".
	Format string
	// RecordCount is the number of rows the table metadata records (-1:
	// unknown).
	RecordCount int64
	// Partition describes the partition values, "name=value,…" in
	// partition field id order ("" for none).
	Partition string
	// SchemaID is the id of the schema the file was written with, where the
	// table format records it (Paimon), else -1.
	SchemaID int64

	// Deletes are the delete files that apply to the file (Iceberg), as
	// planned: also when [TableOptions.IgnoreDeletes] leaves them out of
	// Task.
	Deletes []table.DeleteFile

	// Task is the file's read as a plain value ([ReadTask] reads it, on
	// this machine or another); a large Parquet file may have several
	// tasks, see [Table.Tasks].
	Task table.Task

	// LSM is the file's place in its bucket's LSM tree when a Paimon
	// primary-key table is read merged, else nil. Files of a merged
	// section after its first have their own Task for [Table.Plan], but
	// [Table.Tasks] reads them through the first's merge task.
	LSM     *LSMFile
	inMerge bool

	partition map[int]any       // partition field id → value (_partition)
	metrics   *iceberg.Metrics  // Iceberg column metrics, or nil
	dataFile  *iceberg.DataFile // the Iceberg data file, or nil
	skip      string            // why the filter skips the file, or ""
	// statsSkip checks a Paimon file's manifest statistics (nil: none);
	// preSkip is why planning already left the file out (Paimon key
	// statistics), or "".
	statsSkip func(*expr.Bound) string
	preSkip   string
}

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

	opts          TableOptions
	partitionType *schema.StructType    // type of _partition (Iceberg)
	metaIDs       map[string]int        // metadata column name → its field id in this read
	filter        *expr.Bound           // opts.Filter bound to the read schema
	icebergScan   *iceberg.Scan         // the planned Iceberg scan, or nil
	readByID      map[int]*schema.Field // ReadSchema's fields by id, for the filter
	out           *schema.Schema        // the schema returned, when the filter reads columns it lacks
}

// OpenTable plans a read of the table at location: it finds the snapshot,
// lists the live data files and the schema each was written with, and
// chooses the read schema (the table's current schema by default: a column
// added after the last write still appears). Nothing is decoded yet; call
// [Table.Scan].
//
// Iceberg delete files and Paimon deletion vectors are planned per data
// file (TableFile.Task.Deletes) and applied by the scan unless
// opts.IgnoreDeletes. A Paimon primary-key table is read merged: per
// partition and bucket, the files whose key ranges overlap form one merge
// task (table.MergeTask) that yields one row per key by the table's merge
// engine, files that overlap nothing stream as stored (TableFile.LSM says
// which); with deletion-vectors.enabled, level-0 files are not read and
// level ≥ 1 files are read with their deletion vectors. A Hudi
// merge-on-read table's log files are merged onto their base files (one
// task per file slice, see [table.HudiSlice]) unless opts.Hudi.IgnoreLogs.
// It refuses, with an error naming the table, merge options lakecat cannot
// apply ([ErrPrimaryKeyTable]) unless opts.Paimon.Raw, deletion vectors in
// raw mode ([ErrDeleteFiles]) unless opts.IgnoreDeletes, and a Hudi merge
// it cannot plan ([ErrMergeOnRead]).
func OpenTable(ctx context.Context, location string, opts TableOptions) (*Table, error) {
	if opts.FS == nil {
		opts.FS = storage.OSFS{}
	}
	opts.FS = storage.Confine(opts.FS, tableRoot(location), opts.AllowPaths)
	format, err := table.Detect(ctx, opts.FS, location)
	if err != nil {
		return nil, err
	}
	if format != table.Paimon && (opts.Paimon.SchemaID != nil || opts.Paimon.Branch != "" || opts.Paimon.TimeZone != nil) {
		return nil, fmt.Errorf("%s table %s: %w: schema id, branch and time zone are Paimon options", format, location, ErrInvalidOption)
	}
	if format == table.Paimon && !opts.AsOf.IsZero() {
		// Refused rather than ignored: reading the latest snapshot instead
		// would be a silently wrong answer.
		return nil, fmt.Errorf("%s table %s: %w: a Paimon table is read by snapshot id; reading as of a time is not supported yet", format, location, ErrInvalidOption)
	}
	if format == table.Hudi && opts.SnapshotID != nil {
		return nil, fmt.Errorf("%s table %s: %w: a Hudi table is read as of a time (AsOf), not a snapshot id", format, location, ErrInvalidOption)
	}
	var t *Table
	switch format {
	case table.Iceberg:
		t, err = openIceberg(ctx, location, opts)
	case table.Paimon:
		t, err = openPaimon(ctx, location, opts)
	default:
		t, err = openHudi(ctx, location, opts)
	}
	if err != nil {
		return nil, fmt.Errorf("%s table %s: %w", format, location, err)
	}
	t.Format, t.Location, t.opts = format, location, opts
	var cols, meta []string
	for _, c := range opts.Columns {
		if IsMetadataColumn(c) {
			meta = append(meta, c)
		} else {
			cols = append(cols, c)
		}
	}
	meta = append(meta, opts.MetadataColumns...)
	var filterIDs []int
	if opts.Filter != nil {
		b, err := expr.Bind(opts.Filter, t.ReadSchema)
		if err != nil {
			return nil, fmt.Errorf("%s table %s: filter: %w", format, location, err)
		}
		filterIDs = b.FieldIDs()
	}
	if len(cols) > 0 {
		sel, err := schema.Select(t.ReadSchema, cols, false)
		if err != nil {
			return nil, err
		}
		if extra := missingPaths(t.ReadSchema, sel, filterIDs); len(extra) > 0 {
			t.out = sel
			if sel, err = schema.Select(t.ReadSchema, append(append([]string(nil), cols...), extra...), false); err != nil {
				return nil, err
			}
		}
		t.ReadSchema = sel
	}
	if len(meta) > 0 {
		if err := t.addMetadataColumns(meta); err != nil {
			return nil, err
		}
	}
	if len(cols) > 0 { // in the order asked for, metadata columns included
		t.ReadSchema = schema.OrderBy(t.ReadSchema, opts.Columns, false)
	}
	for i := range t.Files {
		t.Files[i].Task.ReadSchema = t.ReadSchema
	}
	if opts.Filter != nil {
		if t.filter, err = bindFilter(opts.Filter, t.ReadSchema); err != nil {
			return nil, fmt.Errorf("%s table %s: filter: %w", format, location, err)
		}
		for i := range t.Files {
			t.Files[i].skip = t.fileSkip(i)
		}
		if t.out != nil {
			fields := append([]*schema.Field(nil), t.out.Fields...)
			for _, f := range t.ReadSchema.Fields {
				if id, ok := t.metaIDs[f.Name]; ok && id == f.ID {
					fields = append(fields, f)
				}
			}
			t.out = &schema.Schema{ID: t.out.ID, Fields: fields, IdentifierFieldIDs: t.out.IdentifierFieldIDs}
		}
	}
	return t, nil
}

// Tasks returns the table's read as tasks, in scan order: one per data
// file, and for a Parquet or ORC file larger than opts.SplitBytes (default
// [DefaultSplitBytes]) one per run of its row groups or stripes of about
// that many bytes ([SplitTask]), so several workers or machines can share it (this reads the
// footers of those files). The tasks are values: encode them with
// json.Marshal, read them anywhere with [ReadTask]. A Hudi file slice with
// log files is never split.
func (t *Table) Tasks(ctx context.Context) ([]table.Task, error) {
	if t.opts.ListOnly {
		return nil, fmt.Errorf("%s table %s: %w", t.Format, t.Location, ErrListOnly)
	}
	split := t.opts.SplitBytes
	if split == 0 {
		split = DefaultSplitBytes
	}
	var out []table.Task
	for i := range t.Files {
		if t.Files[i].skip != "" || t.Files[i].inMerge {
			continue
		}
		task := t.Files[i].Task
		// A Hudi file slice or a Paimon merge is one task: its log records
		// or sorted runs merge over whole files.
		if split < 0 || !splittable(task) || (task.SizeBytes >= 0 && task.SizeBytes <= split) {
			out = append(out, task)
			continue
		}
		parts, err := SplitTask(ctx, t.opts.FS, task, split, t.opts.Limits)
		if err != nil {
			return nil, err
		}
		out = append(out, parts...)
	}
	return out, nil
}

// DefaultSplitBytes is the size in bytes above which [Table.Tasks] splits a
// Parquet file at row-group boundaries, and an ORC file at stripe
// boundaries: 128 MiB.
const DefaultSplitBytes = 128 << 20

// addMetadataColumns appends the named metadata columns to the read schema,
// with field ids no schema of the table uses ([metadataFieldIDs]), and gives
// every file the constants that fill them.
func (t *Table) addMetadataColumns(names []string) error {
	read := &schema.Schema{ID: t.ReadSchema.ID, Fields: append([]*schema.Field(nil), t.ReadSchema.Fields...), IdentifierFieldIDs: t.ReadSchema.IdentifierFieldIDs}
	var add []string
	for _, n := range names {
		if read.FindByName(n, false) == nil { // a column of the table's own keeps its name
			add = append(add, n)
		}
	}
	ids, err := metadataFieldIDs(add, t.usedFieldIDs())
	if err != nil {
		return err
	}
	t.metaIDs = ids
	done := map[string]bool{}
	for _, n := range add {
		if !done[n] {
			done[n] = true
			read.Fields = append(read.Fields, metadataField(n, ids[n], t.partitionType))
		}
	}
	// A fresh Schema: the lookups above cached read's field index before the
	// metadata fields were appended.
	read = &schema.Schema{ID: read.ID, Fields: read.Fields, IdentifierFieldIDs: read.IdentifierFieldIDs}
	t.ReadSchema = read
	for i := range t.Files {
		tf := &t.Files[i]
		c := make(map[int]any, len(tf.Task.Constants)+3)
		for k, v := range tf.Task.Constants {
			c[k] = v
		}
		for n, id := range ids {
			switch n {
			case ColumnFile:
				p := tf.Task.StoredPath
				if p == "" {
					p = tf.Path
				}
				c[id] = p
			case ColumnPos:
				tf.Task.PosFieldID = id
			case ColumnDeleted:
				tf.Task.DeletedFieldID = id
			case ColumnSpecID:
				c[id] = int32(tf.Task.SpecID)
			case ColumnPartition:
				part := make(map[int]any, len(tf.partition))
				for _, pf := range read.FindByID(id).Type.(*schema.StructType).Fields {
					if v, ok := tf.partition[pf.ID]; ok {
						part[pf.ID] = iceberg.WidenValue(v, pf.Type)
					}
				}
				c[id] = part
			}
		}
		tf.Task.Constants = c
	}
	return nil
}

// MetadataFieldID returns the field id the metadata column name (_file,
// _pos, _spec_id, _partition) has in this read, and whether the read has
// it. It is the Iceberg reserved id ([FieldIDFile], …) unless a schema of
// the table uses that id (Paimon's system columns do), then the highest
// free id below it.
func (t *Table) MetadataFieldID(name string) (int, bool) {
	id, ok := t.metaIDs[name]
	return id, ok
}

// usedFieldIDs returns every field id, at any depth, of the read schema,
// the schema history and every file's writer schema.
func (t *Table) usedFieldIDs() map[int]bool {
	used := map[int]bool{}
	add := func(s *schema.Schema) {
		if s == nil {
			return
		}
		schema.Walk(s.Fields, func(_ []string, f *schema.Field) bool {
			used[f.ID] = true
			return true
		})
	}
	add(t.ReadSchema)
	for _, s := range t.Schemas {
		add(s)
	}
	for i := range t.Files {
		add(t.Files[i].Task.FileSchema)
		add(t.Files[i].Task.ReadSchema)
	}
	return used
}

// Scan reads the table's files (concurrently, see [ScanFiles]) and yields
// their rows in the read schema, file by file in scan order.
func (t *Table) Scan(ctx context.Context) (array.RecordReader, error) {
	if t.opts.ListOnly {
		return nil, fmt.Errorf("%s table %s: %w", t.Format, t.Location, ErrListOnly)
	}
	planned, err := t.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	for _, f := range t.Files {
		if f.skip != "" {
			t.opts.Stats.add(filesSkipped, 1)
			t.opts.Stats.add(bytesSkippedFiles, max(f.Task.SizeBytes, 0))
			if f.skip == skipValueStats || f.skip == skipKeyStats {
				t.opts.Stats.add(filesSkippedStats, 1)
			}
		}
	}
	if t.icebergScan != nil {
		for _, mf := range t.icebergScan.SkippedManifests {
			t.opts.Stats.add(manifestsSkipped, 1)
			t.opts.Stats.add(filesSkipped, max(mf.Files, 0))
		}
	}
	if len(planned) == 0 {
		return array.NewRecordReader(schema.ToArrowSchema(t.OutputSchema()), nil)
	}
	rr, err := ScanTasks(ctx, t.opts.FS, planned, ScanOptions{Workers: t.opts.Workers, MemoryBytes: t.opts.MemoryBytes, Progress: t.opts.Progress},
		TaskOptions{BatchRows: t.opts.BatchRows, Allocator: t.opts.Allocator, Limits: t.opts.Limits, IgnoreDeletes: t.opts.IgnoreDeletes, Filter: t.opts.Filter, Stats: t.opts.Stats})
	if err != nil || t.out == nil {
		return rr, err
	}
	return newNarrowReader(rr, t.out), nil
}

// OutputSchema is the schema of the batches [Table.Scan] returns: the read
// schema, without the columns read only for the filter.
func (t *Table) OutputSchema() *schema.Schema {
	if t.out != nil {
		return t.out
	}
	return t.ReadSchema
}

// MayMatch reports whether file i (an index into Files) may hold a row the
// filter selects, from its constants alone ([TaskMayMatch]); true without
// a filter.
func (t *Table) MayMatch(i int) bool { return TaskMayMatch(t.Files[i].Task, t.filter) }

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
		return array.NewRecordReader(schema.ToArrowSchema(tasks[0].ReadSchema), nil)
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

func (o TableOptions) warn(format string, args ...any) {
	if o.Warn != nil {
		o.Warn(fmt.Sprintf(format, args...))
	}
}

func (o TableOptions) checkDeletes(err error) error {
	if err == nil || (o.ListOnly && !o.IgnoreDeletes) {
		return nil
	}
	if o.IgnoreDeletes {
		o.warn("ignoring delete files: %v; deleted rows are returned", err)
		return nil
	}
	return fmt.Errorf("%w: %w", ErrDeleteFiles, err)
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

func partitionString(m map[int]any, fields []*schema.Field) string {
	if len(m) == 0 {
		return ""
	}
	ids := make([]int, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	byID := make(map[int]*schema.Field, len(fields))
	for _, f := range fields {
		byID[f.ID] = f
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		f := byID[id]
		if f == nil {
			parts[i] = fmt.Sprintf("%d=%v", id, m[id])
			continue
		}
		parts[i] = f.Name + "=" + partitionValue(f.Type, m[id])
	}
	return strings.Join(parts, ",")
}

// partitionValue spells a partition value as Iceberg's JSON single-value
// form does (spec, Appendix D: dates, timestamps, decimals as text), strings
// without their quotes, null as "null".
func partitionValue(t schema.Type, v any) string {
	if v == nil {
		return "null"
	}
	b, err := schema.MarshalLiteral(t, iceberg.WidenValue(v, t))
	if err != nil {
		return fmt.Sprint(v)
	}
	var str string
	if json.Unmarshal(b, &str) == nil {
		return str
	}
	return string(b)
}

// tableRoot returns the folder of the table at location (table.Root).
func tableRoot(location string) string { return table.Root(location) }
