package paimon

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/internal/parallel"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table/internal/avrorec"
)

// ErrPrimaryKeyTable is matched by [Scan.PrimaryKeyError]'s error.
var ErrPrimaryKeyTable = lakecat.NewSentinel(lakecat.ErrUnsupported, "paimon: primary-key table")

// ErrDeletionVectors is matched by [Scan.DeletesError]'s error.
var ErrDeletionVectors = lakecat.NewSentinel(lakecat.ErrUnsupported, "paimon: table has deletion vectors")

// Table is a Paimon table folder (Paimon docs, "Specification"): schema/,
// snapshot/, manifest/, index/, [partition=value/…]bucket-N/ data files, and
// branch/branch-<name>/ for branches.
type Table struct {
	// FS is the storage the table is read from.
	FS storage.FS
	// Root is the table folder; data files are always under it (branches
	// share them).
	Root string
	// Branch is the branch read ("" for main).
	Branch string
	// ManifestWorkers is how many manifests are read at once (0: 8). The
	// result does not depend on it.
	ManifestWorkers int

	opened   string // the location Open was given
	mu       sync.Mutex
	schemas  map[string]*schema.PaimonSchema // key: branch + "/" + id
	listings map[string]map[string]bool      // a branch's manifest/ folder → names
}

// Open returns the table at root, on branch ("" or "main" for the main
// branch, else branch/branch-<name>/). It checks that the branch has a
// schema/ folder.
func Open(ctx context.Context, fsys storage.FS, root, branch string) (*Table, error) {
	opened := root
	root = strings.TrimSuffix(root, "/")
	if branch == "main" {
		branch = ""
	}
	if strings.ContainsAny(branch, "/\\") || branch == "." || branch == ".." {
		return nil, fmt.Errorf("paimon: bad branch name %q", branch)
	}
	t := &Table{FS: fsys, Root: root, Branch: branch, opened: opened, schemas: map[string]*schema.PaimonSchema{}}
	if _, err := fsys.List(ctx, storage.JoinPath(t.branchDir(branch), "schema")); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if branch != "" {
				return nil, fmt.Errorf("paimon: %s: no branch %q: %w", root, branch, err)
			}
			return nil, fmt.Errorf("paimon: %s: not a Paimon table (no schema/ folder): %w", root, err)
		}
		return nil, err
	}
	return t, nil
}

func (t *Table) branchDir(branch string) string {
	if branch == "" || branch == "main" {
		return t.Root
	}
	return storage.JoinPath(t.Root, "branch/branch-"+branch)
}

// SchemaIDs returns the schema ids of branch ("" or "main" for main) in ascending
// order, from the schema-N files.
func (t *Table) SchemaIDs(ctx context.Context, branch string) ([]int64, error) {
	names, err := t.FS.List(ctx, storage.JoinPath(t.branchDir(branch), "schema"))
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, n := range names {
		if v, ok := numberedFile(n, "schema-"); ok {
			ids = append(ids, v)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids, nil
}

// LatestSchema returns the schema of branch with the highest id (Paimon's
// SchemaManager.latest), or an error matching [ErrNoSchema] when the
// branch has none.
func (t *Table) LatestSchema(ctx context.Context, branch string) (*schema.PaimonSchema, error) {
	ids, err := t.SchemaIDs(ctx, branch)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("%w in %s", ErrNoSchema, storage.JoinPath(t.branchDir(branch), "schema"))
	}
	return t.Schema(ctx, branch, ids[len(ids)-1])
}

// SchemaPath returns the path of schema-<id> of branch.
func (t *Table) SchemaPath(branch string, id int64) string {
	return storage.JoinPath(t.branchDir(branch), "schema/"+schema.PaimonSchemaFileName(int(id)))
}

// CommitSchema writes next as schema-<next.ID> of branch, atomically and
// never over an existing file ([storage.WriteFS.CreateNoReplace]): when
// another writer wrote that schema id first, the error matches
// fs.ErrExist. It returns the path written.
func (t *Table) CommitSchema(ctx context.Context, fsys storage.WriteFS, branch string, next *schema.PaimonSchema) (string, error) {
	data, err := schema.MarshalPaimonSchema(next)
	if err != nil {
		return "", err
	}
	p := t.SchemaPath(branch, int64(next.ID))
	if err := fsys.CreateNoReplace(ctx, p, data); err != nil {
		return "", err
	}
	return p, nil
}

// Schema loads schema/schema-<id> of branch ("" or "main" for main) with
// schema.ParsePaimonSchema; results are cached.
func (t *Table) Schema(ctx context.Context, branch string, id int64) (*schema.PaimonSchema, error) {
	if branch == "main" {
		branch = ""
	}
	key := branch + "/" + strconv.FormatInt(id, 10)
	t.mu.Lock()
	s := t.schemas[key]
	t.mu.Unlock()
	if s != nil {
		return s, nil
	}
	p := t.SchemaPath(branch, id)
	b, err := storage.ReadFile(ctx, t.FS, p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("paimon: schema %d: no %s: %w", id, p, fs.ErrNotExist)
		}
		return nil, fmt.Errorf("paimon: schema %d: %w", id, err)
	}
	s, err = schema.ParsePaimonSchema(b)
	if err != nil {
		return nil, fmt.Errorf("paimon: %s: %w", p, err)
	}
	if int64(s.ID) != id {
		return nil, fmt.Errorf("paimon: %s holds schema id %d", p, s.ID)
	}
	t.mu.Lock()
	t.schemas[key] = s
	t.mu.Unlock()
	return s, nil
}

