package hudi

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
)

// ErrMergeOnRead is matched by [Scan.LogsError]'s error: the file slices
// have log files that reading base files only leaves out.
var ErrMergeOnRead = lakecat.NewSentinel(lakecat.ErrUnsupported, "hudi: merge-on-read log files")

// ErrNoCommits is matched by the error for a table without completed
// commits (or none at or before the instant asked for).
var ErrNoCommits = lakecat.NewSentinel(lakecat.ErrNotFound, "hudi: no completed commit")

// Table is a Hudi table folder: .hoodie/ (hoodie.properties and the
// timeline) and the data files, in partition folders for a partitioned
// table.
type Table struct {
	// FS is the storage the table is read from.
	FS storage.FS
	// Root is the table folder.
	Root string
	// Properties are .hoodie/hoodie.properties.
	Properties map[string]string

	opened string // the location Open was given
	mu     sync.Mutex
	cmeta  map[string]*CommitMetadata // instant file → metadata
}

// Open reads .hoodie/hoodie.properties of the table at root.
func Open(ctx context.Context, fsys storage.FS, root string) (*Table, error) {
	opened := root
	root = strings.TrimSuffix(root, "/")
	b, err := readFile(ctx, fsys, storage.JoinPath(root, ".hoodie/hoodie.properties"))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: %s: %v", ErrNotHudi, root, err)
		}
		return nil, err
	}
	return &Table{FS: fsys, Root: root, Properties: parseProperties(string(b)), opened: opened, cmeta: map[string]*CommitMetadata{}}, nil
}

// TableType returns hoodie.table.type: "COPY_ON_WRITE" (the default) or
// "MERGE_ON_READ".
func (t *Table) TableType() string {
	if v := t.Properties["hoodie.table.type"]; v != "" {
		return v
	}
	return "COPY_ON_WRITE"
}

// CommitMetadata returns the parsed metadata of a completed instant (cached).
func (t *Table) CommitMetadata(ctx context.Context, in Instant) (*CommitMetadata, error) {
	t.mu.Lock()
	md := t.cmeta[in.File]
	t.mu.Unlock()
	if md != nil {
		return md, nil
	}
	b, err := readFile(ctx, t.FS, in.File)
	if err != nil {
		return nil, err
	}
	md, err = ParseCommitMetadata(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.File, err)
	}
	t.mu.Lock()
	t.cmeta[in.File] = md
	t.mu.Unlock()
	return md, nil
}

// InstantTime spells t as a Hudi instant time, "yyyyMMddHHmmssSSS", in t's
// location. Hudi writes instant times in the writer's local time zone unless
// hoodie.table.timeline.timezone is UTC: pass t in that zone.
func InstantTime(t time.Time) string {
	return t.Format("20060102150405") + fmt.Sprintf("%03d", t.Nanosecond()/1e6)
}

// ScanOptions select what a scan reads.
type ScanOptions struct {
	// AsOfInstant reads the table as of the latest completed instant whose
	// time is ≤ this instant time ("" for the latest).
	AsOfInstant string
	// IgnoreLogs plans for a read of the base files only: a log file
	// missing or shorter than its commit recorded ([ErrShortLogFile]) is
	// then not an error, since no log is read ([Scan.LogsError] still
	// counts the logs listed and left unread).
	IgnoreLogs bool
}

// BaseFile is the latest base file of a file group.
type BaseFile struct {
	// Path is the file's path for the table's FS.
	Path string
	// Partition is the partition path relative to the table ("" when the
	// table is not partitioned).
	Partition string
	// FileID is the file group id.
	FileID string
	// WriteToken is the writer's token from the file name.
	WriteToken string
	// InstantTime is the instant of the commit that wrote the file: resolve
	// the file through that commit's schema ([Scan.WriterSchema]).
	InstantTime string
	// Format is "PARQUET", "ORC" or "HFILE" from the extension.
	Format string
	// SizeBytes is the file size in bytes (from the storage), or -1 when it
	// could not be opened.
	SizeBytes int64
	// RecordCount is the number of rows, from the write statistics of the
	// commit that wrote the file (numWrites), or -1 when not recorded.
	RecordCount int64
}

