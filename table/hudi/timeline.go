package hudi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table/internal/avrorec"
)

// ErrNotHudi is matched by the error for a folder without .hoodie/hoodie.properties.
var ErrNotHudi = lakecat.NewSentinel(lakecat.ErrNotFound, "hudi: not a Hudi table")

// ErrCorruptTimeline is matched by errors for timeline files that cannot be
// decoded.
var ErrCorruptTimeline = lakecat.NewSentinel(lakecat.ErrCorrupt, "hudi: corrupt timeline")

// Instant is a completed action on the timeline (Hudi docs, "Timeline").
type Instant struct {
	// Time is the instant (requested) time, "yyyyMMddHHmmssSSS".
	Time string
	// CompletionTime is the completion time (table version 8 and later), or
	// "".
	CompletionTime string
	// Action is "commit", "deltacommit" or "replacecommit".
	Action string
	// File is the instant file's path.
	File string
}

// dataActions are the completed actions that write data files. A compaction
// completes as a "commit"; clustering and insert-overwrite as a
// "replacecommit" (or "clustering" in table version 8).
var dataActions = map[string]bool{"commit": true, "deltacommit": true, "replacecommit": true, "clustering": true}

// readTimeline lists the completed data instants, oldest first, the
// earliest instant time of any state on the active timeline, and the
// instant times of the compactions requested or inflight (log files written
// while a compaction is pending carry its instant in their names). Layouts:
//   - table version ≤ 7 ("v6"): .hoodie/<time>.<action> is completed;
//     <time>.<action>.requested / .inflight (and <time>.inflight) are not;
//   - table version ≥ 8: .hoodie/timeline/<time>_<completion>.<action> is
//     completed; <time>.<action>.requested / .inflight are not.
func readTimeline(ctx context.Context, fsys storage.FS, root string) (instants []Instant, earliest string, pendingCompactions map[string]bool, err error) {
	pendingCompactions = map[string]bool{}
	dir := storage.JoinPath(root, ".hoodie/timeline")
	names, err := fsys.List(ctx, dir)
	v8 := err == nil
	if errors.Is(err, fs.ErrNotExist) {
		dir = storage.JoinPath(root, ".hoodie")
		names, err = fsys.List(ctx, dir)
	}
	if err != nil {
		return nil, "", nil, err
	}
	for _, n := range names {
		if n == "" || n[0] < '0' || n[0] > '9' {
			continue
		}
		ts, rest, ok := strings.Cut(n, ".")
		if !ok {
			continue
		}
		var completion string
		if v8 {
			ts, completion, _ = strings.Cut(ts, "_")
		}
		if !isInstantTime(ts) {
			continue
		}
		if earliest == "" || ts < earliest {
			earliest = ts
		}
		if rest == "compaction.requested" || rest == "compaction.inflight" {
			pendingCompactions[ts] = true
		}
		if strings.Contains(rest, ".") || !dataActions[rest] {
			continue // requested, inflight, or not a data action
		}
		if v8 && completion == "" {
			continue
		}
		instants = append(instants, Instant{Time: ts, CompletionTime: completion, Action: rest, File: storage.JoinPath(dir, n)})
	}
	sort.SliceStable(instants, func(i, j int) bool { return instants[i].Time < instants[j].Time })
	for _, in := range instants {
		delete(pendingCompactions, in.Time) // completed since
	}
	return instants, earliest, pendingCompactions, nil
}

