package storage

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat"
)

// recordFS records the paths it is asked for and opens nothing.
type recordFS struct{ asked []string }

func (r *recordFS) Open(_ context.Context, p string) (File, error) {
	r.asked = append(r.asked, p)
	return nil, fs.ErrNotExist
}

func (r *recordFS) List(_ context.Context, p string) ([]string, error) {
	r.asked = append(r.asked, p)
	return nil, nil
}

// TestConfineURL: a URL path is allowed only under the root or an allowed
// prefix of the same scheme and bucket, never with "..", a query or a
// fragment; refused paths never reach the FS below.
func TestConfineURL(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		path  string
		allow []string
		ok    bool
		rule  string
	}{
		{path: "s3://lake/wh/t/data/a.parquet", ok: true},
		{path: "s3://lake/wh/t", ok: true},
		{path: "s3://lake/wh/t2/data/a.parquet", rule: "outside"},
		{path: "s3://lake/wh/other/a.parquet", rule: "outside"},
		{path: "s3://other/wh/t/data/a.parquet", rule: "outside"},
		{path: "gs://lake/wh/t/data/a.parquet", rule: "outside"},
		{path: "/wh/t/data/a.parquet", rule: "outside"},
		{path: "file:///wh/t/data/a.parquet", rule: "outside"},
		{path: "s3://lake/wh/t/../other/a.parquet", rule: `".."`},
		{path: "s3://lake/wh/t/data/a.parquet?endpoint=http://169.254.169.254", rule: "query"},
		{path: "s3://lake/wh/t/data/a.parquet#x", rule: "query"},
		{path: "s3://other/wh/t/data/a.parquet", allow: []string{"s3://other/wh"}, ok: true},
		{path: "s3://other/x/a.parquet", allow: []string{"s3://other"}, ok: true},
		{path: "s3://other/wh2/a.parquet", allow: []string{"s3://other/wh"}, rule: "outside"},
		{path: "s3://other/wh/a.parquet?region=x", allow: []string{"s3://other/wh"}, rule: "query"},
	}
	for _, tc := range cases {
		rec := &recordFS{}
		c := Confine(rec, "s3://lake/wh/t?region=eu-west-1", tc.allow)
		_, err := c.Open(ctx, tc.path)
		if tc.ok {
			if !errors.Is(err, fs.ErrNotExist) || len(rec.asked) != 1 {
				t.Errorf("%s (allow %v): %v, want it passed to the FS", tc.path, tc.allow, err)
			}
			continue
		}
		var pe *PathError
		if !errors.As(err, &pe) || !errors.Is(err, ErrPathNotAllowed) || !errors.Is(err, lakecat.ErrPermission) ||
			pe.Path != tc.path || !strings.Contains(pe.Rule, tc.rule) || !strings.Contains(err.Error(), tc.path) {
			t.Errorf("%s (allow %v): %v, want a PathError of class ErrPermission with rule %q", tc.path, tc.allow, err, tc.rule)
		}
		if len(rec.asked) != 0 {
			t.Errorf("%s: refused path reached the FS: %v", tc.path, rec.asked)
		}
	}
}

// TestConfineLocal: a local path must lie under the root after cleaning
// and after its symbolic links are evaluated; List is checked as Open is.
func TestConfineLocal(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	root := filepath.Join(dir, "t")
	out := filepath.Join(dir, "out")
	for _, d := range []string{filepath.Join(root, "data"), out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(root, "data", "a.parquet"), filepath.Join(out, "secret")} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(out, "secret"), filepath.Join(root, "data", "link.parquet")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, filepath.Join(root, "linkdir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "data", "a.parquet"), filepath.Join(root, "data", "inner.parquet")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path  string
		allow []string
		ok    bool
		rule  string
	}{
		{path: filepath.Join(root, "data", "a.parquet"), ok: true},
		{path: filepath.Join(root, "data", "inner.parquet"), ok: true},
		{path: filepath.Join(root, "data", "missing.parquet"), ok: true}, // not found, from the FS
		{path: filepath.Join(out, "secret"), rule: "outside"},
		{path: "/etc/passwd", rule: "outside"},
		{path: root + "/data/../../out/secret", rule: "outside"},
		{path: root + "2/data/a.parquet", rule: "outside"},
		{path: filepath.Join(root, "data", "link.parquet"), rule: "symbolic link"},
		{path: filepath.Join(root, "linkdir", "secret"), rule: "symbolic link"},
		{path: "s3://lake/t/data/a.parquet", rule: "outside"},
		{path: filepath.Join(out, "secret"), allow: []string{out}, ok: true},
		{path: root + "/data/../../out/secret", allow: []string{out}, ok: true},
		{path: filepath.Join(root, "data", "link.parquet"), allow: []string{out}, ok: true},
	}
	for _, tc := range cases {
		c := Confine(OSFS{}, root, tc.allow)
		f, err := c.Open(ctx, tc.path)
		if f != nil {
			f.Close()
		}
		if tc.ok {
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s (allow %v): %v", tc.path, tc.allow, err)
			}
			if errors.Is(err, ErrPathNotAllowed) {
				t.Errorf("%s (allow %v): refused: %v", tc.path, tc.allow, err)
			}
			continue
		}
		var pe *PathError
		if !errors.As(err, &pe) || !errors.Is(err, lakecat.ErrPermission) || !strings.Contains(pe.Rule, tc.rule) {
			t.Errorf("%s (allow %v): %v, want a PathError with rule %q", tc.path, tc.allow, err, tc.rule)
		}
	}
	fc := Confine(OSFS{}, "file://"+root, nil)
	if _, err := fc.Open(ctx, filepath.Join(root, "data", "a.parquet")); errors.Is(err, ErrPathNotAllowed) {
		t.Errorf("file:// root, local path inside: %v", err)
	}
	if _, err := fc.Open(ctx, filepath.Join(out, "secret")); !errors.Is(err, ErrPathNotAllowed) {
		t.Errorf("file:// root, local path outside: %v", err)
	}
	c := Confine(OSFS{}, root, nil)
	if names, err := c.List(ctx, filepath.Join(root, "data")); err != nil || len(names) != 3 {
		t.Errorf("List inside: %v %v", names, err)
	}
	if _, err := c.List(ctx, out); !errors.Is(err, ErrPathNotAllowed) {
		t.Errorf("List outside: %v", err)
	}
	// A relative root is taken from the working directory, as the paths are.
	t.Chdir(dir)
	rc := Confine(OSFS{}, "t", nil)
	if _, err := rc.Open(ctx, "t/data/a.parquet"); err != nil {
		t.Errorf("relative inside: %v", err)
	}
	if _, err := rc.Open(ctx, "out/secret"); !errors.Is(err, ErrPathNotAllowed) {
		t.Errorf("relative outside: %v", err)
	}
}