// ScanOptions select what a scan reads.
type ScanOptions struct {
	// SnapshotID selects snapshot-N (nil: snapshot/LATEST, else the highest
	// snapshot-N).
	SnapshotID *int64
	// SchemaID selects the read schema (nil: the highest schema-N of the
	// branch, which may be newer than the snapshot).
	SchemaID *int64
	// NoFallback turns off the "scan.fallback-branch" option: by default,
	// as Paimon's batch scan does, partitions the branch read has no files
	// in are read from the fallback branch.
	NoFallback bool
}

// DataFile is one live data file of a snapshot (a DataFileMeta of the
// manifests, Paimon docs "Specification: Manifest").
type DataFile struct {
	// Path is the file's path for the table's FS:
	// <root>/[k=v/…]bucket-<N>/<file name>, or the external path (a
	// "file:" scheme removed).
	Path string
	// FileName is the file name stored in the manifest.
	FileName string
	// Format is "PARQUET", "ORC" or "AVRO", from the file name's extension
	// ("" when it has none of these).
	Format string
	// Branch is the branch whose schemas the file's SchemaID refers to (""
	// for main; another branch for files read through scan.fallback-branch).
	Branch string
	// SchemaID is the id of the schema the file was written with: resolve the
	// file through schema-<SchemaID> of Branch.
	SchemaID int64
	// PartitionValues are the partition values in the order of that schema's
	// partitionKeys, in the Go form of schema.Field (nil for null).
	PartitionValues []any
	// Partition maps the field id of each partition key (in that schema) to
	// its value.
	Partition map[int]any
	// Bucket is the bucket number; TotalBuckets the bucket count the writer
	// saw (-1 for bucket-unaware tables, 0 when not recorded).
	Bucket, TotalBuckets int
	// Level is the LSM level (0 for append tables' new files).
	Level int
	// RowCount is the number of rows in the file, including rows of a
	// primary-key table's retract messages.
	RowCount int64
	// SizeBytes is the file size in bytes.
	SizeBytes int64
	// MinSequenceNumber and MaxSequenceNumber bound the file's sequence
	// numbers.
	MinSequenceNumber, MaxSequenceNumber int64
	// DeleteRowCount is the number of delete (retract) rows, or nil.
	DeleteRowCount *int64
	// ExtraFiles are extra files of the file (e.g. an index), as stored.
	ExtraFiles []string
	// MinKey and MaxKey are the file's smallest and largest trimmed
	// primary key (the primary key without partition columns) as stored:
	// Paimon BinaryRows in the key types of the file's schema (empty for
	// append tables).
	MinKey, MaxKey []byte
	// KeyStats are the statistics of the trimmed primary key columns
	// (_KEY_STATS); ValueStats those of the columns ValueStatsCols names
	// (_VALUE_STATS), both under the file's schema ([Scan.KeyStats],
	// [Scan.ValueStats] decode them).
	KeyStats, ValueStats SimpleStats
	// ValueStatsAllCols reports that _VALUE_STATS_COLS is null: ValueStats
	// cover every column of the file's schema, in order. Otherwise
	// ValueStatsCols names the columns they cover, in order (none when
	// empty).
	ValueStatsAllCols bool
	ValueStatsCols    []string

	partitionKey string // the raw partition bytes, for identity
}

