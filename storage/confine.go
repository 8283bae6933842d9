package storage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/lakecat/lakecat"
)

// ErrPathNotAllowed is matched by the error for a path that a [Confine]d
// FS refuses: a path stored in a table's metadata that resolves outside the
// table's location and every allowed prefix, or that carries a URL query.
// Its class is lakecat.ErrPermission: the file may well exist and be
// readable, but the caller's policy does not let the table name it (the
// caller lifts the refusal by allowing the prefix).
var ErrPathNotAllowed = lakecat.NewSentinel(lakecat.ErrPermission, "storage: path outside the table's allowed locations")

// PathError is the error of a refused path: the path as asked for and the
// rule it broke. It matches [ErrPathNotAllowed].
type PathError struct {
	Path string
	Rule string
}

func (e *PathError) Error() string {
	return fmt.Sprintf("storage: %s: %s: %v", e.Path, e.Rule, ErrPathNotAllowed)
}

func (e *PathError) Unwrap() error { return ErrPathNotAllowed }

// Confine returns an FS that opens and lists only paths inside root or
// inside one of the allowed prefixes, refusing any other with a
// [*PathError] before fsys sees it. A table reader wraps its storage in
// it so that the paths stored in a table's metadata (manifests, data and
// delete files, external paths) cannot make it read elsewhere.
//
// Root and each prefix are a local folder or a URL ("s3://bucket/prefix";
// "file:///wh/t" allows the local folder "/wh/t" too).
// A path is inside a prefix when, after cleaning (so "a/../.." cannot
// escape), it has the same scheme and bucket (host) and its key is the
// prefix's key or lies under it at a "/" boundary. A local path is also
// checked with its symbolic links evaluated (filepath.EvalSymlinks), so a
// link inside the root that points out of it is refused; a path that does
// not exist is left to fsys (not found). A URL path with a query ("?…") or
// a fragment is refused whatever its prefix: a stored path must never
// carry driver options (an endpoint, a region) to the bucket opener. The
// query of root and of the allowed prefixes themselves is the caller's and
// is ignored here.
//
// A check and the open that follows are two steps: a symbolic link
// swapped between them is not caught (the metadata, not a concurrent
// writer of the file system, is what Confine guards against).
func Confine(fsys FS, root string, allow []string) FS {
	c := &confined{fsys: fsys}
	for _, p := range append([]string{root}, allow...) {
		if p == "" {
			continue
		}
		c.prefixes = append(c.prefixes, newPrefix(p))
		if local, ok := strings.CutPrefix(p, "file://"); ok && strings.HasPrefix(local, "/") {
			// "file:///wh/t" and "/wh/t" name one folder.
			c.prefixes = append(c.prefixes, newPrefix(local))
		}
	}
	return c
}

type prefix struct {
	url  bool
	base string // "scheme://bucket" for a URL
	key  string // cleaned key ("" for a whole bucket) or absolute local path
	real string // local: key with symbolic links evaluated ("" when that failed)
}

func newPrefix(p string) prefix {
	if q := strings.IndexAny(p, "?#"); q >= 0 && isURL(p) {
		p = p[:q]
	}
	if base, key, ok := splitURL(p); ok {
		return prefix{url: true, base: base, key: cleanKey(key)}
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = filepath.Clean(p)
	}
	pr := prefix{key: abs}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		pr.real = r
	}
	return pr
}

type confined struct {
	fsys     FS
	prefixes []prefix
	parents  bool // a missing path is checked through its nearest existing folder
}

func (c *confined) Open(ctx context.Context, p string) (File, error) {
	if err := c.check(p); err != nil {
		return nil, err
	}
	return c.fsys.Open(ctx, p)
}

func (c *confined) List(ctx context.Context, dir string) ([]string, error) {
	if err := c.check(dir); err != nil {
		return nil, err
	}
	return c.fsys.List(ctx, dir)
}

func isURL(p string) bool {
	i := strings.Index(p, "://")
	return i > 0 && !strings.ContainsAny(p[:i], "/.")
}

// splitURL splits "scheme://bucket/key" into "scheme://bucket" and "key".
func splitURL(p string) (base, key string, ok bool) {
	if !isURL(p) {
		return "", "", false
	}
	i := strings.Index(p, "://")
	bucket, key, _ := strings.Cut(p[i+3:], "/")
	return p[:i+3] + bucket, key, true
}

