package reader

import (
	"context"

	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/reader/internal/iceberg"
)

func openIceberg(ctx context.Context, location string, opts TableOptions) (*Table, error) {
	tbl, err := iceberg.Open(ctx, opts.FS, location)
	if err != nil {
		return nil, err
	}
	so := iceberg.ScanOptions{SnapshotID: opts.SnapshotID, AsOf: opts.AsOf, NoRebase: opts.NoRebase}
	for _, r := range opts.PathMap {
		rule, err := iceberg.ParsePathRule(r)
		if err != nil {
			return nil, err
		}
		so.PathMap = append(so.PathMap, rule)
	}
	scan, err := tbl.Plan(ctx, so)
	if err != nil {
		return nil, err
	}
	if err := opts.checkDeletes(scan.DeletesError()); err != nil {
		return nil, err
	}
	md := scan.Metadata
	nm, err := md.NameMapping()
	if err != nil {
		return nil, err
	}
	rules := project.IcebergV2
	if md.FormatVersion >= 3 {
		rules = project.IcebergV3
	}
	t := &Table{ReadSchema: scan.ReadSchema, Schemas: md.Schemas, CurrentSchemaID: md.CurrentSchemaID,
		partitionType: scan.PartitionType(scan.ReadSchema)}
	for i := range scan.DataFiles {
		df := &scan.DataFiles[i]
		t.Files = append(t.Files, TableFile{
			Path: df.Path, Format: df.Format, RecordCount: df.RecordCount,
			Partition: partitionString(df.Partition, t.partitionType.Fields), SchemaID: -1,
			storedPath: df.StoredPath, specID: df.SpecID, partition: df.Partition,
			task: FileTask{Name: df.Path, Open: openTask(opts.FS, df.Path), Options: Options{
				ReadSchema: scan.ReadSchema, NameMapping: nm, Rules: rules,
				Constants: scan.IdentityConstants(df, scan.ReadSchema),
			}},
		})
	}
	return t, nil
}