// IndexFile is a live index file of the snapshot's index manifest.
type IndexFile struct {
	// Type is "DELETION_VECTORS", "HASH", … as stored.
	Type string
	// Path is the file's path (<root>/index/<file name>).
	Path string
	// Bucket is the bucket the index covers.
	Bucket int
	// RowCount is the index's row count.
	RowCount int64
	// DataFiles are the data files with a deletion vector in the file.
	DataFiles []string
	// DeletionVectors locate each data file's deletion vector in the file
	// (a DELETION_VECTORS index file), in the order of DataFiles.
	DeletionVectors []DeletionVectorRange

	partitionKey string // the raw partition bytes
}

// DeletionVectorRange locates one data file's deletion vector in its index
// file (the index manifest's _DELETIONS_VECTORS_RANGES).
type DeletionVectorRange struct {
	// DataFile is the data file's name.
	DataFile string
	// Offset is where the vector starts in the index file (its length
	// field); Length the length that field holds (magic number and bitmap).
	Offset, Length int64
	// Cardinality is the number of deleted rows, or -1 when not recorded.
	Cardinality int64
}

// Scan is the plan of a Paimon table read.
type Scan struct {
	// Table is the table.
	Table *Table
	// Snapshot is the snapshot read (nil for a table without snapshots).
	Snapshot *Snapshot
	// Schema is the read schema (see [ScanOptions.SchemaID]).
	Schema *schema.PaimonSchema
	// DataFiles are the live data files in the order of their first ADD in
	// the base then delta manifest lists; then fallback-branch files.
	DataFiles []DataFile
	// IndexFiles are the live index files (deletion vectors, hash indexes).
	IndexFiles []IndexFile
}

// Plan reads the snapshot and lists the live data files: the manifests of
// the base and then the delta manifest list, in order, with ADD entries
// adding a file and DELETE entries removing the file with the same
// partition, bucket and file name (Paimon's FileStoreScan merge).
//
// A table (or branch) created but never written has no snapshot: without
// opts.SnapshotID it plans an empty scan (Snapshot nil, no files) in the
// latest schema, as Paimon reads it.
func (t *Table) Plan(ctx context.Context, opts ScanOptions) (*Scan, error) {
	s, err := t.plan(ctx, t.Branch, opts.SnapshotID)
	if err != nil {
		if !errors.Is(err, ErrNoSnapshot) || opts.SnapshotID != nil {
			return nil, err
		}
		s = &Scan{Table: t}
	}
	var sid int64
	if opts.SchemaID != nil {
		sid = *opts.SchemaID
	} else {
		ids, err := t.SchemaIDs(ctx, t.Branch)
		if err != nil || len(ids) == 0 {
			return nil, fmt.Errorf("paimon: %s: no schema files: %v", t.branchDir(t.Branch), err)
		}
		sid = ids[len(ids)-1]
	}
	s.Schema, err = t.Schema(ctx, t.Branch, sid)
	if err != nil {
		return nil, err
	}
	if fb := s.Schema.Options["scan.fallback-branch"]; fb != "" && !opts.NoFallback && fb != t.Branch && opts.SnapshotID == nil {
		fs, err := t.plan(ctx, fb, nil)
		if err != nil {
			return nil, fmt.Errorf("paimon: fallback branch %q: %w", fb, err)
		}
		have := map[string]bool{}
		for i := range s.DataFiles {
			have[s.DataFiles[i].partitionKey] = true
		}
		for _, f := range fs.DataFiles {
			if !have[f.partitionKey] {
				s.DataFiles = append(s.DataFiles, f)
			}
		}
	}
	return s, nil
}

