package iceberg

import (
	"context"
	"errors"
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
// the tasks with opts.IgnoreDeletes (Warn is told).
func (t *Table) NewScan(opts table.ScanOptions) table.Scan {
	return scanplan.New(t.FS, table.Iceberg, t.Location(), opts, func(ctx context.Context) (*scanplan.Listed, error) {
		return t.list(ctx, opts)
	})
}

func (t *Table) list(ctx context.Context, opts table.ScanOptions) (*scanplan.Listed, error) {
	o, err := scanplan.Options[Options](table.Iceberg, opts.Options)
	if err != nil {
		return nil, err
	}
	scan, err := t.Plan(ctx, ScanOptions{SnapshotID: opts.SnapshotID, AsOf: opts.AsOf, PathMap: o.PathMap, NoRebase: o.NoRebase, Filter: opts.Filter})
	if err != nil {
		return nil, err
	}
	var de *DeletesError
	ignored := false
	if err := scan.DeletesError(); errors.As(err, &de) && opts.IgnoreDeletes {
		scanplan.Warn(opts, "ignoring the delete files of snapshot %d (%s): deleted rows are returned", de.SnapshotID, de.Summary)
		ignored = true
	}
	md := scan.Metadata
	ptype := scan.PartitionType(scan.ReadSchema)
	l := &table.Listing{MetadataGuessed: t.Guessed, ReadSchema: scan.ReadSchema, Schemas: md.Schemas, CurrentSchemaID: md.CurrentSchemaID}
	for _, mf := range scan.SkippedManifests {
		l.ManifestsSkipped++
		l.ManifestFilesSkipped += max(mf.Files, 0)
	}
	for i := range scan.DataFiles {
		df := &scan.DataFiles[i]
		task, err := scan.Task(df, nil)
		if err != nil {
			return nil, err
		}
		deletes := task.Deletes
		if ignored {
			task.Deletes, task.DeleteSchema, task.Paths = nil, nil, nil
		}
		l.Files = append(l.Files, table.File{
			Path: df.Path, Format: df.Format, RecordCount: df.RecordCount,
			Partition: scanplan.PartitionString(df.Partition, ptype.Fields), PartitionValues: df.Partition, SchemaID: -1,
			Task: task, Deletes: deletes,
		})
	}
	var byID map[int]*schema.Field // the read schema's fields by id, built once
	return &scanplan.Listed{Listing: l, PartitionType: ptype, Prune: func(i int, filter *expr.Bound, read *schema.Schema) string {
		if byID == nil {
			byID = fieldsByID(read)
		}
		return scan.fileSkip(&scan.DataFiles[i], filter, read, byID)
	}}, nil
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

// fieldsByID indexes the fields of s, at any depth, by field id (the first
// of a duplicated id).
func fieldsByID(s *schema.Schema) map[int]*schema.Field {
	m := map[int]*schema.Field{}
	schema.Walk(s.Fields, func(_ []string, f *schema.Field) bool {
		if _, dup := m[f.ID]; !dup && f.ID != schema.NoID {
			m[f.ID] = f
		}
		return true
	})
	return m
}
