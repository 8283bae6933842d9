package reader

import (
	"context"
	"errors"

	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/iceberg"
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
	ignored := false
	var de *iceberg.DeletesError
	if err := scan.DeletesError(); errors.As(err, &de) && opts.IgnoreDeletes {
		opts.warn("ignoring the delete files of snapshot %d (%s): deleted rows are returned", de.SnapshotID, de.Summary)
		ignored = true
	}
	md := scan.Metadata
	nm, err := md.NameMapping()
	if err != nil {
		return nil, err
	}
	rules := project.IcebergV2.String()
	if md.FormatVersion >= 3 {
		rules = project.IcebergV3.String()
	}
	paths := tbl.PathResolution(so)
	t := &Table{MetadataGuessed: tbl.Guessed, ReadSchema: scan.ReadSchema, Schemas: md.Schemas, CurrentSchemaID: md.CurrentSchemaID,
		partitionType: scan.PartitionType(scan.ReadSchema)}
	for i := range scan.DataFiles {
		df := &scan.DataFiles[i]
		var deletes []table.DeleteFile
		var taskPaths *table.PathResolution
		if !ignored {
			deletes = scan.DeletesFor(df)
			for _, d := range deletes {
				if d.Content == table.PositionDeletes {
					taskPaths = paths
				}
			}
		}
		t.Files = append(t.Files, TableFile{
			Path: df.Path, Format: df.Format, RecordCount: df.RecordCount,
			Partition: partitionString(df.Partition), SchemaID: -1,
			partition: df.Partition,
			Task: table.Task{
				Path: df.Path, StoredPath: df.StoredPath, Format: df.Format, SizeBytes: df.SizeBytes, RecordCount: df.RecordCount,
				FileSchemaID: -1, ReadSchema: scan.ReadSchema, NameMapping: nm, Rules: rules,
				Constants: scan.IdentityConstants(df, scan.ReadSchema), SpecID: df.SpecID,
				SequenceNumber: df.SequenceNumber, FileSequenceNumber: df.FileSequenceNumber,
				Deletes: deletes, DeleteSchema: iceberg.DeleteSchema(scan.ReadSchema, deletes), Paths: taskPaths,
			},
		})
	}
	return t, nil
}
