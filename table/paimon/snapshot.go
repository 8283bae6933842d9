package paimon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/storage"
)

// ErrInvalidSnapshot is matched by errors for snapshot files that cannot be
// decoded.
var ErrInvalidSnapshot = lakecat.NewSentinel(lakecat.ErrCorrupt, "paimon: invalid snapshot")

// ErrNoSnapshot is matched by the error for a table (or branch) without
// snapshots, or a snapshot id that does not exist.
var ErrNoSnapshot = lakecat.NewSentinel(lakecat.ErrNotFound, "paimon: snapshot not found")

// ErrNoSchema is matched by the error for a table or branch without a
// schema-N file.
var ErrNoSchema = lakecat.NewSentinel(lakecat.ErrNotFound, "paimon: no schema found")

// Snapshot is a snapshot-N file (Paimon docs, "Specification: Snapshot").
type Snapshot struct {
	// Version is the snapshot file format version.
	Version int
	// ID is the snapshot id (N of snapshot-N).
	ID int64
	// SchemaID is the id of the schema current when the snapshot was
	// committed.
	SchemaID int64
	// BaseManifestList names the manifest list of all files before this
	// snapshot's changes (in manifest/).
	BaseManifestList string
	// DeltaManifestList names the manifest list of this snapshot's changes.
	DeltaManifestList string
	// ChangelogManifestList names the changelog manifest list, or "".
	ChangelogManifestList string
	// IndexManifest names the index manifest (deletion vectors, hash
	// indexes), or "".
	IndexManifest string
	// CommitKind is APPEND, COMPACT, OVERWRITE or ANALYZE.
	CommitKind string
	// TimeMillis is the commit time in milliseconds since the epoch.
	TimeMillis int64
	// TotalRecordCount is the number of rows in the snapshot (nil when the
	// file has none).
	TotalRecordCount *int64
}

type snapshotJSON struct {
	Version               *int64  `json:"version"`
	ID                    *int64  `json:"id"`
	SchemaID              *int64  `json:"schemaId"`
	BaseManifestList      *string `json:"baseManifestList"`
	DeltaManifestList     *string `json:"deltaManifestList"`
	ChangelogManifestList *string `json:"changelogManifestList"`
	IndexManifest         *string `json:"indexManifest"`
	CommitKind            string  `json:"commitKind"`
	TimeMillis            int64   `json:"timeMillis"`
	TotalRecordCount      *int64  `json:"totalRecordCount"`
}

// ParseSnapshot decodes a snapshot-N file. The id, schemaId,
// baseManifestList and deltaManifestList keys are required; manifest names
// must be plain file names (no path separators). Errors match
// [ErrInvalidSnapshot].
func ParseSnapshot(data []byte) (*Snapshot, error) {
	var j snapshotJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidSnapshot, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: data after the JSON object", ErrInvalidSnapshot)
	}
	switch {
	case j.ID == nil:
		return nil, fmt.Errorf("%w: no id", ErrInvalidSnapshot)
	case j.SchemaID == nil || *j.SchemaID < 0:
		return nil, fmt.Errorf("%w: no schemaId", ErrInvalidSnapshot)
	case j.BaseManifestList == nil || j.DeltaManifestList == nil:
		return nil, fmt.Errorf("%w: no baseManifestList or deltaManifestList", ErrInvalidSnapshot)
	}
	s := &Snapshot{ID: *j.ID, SchemaID: *j.SchemaID, BaseManifestList: *j.BaseManifestList,
		DeltaManifestList: *j.DeltaManifestList, CommitKind: j.CommitKind, TimeMillis: j.TimeMillis,
		TotalRecordCount: j.TotalRecordCount}
	if j.Version != nil {
		s.Version = int(*j.Version)
	}
	if j.ChangelogManifestList != nil {
		s.ChangelogManifestList = *j.ChangelogManifestList
	}
	if j.IndexManifest != nil {
		s.IndexManifest = *j.IndexManifest
	}
	for _, n := range []string{s.BaseManifestList, s.DeltaManifestList, s.ChangelogManifestList, s.IndexManifest} {
		if strings.ContainsAny(n, "/\\") || n == "." || n == ".." {
			return nil, fmt.Errorf("%w: manifest name %q is not a file name", ErrInvalidSnapshot, n)
		}
	}
	if s.BaseManifestList == "" || s.DeltaManifestList == "" {
		return nil, fmt.Errorf("%w: empty manifest list name", ErrInvalidSnapshot)
	}
	return s, nil
}

// findSnapshot returns the path of the snapshot to read in dir (a table or
// branch folder): snapshot-<id> when id ≥ 0, else the latest, by Paimon's
// rule (SnapshotManager.latestSnapshotId): snapshot/LATEST holds a hint N;
// when snapshot-N exists, the latest is N advanced while snapshot-(N+1)
// exists (a commit writes the snapshot before the hint); otherwise, and
// without a hint, the highest snapshot-N of the listing. A hint above every
// snapshot in the folder is an error matching [ErrInvalidSnapshot]: the
// snapshots it promises are gone.
func findSnapshot(ctx context.Context, fsys storage.FS, dir string, id int64) (string, error) {
	sdir := storage.JoinPath(dir, "snapshot")
	names, err := fsys.List(ctx, sdir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%w: no snapshot folder in %s", ErrNoSnapshot, dir)
		}
		return "", err
	}
	have := map[int64]bool{}
	var best int64 = -1
	for _, n := range names {
		if v, ok := numberedFile(n, "snapshot-"); ok {
			have[v] = true
			best = max(best, v)
		}
	}
	path := func(v int64) string { return storage.JoinPath(sdir, "snapshot-"+strconv.FormatInt(v, 10)) }
	if id >= 0 {
		if !have[id] {
			return "", fmt.Errorf("%w: snapshot-%d in %s", ErrNoSnapshot, id, sdir)
		}
		return path(id), nil
	}
	if contains(names, "LATEST") {
		b, err := readFile(ctx, fsys, storage.JoinPath(sdir, "LATEST"))
		if err != nil {
			return "", err
		}
		if v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && v >= 0 {
			if have[v] {
				for have[v+1] {
					v++
				}
				return path(v), nil
			}
			if v > best {
				return "", fmt.Errorf("%w: %s names snapshot %d; the highest in the folder is %d", ErrInvalidSnapshot, storage.JoinPath(sdir, "LATEST"), v, best)
			}
		}
	}
	if best < 0 {
		return "", fmt.Errorf("%w: no snapshot-N in %s", ErrNoSnapshot, sdir)
	}
	return path(best), nil
}

// numberedFile parses the N of a Paimon metadata file name prefix+N
// ("schema-3", "snapshot-12"): a decimal number without sign or leading
// zeros, as Paimon writes them. This is the one name rule for schema and
// snapshot files.
func numberedFile(name, prefix string) (int64, bool) {
	s, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 || strconv.FormatInt(v, 10) != s {
		return 0, false
	}
	return v, true
}

func contains(names []string, n string) bool {
	for _, x := range names {
		if x == n {
			return true
		}
	}
	return false
}
