package iceberg

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/internal/parallel"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
)

// ErrSnapshotNotFound is matched by the error for a snapshot id or time
// that selects no snapshot.
var ErrSnapshotNotFound = lakecat.NewSentinel(lakecat.ErrNotFound, "iceberg: snapshot not found")

// ErrDeleteFiles is matched by the error [Scan.DeletesError] returns when a
// snapshot has delete files.
var ErrDeleteFiles = lakecat.NewSentinel(lakecat.ErrUnsupported, "iceberg: snapshot has delete files")

// Table is an Iceberg table opened from its metadata file.
type Table struct {
	// FS is the storage the table is read from.
	FS storage.FS
	// MetadataPath is the path of the table metadata file read.
	MetadataPath string
	// Root is the folder the table was opened from (parent of metadata/).
	Root string
	// Version is the metadata version (N of vN.metadata.json), -1 if none.
	Version int64
	// Guessed reports that no version hint named the metadata file (see
	// [Location.Guessed]).
	Guessed bool
	// Metadata is the parsed table metadata.
	Metadata *Metadata

	opened string // the location Open was given
}

// Open finds the current metadata of the table at target ([FindMetadata])
// and reads it ([ReadMetadata]).
func Open(ctx context.Context, fsys storage.FS, target string) (*Table, error) {
	loc, err := FindMetadata(ctx, fsys, target)
	if err != nil {
		return nil, err
	}
	md, err := ReadMetadata(ctx, fsys, loc.MetadataPath)
	if err != nil {
		return nil, err
	}
	return &Table{FS: fsys, MetadataPath: loc.MetadataPath, Root: loc.Root, Version: loc.Version, Guessed: loc.Guessed, Metadata: md, opened: target}, nil
}

// FromMetadata returns the table whose current metadata, already read, is
// md at metadataPath: what a catalog (the REST catalog's loadTable) hands
// out. Stored paths resolve under the table's location as recorded in md
// (no re-rooting); fsys reads them.
func FromMetadata(fsys storage.FS, metadataPath string, md *Metadata) *Table {
	root := storage.ParentDir(metadataPath)
	if storage.BaseName(root) == "metadata" {
		root = storage.ParentDir(root)
	}
	if md.Location != "" {
		root = md.Location
	}
	v, ok := metadataVersion(storage.BaseName(metadataPath))
	if !ok {
		v = -1
	}
	return &Table{FS: fsys, MetadataPath: metadataPath, Root: root, Version: v, Metadata: md}
}

// ReadMetadata reads and parses the table metadata file at path, gunzipping
// it when it starts with the gzip magic (write.metadata.compression-codec
// =gzip). Both the file and its uncompressed content are capped at
// [storage.MaxMetadataBytes]. The file is decoded as it is read, in reads of
// at most 8 MiB (one read for a smaller file), and never held whole (see
// [DecodeMetadata]). Errors name the file; a file that does not
// parse or gunzip matches schema.ErrInvalidSchema (class lakecat.ErrCorrupt),
// a file over the cap [storage.ErrMetadataTooLarge] (the same class);
// a failed read is returned as the storage reported it.
func ReadMetadata(ctx context.Context, fsys storage.FS, path string) (*Metadata, error) {
	f, err := fsys.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("iceberg: %w", err)
	}
	defer f.Close()
	n := f.Size()
	if n < 0 || n > storage.MaxMetadataBytes {
		return nil, fmt.Errorf("iceberg: %s: %w: size %d bytes is over the %d-byte cap for metadata files", path, storage.ErrMetadataTooLarge, n, storage.MaxMetadataBytes)
	}
	file := &readErr{r: io.NewSectionReader(f, 0, n)}
	br := bufio.NewReaderSize(file, int(min(max(n, 16), metadataReadBytes)))
	var src io.Reader = br
	magic, _ := br.Peek(2)
	gz := bytes.Equal(magic, []byte{0x1f, 0x8b})
	if gz {
		zr, err := gzip.NewReader(br)
		if err != nil {
			if file.err != nil {
				return nil, fmt.Errorf("iceberg: %s: %w", path, file.err)
			}
			return nil, fmt.Errorf("iceberg: %s: %w: gzip: %w", path, schema.ErrInvalidSchema, err)
		}
		src = zr
	}
	md, err := DecodeMetadata(src)
	switch {
	case err == nil:
		return md, nil
	case file.err != nil:
		return nil, fmt.Errorf("iceberg: %s: %w", path, file.err)
	case gz && !errors.Is(err, schema.ErrInvalidSchema):
		// The file was read whole and well: any other failure is gzip's.
		return nil, fmt.Errorf("iceberg: %s: %w: gzip: %w", path, schema.ErrInvalidSchema, err)
	}
	return nil, fmt.Errorf("iceberg: %s: %w", path, err)
}

