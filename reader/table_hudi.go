package reader

import (
	"context"
	"fmt"

	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/hudi"
)

// openHudi plans a Hudi table read: one task per latest file slice, its
// log files merged onto its base file ([hudi.Scan.SliceTask]), or with
// opts.Hudi.IgnoreLogs the base files alone (Warn is told when that leaves
// log files unread, and slices of log files only are left out).
func openHudi(ctx context.Context, location string, opts TableOptions) (*Table, error) {
	tbl, err := hudi.Open(ctx, opts.FS, location)
	if err != nil {
		return nil, err
	}
	so := hudi.ScanOptions{}
	if !opts.AsOf.IsZero() {
		so.AsOfInstant = hudi.InstantTime(opts.AsOf)
	}
	scan, err := tbl.Plan(ctx, so)
	if err != nil {
		return nil, err
	}
	t := &Table{ReadSchema: scan.Schema, Schemas: []*schema.Schema{scan.Schema}, CurrentSchemaID: scan.Schema.ID}
	if opts.Hudi.IgnoreLogs {
		if err := scan.LogsError(); err != nil {
			opts.warn("reading base files only: %v", err)
		}
		for i := range scan.BaseFiles {
			bf := &scan.BaseFiles[i]
			task, err := scan.Task(ctx, bf)
			if err != nil {
				return nil, err
			}
			t.Files = append(t.Files, TableFile{
				Path: bf.Path, Format: bf.Format, RecordCount: -1, Partition: bf.Partition, SchemaID: -1, Task: task,
			})
		}
		return t, nil
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
			return nil, fmt.Errorf("%w: %w", ErrMergeOnRead, err)
		}
		t.Files = append(t.Files, TableFile{
			Path: task.Path, Format: task.Format, RecordCount: -1, Partition: fs.Partition, SchemaID: -1, Task: task,
		})
	}
	return t, nil
}
