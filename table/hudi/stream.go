package hudi

import (
	"context"
	"iter"

	"github.com/lakecat/lakecat/table"
)

// Tasks yields the tasks of the scan's read, one per latest file slice in
// [Scan.FileSlices] order, each made as it is yielded ([Scan.SliceTask]:
// its log files merged onto its base file); with ignoreLogs, one per base
// file of [Scan.BaseFiles] instead ([Scan.Task]), the log files unread.
// The first error ends the sequence ([ErrUnsupportedMerge] and those of
// [Scan.WriterSchema]); stopping early makes no more tasks.
func (s *Scan) Tasks(ctx context.Context, ignoreLogs bool) iter.Seq2[table.Task, error] {
	return func(yield func(table.Task, error) bool) {
		if ignoreLogs {
			for i := range s.BaseFiles {
				task, err := s.Task(ctx, &s.BaseFiles[i])
				if !yield(task, err) || err != nil {
					return
				}
			}
			return
		}
		for i := range s.FileSlices {
			task, err := s.SliceTask(ctx, &s.FileSlices[i])
			if !yield(task, err) || err != nil {
				return
			}
		}
	}
}