// metadataReadBytes is the largest read ReadMetadata makes of a metadata
// file (one ranged request on an object store).
const metadataReadBytes = 8 << 20

// readErr keeps the first error of r other than io.EOF and returns it from
// then on, so that a failed read is told apart from bytes that do not
// decode, and is never silently read again (a buffered reader above would
// otherwise retry the read on its next call).
type readErr struct {
	r   io.Reader
	err error
}

func (e *readErr) Read(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		e.err = err
	}
	return n, err
}

// ScanOptions select the snapshot and say how stored paths are resolved.
type ScanOptions struct {
	// SnapshotID selects a snapshot by id (nil: the current snapshot).
	SnapshotID *int64
	// AsOf selects the latest snapshot whose timestamp-ms is ≤ AsOf (zero:
	// unused). SnapshotID wins when both are set.
	AsOf time.Time
	// PathMap rewrites stored paths (longest prefix wins), see [PathMap].
	PathMap PathMap
	// BaseDir resolves relative stored paths that are not under the table
	// location (see the resolver rules on [Table.Resolve]).
	BaseDir string
	// NoRebase turns off re-rooting paths under the table location at
	// [Table.Root].
	NoRebase bool
	// ManifestWorkers is how many manifests are read at once (0: 8). The
	// result does not depend on it.
	ManifestWorkers int
	// Filter, when set, leaves out the data manifests whose partition
	// summaries rule out every row it selects (bound to the scan's read
	// schema; a filter that does not bind prunes nothing): see
	// [Scan.SkippedManifests]. Files are not pruned here.
	Filter expr.Expr
}

// DataFile is one live data or delete file of a snapshot, with what a scan
// needs to read it.
type DataFile struct {
	// Path is the resolved path, to open through the table's FS.
	Path string
	// StoredPath is the path as written in the manifest.
	StoredPath string
	// Format is "PARQUET", "ORC", "AVRO" or "PUFFIN" (upper case).
	Format string
	// Content is data, position deletes or equality deletes. A deletion
	// vector (v3) is position deletes in a PUFFIN file.
	Content Content
	// RecordCount is the number of rows (data) or deletes in the file.
	RecordCount int64
	// SizeBytes is the file size in bytes as the manifest states it. Do not
	// use it to locate a footer: DuckDB 1.2.2 stores wrong sizes (the
	// partition_decimal_integer test table); take the size from storage.
	SizeBytes int64
	// SpecID is the partition spec id (from the manifest list).
	SpecID int
	// Partition maps partition field id → value in the Go form of
	// schema.Field; a null partition value is present with a nil value.
	Partition map[int]any
	// SequenceNumber is the data sequence number (inherited from the
	// manifest when not stored; 0 in format v1).
	SequenceNumber int64
	// FileSequenceNumber is the file sequence number (same inheritance).
	FileSequenceNumber int64
	// EqualityIDs are the field ids an equality delete file matches on.
	EqualityIDs []int
	// ReferencedDataFile is the data file a position delete file or
	// deletion vector applies to (stored path), or "".
	ReferencedDataFile string
	// ContentOffset and ContentSizeBytes locate a deletion vector's blob in
	// its Puffin file (bytes from the file's start, and its length); both
	// 0 for other files.
	ContentOffset, ContentSizeBytes int64
	// ManifestPath is the stored path of the manifest that lists the file.
	ManifestPath string
	// Metrics are the file's column metrics from its manifest entry, or nil.
	Metrics *Metrics
}

// IsDeletionVector reports whether f is a v3 deletion vector (position
// deletes in a Puffin file).
func (f *DataFile) IsDeletionVector() bool {
	return f.Content == ContentPositionDeletes && f.Format == "PUFFIN"
}

