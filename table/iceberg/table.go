package iceberg

import (
	"context"
	"errors"
	"iter"
	"time"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/internal/scanplan"
)

// Options are the Iceberg options of a [table.ScanOptions].
type Options struct {
	// PathMap rewrites data file paths stored in the metadata that point to
	// another warehouse root (the longest Old prefix wins; see [PathMap]).
	PathMap PathMap
	// NoRebase turns off re-rooting stored paths under the table location
	// recorded in the metadata at the opened folder; with it, only PathMap
	// rewrites paths.
	NoRebase bool
}

// TableFormat is [table.Iceberg].
func (Options) TableFormat() table.Format { return table.Iceberg }

// Set names the options that are set.
func (o Options) Set() []string {
	var out []string
	if len(o.PathMap) > 0 {
		out = append(out, "PathMap")
	}
	if o.NoRebase {
		out = append(out, "NoRebase")
	}
	return out
}

// Format is [table.Iceberg]: *Table is a [table.Table].
func (t *Table) Format() table.Format { return table.Iceberg }

// Location is the folder or metadata file the table was opened at (for a
// table from [FromMetadata], its metadata file).
func (t *Table) Location() string {
	if t.opened != "" {
		return t.opened
	}
	return t.MetadataPath
}

// Schemas returns the metadata's schemas and current-schema-id.
func (t *Table) Schemas(context.Context) ([]*schema.Schema, int, error) {
	return t.Metadata.Schemas, t.Metadata.CurrentSchemaID, nil
}

// Snapshots returns the metadata's snapshots in their stored order.
func (t *Table) Snapshots(context.Context) ([]table.Snapshot, error) {
	out := make([]table.Snapshot, len(t.Metadata.Snapshots))
	for i, s := range t.Metadata.Snapshots {
		out[i] = table.Snapshot{ID: s.SnapshotID, Time: time.UnixMilli(s.TimestampMs).UTC(), SchemaID: -1}
		if s.SchemaID != nil {
			out[i].SchemaID = *s.SchemaID
		}
	}
	return out, nil
}

// NewScan returns a scan of the table ([Table.Plan], one task per live
// data file with the delete files that apply, [Scan.Task]). Its options
// are [Options]; delete files are planned per data file and left out of
// the tasks with opts.IgnoreDeletes (Warn is told). Its Tasks streams
// ([Table.Tasks]): each data manifest's tasks are yielded once it is read,
// the same tasks in the same order as its Plan.
func (t *Table) NewScan(opts table.ScanOptions) table.Scan {
	return scanplan.NewStreaming(t.FS, table.Iceberg, t.Location(), opts, func(ctx context.Context) (*scanplan.Listed, error) {
		return t.list(ctx, opts)
	}, func(ctx context.Context) (*scanplan.Stream, error) {
		return t.stream(ctx, opts)
	}, func(ctx context.Context, base table.UnitOptions) (*scanplan.Stream, []table.Unit, error) {
		return t.units(ctx, opts, base)
	})
}

// scanOptions returns the Iceberg scan options of opts, whose Iceberg
// options are o.
func scanOptions(opts table.ScanOptions, o Options) ScanOptions {
	return ScanOptions{SnapshotID: opts.SnapshotID, AsOf: opts.AsOf, PathMap: o.PathMap, NoRebase: o.NoRebase, Filter: opts.Filter}
}

func (t *Table) list(ctx context.Context, opts table.ScanOptions) (*scanplan.Listed, error) {
	o, err := scanplan.Options[Options](table.Iceberg, opts.Options)
	if err != nil {
		return nil, err
	}
	scan, err := t.Plan(ctx, scanOptions(opts, o))
	if err != nil {
		return nil, err
	}
	ignored := scan.ignoreDeletes(opts)
	ptype := scan.PartitionType(scan.ReadSchema)
	l := scan.listing()
	for _, mf := range scan.SkippedManifests {
		l.ManifestsSkipped++
		l.ManifestFilesSkipped += max(mf.Files, 0)
	}
	for i := range scan.DataFiles {
		f, err := scan.file(&scan.DataFiles[i], ptype, ignored)
		if err != nil {
			return nil, err
		}
		l.Files = append(l.Files, f)
	}
	var byID map[int]*schema.Field // the read schema's fields by id, built once
	return &scanplan.Listed{Listing: l, PartitionType: ptype, Prune: func(i int, filter *expr.Bound, read *schema.Schema) string {
		if byID == nil {
			byID = read.FieldsByID()
		}
		return scan.fileSkip(&scan.DataFiles[i], filter, read, byID)
	}}, nil
}

