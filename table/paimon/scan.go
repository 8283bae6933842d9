package paimon

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"time"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/internal/scanplan"
)

// Options are the Paimon options of a [table.ScanOptions].
type Options struct {
	// SchemaID reads with schema-N instead of the latest.
	SchemaID *int64
	// Branch reads a branch (branch/branch-<name>/) instead of the
	// table's branch ([Table.Branch]).
	Branch string
	// Raw reads a primary-key table's files as stored, with their system
	// columns, instead of merged (the default: one row per key by the
	// table's merge engine, Paimon docs "Primary Key Table").
	Raw bool
	// TimeZone is the session time zone of Paimon's casts between
	// TIMESTAMP (a wall clock) and TIMESTAMP WITH LOCAL TIME ZONE (an
	// instant), and from either to INT, DATE or STRING (see
	// project.Rules.WithTimeZone). Nil means UTC; Paimon Java uses the
	// JVM's default zone.
	TimeZone *time.Location
}

// TableFormat is [table.Paimon].
func (Options) TableFormat() table.Format { return table.Paimon }

// Set names the options that are set.
func (o Options) Set() []string {
	var out []string
	if o.SchemaID != nil {
		out = append(out, "SchemaID")
	}
	if o.Branch != "" {
		out = append(out, "Branch")
	}
	if o.Raw {
		out = append(out, "Raw")
	}
	if o.TimeZone != nil {
		out = append(out, "TimeZone")
	}
	return out
}

// Format is [table.Paimon]: *Table is a [table.Table].
func (t *Table) Format() table.Format { return table.Paimon }

// Location is the table folder as Open was given it.
func (t *Table) Location() string { return t.opened }

// Schemas returns the branch's schema-N files, oldest first, and the id of
// the latest.
func (t *Table) Schemas(ctx context.Context) ([]*schema.Schema, int, error) {
	ids, err := t.SchemaIDs(ctx, t.Branch)
	if err != nil {
		return nil, 0, err
	}
	var out []*schema.Schema
	for _, id := range ids {
		ps, err := t.Schema(ctx, t.Branch, id)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, ps.Schema())
	}
	cur := 0
	if len(ids) > 0 {
		cur = int(ids[len(ids)-1])
	}
	return out, cur, nil
}

