package paimon

import (
	"context"
	"iter"
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