// Kind names what f holds: "data", "position deletes", "equality deletes"
// or "deletion vector".
func (f *DataFile) Kind() string {
	if f.IsDeletionVector() {
		return "deletion vector"
	}
	return f.Content.String()
}

// Scan is the plan of a table read: the snapshot, the read schema and every
// live file, in manifest-list order then manifest-entry order.
type Scan struct {
	// Table is the table scanned.
	Table *Table
	// Metadata is the table metadata.
	Metadata *Metadata
	// Snapshot is the snapshot read, or nil for a table without snapshots
	// (which has no files).
	Snapshot *Snapshot
	// ReadSchema is the table's current schema, or for a snapshot chosen by
	// id or time, the schema that snapshot was written with (Iceberg spec,
	// "Time travel": a snapshot without schema-id falls back to the current
	// schema).
	ReadSchema *schema.Schema
	// DataFiles are the live data files.
	DataFiles []DataFile
	// DeleteFiles are the live delete files (position, equality, deletion
	// vectors).
	DeleteFiles []DataFile
	// Paths is how the scan resolves stored paths, as a value: tasks with
	// position deletes carry it, for the paths inside the delete files.
	Paths *table.PathResolution
	// SkippedManifests are the data manifests that ScanOptions.Filter
	// ruled out by their partition summaries ([Scan.ManifestMayMatch]):
	// they were not read, and their files are in neither DataFiles nor
	// the tasks.
	SkippedManifests []ManifestFile

	nameMappingCache
}

