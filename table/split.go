package table

import (
	"context"
	"fmt"
	"strings"

	"github.com/lakecat/lakecat/formats/orc"
	"github.com/lakecat/lakecat/formats/parquet"
	"github.com/lakecat/lakecat/storage"
)

// SplitTask splits the task of a Parquet or ORC file into tasks of runs of
// its row groups (Task.FirstRowGroup, RowGroups) or stripes
// (Task.FirstStripe, Stripes) of about splitBytes compressed bytes each, at
// least one row group or stripe per task, in file order: the tasks
// together read every row of the file exactly once. It reads the file's
// footer from fsys, at most footerBytes of it (0: the decoders' default
// cap). A task it does not split is returned alone: splitBytes <= 0, a
// file of one row group or stripe, an Avro file, a task that already
// selects a range, a Hudi file slice or a Paimon merge (their log records
// or sorted runs merge over whole files). Errors are those of opening the
// file and decoding its footer, naming the file.
func SplitTask(ctx context.Context, fsys storage.FS, task Task, splitBytes, footerBytes int64) ([]Task, error) {
	if splitBytes <= 0 || !Splittable(task) {
		return []Task{task}, nil
	}
	f, err := fsys.Open(ctx, task.Path)
	if err != nil {
		return nil, namePath(task.Path, err)
	}
	defer f.Close()
	var n int
	var unitBytes func(int) int64
	if task.Format == "ORC" {
		of, err := orc.Open(f, f.Size(), orc.WithLimits(orc.Limits{FooterBytes: footerBytes}))
		if err != nil {
			return nil, namePath(task.Path, err)
		}
		n, unitBytes = of.NumStripes(), of.StripeBytes
	} else {
		pf, err := parquet.Open(f, f.Size(), parquet.WithLimits(parquet.Limits{FooterBytes: footerBytes}))
		if err != nil {
			return nil, namePath(task.Path, err)
		}
		n, unitBytes = pf.NumRowGroups(), pf.RowGroupBytes
	}
	if n <= 1 {
		return []Task{task}, nil
	}
	var out []Task
	first, bytes := 0, int64(0)
	for i := 0; i < n; i++ {
		bytes += unitBytes(i)
		if bytes >= splitBytes || i == n-1 {
			part := task
			if task.Format == "ORC" {
				part.FirstStripe, part.Stripes = first, i-first+1
			} else {
				part.FirstRowGroup, part.RowGroups = first, i-first+1
			}
			out = append(out, part)
			first, bytes = i+1, 0
		}
	}
	return out, nil
}

// Splittable reports whether task is a whole Parquet or ORC file that
// [SplitTask] may cut.
func Splittable(task Task) bool {
	return (task.Format == "PARQUET" || task.Format == "ORC") && task.Hudi == nil && task.Merge == nil &&
		task.FirstRowGroup == 0 && task.RowGroups == 0 && task.FirstStripe == 0 && task.Stripes == 0
}

// namePath names path in err unless err already names it (an open's
// *fs.PathError does).
func namePath(path string, err error) error {
	if strings.Contains(err.Error(), path) {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}