// LogFile is a merge-on-read log file of a file group's latest file slice.
type LogFile struct {
	// Path is the file's path.
	Path string
	// Partition and FileID name the file group.
	Partition, FileID string
	// BaseInstant is the instant in the log file's name.
	BaseInstant string
	// Version is the log version in the name (1, 2, …) and WriteToken the
	// writer's token after it ("" when the name has none).
	Version    int
	WriteToken string
	// SizeBytes is the file size in bytes (from the storage), or -1 when it
	// could not be opened.
	SizeBytes int64
}

// FileSlice is the latest file slice of a file group (Hudi docs, "File
// Layouts"): its base file, if any, and the log files written onto it, in
// the order their blocks apply (base instant, log version, write token).
type FileSlice struct {
	// Partition and FileID name the file group.
	Partition, FileID string
	// Base is the base file, or nil for a slice of log files only.
	Base *BaseFile
	// Logs are the slice's log files.
	Logs []LogFile
}

// Scan is the plan of a Hudi table read.
type Scan struct {
	// Table is the table.
	Table *Table
	// Instant is the latest completed instant read.
	Instant Instant
	// AvroSchema is the table schema's Avro JSON (extraMetadata.schema of
	// the latest commit that has one, else hoodie.table.create.schema).
	AvroSchema string
	// Schema is the table schema as internal schema: the schema history's
	// version current at Instant when the table has one (.hoodie/.schema/,
	// ids from Hudi), else AvroSchema converted (ids from [IDs]).
	Schema *schema.Schema
	// BaseFiles are the latest base file of each live file group, sorted by
	// partition then file id.
	BaseFiles []BaseFile
	// LogFiles are the log files of the latest file slices (merge-on-read),
	// sorted by partition, file id, then in the order their blocks apply.
	LogFiles []LogFile
	// FileSlices are the latest file slices, sorted by partition then file
	// id: each live file group's base file (an entry of BaseFiles) and log
	// files (entries of LogFiles).
	FileSlices []FileSlice

	// History is the schema history of a schema-on-read table
	// (.hoodie/.schema/), or nil.
	History *SchemaHistory

	ids       IDs
	asOf      string
	instants  []Instant
	earliest  string
	writerMu  sync.Mutex
	writerSch map[string]*schema.Schema
}

