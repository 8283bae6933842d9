package table

import (
	"context"
	"iter"
	"time"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/schema"
)

// Table is a table of one format, opened at a location: its schemas and
// snapshots, and scans of its rows planned into tasks. table/iceberg,
// table/paimon and table/hudi implement it; table/open opens a table of
// whichever format a location holds.
type Table interface {
	// Format is the table's format.
	Format() Format
	// Location is the folder, URL prefix or metadata file the table was
	// opened at.
	Location() string
	// Schemas returns the table's schemas, oldest first, and the id of the
	// current one (for Paimon, of the main branch; for Hudi, the schema
	// of the latest completed commit, the only one).
	Schemas(ctx context.Context) ([]*schema.Schema, int, error)
	// Snapshots returns the table's snapshots, oldest first, as far as the
	// format has them: Iceberg's snapshots, Paimon's snapshot-N files of
	// the main branch, Hudi's completed instants of the active timeline.
	Snapshots(ctx context.Context) ([]Snapshot, error)
	// NewScan returns a scan of the table. Nothing is read until one of
	// its methods is called; options that do not apply to the table's
	// format are refused then, with [ErrInvalidOption].
	NewScan(opts ScanOptions) Scan
}

// Snapshot is one version of a table's data.
type Snapshot struct {
	// ID is the snapshot id (Iceberg snapshot-id, Paimon's N of
	// snapshot-N, Hudi's instant time as a number).
	ID int64
	// Time is when the snapshot was committed (zero when not recorded).
	Time time.Time
	// SchemaID is the id of the schema the snapshot was written with (-1:
	// not recorded).
	SchemaID int
}

// Scan is a planned read of a table. Its methods plan once, on the first
// call, and give the same answer after (an Iceberg scan's Tasks plans
// again on each call, to stream, and gives the same tasks).
type Scan interface {
	// Plan returns the scan's tasks in scan order: one per live data
	// file or file slice, a Paimon merge section's files as one task, and
	// a Parquet or ORC file larger than [ScanOptions.SplitBytes] as one
	// task per run of its row groups or stripes of about that many bytes
	// ([SplitTask]; this reads those files' footers). Files the filter rules out without opening them are
	// left out. The tasks are values: encode them with json.Marshal and
	// read them anywhere with reader.ReadTask. A scan with
	// [ScanOptions.ListOnly] returns [ErrListOnly].
	Plan(ctx context.Context) ([]Task, error)
	// Tasks yields the tasks of Plan one by one, in the same order; the
	// first error ends the sequence. For Iceberg it streams (each call
	// plans again): a data manifest's tasks are yielded once it is read,
	// without holding every task, and stopping early stops reading
	// manifests. Other formats plan whole, then yield.
	Tasks(ctx context.Context) iter.Seq2[Task, error]
	// Files returns what planning knows of every live file: the read
	// schema, the schema history and each file with its task, partition,
	// delete files and place in a Paimon LSM tree, including the files
	// the filter rules out ([File.Skip]). It works with ListOnly too.
	Files(ctx context.Context) (*Listing, error)
	// Units splits the scan's planning into [Unit] values, in scan order,
	// for workers to plan each with table/open's UnitTasks: for Iceberg,
	// the manifest list is read here and pruned by the filter, and each
	// unit holds consecutive data manifests of at most
	// [ScanOptions.UnitBytes] bytes (none for a table without snapshots);
	// other formats are one unit. The tasks of the units, in order, are
	// those of Plan. Errors are those of Plan's first step (the snapshot,
	// the manifest list, the options); a scan with
	// [ScanOptions.ListOnly] returns [ErrListOnly].
	Units(ctx context.Context) ([]Unit, error)
}

