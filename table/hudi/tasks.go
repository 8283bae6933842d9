package hudi

import (
	"context"
	"fmt"

	"github.com/lakecat/lakecat/table"
)

// Task returns the task that reads the base file f of the scan in the
// scan's schema: the file's columns are located by name through the schema
// of the commit that wrote it ([Scan.WriterSchema]), with Hudi's promotion
// rules.
func (s *Scan) Task(ctx context.Context, f *BaseFile) (table.Task, error) {
	ws, err := s.WriterSchema(ctx, f)
	if err != nil {
		return table.Task{}, fmt.Errorf("%s: %w", f.Path, err)
	}
	return table.Task{
		Path: f.Path, Format: f.Format, SizeBytes: f.SizeBytes, RecordCount: f.RecordCount,
		FileSchema: ws, FileSchemaID: -1, ReadSchema: s.Schema, Rules: "hudi",
	}, nil
}
