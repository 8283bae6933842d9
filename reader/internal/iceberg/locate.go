package iceberg

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// ErrNoMetadata is matched by the error [FindMetadata] returns when a folder
// holds no table metadata file.
var ErrNoMetadata = errors.New("iceberg: no table metadata found")

// FindMetadata returns the path of the current table metadata file of the
// table at target, and the table's root folder (the parent of its metadata/
// folder).
//
// target is either a metadata file itself (a name ending in
// ".metadata.json" or ".metadata.json.gz"), or a table folder (or its metadata/ folder). In a
// folder, as a Hadoop-style catalog does (Iceberg spec, "File System
// Tables"):
//  1. metadata/version-hint.text (or version-hint.txt, written by Impala)
//     holding a version N selects vN.metadata.json or NNNNN-<uuid>.metadata.json
//     with that N; a hint holding a file name, with or without the
//     ".metadata.json" suffix (DuckDB writes "00001-<uuid>"), selects that
//     file;
//  2. without a usable hint, the file with the highest version wins, where the
//     version is N of vN.metadata.json or of NNNNN-<anything>.metadata.json
//     (other names, e.g. "vfinal.metadata.json", are ignored: name them
//     directly).
//
// It returns an error matching [ErrNoMetadata] when nothing is found.
func FindMetadata(ctx context.Context, fsys FS, target string) (metadataPath, root string, err error) {
	target = strings.TrimSuffix(target, "/")
	if strings.HasSuffix(target, ".metadata.json") || strings.HasSuffix(target, ".metadata.json.gz") {
		dir := parentDir(target)
		root = dir
		if baseName(dir) == "metadata" {
			root = parentDir(dir)
		}
		return target, root, nil
	}
	metaDir := joinPath(target, "metadata")
	root = target
	names, err := fsys.List(ctx, metaDir)
	if errors.Is(err, fs.ErrNotExist) && baseName(target) == "metadata" {
		metaDir, root = target, parentDir(target)
		names, err = fsys.List(ctx, metaDir)
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", "", fmt.Errorf("%w in %s: %v", ErrNoMetadata, target, err)
		}
		return "", "", err
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
		if v > best {
			best = v
		}
	}
	for _, hint := range []string{"version-hint.text", "version-hint.txt"} {
		if !contains(names, hint) {
			continue
		}
		b, err := readFile(ctx, fsys, joinPath(metaDir, hint))
		if err != nil {
			return "", "", err
		}
		h := strings.TrimSpace(string(b))
		if v, err := strconv.ParseInt(h, 10, 64); err == nil {
			if n, ok := versions[v]; ok {
				return joinPath(metaDir, n), root, nil
			}
			continue // a stale hint: fall back to the highest version
		}
		for _, n := range []string{baseName(h), baseName(h) + ".metadata.json"} {
			if h != "" && contains(names, n) {
				return joinPath(metaDir, n), root, nil
			}
		}
	}
	if best < 0 {
		return "", "", fmt.Errorf("%w in %s", ErrNoMetadata, metaDir)
	}
	return joinPath(metaDir, versions[best]), root, nil
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

func contains(names []string, n string) bool {
	for _, x := range names {
		if x == n {
			return true
		}
	}
	return false
}
