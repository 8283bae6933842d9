package reader

import (
	"context"
	"fmt"

	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/reader/internal/hudi"
	"github.com/lakecat/lakecat/schema"
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
		if !opts.IgnoreLogs && !opts.ListOnly {
			return nil, fmt.Errorf("%w: %w (--ignore-logs reads base files only)", ErrMergeOnRead, err)
		}
		if opts.IgnoreLogs {
			opts.warn("reading base files only: %v", err)
		}
	}
	t := &Table{ReadSchema: scan.Schema, Schemas: []*schema.Schema{scan.Schema}, CurrentSchemaID: scan.Schema.ID}
	for i := range scan.BaseFiles {
		bf := &scan.BaseFiles[i]
		ws, err := scan.WriterSchema(ctx, bf)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", bf.Path, err)
		}
		t.Files = append(t.Files, TableFile{
			Path: bf.Path, Format: bf.Format, RecordCount: -1, Partition: bf.Partition, SchemaID: -1,
			task: FileTask{Name: bf.Path, Open: openTask(opts.FS, bf.Path), Options: Options{
				ReadSchema: scan.Schema, WriterSchema: ws, Rules: project.Hudi,
			}},
		})
	}
	return t, nil
}