// ScanOptions configure a [Scan]. The zero value reads the current
// snapshot in the current schema, every column, every row.
type ScanOptions struct {
	// SnapshotID reads that snapshot (Iceberg, Paimon) with the schema it
	// was written with (Iceberg) instead of the current one; refused for
	// Hudi, which is read by AsOf.
	SnapshotID *int64
	// AsOf reads the latest snapshot committed at or before this time
	// (Iceberg; for Hudi, the latest instant at or before it); refused
	// for Paimon, which is read by SnapshotID.
	AsOf time.Time
	// Columns restricts the read schema to these dotted paths, its
	// top-level columns in the order the paths first name them. A metadata
	// column name (_file, _pos, _deleted, _spec_id, _partition) among them
	// is taken as if listed in MetadataColumns, at its place in Columns;
	// when Columns names only metadata columns, every table column is read
	// and they follow.
	Columns []string
	// MetadataColumns adds metadata columns to the read schema, after the
	// table's columns, in this order, with the reserved field ids of the
	// Iceberg spec ([FieldIDFile], …) where no schema of the table uses
	// them ([Listing.MetadataFieldIDs]). For Paimon and Hudi tables
	// _spec_id is 0 and _partition is an empty struct.
	MetadataColumns []string
	// Filter leaves out the files that cannot hold a row it selects, by
	// their partition values and, for Iceberg, the partition transforms,
	// manifest summaries and column metrics, for Paimon the value and key
	// statistics of the manifest entries; it is bound by field id to
	// the table's read schema before Columns narrows it (a column it uses
	// that Columns leaves out is read too: [Listing.OutputSchema] drops
	// it). Rows are not filtered here: the reader applies the filter.
	// Binding errors are [expr.ErrUnknownColumn] and [expr.ErrType].
	Filter expr.Expr
	// SplitBytes is the size above which a Parquet or ORC file is split at
	// row-group or stripe boundaries (0: [DefaultSplitBytes]; negative:
	// never).
	SplitBytes int64
	// FooterBytes caps the Parquet footer read to split a file (0: the
	// decoder's default cap).
	FooterBytes int64
	// IgnoreDeletes plans a snapshot with delete files as if it had none
	// (Iceberg position and equality deletes and deletion vectors; Paimon
	// deletion vectors, which a raw read of a primary-key table outside
	// deletion-vector mode refuses otherwise); Warn is told. Refused for
	// Hudi, whose deletes are log records ([hudi.Options] IgnoreLogs).
	IgnoreDeletes bool
	// ListOnly plans to list schemas and live files, never to read rows:
	// what a read would refuse (delete files, a Paimon primary key that
	// cannot be merged, Hudi log files that cannot be merged) is accepted
	// and the files are listed as stored, with no warning. [Scan.Plan]
	// and [Scan.Tasks] return [ErrListOnly]; [Scan.Files] works.
	ListOnly bool
	// Warn receives warnings (deletes ignored, a raw read); nil drops them.
	Warn func(msg string)
	// UnitBytes is how many bytes of Iceberg data manifests one of
	// [Scan.Units] holds at most: consecutive manifests are grouped up to
	// it, a larger one is a unit alone (0: [DefaultUnitBytes]; negative:
	// one unit per manifest).
	UnitBytes int64
	// Options are the options of the table's format: iceberg.Options,
	// paimon.Options or hudi.Options (nil: that format's defaults).
	// Options of another format are refused with [ErrInvalidOption],
	// naming them and the table's format.
	Options FormatOptions
}

// FormatOptions are the options of one table format's scans:
// iceberg.Options, paimon.Options or hudi.Options.
type FormatOptions interface {
	// TableFormat is the format the options are for.
	TableFormat() Format
	// Set names the options that are set (not their zero value), by
	// their Go field names, for errors.
	Set() []string
}

// DefaultSplitBytes is the size in bytes above which a scan splits a
// Parquet file at row-group boundaries and an ORC file at stripe
// boundaries: 128 MiB.
const DefaultSplitBytes = 128 << 20

// Listing is what planning a scan knows of the table and its live files.
type Listing struct {
	// Format is the table format and Location where it was opened.
	Format   Format
	Location string
	// MetadataGuessed reports that no version hint named the Iceberg
	// metadata file read and the highest version was taken.
	MetadataGuessed bool
	// ReadSchema is the schema of every task: the chosen columns, the
	// columns only the filter uses, and the metadata columns.
	ReadSchema *schema.Schema
	// OutputSchema is ReadSchema without the columns only the filter uses:
	// the schema rows are returned in.
	OutputSchema *schema.Schema
	// Schemas are the table's schemas (of the branch read), oldest first;
	// CurrentSchemaID names the current one.
	Schemas         []*schema.Schema
	CurrentSchemaID int
	// Files are the live data files (Hudi: file slices) in scan order.
	Files []File
	// MetadataFieldIDs maps each metadata column of the read to its field
	// id in ReadSchema.
	MetadataFieldIDs map[string]int
	// Filter is ScanOptions.Filter bound to ReadSchema, or nil (no filter,
	// or one that selects every row).
	Filter *expr.Bound
	// ManifestsSkipped counts the Iceberg data manifests the filter ruled
	// out by the manifest list's partition summaries (not read: their
	// files are not in Files), and ManifestFilesSkipped the files they
	// list, as far as the manifest list counts them.
	ManifestsSkipped     int
	ManifestFilesSkipped int64
}