// Plan reads the timeline and lists the latest base file of each file group
// (copy-on-write file slices; Hudi docs, "File Layouts"): files named
// <fileId>_<writeToken>_<instant>.<ext> whose instant is a completed commit
// at or before the instant read (or is older than the active timeline, whose
// archived commits count as completed), minus file groups a replacecommit
// replaced. Log files (.<fileId>_<instant>.log.<version>_<token>) of a file
// group whose instant is committed (or a pending compaction's) and at or
// after its base file's are reported in LogFiles, in the order their blocks
// apply; change-data-capture logs (token ending "-cdc") are not. Each file
// group's base file and log files form its latest file slice (FileSlices).
// Partition folders are taken from the partitions the commits wrote.
func (t *Table) Plan(ctx context.Context, opts ScanOptions) (*Scan, error) {
	instants, earliest, pending, err := readTimeline(ctx, t.FS, t.Root)
	if err != nil {
		return nil, err
	}
	everCompleted := map[string]bool{}
	for _, in := range instants {
		everCompleted[in.Time] = true
	}
	if opts.AsOfInstant != "" {
		n := 0
		for _, in := range instants {
			if in.Time <= opts.AsOfInstant {
				instants[n] = in
				n++
			}
		}
		instants = instants[:n]
	}
	if len(instants) == 0 {
		return nil, fmt.Errorf("%w in %s", ErrNoCommits, t.Root)
	}
	s := &Scan{Table: t, Instant: instants[len(instants)-1], instants: instants, earliest: earliest, asOf: opts.AsOfInstant, writerSch: map[string]*schema.Schema{}}

	completed := map[string]bool{}
	partSet := map[string]bool{}
	counts := map[string]int64{}  // relative path → numWrites
	replaced := map[string]bool{} // partition + "/" + file id
	// written: partition + "/" + file id → the newest base file a commit
	// wrote for that file group; each must be in the listing below.
	written := map[string]BaseFile{}
	// loggedSize: partition-relative log path → the largest size a commit
	// recorded for it (a log appended to by several commits grows); each
	// log of a latest file slice must be in the listing below, that long.
	loggedSize := map[string]int64{}
	for _, in := range instants {
		completed[in.Time] = true
		md, err := t.CommitMetadata(ctx, in)
		if err != nil {
			return nil, err
		}
		for _, p := range md.Partitions {
			partSet[p] = true
		}
		for _, w := range md.WriteStats {
			counts[w.Path] = w.NumWrites
			if bf, ok := parseBaseName(path.Base(w.Path)); ok && bf.InstantTime == in.Time {
				bf.Path, bf.Partition = w.Path, w.Partition
				written[w.Partition+"/"+bf.FileID] = bf
			}
			if _, ok := parseLogName(path.Base(w.Path)); ok {
				if cur, seen := loggedSize[w.Path]; !seen || w.FileSizeBytes > cur {
					loggedSize[w.Path] = w.FileSizeBytes
				}
			}
		}
		for p, ids := range md.ReplacedFileIDs {
			for _, id := range ids {
				replaced[p+"/"+id] = true
			}
		}
		if md.Schema != "" {
			s.AvroSchema = md.Schema
		}
	}
	if s.AvroSchema == "" {
		s.AvroSchema = t.Properties["hoodie.table.create.schema"]
	}
	if s.AvroSchema == "" {
		return nil, fmt.Errorf("hudi: %s: no table schema in the commits or hoodie.properties", t.Root)
	}
	committed := func(ts string) bool {
		return completed[ts] || (opts.AsOfInstant == "" || ts <= opts.AsOfInstant) && earliest != "" && ts < earliest
	}
	// The newest history file holds every version; versions after the
	// instant read are not picked by history.at.
	s.History, err = readSchemaHistory(ctx, t.FS, t.Root, func(ts string) bool { return everCompleted[ts] })
	if err != nil {
		return nil, err
	}
	if hs := s.History.At(s.Instant.Time); hs != nil {
		s.Schema = hs
	} else {
		s.Schema, err = ConvertAvroSchema(s.AvroSchema, &s.ids)
		if err != nil {
			return nil, err
		}
	}

	parts := make([]string, 0, len(partSet))
	for p := range partSet {
		parts = append(parts, p)
	}
	sort.Strings(parts)
	for _, p := range parts {
		dir := t.Root
		if p != "" {
			if strings.Contains(p, "..") {
				return nil, fmt.Errorf("%w: partition path %q", ErrCorruptTimeline, p)
			}
			dir = storage.JoinPath(t.Root, p)
		}
		names, err := t.FS.List(ctx, dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // a partition deleted since
			}
			return nil, err
		}
		latest := map[string]BaseFile{}
		var logs []LogFile
		for _, n := range names {
			if lf, ok := parseLogName(n); ok {
				if strings.HasSuffix(lf.WriteToken, "-cdc") {
					continue // a change-data-capture log, not part of the file slice
				}
				lf.Path, lf.Partition = storage.JoinPath(dir, n), p
				logs = append(logs, lf)
				continue
			}
			bf, ok := parseBaseName(n)
			if !ok || !committed(bf.InstantTime) || replaced[p+"/"+bf.FileID] {
				continue
			}
			bf.Path, bf.Partition, bf.SizeBytes, bf.RecordCount = storage.JoinPath(dir, n), p, -1, -1
			rel := n
			if p != "" {
				rel = p + "/" + n
			}
			if c, ok := counts[rel]; ok {
				bf.RecordCount = c
			}
			if cur, ok := latest[bf.FileID]; !ok || bf.InstantTime > cur.InstantTime {
				latest[bf.FileID] = bf
			}
		}
		for key, w := range written {
			if w.Partition != p || replaced[key] {
				continue
			}
			if bf, ok := latest[w.FileID]; !ok || bf.InstantTime < w.InstantTime {
				// A listing that lacks a committed base file would read
				// the file group's older slice, or nothing, without a word.
				return nil, fmt.Errorf("hudi: %s: base file %s written by commit %s: %w", t.Root, w.Path, w.InstantTime, fs.ErrNotExist)
			}
		}
		ids := make([]string, 0, len(latest))
		for id := range latest {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			s.BaseFiles = append(s.BaseFiles, latest[id])
		}
		if err := t.checkLoggedFiles(p, loggedSize, logs, latest, replaced); err != nil && !opts.IgnoreLogs {
			return nil, err
		}
		sort.Slice(logs, func(i, j int) bool { return logLess(&logs[i], &logs[j]) })
		for _, lf := range logs {
			// A log written while a compaction is pending names the
			// compaction's instant: it extends the slice being compacted.
			if replaced[p+"/"+lf.FileID] || !committed(lf.BaseInstant) && !pending[lf.BaseInstant] {
				continue
			}
			if bf, ok := latest[lf.FileID]; ok && lf.BaseInstant < bf.InstantTime {
				continue // belongs to an older file slice
			}
			s.LogFiles = append(s.LogFiles, lf)
		}
	}
	for i := range s.BaseFiles {
		f, err := t.FS.Open(ctx, s.BaseFiles[i].Path)
		if err == nil {
			s.BaseFiles[i].SizeBytes = f.Size()
			f.Close()
		}
	}
	for i := range s.LogFiles {
		lf := &s.LogFiles[i]
		lf.SizeBytes = -1
		f, err := t.FS.Open(ctx, lf.Path)
		if err == nil {
			lf.SizeBytes = f.Size()
			f.Close()
		}
		rel := path.Base(lf.Path)
		if lf.Partition != "" {
			rel = lf.Partition + "/" + rel
		}
		if want, ok := loggedSize[rel]; ok && want > 0 && lf.SizeBytes >= 0 && lf.SizeBytes < want && !opts.IgnoreLogs {
			return nil, fmt.Errorf("%w: %s: %d bytes, a completed commit recorded %d", ErrShortLogFile, lf.Path, lf.SizeBytes, want)
		}
	}
	s.FileSlices = fileSlices(s.BaseFiles, s.LogFiles)
	return s, nil
}

