package reader

import (
	"context"
	"fmt"
	"time"

	"github.com/lakecat/lakecat/table/paimon"
)

func openPaimon(ctx context.Context, location string, opts TableOptions) (*Table, error) {
	tbl, err := paimon.Open(ctx, opts.FS, location, opts.Paimon.Branch)
	if err != nil {
		return nil, err
	}
	scan, err := tbl.Plan(ctx, paimon.ScanOptions{SnapshotID: opts.SnapshotID, SchemaID: opts.Paimon.SchemaID})
	if err != nil {
		return nil, err
	}
	// The primary key first: it is what a reader must know before anything
	// else; deletion vectors are refused next, in raw mode too.
	raw := false
	if err := scan.PrimaryKeyError(); err != nil {
		switch {
		case opts.Paimon.Raw:
			raw = true
		case !opts.ListOnly:
			return nil, fmt.Errorf("%w: %w", ErrPrimaryKeyTable, err)
		}
	}
	if err := opts.checkDeletes(scan.DeletesError()); err != nil {
		return nil, err
	}
	if !opts.Paimon.Raw && !opts.ListOnly {
		if err := scan.FallbackMergeError(ctx); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrPrimaryKeyTable, err)
		}
	}
	read := scan.Schema.Schema()
	if raw {
		read = paimon.WithSystemFields(read, scan.Schema)
	}
	t := &Table{ReadSchema: read, CurrentSchemaID: scan.Schema.ID}
	zone := ""
	if opts.Paimon.TimeZone != nil && opts.Paimon.TimeZone != time.UTC {
		zone = opts.Paimon.TimeZone.String()
	}
	ids, err := tbl.SchemaIDs(ctx, opts.Paimon.Branch)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		ps, err := tbl.Schema(ctx, opts.Paimon.Branch, id)
		if err != nil {
			return nil, err
		}
		t.Schemas = append(t.Schemas, ps.Schema())
	}
	for i := range scan.DataFiles {
		df := &scan.DataFiles[i]
		task, err := scan.Task(ctx, df, read, raw, zone)
		if err != nil {
			return nil, err
		}
		t.Files = append(t.Files, TableFile{
			Path: df.Path, Format: df.Format, RecordCount: df.RowCount,
			Partition: partitionString(df.Partition, task.FileSchema.Fields), SchemaID: df.SchemaID, Task: task,
		})
	}
	return t, nil
}