// Snapshots returns the branch's snapshot-N files in id order (none for a
// table never written).
func (t *Table) Snapshots(ctx context.Context) ([]table.Snapshot, error) {
	dir := storage.JoinPath(t.branchDir(t.Branch), "snapshot")
	names, err := t.FS.List(ctx, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, n := range names {
		if v, ok := numberedFile(n, "snapshot-"); ok {
			ids = append(ids, v)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	out := make([]table.Snapshot, 0, len(ids))
	for _, id := range ids {
		p := storage.JoinPath(dir, fmt.Sprintf("snapshot-%d", id))
		b, err := readFile(ctx, t.FS, p)
		if err != nil {
			return nil, err
		}
		s, err := ParseSnapshot(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		out = append(out, table.Snapshot{ID: s.ID, Time: time.UnixMilli(s.TimeMillis).UTC(), SchemaID: int(s.SchemaID)})
	}
	return out, nil
}

// NewScan returns a scan of the table. Its options are [Options]. A
// primary-key table is read merged: per partition and bucket, the files
// whose key ranges overlap form one merge task (table.MergeTask) that
// yields one row per key by the table's merge engine, files that overlap
// nothing stream as stored ([table.File] LSM says which); with
// deletion-vectors.enabled, level-0 files are not read and level ≥ 1 files
// are read with their deletion vectors. It refuses merge options lakecat
// cannot apply ([table.ErrPrimaryKeyTable]) unless Options.Raw, deletion
// vectors in raw mode ([table.ErrDeleteFiles]) unless IgnoreDeletes, and
// AsOf ([table.ErrInvalidOption]: a Paimon table is read by snapshot id).
func (t *Table) NewScan(opts table.ScanOptions) table.Scan {
	return scanplan.New(t.FS, table.Paimon, t.opened, opts, func(ctx context.Context) (*scanplan.Listed, error) {
		o, err := scanplan.Options[Options](table.Paimon, opts.Options)
		if err != nil {
			return nil, err
		}
		// Refused rather than ignored: reading the latest snapshot instead
		// would be a silently wrong answer.
		if err := scanplan.Refuse(!opts.AsOf.IsZero(), table.Paimon, "AsOf", "a Paimon table is read by snapshot id; reading as of a time is not supported yet"); err != nil {
			return nil, err
		}
		tbl := t
		if o.Branch != "" && o.Branch != t.Branch {
			if tbl, err = Open(ctx, t.FS, t.opened, o.Branch); err != nil {
				return nil, err
			}
		}
		return tbl.list(ctx, o, opts)
	})
}

func (tbl *Table) list(ctx context.Context, o Options, opts table.ScanOptions) (*scanplan.Listed, error) {
	scan, err := tbl.Plan(ctx, ScanOptions{SnapshotID: opts.SnapshotID, SchemaID: o.SchemaID})
	if err != nil {
		return nil, err
	}
	raw := o.Raw && scan.IsPrimaryKey()
	mergeRead := scan.IsPrimaryKey() && !o.Raw
	// Deletion vectors are applied where a read can (files read as stored:
	// append tables, and the files of a primary-key table in
	// deletion-vector mode, merged or raw: raw is unmerged, not undeleted).
	applyDV := !opts.IgnoreDeletes && (!scan.IsPrimaryKey() || scan.DeletionVectorsEnabled())
	if raw {
		scanplan.Warn(opts, "reading primary-key table %s unmerged (raw): every stored row of every live file, with _KEY_*, _SEQUENCE_NUMBER and _VALUE_KIND; rows a merge would replace or delete are returned", tbl.Root)
	}
	if !applyDV {
		if err := scanplan.CheckDeletes(opts, scan.DeletesError()); err != nil {
			return nil, err
		}
	}
	var spec table.MergeSpec
	if mergeRead && !scan.DeletionVectorsEnabled() {
		if spec, err = scan.MergeSpec(); err != nil && !opts.ListOnly {
			return nil, fmt.Errorf("%w: %w", table.ErrPrimaryKeyTable, err)
		}
	}
	read := scan.Schema.Schema()
	if raw {
		read = WithSystemFields(read, scan.Schema)
	}
	l := &table.Listing{ReadSchema: read, CurrentSchemaID: scan.Schema.ID}
	zone := ""
	if o.TimeZone != nil && o.TimeZone != time.UTC {
		zone = o.TimeZone.String()
	}
	if l.Schemas, _, err = tbl.Schemas(ctx); err != nil {
		return nil, err
	}
	// prune[i] is what the manifest statistics may say of l.Files[i]
	// (Listed.Prune asks once the filter is bound).
	var prune []filePrune
	add := func(df *DataFile, lsm *table.LSMFile, mergeTask *table.Task) error {
		task, err := scan.Task(ctx, df, read, raw, zone)
		if err != nil {
			return err
		}
		if applyDV {
			if dv, ok := scan.DeletionVectorOf(df); ok {
				task.Deletes = append(task.Deletes, dv)
			}
		}
		tf := table.File{
			Path: df.Path, Format: df.Format, RecordCount: df.RowCount,
			Partition: scanplan.PartitionString(df.Partition, task.FileSchema.Fields), SchemaID: df.SchemaID, Task: task, Deletes: task.Deletes, LSM: lsm,
		}
		if mergeTask != nil {
			tf.Task = *mergeTask
		} else if lsm != nil && lsm.Merged {
			tf.InMerge = true // read by the merge task of its section's first file
		}
		l.Files = append(l.Files, tf)
		// Value statistics describe the rows as stored: only a file read
		// as stored may be pruned by them (a file of a merged section is
		// pruned by its key statistics before sectioning, below).
		prune = append(prune, filePrune{file: df, stats: lsm == nil || !lsm.Merged})
		return nil
	}
	listed := &scanplan.Listed{Listing: l}
	if opts.Filter != nil {
		listed.Prune = func(i int, filter *expr.Bound, _ *schema.Schema) string {
			p := prune[i]
			switch {
			case p.skip != "":
				return p.skip
			case p.stats:
				// The statistics are judged in the table's read schema,
				// before columns narrow it (the field ids are the same).
				return scan.statsSkip(ctx, p.file, read, filter)
			}
			return ""
		}
	}
	if !mergeRead {
		if !o.Raw && !opts.ListOnly {
			// A primary-key fallback branch under an append main branch:
			// read as stored only where no merge could change it.
			if err := scan.FallbackMergeError(ctx); err != nil {
				return nil, fmt.Errorf("%w: %w", table.ErrPrimaryKeyTable, err)
			}
		}
		for i := range scan.DataFiles {
			if err := add(&scan.DataFiles[i], nil, nil); err != nil {
				return nil, err
			}
		}
		return listed, nil
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
			if err := add(df, &table.LSMFile{Bucket: df.Bucket, Level: df.Level, Runs: 1}, nil); err != nil {
				return nil, err
			}
		}
		return listed, nil
	}
	// Key statistics prune before the files are grouped: a file no key of
	// which the filter's key conditions allow leaves its section.
	lsmScan := scan
	// A filter that does not bind rules out nothing here (finishing the
	// scan binds it again and reports why).
	var kb *expr.Bound
	if opts.Filter != nil {
		if b, err := expr.Bind(opts.Filter, read); err == nil && !b.AlwaysTrue() {
			kb = b
		}
	}
	if kb != nil {
		var kept []DataFile
		for i := range scan.DataFiles {
			df := &scan.DataFiles[i]
			if ks := scan.KeyStats(ctx, df, read); ks != nil && !kb.MayMatch(ks) {
				if err := add(df, &table.LSMFile{Bucket: df.Bucket, Level: df.Level, Runs: 1}, nil); err != nil {
					return nil, err
				}
				prune[len(prune)-1].skip = table.SkipKeyStats
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
					lsm := &table.LSMFile{Bucket: b.Bucket, Level: df.Level, Section: si, Run: ri, Merged: merged, Runs: len(sec.Runs)}
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
	return listed, nil
}

// filePrune is what a scan's listing knows to prune one file by: skip is
// why planning already left it out (its key statistics), or ""; with
// stats, file is read as stored and its manifest statistics may rule it
// out ([Scan.statsSkip]).
type filePrune struct {
	file  *DataFile
	stats bool
	skip  string
}

// statsSkip returns why the bound filter rules out data file f, read as
// stored, by its manifest statistics: [table.SkipValueStats]
// ([Scan.ValueStats]), [table.SkipKeyStats] ([Scan.KeyStats]), or "".
func (s *Scan) statsSkip(ctx context.Context, f *DataFile, read *schema.Schema, filter *expr.Bound) string {
	if filter == nil {
		return ""
	}
	if vs := s.ValueStats(ctx, f, read); vs != nil && !filter.MayMatch(vs) {
		return table.SkipValueStats
	}
	if ks := s.KeyStats(ctx, f, read); ks != nil && !filter.MayMatch(ks) {
		return table.SkipKeyStats
	}
	return ""
}
