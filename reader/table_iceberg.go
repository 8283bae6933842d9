package reader

import (
	"context"

	"github.com/lakecat/lakecat/table/iceberg"
)

func openIceberg(ctx context.Context, location string, opts TableOptions) (*Table, error) {
	tbl, err := iceberg.Open(ctx, opts.FS, location)
	if err != nil {
		return nil, err
	}
	so := iceberg.ScanOptions{SnapshotID: opts.SnapshotID, AsOf: opts.AsOf, PathMap: opts.Iceberg.PathMap, NoRebase: opts.Iceberg.NoRebase}
	scan, err := tbl.Plan(ctx, so)
	if err != nil {
		return nil, err
	}
	if err := opts.checkDeletes(scan.DeletesError()); err != nil {
		return nil, err
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
		t.Files = append(t.Files, TableFile{
			Path: df.Path, Format: df.Format, RecordCount: df.RecordCount,
			Partition: partitionString(df.Partition, t.partitionType.Fields), SchemaID: -1,
			partition: df.Partition, Task: task, metrics: df.Metrics, dataFile: df,
		})
	}
	return t, nil
}
