package reader

import (
	"context"

	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
)

// SplitTask is [table.SplitTask] with the footer cap of limits: it splits
// the task of a Parquet or ORC file into tasks of runs of its row groups or
// stripes of about splitBytes compressed bytes each, which together read
// every row of the file exactly once.
func SplitTask(ctx context.Context, fsys storage.FS, task table.Task, splitBytes int64, limits Limits) ([]table.Task, error) {
	return table.SplitTask(ctx, fsys, task, splitBytes, limits.FooterBytes)
}
