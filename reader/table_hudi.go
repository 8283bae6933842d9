package reader

import (
	"context"
	"fmt"

	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/hudi"
)

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
	if err := scan.LogsError(); err != nil {
		if !opts.Hudi.IgnoreLogs && !opts.ListOnly {
			return nil, fmt.Errorf("%w: %w", ErrMergeOnRead, err)
		}
		if opts.Hudi.IgnoreLogs {
			opts.warn("reading base files only: %v", err)
		}
	}
	t := &Table{ReadSchema: scan.Schema, Schemas: []*schema.Schema{scan.Schema}, CurrentSchemaID: scan.Schema.ID}
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