func (t *Table) plan(ctx context.Context, branch string, snapshotID *int64) (*Scan, error) {
	id := int64(-1)
	if snapshotID != nil {
		id = *snapshotID
	}
	dir := t.branchDir(branch)
	sp, err := findSnapshot(ctx, t.FS, dir, id)
	if err != nil {
		return nil, err
	}
	b, err := readFile(ctx, t.FS, sp)
	if err != nil {
		return nil, err
	}
	snap, err := ParseSnapshot(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sp, err)
	}
	s := &Scan{Table: t, Snapshot: snap}

	type key struct {
		part   string
		bucket int
		name   string
	}
	live := map[key]int{} // → index in files
	var files []*DataFile
	var manifests []string
	for _, list := range []string{snap.BaseManifestList, snap.DeltaManifestList} {
		ms, err := t.readManifestList(ctx, dir, list)
		if err != nil {
			return nil, err
		}
		manifests = append(manifests, ms...)
	}
	results := make([][]manifestEntry, len(manifests))
	workers := t.ManifestWorkers
	if workers <= 0 {
		workers = parallel.DefaultWorkers
	}
	err = parallel.ForEach(ctx, len(manifests), workers, func(ctx context.Context, i int) error {
		entries, err := t.readManifest(ctx, dir, manifests[i])
		results[i] = entries
		return err
	})
	if err != nil {
		return nil, err
	}
	for i, m := range manifests {
		for _, e := range results[i] {
			k := key{string(e.partition), e.file.Bucket, e.file.FileName}
			switch e.kind {
			case 0: // ADD
				if _, dup := live[k]; !dup {
					f := e.file
					live[k] = len(files)
					files = append(files, &f)
				}
			case 1: // DELETE
				if j, ok := live[k]; ok {
					files[j] = nil
					delete(live, k)
				}
			default:
				return nil, fmt.Errorf("%w: %s: entry kind %d", ErrCorruptManifest, m, e.kind)
			}
		}
	}
	for _, f := range files {
		if f == nil {
			continue
		}
		f.Branch = branch
		if err := t.locate(ctx, f); err != nil {
			return nil, err
		}
		s.DataFiles = append(s.DataFiles, *f)
	}
	if snap.IndexManifest != "" {
		s.IndexFiles, err = t.readIndexManifest(ctx, dir, snap.IndexManifest)
		if err != nil {
			return nil, err
		}
	}
	return s, nil
}

// manifestPath returns the path of a manifest-like file of a branch: in the
// branch's manifest/ folder, or the table's when the branch has none.
func (t *Table) manifestPath(ctx context.Context, dir, name string) string {
	if dir != t.Root {
		md := storage.JoinPath(dir, "manifest")
		t.mu.Lock()
		set, ok := t.listings[md]
		t.mu.Unlock()
		if !ok {
			names, _ := t.FS.List(ctx, md) // a branch without manifest/ shares the table's
			set = make(map[string]bool, len(names))
			for _, n := range names {
				set[n] = true
			}
			t.mu.Lock()
			if t.listings == nil {
				t.listings = map[string]map[string]bool{}
			}
			t.listings[md] = set
			t.mu.Unlock()
		}
		if set[name] {
			return storage.JoinPath(md, name)
		}
	}
	return storage.JoinPath(t.Root, "manifest/"+name)
}

func (t *Table) readManifestList(ctx context.Context, dir, name string) ([]string, error) {
	p := t.manifestPath(ctx, dir, name)
	b, err := readFile(ctx, t.FS, p)
	if err != nil {
		return nil, fmt.Errorf("paimon: manifest list: %w", err)
	}
	recs, err := readRecords(b)
	if err != nil {
		return nil, fmt.Errorf("paimon: %s: %w", p, err)
	}
	var out []string
	for i, r := range recs {
		g := avrorec.Getter{M: r}
		n := g.Str("_FILE_NAME", true)
		if g.Err == nil && (strings.ContainsAny(n, "/\\") || n == "") {
			g.Fail("_FILE_NAME", "%q is not a file name", n)
		}
		if g.Err != nil {
			return nil, fmt.Errorf("%w: %s: entry %d: %v", ErrCorruptManifest, p, i, g.Err)
		}
		out = append(out, n)
	}
	return out, nil
}

type manifestEntry struct {
	kind      int
	partition []byte
	file      DataFile
}

func (t *Table) readManifest(ctx context.Context, dir, name string) ([]manifestEntry, error) {
	p := t.manifestPath(ctx, dir, name)
	b, err := readFile(ctx, t.FS, p)
	if err != nil {
		return nil, fmt.Errorf("paimon: manifest: %w", err)
	}
	out, err := decodeManifestEntries(b)
	if err != nil {
		return nil, fmt.Errorf("paimon: %s: %w", p, err)
	}
	return out, nil
}

