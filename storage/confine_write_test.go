package storage

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestConfineWrite: writes through a ConfineWrite FS are checked like
// reads. A file created in a folder that links out of the root (it does not
// exist yet, so its nearest existing folder is what is checked) is refused
// and never written, as are Replace and Remove outside; an allowed prefix
// lets them through, and files inside the root are written as usual.
func TestConfineWrite(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()
	root, out := filepath.Join(base, "t"), filepath.Join(base, "elsewhere")
	for _, d := range []string{filepath.Join(root, "data"), out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(out, filepath.Join(root, "metadata")); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(root, "metadata", "sub", "v2.metadata.json")
	w := ConfineWrite(OSFS{}, root, nil)
	for name, op := range map[string]func() error{
		"CreateNoReplace": func() error { return w.CreateNoReplace(ctx, linked, []byte("{}")) },
		"Replace":         func() error { return w.Replace(ctx, filepath.Join(out, "x"), []byte("{}")) },
		"Remove":          func() error { return w.Remove(ctx, filepath.Join(base, "x")) },
	} {
		var pe *PathError
		if err := op(); !errors.Is(err, ErrPathNotAllowed) || !errors.As(err, &pe) {
			t.Errorf("%s: %v, want a refused path", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "sub")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused create wrote through the link: %v", err)
	}
	if err := w.CreateNoReplace(ctx, filepath.Join(root, "data", "a"), []byte("a")); err != nil {
		t.Errorf("create inside the root: %v", err)
	}
	if err := ConfineWrite(OSFS{}, root, []string{out}).Replace(ctx, filepath.Join(root, "metadata", "v1.metadata.json"), []byte("{}")); err != nil {
		t.Errorf("write through the link with its target allowed: %v", err)
	}
}
