package iceberg

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lakecat/lakecat/storage"
)

// PathRule rewrites paths that start with Old so that they start with New.
type PathRule struct {
	Old, New string
}

// PathMap is a list of prefix rewrites for paths stored in metadata that
// point to another warehouse root (the command line's --path-map OLD=NEW).
// When several rules match a path, the one with the longest Old wins; rules
// are otherwise independent of their order.
type PathMap []PathRule

// ParsePathRule parses "OLD=NEW". The first "=" splits the two; OLD must not
// be empty.
func ParsePathRule(s string) (PathRule, error) {
	old, new, ok := strings.Cut(s, "=")
	if !ok || old == "" {
		return PathRule{}, fmt.Errorf("iceberg: path map %q: want OLD=NEW with a non-empty OLD", s)
	}
	return PathRule{Old: old, New: new}, nil
}

// Apply rewrites p with the rule whose Old is the longest prefix of p, and
// reports whether a rule matched.
func (m PathMap) Apply(p string) (string, bool) {
	best := -1
	for i, r := range m {
		if strings.HasPrefix(p, r.Old) && (best < 0 || len(r.Old) > len(m[best].Old)) {
			best = i
		}
	}
	if best < 0 {
		return p, false
	}
	return m[best].New + p[len(m[best].Old):], true
}

// resolver turns a path stored in table metadata (manifest list, manifest,
// data or delete file) into a path for the table's FS.
//
// The rules, in order:
//  1. a [PathMap] rule (longest prefix) rewrites the path; the result is used
//     as it is, after step 2;
//  2. a "file://" or "file:" scheme is removed ("file:///a/b" → "/a/b",
//     "file://data/x" → "data/x", which DuckDB writes for relative paths);
//  3. a path under the table location recorded in the metadata ("location",
//     with or without its scheme, e.g. "hdfs://nn:8020/wh/t" or
//     "/test-warehouse/t" or DuckDB's relative "data/persistent/t") is
//     re-rooted at the folder the table was opened from, so a table copied
//     elsewhere reads without a path map;
//  4. another relative path is joined to BaseDir when one is set; without
//     one, when the location is relative and the opened folder ends with it,
//     to the part of the folder before it (DuckDB's relative paths start at
//     the folder DuckDB ran in);
//  5. another relative path is joined to the folder the table was opened
//     from (never to the process's working directory);
//  6. anything else is used as it is.
type resolver struct {
	pathMap  PathMap
	location []string // table location spellings, longest first, no trailing slash
	root     string   // folder the table was opened from
	baseDir  string
	rebase   bool
}

func stripFileScheme(p string) string {
	switch {
	case strings.HasPrefix(p, "file://"):
		return p[len("file://"):]
	case strings.HasPrefix(p, "file:"):
		return p[len("file:"):]
	}
	return p
}

// withoutScheme removes "scheme://authority" from p ("hdfs://nn:1/a" → "/a").
func withoutScheme(p string) string {
	i := strings.Index(p, "://")
	if i <= 0 || strings.ContainsAny(p[:i], "/.") {
		return p
	}
	rest := p[i+3:]
	if j := strings.IndexByte(rest, '/'); j >= 0 {
		return rest[j:]
	}
	return "/"
}

func newResolver(pm PathMap, location, root, baseDir string, rebase bool) *resolver {
	r := &resolver{pathMap: pm, root: root, baseDir: baseDir, rebase: rebase}
	if location != "" {
		seen := map[string]bool{}
		for _, l := range []string{location, stripFileScheme(location), withoutScheme(location)} {
			l = strings.TrimSuffix(l, "/")
			if l != "" && !seen[l] {
				seen[l] = true
				r.location = append(r.location, l)
			}
		}
		sort.Slice(r.location, func(i, j int) bool { return len(r.location[i]) > len(r.location[j]) })
		// A relative location (DuckDB) names the table folder relative to
		// the folder the writer ran in: when the opened folder ends with it,
		// that writer folder is the base of other relative paths.
		if loc := strings.TrimSuffix(stripFileScheme(location), "/"); r.baseDir == "" && rebase && loc != "" && !isAbs(loc) &&
			strings.HasSuffix(root, "/"+loc) {
			r.baseDir = strings.TrimSuffix(root, "/"+loc)
		}
	}
	return r
}

func (r *resolver) resolve(p string) string {
	if q, ok := r.pathMap.Apply(p); ok {
		return stripFileScheme(q)
	}
	if r.rebase && r.root != "" {
		for _, cand := range []string{p, stripFileScheme(p), withoutScheme(p)} {
			for _, l := range r.location {
				if cand == l {
					return r.root
				}
				if strings.HasPrefix(cand, l) && cand[len(l)] == '/' {
					return storage.JoinPath(r.root, cand[len(l)+1:])
				}
			}
		}
	}
	p = stripFileScheme(p)
	if r.baseDir != "" && !isAbs(p) {
		return storage.JoinPath(r.baseDir, p)
	}
	if r.rebase && r.root != "" && p != "" && !isAbs(p) {
		return storage.JoinPath(r.root, p)
	}
	return p
}

// isAbs reports whether p is an absolute local path or a URL.
func isAbs(p string) bool {
	return strings.HasPrefix(p, "/") || strings.Contains(p, "://") || (len(p) > 2 && p[1] == ':' && (p[2] == '\\' || p[2] == '/'))
}