func isInstantTime(s string) bool {
	if len(s) < 8 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// CommitMetadata is the part of a commit's metadata the reader uses.
type CommitMetadata struct {
	// Schema is extraMetadata.schema: the writer's Avro schema JSON, or "".
	Schema string
	// Partitions are the partition paths the commit wrote, sorted.
	Partitions []string
	// ReplacedFileIDs maps a partition path to the file ids a replacecommit
	// replaced.
	ReplacedFileIDs map[string][]string
	// OperationType is the write operation ("UPSERT", "INSERT", …).
	OperationType string
	// WriteStats are the files the commit wrote, in partition order then
	// file order.
	WriteStats []WriteStat
}

// WriteStat is one file a commit wrote (HoodieWriteStat).
type WriteStat struct {
	// Partition is the partition path.
	Partition string
	// FileID is the file group id.
	FileID string
	// Path is the file's path relative to the table.
	Path string
	// NumWrites is the number of records in the written file (for a base
	// file: all its rows), or -1 when not recorded.
	NumWrites int64
	// FileSizeBytes is the written file's size in bytes, or -1.
	FileSizeBytes int64
}

// avroMagic starts an Avro object container file (Avro specification,
// "Object Container Files").
const avroMagic = "Obj\x01"

// damagedContainer reports whether data, which does not start with
// avroMagic, is an Avro object container whose magic is damaged rather
// than JSON: it does not start as a JSON object does and either its first
// four bytes differ from the magic in one byte only or the header's
// metadata map begins with the "avro.schema" key where a container's
// does (a count then the key's length, after the magic).
func damagedContainer(data []byte) bool {
	if len(data) < 4 || bytes.HasPrefix(data, []byte(avroMagic)) {
		return false
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		return false
	}
	diff := 0
	for i := range 4 {
		if data[i] != avroMagic[i] {
			diff++
		}
	}
	return diff == 1 || bytes.Contains(data[4:min(len(data), 4+16)], []byte("avro.schema"))
}

// ParseCommitMetadata decodes a completed commit file: JSON (table version
// ≤ 7) or an Avro object container holding one HoodieCommitMetadata or
// HoodieReplaceCommitMetadata record (version 8). An empty file is empty
// metadata. A container whose magic is damaged is reported as one, not as
// bad JSON. Errors match [ErrCorruptTimeline], or formats/avro.ErrUnsupported
// (class lakecat.ErrUnsupported) for an Avro codec or schema that package
// does not read, as for manifests and data files.
func ParseCommitMetadata(data []byte) (md *CommitMetadata, err error) {
	md = &CommitMetadata{ReplacedFileIDs: map[string][]string{}}
	if len(bytes.TrimSpace(data)) == 0 {
		return md, nil
	}
	var rec map[string]any
	if damagedContainer(data) {
		return nil, fmt.Errorf("%w: damaged Avro object container: magic %q, want %q", ErrCorruptTimeline, data[:4], avroMagic)
	}
	if bytes.HasPrefix(data, []byte(avroMagic)) {
		f, err := avrorec.Open(data, "instant")
		if err != nil {
			return nil, avrorec.OpenError(ErrCorruptTimeline, "hudi: instant", err)
		}
		for r, err := range f.Records(context.Background()) {
			if err != nil {
				return nil, fmt.Errorf("%w: %v", ErrCorruptTimeline, err)
			}
			rec = r
			break
		}
		if rec == nil {
			return md, nil
		}
	} else {
		d := json.NewDecoder(bytes.NewReader(data))
		if err := d.Decode(&rec); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrCorruptTimeline, err)
		}
	}
	if em, ok := unwrapMap(rec["extraMetadata"]); ok {
		if s, ok := unwrapString(em["schema"]); ok {
			md.Schema = s
		}
	}
	if s, ok := unwrapString(rec["operationType"]); ok {
		md.OperationType = s
	}
	if ws, ok := unwrapMap(rec["partitionToWriteStats"]); ok {
		for p := range ws {
			md.Partitions = append(md.Partitions, p)
		}
		sort.Strings(md.Partitions)
		for _, p := range md.Partitions {
			arr, _ := unwrapArray(ws[p])
			for _, x := range arr {
				st, ok := unwrapMap(x)
				if !ok {
					continue
				}
				w := WriteStat{Partition: p, NumWrites: -1, FileSizeBytes: -1}
				w.FileID, _ = unwrapString(st["fileId"])
				w.Path, _ = unwrapString(st["path"])
				if n, ok := unwrapInt(st["numWrites"]); ok {
					w.NumWrites = n
				}
				if n, ok := unwrapInt(st["fileSizeInBytes"]); ok {
					w.FileSizeBytes = n
				}
				md.WriteStats = append(md.WriteStats, w)
			}
		}
	}
	if rf, ok := unwrapMap(rec["partitionToReplaceFileIds"]); ok {
		for p, v := range rf {
			arr, _ := unwrapArray(v)
			for _, x := range arr {
				if s, ok := unwrapString(x); ok {
					md.ReplacedFileIDs[p] = append(md.ReplacedFileIDs[p], s)
				}
			}
		}
	}
	return md, nil
}

// The unwrap helpers accept plain values (formats/avro.File.Records' form,
// or JSON's) and one-entry union wrappers ({"map": …}, {"string": …},
// {"array": …}) as JSON encodings of Avro write them.
func unwrapMap(v any) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	if inner, ok := m["map"].(map[string]any); ok && len(m) == 1 {
		return inner, true
	}
	return m, true
}

func unwrapString(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case map[string]any:
		if len(x) == 1 {
			if s, ok := x["string"].(string); ok {
				return s, true
			}
		}
	}
	return "", false
}

func unwrapInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int:
		return int64(x), true
	case int32:
		return int64(x), true
	case float64: // JSON
		if x == float64(int64(x)) {
			return int64(x), true
		}
	case map[string]any:
		if len(x) == 1 {
			return unwrapInt(x["long"])
		}
	}
	return 0, false
}

func unwrapArray(v any) ([]any, bool) {
	switch x := v.(type) {
	case []any:
		return x, true
	case map[string]any:
		if len(x) == 1 {
			a, ok := x["array"].([]any)
			return a, ok
		}
	}
	return nil, false
}
