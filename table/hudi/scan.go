package hudi

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/internal/scanplan"
)

// Options are the Hudi options of a [table.ScanOptions].
type Options struct {
	// IgnoreLogs reads a merge-on-read table's base files only, as stored
	// (without it their file slices' log files are merged onto them).
	IgnoreLogs bool
}

// TableFormat is [table.Hudi].
func (Options) TableFormat() table.Format { return table.Hudi }

// Set names the options that are set.
func (o Options) Set() []string {
	if o.IgnoreLogs {
		return []string{"IgnoreLogs"}
	}
	return nil
}

// Format is [table.Hudi]: *Table is a [table.Table].
func (t *Table) Format() table.Format { return table.Hudi }

// Location is the table folder as Open was given it.
func (t *Table) Location() string { return t.opened }

// Schemas returns the table schema at the latest completed instant (the
// one schema a Hudi table is read in) and its id.
func (t *Table) Schemas(ctx context.Context) ([]*schema.Schema, int, error) {
	s, err := t.Plan(ctx, ScanOptions{})
	if err != nil {
		return nil, 0, err
	}
	return []*schema.Schema{s.Schema}, s.Schema.ID, nil
}

// Snapshots returns the completed data instants of the active timeline,
// oldest first: ID is the instant time as a number (yyyyMMddHHmmssSSS),
// Time that time read in UTC.
func (t *Table) Snapshots(ctx context.Context) ([]table.Snapshot, error) {
	instants, _, _, err := readTimeline(ctx, t.FS, t.Root)
	if err != nil {
		return nil, err
	}
	out := make([]table.Snapshot, 0, len(instants))
	for _, in := range instants {
		id, err := strconv.ParseInt(in.Time, 10, 64)
		if err != nil {
			continue
		}
		at, _ := time.Parse("20060102150405", in.Time[:min(len(in.Time), 14)])
		if len(in.Time) == 17 {
			ms, _ := strconv.Atoi(in.Time[14:])
			at = at.Add(time.Duration(ms) * time.Millisecond)
		}
		out = append(out, table.Snapshot{ID: id, Time: at, SchemaID: -1})
	}
	return out, nil
}

// NewScan returns a scan of the table: one task per latest file slice, its
// log files merged onto its base file ([Scan.SliceTask]), or with
// Options.IgnoreLogs the base files alone (Warn is told when that leaves
// log files unread, and slices of log files only are left out). It
// refuses a merge it cannot plan ([table.ErrMergeOnRead]), SnapshotID (a
// Hudi table is read as of an instant, AsOf) and IgnoreDeletes
// ([table.ErrInvalidOption]).
func (t *Table) NewScan(opts table.ScanOptions) table.Scan {
	return scanplan.New(t.FS, table.Hudi, t.opened, opts, func(ctx context.Context) (*scanplan.Listed, error) {
		return t.list(ctx, opts)
	})
}

func (t *Table) list(ctx context.Context, opts table.ScanOptions) (*scanplan.Listed, error) {
	o, err := scanplan.Options[Options](table.Hudi, opts.Options)
	if err != nil {
		return nil, err
	}
	if err := scanplan.Refuse(opts.SnapshotID != nil, table.Hudi, "SnapshotID", "a Hudi table is read as of a time (AsOf), not a snapshot id"); err != nil {
		return nil, err
	}
	if err := scanplan.Refuse(opts.IgnoreDeletes, table.Hudi, "IgnoreDeletes", "a Hudi table has no delete files (its deletes are log records; IgnoreLogs leaves the logs unread)"); err != nil {
		return nil, err
	}
	so := ScanOptions{IgnoreLogs: o.IgnoreLogs}
	if !opts.AsOf.IsZero() {
		so.AsOfInstant = InstantTime(opts.AsOf)
	}
	scan, err := t.Plan(ctx, so)
	if err != nil {
		return nil, err
	}
	l := &table.Listing{ReadSchema: scan.Schema, Schemas: []*schema.Schema{scan.Schema}, CurrentSchemaID: scan.Schema.ID}
	listed := &scanplan.Listed{Listing: l}
	if o.IgnoreLogs {
		if err := scan.LogsError(); err != nil {
			scanplan.Warn(opts, "reading base files only: %v", err)
		}
		for i := range scan.BaseFiles {
			bf := &scan.BaseFiles[i]
			task, err := scan.Task(ctx, bf)
			if err != nil {
				return nil, err
			}
			l.Files = append(l.Files, table.File{
				Path: bf.Path, Format: bf.Format, RecordCount: -1, Partition: bf.Partition, SchemaID: -1, Task: task,
			})
		}
		return listed, nil
	}
	for i := range scan.FileSlices {
		fs := &scan.FileSlices[i]
		task, err := scan.SliceTask(ctx, fs)
		if err != nil && opts.ListOnly {
			// Listing only: a merge the scan would refuse still lists
			// the base file (a slice of log files only has none).
			if fs.Base == nil {
				continue
			}
			task, err = scan.Task(ctx, fs.Base)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", table.ErrMergeOnRead, err)
		}
		l.Files = append(l.Files, table.File{
			Path: task.Path, Format: task.Format, RecordCount: -1, Partition: fs.Partition, SchemaID: -1, Task: task,
		})
	}
	return listed, nil
}