// cleanKey cleans an object key as a path rooted at the bucket: ".."
// cannot climb above it, and "" is the whole bucket.
func cleanKey(key string) string {
	k := path.Clean("/" + key)
	return strings.TrimPrefix(k, "/")
}

func under(p, dir string, sep byte) bool {
	if dir == "" || p == dir {
		return true
	}
	d := strings.TrimSuffix(dir, string(sep))
	return len(p) > len(d) && strings.HasPrefix(p, d) && p[len(d)] == sep
}

// ConfineWrite is [Confine] for a [WriteFS]: CreateNoReplace, Replace and
// Remove are refused outside root and the allowed prefixes like Open and
// List. A path that does not exist yet (the file a commit creates) is
// checked through its nearest existing folder with symbolic links
// evaluated, so that a file is never created through a link that leads out
// of the root. A table writer (a schema commit) wraps its storage in it.
func ConfineWrite(fsys WriteFS, root string, allow []string) WriteFS {
	c := Confine(fsys, root, allow).(*confined)
	c.parents = true
	return &confinedWrite{confined: c, w: fsys}
}

type confinedWrite struct {
	*confined
	w WriteFS
}

func (c *confinedWrite) CreateNoReplace(ctx context.Context, p string, data []byte) error {
	if err := c.check(p); err != nil {
		return err
	}
	return c.w.CreateNoReplace(ctx, p, data)
}

func (c *confinedWrite) Replace(ctx context.Context, p string, data []byte) error {
	if err := c.check(p); err != nil {
		return err
	}
	return c.w.Replace(ctx, p, data)
}

func (c *confinedWrite) Remove(ctx context.Context, p string) error {
	if err := c.check(p); err != nil {
		return err
	}
	return c.w.Remove(ctx, p)
}

// evalExisting evaluates the symbolic links of abs, or when abs does not
// exist, of its nearest existing folder, joined to the rest of the path.
func evalExisting(abs string) (string, error) {
	dir, rest := abs, ""
	for {
		real, err := filepath.EvalSymlinks(dir)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		parent := filepath.Dir(dir)
		if !errors.Is(err, os.ErrNotExist) || parent == dir {
			return "", err
		}
		dir, rest = parent, filepath.Join(filepath.Base(dir), rest)
	}
}

func (c *confined) check(p string) error {
	if isURL(p) {
		if strings.ContainsAny(p, "?#") {
			return &PathError{Path: p, Rule: "a stored URL may not carry a query or fragment (driver options)"}
		}
		base, key, _ := splitURL(p)
		// ".." is rejected outright rather than cleaned: an object store
		// does not clean keys, so "a/../b" names another object than "b".
		for _, seg := range strings.Split(key, "/") {
			if seg == ".." {
				return &PathError{Path: p, Rule: `a ".." segment in a stored URL`}
			}
		}
		key = cleanKey(key)
		for _, pr := range c.prefixes {
			if pr.url && pr.base == base && under(key, pr.key, '/') {
				return nil
			}
		}
		return &PathError{Path: p, Rule: "outside the table location and every allowed prefix"}
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return &PathError{Path: p, Rule: "not a resolvable local path"}
	}
	inside := false
	for _, pr := range c.prefixes {
		if !pr.url && under(abs, pr.key, filepath.Separator) {
			inside = true
			break
		}
	}
	if !inside {
		return &PathError{Path: p, Rule: "outside the table location and every allowed prefix"}
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil && c.parents && errors.Is(err, os.ErrNotExist) {
		real, err = evalExisting(abs)
	}
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil // the open reports it missing
		}
		return &PathError{Path: p, Rule: "symbolic links cannot be evaluated: " + err.Error()}
	}
	for _, pr := range c.prefixes {
		if pr.url {
			continue
		}
		if under(real, pr.key, filepath.Separator) || (pr.real != "" && under(real, pr.real, filepath.Separator)) {
			return nil
		}
	}
	return &PathError{Path: p, Rule: "a symbolic link leads to " + real + ", outside the table location and every allowed prefix"}
}