// Plan selects a snapshot and lists its live files: the manifest list →
// manifests → entries with status ADDED or EXISTING (Iceberg spec, "Scan
// Planning"). Manifests are read in manifest-list order and entries in file
// order, which is the order of [Scan.DataFiles]. It holds every file of the
// snapshot; [Table.Tasks] streams them instead.
func (t *Table) Plan(ctx context.Context, opts ScanOptions) (*Scan, error) {
	s, manifests, res, err := t.start(ctx, opts)
	if err != nil || s.Snapshot == nil {
		return s, err
	}
	results := make([][]DataFile, len(manifests))
	err = parallel.ForEach(ctx, len(manifests), workers(opts), func(ctx context.Context, i int) error {
		files, err := t.readManifest(ctx, res, manifests[i])
		results[i] = files
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, files := range results {
		for _, f := range files {
			if f.Content == ContentData {
				s.DataFiles = append(s.DataFiles, f)
			} else {
				s.DeleteFiles = append(s.DeleteFiles, f)
			}
		}
	}
	return s, nil
}

func workers(opts ScanOptions) int {
	if opts.ManifestWorkers <= 0 {
		return parallel.DefaultWorkers
	}
	return opts.ManifestWorkers
}

// start selects the snapshot and its read schema and reads the manifest
// list; s.Snapshot is nil for a table without snapshots.
func (t *Table) start(ctx context.Context, opts ScanOptions) (*Scan, []ManifestFile, *resolver, error) {
	md := t.Metadata
	s := &Scan{Table: t, Metadata: md, ReadSchema: md.CurrentSchema(), Paths: t.PathResolution(opts)}
	snap, err := selectSnapshot(md, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	if snap == nil {
		return s, nil, nil, nil
	}
	s.Snapshot = snap
	if opts.SnapshotID != nil || !opts.AsOf.IsZero() {
		if snap.SchemaID != nil {
			if sc := md.SchemaByID(*snap.SchemaID); sc != nil {
				s.ReadSchema = sc
			}
		}
	}
	res := t.resolver(opts)
	var manifests []ManifestFile
	switch {
	case snap.ManifestList != "":
		opened := res.resolve(snap.ManifestList)
		b, err := readFile(ctx, t.FS, opened)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("iceberg: snapshot %d: manifest list: %w", snap.SnapshotID, err)
		}
		manifests, err = DecodeManifestList(bytes.NewReader(b))
		if err != nil {
			return nil, nil, nil, fmt.Errorf("iceberg: %s: %w", openedAs(opened, snap.ManifestList), err)
		}
	default: // format v1 may list manifests in the snapshot itself
		for _, m := range snap.Manifests {
			manifests = append(manifests, ManifestFile{Path: m, SpecID: -1, Files: -1})
		}
	}
	return s, s.pruneManifests(manifests, opts.Filter), res, nil
}

// readManifest reads one manifest and returns its live files (ADDED and
// EXISTING entries), paths resolved and sequence numbers inherited.
func (t *Table) readManifest(ctx context.Context, res *resolver, mf ManifestFile) ([]DataFile, error) {
	opened := res.resolve(mf.Path)
	b, err := readFile(ctx, t.FS, opened)
	if err != nil {
		return nil, fmt.Errorf("iceberg: manifest: %w", err)
	}
	specID := mf.SpecID
	if specID < 0 {
		specID = 0 // v1 snapshot "manifests": taken from the header below
	}
	hdr, entries, err := DecodeManifest(bytes.NewReader(b), t.specFieldIDs(specID))
	if err != nil {
		return nil, fmt.Errorf("iceberg: %s: %w", openedAs(opened, mf.Path), err)
	}
	if mf.SpecID < 0 && hdr.SpecID >= 0 {
		specID = hdr.SpecID
	}
	files := make([]DataFile, 0, len(entries))
	for _, e := range entries {
		if e.Status == StatusDeleted {
			continue
		}
		if e.FilePath == "" {
			return nil, fmt.Errorf("iceberg: %s: %w: a live entry has an empty file_path", mf.Path, ErrCorruptManifest)
		}
		// A manifest holds data files or delete files, as its content
		// in the manifest list says (spec, "Manifest Lists": content).
		if (mf.Content == 1) != (e.Content != ContentData) {
			return nil, fmt.Errorf("iceberg: %s: %w: %s manifest lists the %s file %s", openedAs(opened, mf.Path), ErrCorruptManifest, manifestContent(mf.Content), e.Content, e.FilePath)
		}
		f := DataFile{
			Path:               res.resolve(e.FilePath),
			StoredPath:         e.FilePath,
			Format:             NormalizeFormat(e.FileFormat),
			Content:            e.Content,
			RecordCount:        e.RecordCount,
			SizeBytes:          e.FileSizeBytes,
			SpecID:             specID,
			Partition:          e.Partition,
			EqualityIDs:        e.EqualityIDs,
			ReferencedDataFile: e.ReferencedDataFile,
			ManifestPath:       mf.Path,
			Metrics:            e.Metrics,
		}
		if e.ContentOffset != nil && e.ContentSizeBytes != nil {
			f.ContentOffset, f.ContentSizeBytes = *e.ContentOffset, *e.ContentSizeBytes
		}
		// Sequence number inheritance (spec, "Sequence Number
		// Inheritance"): a null value in an ADDED entry takes the
		// manifest's sequence number.
		f.SequenceNumber, f.FileSequenceNumber = mf.SequenceNumber, mf.SequenceNumber
		if e.SequenceNumber != nil {
			f.SequenceNumber = *e.SequenceNumber
		}
		if e.FileSequenceNumber != nil {
			f.FileSequenceNumber = *e.FileSequenceNumber
		}
		files = append(files, f)
	}
	return files, nil
}

// manifestContent names a manifest list entry's content.
func manifestContent(c int) string {
	if c == 1 {
		return "a delete"
	}
	return "a data"
}

// Resolve turns a path stored in the table's metadata into a path for the
// table's FS, with the rules of opts:
//  1. a PathMap rule (longest prefix) rewrites the path; the result is used
//     as it is (after step 2);
//  2. a "file://" or "file:" scheme is dropped ("file:///a/b" → "/a/b";
//     DuckDB writes "file://data/x" for a relative path);
//  3. unless NoRebase, a path under the table location recorded in the
//     metadata (compared with and without its scheme and authority, e.g.
//     "hdfs://nn:8020/wh/t/…", "/test-warehouse/t/…", DuckDB's relative
//     "data/persistent/t/…") is re-rooted at [Table.Root], so a table copied
//     to another place reads without a path map;
//  4. another relative path is joined to BaseDir when it is set; without
//     BaseDir, when the location is relative and Root ends with it, to the
//     part of Root before it (DuckDB's relative paths start at the folder
//     DuckDB ran in);
//  5. anything else is used as it is.
func (t *Table) Resolve(stored string, opts ScanOptions) string {
	return t.resolver(opts).resolve(stored)
}

func (t *Table) resolver(opts ScanOptions) *resolver {
	return newResolver(opts.PathMap, t.Metadata.Location, t.Root, opts.BaseDir, !opts.NoRebase)
}

// NormalizeFormat returns the upper-case file format name ("parquet" →
// "PARQUET").
func NormalizeFormat(f string) string { return strings.ToUpper(strings.TrimSpace(f)) }

func selectSnapshot(md *Metadata, opts ScanOptions) (*Snapshot, error) {
	switch {
	case opts.SnapshotID != nil:
		if s := md.SnapshotByID(*opts.SnapshotID); s != nil {
			return s, nil
		}
		// Some metadata files were rewritten by a tool that parsed ids as
		// float64 (Impala's hand-edited v3 test tables): accept the one
		// snapshot whose id is equal after that rounding.
		var found *Snapshot
		want := float64(*opts.SnapshotID)
		for i := range md.Snapshots {
			if float64(md.Snapshots[i].SnapshotID) == want {
				if found != nil {
					found = nil
					break
				}
				found = &md.Snapshots[i]
			}
		}
		if found != nil {
			return found, nil
		}
		return nil, fmt.Errorf("%w: id %d", ErrSnapshotNotFound, *opts.SnapshotID)
	case !opts.AsOf.IsZero():
		ms := opts.AsOf.UnixMilli()
		var best *Snapshot
		for i := range md.Snapshots {
			s := &md.Snapshots[i]
			if s.TimestampMs <= ms && (best == nil || s.TimestampMs > best.TimestampMs ||
				(s.TimestampMs == best.TimestampMs && s.SequenceNumber > best.SequenceNumber)) {
				best = s
			}
		}
		if best == nil {
			return nil, fmt.Errorf("%w: none at or before %s", ErrSnapshotNotFound, opts.AsOf.UTC().Format(time.RFC3339Nano))
		}
		return best, nil
	}
	return md.CurrentSnapshot(), nil
}

// DeletesError returns nil when the scan has no delete files, else an error
// matching [ErrDeleteFiles] that names how many delete files of each kind
// the snapshot has ("2 equality deletes, 1 position deletes").
func (s *Scan) DeletesError() error {
	if len(s.DeleteFiles) == 0 {
		return nil
	}
	counts := map[string]int{}
	var kinds []string
	for i := range s.DeleteFiles {
		k := s.DeleteFiles[i].Kind()
		if counts[k] == 0 {
			kinds = append(kinds, k)
		}
		counts[k]++
	}
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%d %s", counts[k], k)
	}
	var id int64
	if s.Snapshot != nil {
		id = s.Snapshot.SnapshotID
	}
	text := strconv.FormatInt(id, 10)
	if s.Metadata != nil {
		text = s.Metadata.formatSnapshotID(id)
	}
	return &DeletesError{SnapshotID: id, Counts: counts, Summary: strings.Join(parts, ", "), id: text}
}

// DeletesError summarizes the delete files of a snapshot, for a reader
// told not to apply them (it warns with it) or a caller that refuses them.
type DeletesError struct {
	// SnapshotID is the snapshot read.
	SnapshotID int64
	// Counts maps a kind ("position deletes", "equality deletes",
	// "deletion vector") to its number of files.
	Counts map[string]int
	// Summary lists the counts in manifest order of first appearance.
	Summary string
	// id is SnapshotID as the table metadata states it (an id above
	// 2^63-1 in unsigned decimal, see [Metadata.snapshotID]).
	id string
}

// ID returns the snapshot id as the table metadata states it: an id the
// metadata gives above 2^63-1 (SnapshotID is then negative, modulo 2^64)
// in unsigned decimal, as a user passes it back.
func (e *DeletesError) ID() string {
	if e.id == "" {
		return strconv.FormatInt(e.SnapshotID, 10)
	}
	return e.id
}

// Error implements error.
func (e *DeletesError) Error() string {
	return fmt.Sprintf("iceberg: snapshot %s has delete files (%s)", e.ID(), e.Summary)
}

// Unwrap returns [ErrDeleteFiles].
func (e *DeletesError) Unwrap() error { return ErrDeleteFiles }

// openedAs names a file in an error: the path read, and the path the
// metadata stores when it was rewritten (re-rooted or mapped) to another.
func openedAs(opened, stored string) string {
	if opened == stored {
		return opened
	}
	return fmt.Sprintf("%s (stored as %s)", opened, stored)
}