// decodeManifestEntries decodes the entries of a manifest file.
func decodeManifestEntries(b []byte) ([]manifestEntry, error) {
	recs, err := readRecords(b)
	if err != nil {
		return nil, err
	}
	out := make([]manifestEntry, 0, len(recs))
	for i, r := range recs {
		g := avrorec.Getter{M: r}
		e := manifestEntry{kind: int(g.I64("_KIND", true)), partition: g.Bytes("_PARTITION")}
		e.file.Bucket = int(g.I64("_BUCKET", true))
		e.file.TotalBuckets = int(g.I64("_TOTAL_BUCKETS", false))
		fr := g.Rec("_FILE")
		if g.Err != nil {
			return nil, fmt.Errorf("%w: entry %d: %v", ErrCorruptManifest, i, g.Err)
		}
		f := avrorec.Getter{M: fr}
		e.file.FileName = f.Str("_FILE_NAME", true)
		e.file.SizeBytes = f.I64("_FILE_SIZE", true)
		e.file.RowCount = f.I64("_ROW_COUNT", true)
		e.file.MinSequenceNumber = f.I64("_MIN_SEQUENCE_NUMBER", false)
		e.file.MaxSequenceNumber = f.I64("_MAX_SEQUENCE_NUMBER", false)
		e.file.SchemaID = f.I64("_SCHEMA_ID", true)
		e.file.Level = int(f.I64("_LEVEL", false))
		e.file.DeleteRowCount = f.Opt("_DELETE_ROW_COUNT")
		e.file.ExtraFiles = f.Strs("_EXTRA_FILES")
		e.file.MinKey, e.file.MaxKey = f.Bytes("_MIN_KEY"), f.Bytes("_MAX_KEY")
		e.file.KeyStats, e.file.ValueStats = decodeSimpleStats(fr, "_KEY_STATS"), decodeSimpleStats(fr, "_VALUE_STATS")
		e.file.ValueStatsAllCols = avrorec.Unwrap(fr["_VALUE_STATS_COLS"]) == nil
		e.file.ValueStatsCols = f.Strs("_VALUE_STATS_COLS")
		ext := f.Str("_EXTERNAL_PATH", false)
		if f.Err == nil && (e.file.FileName == "" || strings.ContainsAny(e.file.FileName, "/\\") || e.file.SchemaID < 0) {
			f.Fail("_FILE_NAME", "%q (schema id %d) is not a data file", e.file.FileName, e.file.SchemaID)
		}
		if f.Err != nil {
			return nil, fmt.Errorf("%w: entry %d: %v", ErrCorruptManifest, i, f.Err)
		}
		e.file.Path = ext // resolved later when empty
		e.file.partitionKey = string(e.partition)
		e.file.Format = formatOf(e.file.FileName)
		out = append(out, e)
	}
	return out, nil
}

func formatOf(name string) string {
	switch {
	case strings.HasSuffix(name, ".parquet"):
		return "PARQUET"
	case strings.HasSuffix(name, ".orc"):
		return "ORC"
	case strings.HasSuffix(name, ".avro"):
		return "AVRO"
	}
	return ""
}

// locate decodes the file's partition with its schema and sets its path.
func (t *Table) locate(ctx context.Context, f *DataFile) error {
	sch, err := t.Schema(ctx, f.Branch, f.SchemaID)
	if err != nil {
		return err
	}
	types := make([]schema.Type, len(sch.PartitionKeys))
	ids := make([]int, len(sch.PartitionKeys))
	for i, k := range sch.PartitionKeys {
		fld := findTop(sch.Fields, k)
		if fld == nil {
			return fmt.Errorf("paimon: schema %d: partition key %q is not a column", sch.ID, k)
		}
		types[i], ids[i] = fld.Type, fld.ID
	}
	vals, err := DecodeBinaryRow([]byte(f.partitionKey), types)
	if err != nil {
		return fmt.Errorf("paimon: %s: partition: %w", f.FileName, err)
	}
	f.PartitionValues = vals
	f.Partition = make(map[int]any, len(vals))
	for i, v := range vals {
		f.Partition[ids[i]] = v
	}
	if f.Path != "" { // an external path: a URI ("oss://…", "file:/…")
		switch {
		case strings.HasPrefix(f.Path, "file://"):
			f.Path = f.Path[len("file://"):]
		case strings.HasPrefix(f.Path, "file:"):
			f.Path = f.Path[len("file:"):]
		}
		return nil
	}
	dir, err := partitionPath(sch, types, vals)
	if err != nil {
		return fmt.Errorf("paimon: %s: %w", f.FileName, err)
	}
	f.Path = storage.JoinPath(t.Root, dir+"bucket-"+strconv.Itoa(f.Bucket)+"/"+f.FileName)
	return nil
}