// ErrShortLogFile is matched by the error for a log file of a latest file
// slice that is shorter than the size a completed commit's write stats
// recorded for it (fileSizeInBytes): its blocks would read as fewer
// updates than were committed.
var ErrShortLogFile = lakecat.NewSentinel(lakecat.ErrCorrupt, "hudi: log file shorter than its commit recorded")

// checkLoggedFiles returns an error matching fs.ErrNotExist for a log file
// of partition p that a completed commit's write stats name but the
// listing (logs) lacks, when it belongs to its file group's latest file
// slice (its base instant not older than the latest base file's) and the
// group was not replaced: reading without it would return the rows its
// blocks update or delete as they were before.
func (t *Table) checkLoggedFiles(p string, loggedSize map[string]int64, logs []LogFile, latest map[string]BaseFile, replaced map[string]bool) error {
	listed := map[string]bool{}
	for _, lf := range logs {
		listed[path.Base(lf.Path)] = true
	}
	var missing []string
	for rel := range loggedSize {
		dir, name := path.Split(rel)
		if strings.TrimSuffix(dir, "/") != p || listed[name] {
			continue
		}
		lf, _ := parseLogName(name)
		if replaced[p+"/"+lf.FileID] {
			continue
		}
		if bf, ok := latest[lf.FileID]; ok && lf.BaseInstant < bf.InstantTime {
			continue // an older file slice's log, cleaned since
		}
		missing = append(missing, rel)
	}
	if len(missing) == 0 {
		return nil
	}
	sort.Strings(missing)
	return fmt.Errorf("hudi: %s: log file %s written by a completed commit: %w", t.Root, storage.JoinPath(t.Root, missing[0]), fs.ErrNotExist)
}

// fileSlices groups base and log files (each sorted by partition and file
// id) into file slices.
func fileSlices(bases []BaseFile, logs []LogFile) []FileSlice {
	var out []FileSlice
	at := map[string]int{}
	for i := range bases {
		b := &bases[i]
		at[b.Partition+"/"+b.FileID] = len(out)
		out = append(out, FileSlice{Partition: b.Partition, FileID: b.FileID, Base: b})
	}
	for _, l := range logs {
		k := l.Partition + "/" + l.FileID
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, FileSlice{Partition: l.Partition, FileID: l.FileID})
		}
		out[i].Logs = append(out[i].Logs, l)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Partition != out[j].Partition {
			return out[i].Partition < out[j].Partition
		}
		return out[i].FileID < out[j].FileID
	})
	return out
}

// logLess orders log files by file group, then as their blocks apply: base
// instant, log version, write token (Hudi's HoodieLogFile order).
func logLess(a, b *LogFile) bool {
	if a.FileID != b.FileID {
		return a.FileID < b.FileID
	}
	if a.BaseInstant != b.BaseInstant {
		return a.BaseInstant < b.BaseInstant
	}
	if a.Version != b.Version {
		return a.Version < b.Version
	}
	return a.WriteToken < b.WriteToken
}