// stream is list one data file at a time ([Table.streamFiles]): the same
// files, tasks and pruning. The metadata columns' field ids it leaves to
// scanplan are chosen from the listing's schemas alone, as list's are:
// an Iceberg task has no FileSchema, and its read schema is one of the
// metadata's schemas.
func (t *Table) stream(ctx context.Context, opts table.ScanOptions) (*scanplan.Stream, error) {
	o, err := scanplan.Options[Options](table.Iceberg, opts.Options)
	if err != nil {
		return nil, err
	}
	scan, files, err := t.streamFiles(ctx, scanOptions(opts, o))
	if err != nil {
		return nil, err
	}
	return t.streamOf(scan, opts, files), nil
}

// streamOf is the stream of the scan's data files files.
func (t *Table) streamOf(scan *Scan, opts table.ScanOptions, files iter.Seq2[*DataFile, error]) *scanplan.Stream {
	ignored := scan.ignoreDeletes(opts)
	ptype := scan.PartitionType(scan.ReadSchema)
	var byID map[int]*schema.Field // the read schema's fields by id, built once
	return &scanplan.Stream{Listing: scan.listing(), PartitionType: ptype, Files: func(yield func(scanplan.StreamedFile, error) bool) {
		for df, err := range files {
			if err != nil {
				yield(scanplan.StreamedFile{}, err)
				return
			}
			f, err := scan.file(df, ptype, ignored)
			if err != nil {
				yield(scanplan.StreamedFile{}, err)
				return
			}
			prune := func(filter *expr.Bound, read *schema.Schema) string {
				if byID == nil {
					byID = read.FieldsByID()
				}
				return scan.fileSkip(df, filter, read, byID)
			}
			if !yield(scanplan.StreamedFile{File: f, Prune: prune}, nil) {
				return
			}
		}
	}}
}

// ignoreDeletes reports whether the scan's delete files are left out of
// its tasks (opts.IgnoreDeletes and the snapshot has some; Warn is told).
func (s *Scan) ignoreDeletes(opts table.ScanOptions) bool {
	var de *DeletesError
	if err := s.DeletesError(); errors.As(err, &de) && opts.IgnoreDeletes {
		scanplan.Warn(opts, "ignoring the delete files of snapshot %s (%s): deleted rows are returned", de.ID(), de.Summary)
		return true
	}
	return false
}

// listing returns the table listing of the scan without its files.
func (s *Scan) listing() *table.Listing {
	md := s.Metadata
	return &table.Listing{MetadataGuessed: s.Table.Guessed, ReadSchema: s.ReadSchema, Schemas: md.Schemas, CurrentSchemaID: md.CurrentSchemaID}
}

// file returns the listing's file of the data file df: its task
// ([Scan.Task]), without its delete files when ignored, and its partition
// (ptype, the _partition type, names its fields).
func (s *Scan) file(df *DataFile, ptype *schema.StructType, ignored bool) (table.File, error) {
	task, err := s.Task(df, nil)
	if err != nil {
		return table.File{}, err
	}
	deletes := task.Deletes
	if ignored {
		task.Deletes, task.DeleteSchema, task.Paths = nil, nil, nil
	}
	return table.File{
		Path: df.Path, Format: df.Format, RecordCount: df.RecordCount,
		Partition: scanplan.PartitionString(df.Partition, ptype.Fields), PartitionValues: df.Partition, SchemaID: -1,
		Task: task, Deletes: deletes,
	}, nil
}

// fileSkip returns why the filter rules out f without opening it — its
// partition values under the partition transforms ([Scan.PartitionMayMatch])
// or its column metrics in the manifest entry ([MetricsStats]) — or "".
func (s *Scan) fileSkip(f *DataFile, filter *expr.Bound, read *schema.Schema, byID map[int]*schema.Field) string {
	if !s.PartitionMayMatch(f, filter, read) {
		return "partition values"
	}
	if f.Metrics == nil {
		return ""
	}
	ok := filter.MayMatch(func(id int) (expr.Stats, bool) {
		rf := byID[id]
		if rf == nil || id >= reservedFieldIDs {
			return expr.Stats{}, false
		}
		return MetricsStats(f.Metrics, f.RecordCount, rf)
	})
	if !ok {
		return "column metrics"
	}
	return ""
}

// reservedFieldIDs is the lowest field id the Iceberg spec reserves for
// metadata columns (spec, "Reserved Field IDs": 2147483447 and above).
const reservedFieldIDs = 2147483447
