package iceberg

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/storage"
)

var (
	// ErrNoMetadata is matched by the error [FindMetadata] returns when a
	// folder holds no table metadata file.
	ErrNoMetadata = lakecat.NewSentinel(lakecat.ErrNotFound, "iceberg: no table metadata found")
	// ErrBadVersionHint is matched by the error [FindMetadata] returns when
	// metadata/version-hint.text names a version (or file) that is not in
	// the metadata folder: a table in that state is broken, and reading
	// another version instead would silently read other data.
	ErrBadVersionHint = lakecat.NewSentinel(lakecat.ErrCorrupt, "iceberg: version hint names a missing metadata file")
)

// Location is where a table's current metadata is, as [FindMetadata]
// decided it.
type Location struct {
	// MetadataPath is the path of the current table metadata file.
	MetadataPath string
	// Root is the table folder: the parent of the metadata/ folder.
	Root string
	// Version is N of vN.metadata.json or NNNNN-<uuid>.metadata.json, or -1
	// for a metadata file named directly whose name holds none.
	Version int64
	// Guessed reports that no version hint said which of several versions
	// is current and the highest in the listing was taken: a concurrent or
	// unfinished commit may make that the wrong one. The command line
	// prints a warning.
	Guessed bool
}

// FindMetadata returns the current table metadata file of the table at
// target: a metadata file itself (a name ending in ".metadata.json" or
// ".metadata.json.gz"), a table folder, or its metadata/ folder. This is the
// one rule of lakecat for a file-system table (Iceberg spec, "File System
// Tables"; the rule of Iceberg Java's HadoopTableOperations), used by scans,
// commits and the command line alike:
//
//  1. metadata/version-hint.text (or version-hint.txt, written by Impala)
//     holds a version N (or a file name, with or without the
//     ".metadata.json" suffix, as DuckDB writes "00001-<uuid>"). That
//     version must be in the folder, else the error matches
//     [ErrBadVersionHint]. A commit writes the metadata file before the
//     hint, so from N the version is advanced while version N+1 exists.
//  2. Without a hint (or with an empty one), the highest version in the
//     folder is taken, and Location.Guessed is set when the folder holds
//     more than one version to choose from. A hint that cannot be read is
//     an error.
//
// Versions are N of vN.metadata.json and of NNNNN-<anything>.metadata.json,
// either possibly gzip-compressed ("vN.gz.metadata.json",
// "NNNNN-<uuid>.metadata.json.gz"); of two files with one version the
// smaller name wins. Other names ("vfinal.metadata.json") are ignored:
// name them directly.
//
// It returns an error matching [ErrNoMetadata] when nothing is found.
func FindMetadata(ctx context.Context, fsys storage.FS, target string) (Location, error) {
	target = strings.TrimSuffix(target, "/")
	if strings.HasSuffix(target, ".metadata.json") || strings.HasSuffix(target, ".metadata.json.gz") {
		dir := storage.ParentDir(target)
		root := dir
		if storage.BaseName(dir) == "metadata" {
			root = storage.ParentDir(dir)
		}
		v, ok := metadataVersion(storage.BaseName(target))
		if !ok {
			v = -1
		}
		return Location{MetadataPath: target, Root: root, Version: v}, nil
	}
	metaDir := storage.JoinPath(target, "metadata")
	root := target
	if storage.BaseName(target) == "metadata" {
		if _, err := fsys.List(ctx, metaDir); errors.Is(err, fs.ErrNotExist) {
			metaDir, root = target, storage.ParentDir(target)
		}
	}
	// The hint is read before the folder is listed: a commit creates its
	// metadata file before it rewrites the hint, so every version a hint
	// read first names is in the listing that follows.
	hint, hintName, err := readHint(ctx, fsys, metaDir)
	if err != nil {
		return Location{}, err
	}
	names, err := fsys.List(ctx, metaDir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Location{}, fmt.Errorf("%w in %s: %v", ErrNoMetadata, target, err)
		}
		return Location{}, err
	}
	versions := map[int64]string{}
	var best int64 = -1
	for _, n := range names {
		v, ok := metadataVersion(n)
		if !ok {
			continue
		}
		if prev, dup := versions[v]; !dup || n < prev {
			versions[v] = n
		}
		best = max(best, v)
	}
	at := func(v int64) Location {
		for versions[v+1] != "" {
			v++
		}
		return Location{MetadataPath: storage.JoinPath(metaDir, versions[v]), Root: root, Version: v}
	}
	if hint != "" {
		if v, err := strconv.ParseInt(hint, 10, 64); err == nil {
			if versions[v] == "" {
				return Location{}, fmt.Errorf("%w: %s says version %d; the folder's highest is %d",
					ErrBadVersionHint, storage.JoinPath(metaDir, hintName), v, best)
			}
			return at(v), nil
		}
		for _, n := range []string{storage.BaseName(hint), storage.BaseName(hint) + ".metadata.json"} {
			if contains(names, n) {
				if v, ok := metadataVersion(n); ok && versions[v] == n {
					return at(v), nil
				}
				return Location{MetadataPath: storage.JoinPath(metaDir, n), Root: root, Version: -1}, nil
			}
		}
		return Location{}, fmt.Errorf("%w: %s names %q", ErrBadVersionHint, storage.JoinPath(metaDir, hintName), hint)
	}
	if best < 0 {
		return Location{}, fmt.Errorf("%w in %s", ErrNoMetadata, metaDir)
	}
	l := at(best)
	l.Guessed = len(versions) > 1
	return l, nil
}

// metadataVersion parses the version of a metadata file name:
// "v12.metadata.json" → 12, "00003-<uuid>.metadata.json" → 3; gzip-compressed
// metadata ("v3.gz.metadata.json", "00003-<uuid>.metadata.json.gz", written
// with write.metadata.compression-codec=gzip) counts too.
func metadataVersion(name string) (int64, bool) {
	stem, ok := strings.CutSuffix(name, ".metadata.json")
	if !ok {
		if stem, ok = strings.CutSuffix(name, ".metadata.json.gz"); !ok {
			return 0, false
		}
	}
	stem = strings.TrimSuffix(stem, ".gz")
	if s, ok := strings.CutPrefix(stem, "v"); ok {
		v, err := strconv.ParseInt(s, 10, 64)
		return v, err == nil && v >= 0
	}
	num, _, ok := strings.Cut(stem, "-")
	if !ok || num == "" {
		return 0, false
	}
	v, err := strconv.ParseInt(num, 10, 64)
	return v, err == nil && v >= 0
}

// readHint returns the trimmed content of metadata/version-hint.text (or
// Impala's version-hint.txt) and the file's name, or "" when there is none.
// A hint that exists but cannot be read is an error (Java would list the
// folder instead, which turns a storage fault into a guess).
func readHint(ctx context.Context, fsys storage.FS, metaDir string) (string, string, error) {
	for _, name := range []string{"version-hint.text", "version-hint.txt"} {
		b, err := storage.ReadFile(ctx, fsys, storage.JoinPath(metaDir, name))
		if err == nil {
			return strings.TrimSpace(string(b)), name, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", "", fmt.Errorf("iceberg: %w", err)
		}
	}
	return "", "", nil
}

func contains(names []string, n string) bool {
	for _, x := range names {
		if x == n {
			return true
		}
	}
	return false
}