// File is one live data file of a scan.
type File struct {
	// Path is the file's path for the table's FS.
	Path string
	// Format is "PARQUET", "ORC" or "AVRO".
	Format string
	// RecordCount is the number of rows the table metadata records (-1:
	// unknown).
	RecordCount int64
	// Partition describes the partition values, "name=value,…" in
	// partition field id order ("" for none; a Hudi partition path).
	Partition string
	// PartitionValues maps partition field id to value (the _partition
	// metadata column), or nil.
	PartitionValues map[int]any
	// SchemaID is the id of the schema the file was written with, where the
	// table format records it (Paimon), else -1.
	SchemaID int64
	// Deletes are the delete files that apply to the file, as planned:
	// also when ScanOptions.IgnoreDeletes leaves them out of Task.
	Deletes []DeleteFile
	// Task is the file's read. A large Parquet file may be split into
	// several tasks by [Scan.Plan].
	Task Task
	// LSM is the file's place in its bucket's LSM tree when a Paimon
	// primary-key table is read merged, else nil.
	LSM *LSMFile
	// InMerge reports that the file is read by the merge task of its
	// section's first file (Task.Merge), not by a task of its own.
	InMerge bool
	// Skip says why the filter rules the file out without opening it —
	// "partition values", "column metrics" (Iceberg), [SkipValueStats] or
	// [SkipKeyStats] (Paimon) — or is "".
	Skip string
}

// The reasons [File.Skip] gives for a Paimon data file ruled out by the
// statistics in its manifest entry: those of its value columns
// (_VALUE_STATS) or of its trimmed primary key (_KEY_STATS).
const (
	SkipValueStats = "value statistics"
	SkipKeyStats   = "key statistics"
)

// LSMFile is a Paimon primary-key table file's place in its bucket's LSM
// tree, as the merged read uses it.
type LSMFile struct {
	// Bucket is the bucket; Level the file's LSM level.
	Bucket, Level int
	// Section is the index of the file's section (files of overlapping key
	// ranges) in its bucket, Run the index of its sorted run in the section.
	Section, Run int
	// Merged reports whether the section is merged on read; a section of
	// one file of inserts only streams as stored.
	Merged bool
	// Runs is the number of sorted runs in the section.
	Runs int
}

var (
	// ErrInvalidOption is matched by the error for a scan option the
	// table's format does not have (paimon.Options on an Iceberg table, a
	// snapshot id on a Hudi table, …); the error names the option and the
	// format.
	ErrInvalidOption = lakecat.NewSentinel(lakecat.ErrInvalidArgument, "table: option does not apply to this table format")
	// ErrDeleteFiles is matched by the error for a snapshot whose delete
	// files a read does not apply (Paimon deletion vectors in raw mode);
	// ScanOptions.IgnoreDeletes reads anyway.
	ErrDeleteFiles = lakecat.NewSentinel(lakecat.ErrUnsupported, "table: table has delete files")
	// ErrPrimaryKeyTable is matched by the error for a Paimon primary-key
	// table that cannot be read merged (merge options lakecat cannot
	// apply; a primary-key fallback branch of an append table whose
	// buckets need a merge); paimon.Options Raw reads every stored row
	// with its system columns.
	ErrPrimaryKeyTable = lakecat.NewSentinel(lakecat.ErrUnsupported, "table: primary-key table needs merge on read")
	// ErrMergeOnRead is matched by the error for a Hudi table whose file
	// slices' log files cannot be merged (a record merge mode or payload
	// class the merge does not implement); hudi.Options IgnoreLogs reads
	// base files only.
	ErrMergeOnRead = lakecat.NewSentinel(lakecat.ErrUnsupported, "table: merge-on-read table has log files")
	// ErrListOnly is returned by [Scan.Plan] and [Scan.Tasks] of a scan
	// with [ScanOptions.ListOnly].
	ErrListOnly = lakecat.NewSentinel(lakecat.ErrInvalidArgument, "table: scan planned to list files, not to read rows")
)

// TaskMayMatch reports whether task may hold a row the filter (bound to
// task.ReadSchema) selects, judged only from what the task states, without
// opening its file: its constants (identity-partition values, _file,
// _spec_id). Other fields may match anything.
func TaskMayMatch(task Task, filter *expr.Bound) bool {
	if filter == nil || task.ReadSchema == nil {
		return true
	}
	top := map[int]bool{}
	for _, f := range task.ReadSchema.Fields {
		top[f.ID] = true
	}
	return filter.MayMatch(func(id int) (expr.Stats, bool) {
		v, ok := task.Constants[id]
		if !ok || !top[id] {
			return expr.Stats{}, false
		}
		return expr.ConstantStats(v, -1), true
	})
}
