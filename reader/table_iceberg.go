package reader

import (
	"context"
	"errors"

	"github.com/lakecat/lakecat/table/iceberg"
)

func openIceberg(ctx context.Context, location string, opts TableOptions) (*Table, error) {
	tbl, err := iceberg.Open(ctx, opts.FS, location)
	if err != nil {
		return nil, err
	}
	so := iceberg.ScanOptions{SnapshotID: opts.SnapshotID, AsOf: opts.AsOf, PathMap: opts.Iceberg.PathMap, NoRebase: opts.Iceberg.NoRebase,
		Filter: opts.Filter}
	scan, err := tbl.Plan(ctx, so)
	if err != nil {
		return nil, err
	}
	var de *iceberg.DeletesError
	ignored := false
	if err := scan.DeletesError(); errors.As(err, &de) && opts.IgnoreDeletes {
		opts.warn("ignoring the delete files of snapshot %d (%s): deleted rows are returned", de.SnapshotID, de.Summary)
		ignored = true
	}
	md := scan.Metadata
	t := &Table{MetadataGuessed: tbl.Guessed, ReadSchema: scan.ReadSchema, Schemas: md.Schemas, CurrentSchemaID: md.CurrentSchemaID,
		partitionType: scan.PartitionType(scan.ReadSchema), icebergScan: scan}
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
		t.Files = append(t.Files, TableFile{
			Path: df.Path, Format: df.Format, RecordCount: df.RecordCount,
			Partition: partitionString(df.Partition, t.partitionType.Fields), SchemaID: -1,
			partition: df.Partition, Task: task, Deletes: deletes, metrics: df.Metrics, dataFile: df,
		})
	}
	return t, nil
}