func findTop(fields []*schema.Field, name string) *schema.Field {
	for _, f := range fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// PartitionConstants returns the partition values of f keyed by field id,
// for project.Options.Constants (a partition column a file does not store
// reads as its partition value; nil means null).
func (s *Scan) PartitionConstants(f *DataFile) map[int]any {
	if len(f.Partition) == 0 {
		return nil
	}
	out := make(map[int]any, len(f.Partition))
	for k, v := range f.Partition {
		out[k] = v
	}
	return out
}

func (t *Table) readIndexManifest(ctx context.Context, dir, name string) ([]IndexFile, error) {
	p := t.manifestPath(ctx, dir, name)
	b, err := readFile(ctx, t.FS, p)
	if err != nil {
		return nil, fmt.Errorf("paimon: index manifest: %w", err)
	}
	recs, err := readRecords(b)
	if err != nil {
		return nil, fmt.Errorf("paimon: %s: %w", p, err)
	}
	type key struct {
		part   string
		bucket int
		name   string
	}
	live := map[key]int{}
	var files []*IndexFile
	for i, r := range recs {
		g := avrorec.Getter{M: r}
		kind := g.I64("_KIND", true)
		part := g.Bytes("_PARTITION")
		f := IndexFile{Type: g.Str("_INDEX_TYPE", true), Bucket: int(g.I64("_BUCKET", true)), RowCount: g.I64("_ROW_COUNT", false)}
		n := g.Str("_FILE_NAME", true)
		if g.Err == nil && (n == "" || strings.ContainsAny(n, "/\\")) {
			g.Fail("_FILE_NAME", "%q is not a file name", n)
		}
		if g.Err != nil {
			return nil, fmt.Errorf("%w: %s: entry %d: %v", ErrCorruptManifest, p, i, g.Err)
		}
		f.Path = storage.JoinPath(t.Root, "index/"+n)
		f.partitionKey = string(part)
		if ranges, ok := avrorec.Unwrap(r["_DELETIONS_VECTORS_RANGES"]).([]any); ok {
			for _, x := range ranges {
				rm, _ := x.(map[string]any)
				if len(rm) == 1 { // a union-wrapped record
					for _, inner := range rm {
						rm, _ = inner.(map[string]any)
					}
				}
				if df, ok := rm["f0"].(string); ok {
					f.DataFiles = append(f.DataFiles, df)
					rg := avrorec.Getter{M: rm}
					dv := DeletionVectorRange{DataFile: df, Offset: rg.I64("f1", false), Length: rg.I64("f2", false), Cardinality: -1}
					if c := rg.Opt("_CARDINALITY"); c != nil {
						dv.Cardinality = *c
					}
					f.DeletionVectors = append(f.DeletionVectors, dv)
				}
			}
		}
		k := key{string(part), f.Bucket, n}
		switch kind {
		case 0:
			if _, dup := live[k]; !dup {
				live[k] = len(files)
				files = append(files, &f)
			}
		case 1:
			if j, ok := live[k]; ok {
				files[j] = nil
				delete(live, k)
			}
		}
	}
	var out []IndexFile
	for _, f := range files {
		if f != nil {
			out = append(out, *f)
		}
	}
	return out, nil
}

// IsPrimaryKey reports whether the read schema has primary keys (a
// primary-key table, whose files need a merge on read).
func (s *Scan) IsPrimaryKey() bool { return len(s.Schema.PrimaryKeys) > 0 }

// PrimaryKeyError returns nil for an append table, else an error matching
// [ErrPrimaryKeyTable] that names the primary key.
func (s *Scan) PrimaryKeyError() error {
	if !s.IsPrimaryKey() {
		return nil
	}
	return fmt.Errorf("%w (primary key %s): merge-on-read is not supported; read the stored rows with raw mode", ErrPrimaryKeyTable, strings.Join(s.Schema.PrimaryKeys, ", "))
}

// DeletionVectorFiles returns the live DELETION_VECTORS index files.
func (s *Scan) DeletionVectorFiles() []IndexFile {
	var out []IndexFile
	for _, f := range s.IndexFiles {
		if f.Type == "DELETION_VECTORS" {
			out = append(out, f)
		}
	}
	return out
}

// DeletesError returns nil when the snapshot has no live deletion vector
// that removes rows, else an error matching [ErrDeletionVectors] naming the
// number of deletion-vector index files and data files they cover.
func (s *Scan) DeletesError() error {
	var n, covered int
	for _, f := range s.DeletionVectorFiles() {
		if len(f.DataFiles) == 0 && f.RowCount == 0 {
			continue // an empty deletion-vector file removes nothing
		}
		n++
		covered += len(f.DataFiles)
	}
	if n == 0 {
		return nil
	}
	return fmt.Errorf("%w: %d deletion-vector index files cover %d data files", ErrDeletionVectors, n, covered)
}
