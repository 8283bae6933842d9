package reader

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/lakecat/lakecat/table/iceberg"
)

// A position delete's file_path and its data file's path are compared in
// one canonical form, after the same resolution (the task's path rules):
// a --path-map rule, re-rooting and the opened folder may spell the same
// file "./t/f", "t/f" or "/abs/t/f", and writers (Hive, Impala) store
// hdfs://host:port/wh/f in delete files where the manifests store /wh/f.

// pathKeys returns the canonical forms under which the stored path p names
// a file: p itself and p resolved by res (nil: no rules), each cleaned and,
// when local and relative, made absolute. With schemeless set (the data
// file's stored path has no scheme), a p with a scheme and authority
// ("hdfs://nn:8020/wh/f") is also keyed as its path alone ("/wh/f"), the
// file on the default file system.
func pathKeys(res *iceberg.Resolver, p string, schemeless bool) []string {
	var keys []string
	add := func(q string) {
		k := canonicalPath(q)
		for _, have := range keys {
			if have == k {
				return
			}
		}
		keys = append(keys, k)
	}
	cands := []string{p}
	if schemeless {
		if q, ok := cutSchemeAuthority(p); ok {
			cands = append(cands, q)
		}
	}
	for _, c := range cands {
		add(c)
		if res != nil {
			add(res.Resolve(c))
		}
	}
	return keys
}

// cutSchemeAuthority returns p without "scheme://authority" (not file://,
// which the resolver removes itself), and whether p had one.
func cutSchemeAuthority(p string) (string, bool) {
	i := strings.Index(p, "://")
	if i <= 0 || strings.ContainsAny(p[:i], "/.") || p[:i] == "file" {
		return p, false
	}
	rest := p[i+3:]
	if j := strings.IndexByte(rest, '/'); j >= 0 {
		return rest[j:], true
	}
	return "/", true
}

// canonicalPath cleans p ("a/./b" → "a/b", "./a" → "a"); a local relative
// path is made absolute against the working directory, as the local file
// system opens it. A URL keeps its scheme and authority, its path cleaned.
func canonicalPath(p string) string {
	if i := strings.Index(p, "://"); i > 0 && !strings.ContainsAny(p[:i], "/.") {
		rest := p[i+3:]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			return p[:i+3] + rest[:j] + path.Clean(rest[j:])
		}
		return p
	}
	if p == "" {
		return p
	}
	if !strings.HasPrefix(p, "/") {
		if abs, err := filepath.Abs(p); err == nil {
			return filepath.ToSlash(abs)
		}
	}
	return path.Clean(p)
}

// resolverOf returns the resolver of d's path rules, or nil.
func (d *taskDeletes) resolverOf() *iceberg.Resolver {
	if d.paths == nil {
		return nil
	}
	r := iceberg.NewResolver(*d.paths)
	return &r
}

// dataKeys returns the canonical forms of d's data file: its stored path,
// its resolved path and the stored path resolved by res.
func (d *taskDeletes) dataKeys(res *iceberg.Resolver) []string {
	keys := pathKeys(res, d.dataPaths[0], false)
	for _, k := range pathKeys(nil, d.dataPaths[len(d.dataPaths)-1], false) {
		if !containsString(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// schemeless reports whether d's data file's stored path has no scheme.
func (d *taskDeletes) schemeless() bool {
	_, ok := cutSchemeAuthority(d.dataPaths[0])
	return !ok
}

func containsString(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
