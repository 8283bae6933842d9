package storage

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Temporary files of [OSFS] writes are named ".lakecat-*.tmp" in the folder
// of the file written; readers ignore them (no table format names a file so).
const tempPattern = ".lakecat-*.tmp"

// writeTemp writes data to a new, uniquely named file in dir, flushed to
// stable storage, and returns its name.
func writeTemp(dir string, data []byte) (string, error) {
	f, err := os.CreateTemp(dir, tempPattern)
	if err != nil {
		return "", err
	}
	name := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// CreateNoReplace implements [WriteFS]: a temporary file in the same folder,
// then a hard link (link(2), which never replaces an existing name) to
// path; a file system without hard links cannot host commits. The temporary
// file is removed in every case. A link that fails because another
// committer's cleanup removed the temporary file also reports fs.ErrExist
// (that committer won). After a successful link, temporary files left in
// the folder by committers killed between writing and linking are removed.
func (OSFS) CreateNoReplace(ctx context.Context, path string, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	final := filepath.FromSlash(path)
	dir := filepath.Dir(final)
	tmp, err := writeTemp(dir, data)
	if err != nil {
		return err
	}
	err = os.Link(tmp, final)
	os.Remove(tmp)
	if errors.Is(err, fs.ErrNotExist) {
		if _, serr := os.Stat(dir); serr == nil {
			return &fs.PathError{Op: "link", Path: path, Err: fs.ErrExist}
		}
	}
	if err != nil {
		return err
	}
	removeTemps(dir)
	return nil
}

// removeTemps removes the temporary files in dir. A concurrent committer
// whose temporary file goes this way gets fs.ErrNotExist from its link and
// loses as after a lost race. Errors are ignored: the commit is in place.
func removeTemps(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if n := e.Name(); strings.HasPrefix(n, ".lakecat-") && strings.HasSuffix(n, ".tmp") {
			os.Remove(filepath.Join(dir, n))
		}
	}
}

// Replace implements [WriteFS]: a temporary file renamed over path.
func (OSFS) Replace(ctx context.Context, path string, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	final := filepath.FromSlash(path)
	tmp, err := writeTemp(filepath.Dir(final), data)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, final); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// Remove implements [WriteFS].
func (OSFS) Remove(ctx context.Context, path string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return os.Remove(filepath.FromSlash(path))
}