// parseBaseName parses "<fileId>_<writeToken>_<instant>.<ext>".
func parseBaseName(n string) (BaseFile, bool) {
	if strings.HasPrefix(n, ".") {
		return BaseFile{}, false
	}
	var format string
	for ext, f := range map[string]string{".parquet": "PARQUET", ".orc": "ORC", ".hfile": "HFILE"} {
		if strings.HasSuffix(n, ext) {
			format, n = f, strings.TrimSuffix(n, ext)
			break
		}
	}
	if format == "" {
		return BaseFile{}, false
	}
	i := strings.LastIndexByte(n, '_')
	if i < 0 {
		return BaseFile{}, false
	}
	instant := n[i+1:]
	rest := n[:i]
	j := strings.LastIndexByte(rest, '_')
	if j <= 0 || !isInstantTime(instant) {
		return BaseFile{}, false
	}
	return BaseFile{FileID: rest[:j], WriteToken: rest[j+1:], InstantTime: instant, Format: format}, true
}

// parseLogName parses ".<fileId>_<instant>.log.<version>[_<writeToken>]".
func parseLogName(n string) (LogFile, bool) {
	if !strings.HasPrefix(n, ".") {
		return LogFile{}, false
	}
	head, tail, ok := strings.Cut(n[1:], ".log.")
	if !ok {
		return LogFile{}, false
	}
	i := strings.LastIndexByte(head, '_')
	if i <= 0 || !isInstantTime(head[i+1:]) {
		return LogFile{}, false
	}
	ver, token, _ := strings.Cut(tail, "_")
	v, err := strconv.Atoi(ver)
	if err != nil || v < 0 {
		return LogFile{}, false
	}
	return LogFile{FileID: head[:i], BaseInstant: head[i+1:], Version: v, WriteToken: token}, true
}

// WriterSchema returns the schema f was written with. For a table with a
// schema history (.hoodie/.schema/, schema on read) it is the history's
// version current at f's instant, with Hudi's own field ids (renames keep
// their id). Otherwise it is the schema of the commit that wrote f (its
// extraMetadata.schema), with field ids matched by name path to
// [Scan.Schema] (see [IDs]); a commit without a schema (or one older than
// the active timeline) yields the table schema. Hudi resolves a base file's
// columns by name: read the file through this schema.
func (s *Scan) WriterSchema(ctx context.Context, f *BaseFile) (*schema.Schema, error) {
	s.writerMu.Lock()
	defer s.writerMu.Unlock()
	if sc, ok := s.writerSch[f.InstantTime]; ok {
		return sc, nil
	}
	if s.History != nil {
		// Schema-on-read tables: the history has the ids; a file older than
		// the first version is read with the oldest version.
		sc := s.History.At(f.InstantTime)
		if sc == nil && len(s.History.Versions) > 0 {
			sc = s.History.Schemas[s.History.Versions[0]]
		}
		if sc != nil {
			s.writerSch[f.InstantTime] = sc
			return sc, nil
		}
	}
	sc := s.Schema
	for _, in := range s.instants {
		if in.Time != f.InstantTime {
			continue
		}
		md, err := s.Table.CommitMetadata(ctx, in)
		if err != nil {
			return nil, err
		}
		if md.Schema != "" && md.Schema != s.AvroSchema {
			sc, err = ConvertAvroSchema(md.Schema, &s.ids)
			if err != nil {
				return nil, err
			}
		}
	}
	s.writerSch[f.InstantTime] = sc
	return sc, nil
}

// IsMergeOnRead reports whether the table type is MERGE_ON_READ or the
// latest file slices have log files.
func (s *Scan) IsMergeOnRead() bool {
	return s.Table.TableType() == "MERGE_ON_READ" || len(s.LogFiles) > 0
}

// LogsError returns nil when the latest file slices have no log files, else
// an error matching [ErrMergeOnRead] naming how many log files in how many
// file groups would be ignored by reading base files only.
func (s *Scan) LogsError() error {
	if len(s.LogFiles) == 0 {
		return nil
	}
	groups := map[string]bool{}
	for _, l := range s.LogFiles {
		groups[l.Partition+"/"+l.FileID] = true
	}
	return fmt.Errorf("%w: %d log files in %d file groups hold changes not in the base files", ErrMergeOnRead, len(s.LogFiles), len(groups))
}
