package paimon

import (
	"context"
	"fmt"
	"iter"

	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table"
)

// Buckets yields the LSM trees of [Scan.LSM] one partition and bucket at a
// time, in the same order: a bucket's sections and sorted runs are
// computed when it is reached, so only the bucket being yielded holds
// them.
func (s *Scan) Buckets(ctx context.Context) iter.Seq[Bucket] {
	return func(yield func(Bucket) bool) {
		type bkey struct {
			branch, part string
			bucket       int
		}
		var order []bkey
		files := map[bkey][]*DataFile{}
		for i := range s.DataFiles {
			f := &s.DataFiles[i]
			k := bkey{f.Branch, partitionIdentity(f), f.Bucket}
			if _, ok := files[k]; !ok {
				order = append(order, k)
			}
			files[k] = append(files[k], f)
		}
		for _, k := range order {
			fs := files[k]
			delete(files, k)
			if !yield(Bucket{Partition: []byte(fs[0].partitionKey), Bucket: k.bucket, Branch: k.branch, Sections: s.sections(ctx, fs)}) {
				return
			}
		}
	}
}

// TaskOptions are the choices of a read that [Scan.Tasks] plans.
type TaskOptions struct {
	// Read is the read schema (nil: the scan's schema, with
	// [WithSystemFields] when Raw).
	Read *schema.Schema
	// Raw reads a primary-key table unmerged: every stored row of every
	// live file, with the system columns.
	Raw bool
	// Zone is the IANA name of the session time zone ("" for UTC).
	Zone string
	// IgnoreDeletes leaves deletion vectors out of the tasks.
	IgnoreDeletes bool
}

// Tasks yields the tasks of the scan's read, in the order the files are
// planned:
//
//   - an append table, or a primary-key table read Raw: one task per data
//     file ([Scan.Task]), with its deletion vector ([Scan.DeletionVectorOf])
//     unless IgnoreDeletes;
//   - a primary-key table in deletion-vector mode: one task per level ≥ 1
//     file with its deletion vector (level-0 files are not yet visible to a
//     batch read; Paimon docs, "Deletion Vectors");
//   - another primary-key table: per partition and bucket ([Scan.Buckets]),
//     one merge task per section that needs a merge ([Scan.MergeTask],
//     [Section.NeedsMerge]) and one task for a section of one file that
//     reads as stored.
//
// It streams per partition and bucket: a merge needs every file of its
// bucket, so a bucket's sections are built when it is reached, and the
// tasks are made as they are yielded. The live file list itself is the
// scan's ([Table.Plan] reads every manifest: a later DELETE entry removes
// an earlier ADD). Errors, which end the sequence: those of [Scan.Task],
// of [Scan.MergeSpec] (an unsupported merge engine or option, matching
// [ErrMergeOption]), and for a primary-key fallback branch that needs a
// merge those of [Scan.FallbackMergeError].
func (s *Scan) Tasks(ctx context.Context, o TaskOptions) iter.Seq2[table.Task, error] {
	return func(yield func(table.Task, error) bool) {
		raw := o.Raw && s.IsPrimaryKey()
		read := o.Read
		if read == nil {
			read = s.Schema.Schema()
			if raw {
				read = WithSystemFields(read, s.Schema)
			}
		}
		applyDV := !o.IgnoreDeletes && (!s.IsPrimaryKey() || s.DeletionVectorsEnabled())
		one := func(df *DataFile) bool {
			task, err := s.Task(ctx, df, read, raw, o.Zone)
			if err == nil && applyDV {
				if dv, ok := s.DeletionVectorOf(df); ok {
					task.Deletes = append(task.Deletes, dv)
				}
			}
			return yield(task, err) && err == nil
		}
		switch {
		case !s.IsPrimaryKey() || o.Raw:
			if !o.Raw {
				if err := s.FallbackMergeError(ctx); err != nil {
					yield(table.Task{}, fmt.Errorf("%w: %w", ErrPrimaryKeyTable, err))
					return
				}
			}
			for i := range s.DataFiles {
				if !one(&s.DataFiles[i]) {
					return
				}
			}
		case s.DeletionVectorsEnabled():
			for i := range s.DataFiles {
				if df := &s.DataFiles[i]; df.Level > 0 && !one(df) {
					return
				}
			}
		default:
			spec, err := s.MergeSpec()
			if err != nil {
				yield(table.Task{}, err)
				return
			}
			for b := range s.Buckets(ctx) {
				for _, sec := range b.Sections {
					if !sec.NeedsMerge(spec.Engine) {
						if !one(sec.Runs[0].Files[0]) {
							return
						}
						continue
					}
					task, err := s.MergeTask(ctx, sec, read, spec, o.Zone)
					if !yield(task, err) || err != nil {
						return
					}
				}
			}
		}
	}
}
