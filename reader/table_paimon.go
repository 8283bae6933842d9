package reader

import (
	"context"
	"fmt"
	"time"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/paimon"
)

// LSMFile is a Paimon primary-key table file's place in its bucket's LSM
// tree, as the merged read uses it.
type LSMFile struct {
	// Bucket is the bucket; Level the file's LSM level.
	Bucket, Level int
	// Section is the index of the file's section (files of overlapping key
	// ranges) in its bucket, Run the index of its sorted run in the section.
	Section, Run int
	// Merged reports whether the section is merged on read; a section of
	// one file of inserts only streams as stored.
	Merged bool
	// Runs is the number of sorted runs in the section.
	Runs int
}

func openPaimon(ctx context.Context, location string, opts TableOptions) (*Table, error) {
	tbl, err := paimon.Open(ctx, opts.FS, location, opts.Paimon.Branch)
	if err != nil {
		return nil, err
	}
	scan, err := tbl.Plan(ctx, paimon.ScanOptions{SnapshotID: opts.SnapshotID, SchemaID: opts.Paimon.SchemaID})
	if err != nil {
		return nil, err
	}
	raw := opts.Paimon.Raw && scan.IsPrimaryKey()
	mergeRead := scan.IsPrimaryKey() && !opts.Paimon.Raw
	// Deletion vectors are applied where a read can (files read as stored:
	// append tables, and the files of a primary-key table in
	// deletion-vector mode, merged or raw: raw is unmerged, not undeleted).
	applyDV := !opts.IgnoreDeletes && (!scan.IsPrimaryKey() || scan.DeletionVectorsEnabled())
	if raw {
		opts.warn("reading primary-key table %s unmerged (raw): every stored row of every live file, with _KEY_*, _SEQUENCE_NUMBER and _VALUE_KIND; rows a merge would replace or delete are returned", location)
	}
	if !applyDV {
		if err := opts.checkDeletes(scan.DeletesError()); err != nil {
			return nil, err
		}
	}
	var spec table.MergeSpec
	if mergeRead && !scan.DeletionVectorsEnabled() {
		if spec, err = scan.MergeSpec(); err != nil && !opts.ListOnly {
			return nil, fmt.Errorf("%w: %w", ErrPrimaryKeyTable, err)
		}
	}
	read := scan.Schema.Schema()
	if raw {
		read = paimon.WithSystemFields(read, scan.Schema)
	}
	t := &Table{ReadSchema: read, CurrentSchemaID: scan.Schema.ID}
	zone := ""
	if opts.Paimon.TimeZone != nil && opts.Paimon.TimeZone != time.UTC {
		zone = opts.Paimon.TimeZone.String()
	}
	ids, err := tbl.SchemaIDs(ctx, opts.Paimon.Branch)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		ps, err := tbl.Schema(ctx, opts.Paimon.Branch, id)
		if err != nil {
			return nil, err
		}
		t.Schemas = append(t.Schemas, ps.Schema())
	}
	add := func(df *paimon.DataFile, lsm *LSMFile, mergeTask *table.Task) error {
		task, err := scan.Task(ctx, df, read, raw, zone)
		if err != nil {
			return err
		}
		if applyDV {
			if dv, ok := scan.DeletionVectorOf(df); ok {
				task.Deletes = append(task.Deletes, dv)
			}
		}
		tf := TableFile{
			Path: df.Path, Format: df.Format, RecordCount: df.RowCount,
			Partition: partitionString(df.Partition, task.FileSchema.Fields), SchemaID: df.SchemaID, Task: task, Deletes: task.Deletes, LSM: lsm,
		}
		if mergeTask != nil {
			tf.Task = *mergeTask
		} else if lsm != nil && lsm.Merged {
			tf.inMerge = true // read by the merge task of its section's first file
		}
		if opts.Filter != nil && (lsm == nil || !lsm.Merged) {
			// Value statistics describe the rows as stored: only a file
			// read as stored may be pruned by them (a file of a merged
			// section is pruned by its key statistics before sectioning).
			tf.statsSkip = paimonStatsSkip(ctx, scan, df, read)
		}
		t.Files = append(t.Files, tf)
		return nil
	}
	if !mergeRead {
		if !opts.Paimon.Raw && !opts.ListOnly {
			// A primary-key fallback branch under an append main branch:
			// read as stored only where no merge could change it.
			if err := scan.FallbackMergeError(ctx); err != nil {
				return nil, fmt.Errorf("%w: %w", ErrPrimaryKeyTable, err)
			}
		}
		for i := range scan.DataFiles {
			if err := add(&scan.DataFiles[i], nil, nil); err != nil {
				return nil, err
			}
		}
		return t, nil
	}
	if scan.DeletionVectorsEnabled() {
		// Paimon's deletion-vector mode: level-0 files are not yet
		// compacted and are not visible to a batch read; every level ≥ 1
		// file has unique keys and its deletion vector removes the rows
		// newer files replaced (Paimon docs, "Deletion Vectors").
		for i := range scan.DataFiles {
			df := &scan.DataFiles[i]
			if df.Level == 0 {
				continue
			}
			if err := add(df, &LSMFile{Bucket: df.Bucket, Level: df.Level, Runs: 1}, nil); err != nil {
				return nil, err
			}
		}
		return t, nil
	}
	// Key statistics prune before the files are grouped: a file no key of
	// which the filter's key conditions allow leaves its section.
	lsmScan := scan
	// A filter that does not bind rules out nothing here (OpenTable
	// binds it again and reports why).
	if kb, err := bindFilter(opts.Filter, read); err == nil && kb != nil {
		var kept []paimon.DataFile
		for i := range scan.DataFiles {
			df := &scan.DataFiles[i]
			if ks := scan.KeyStats(ctx, df, read); ks != nil && !kb.MayMatch(ks) {
				if err := add(df, &LSMFile{Bucket: df.Bucket, Level: df.Level, Runs: 1}, nil); err != nil {
					return nil, err
				}
				t.Files[len(t.Files)-1].preSkip = skipKeyStats
				continue
			}
			kept = append(kept, *df)
		}
		if len(kept) < len(scan.DataFiles) {
			c := *scan
			c.DataFiles = kept
			lsmScan = &c
		}
	}
	for _, b := range lsmScan.LSM(ctx) {
		for si, sec := range b.Sections {
			merged := sec.NeedsMerge(spec.Engine)
			var mt *table.Task
			if merged {
				task, err := scan.MergeTask(ctx, sec, read, spec, zone)
				if err != nil {
					return nil, err
				}
				mt = &task
			}
			for ri, run := range sec.Runs {
				for fi, df := range run.Files {
					lsm := &LSMFile{Bucket: b.Bucket, Level: df.Level, Section: si, Run: ri, Merged: merged, Runs: len(sec.Runs)}
					var carry *table.Task
					if ri == 0 && fi == 0 {
						carry = mt
					}
					if err := add(df, lsm, carry); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	return t, nil
}

// The reasons a Paimon file's manifest statistics skip it.
const (
	skipValueStats = "value statistics"
	skipKeyStats   = "key statistics"
)

// paimonStatsSkip returns the check of data file df against a bound
// filter by its manifest statistics ([paimon.Scan.ValueStats], then
// [paimon.Scan.KeyStats]), for a file read as stored: the reason it is
// skipped, or "".
func paimonStatsSkip(ctx context.Context, scan *paimon.Scan, df *paimon.DataFile, read *schema.Schema) func(*expr.Bound) string {
	vs := scan.ValueStats(ctx, df, read)
	ks := scan.KeyStats(ctx, df, read)
	return func(b *expr.Bound) string {
		switch {
		case b == nil:
			return ""
		case vs != nil && !b.MayMatch(vs):
			return skipValueStats
		case ks != nil && !b.MayMatch(ks):
			return skipKeyStats
		}
		return ""
	}
}
