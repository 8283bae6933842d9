package evolve

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// FS is the small file system interface the commit functions use. Names
// are paths in the host's form (as [path/filepath] builds them). Every
// operation is one call, so that a test can make the Nth of them fail.
type FS interface {
	// ReadFile returns the contents of a file.
	ReadFile(name string) ([]byte, error)
	// ReadDir returns the names of the entries of a directory; an error
	// matching fs.ErrNotExist when it does not exist.
	ReadDir(dir string) ([]string, error)
	// WriteTemp writes data to a new, uniquely named file in dir, flushed to
	// stable storage, and returns its name.
	WriteTemp(dir string, data []byte) (string, error)
	// LinkNoReplace makes newname name the file oldname names, atomically,
	// and fails with an error matching fs.ErrExist when newname exists: the
	// primitive that lets exactly one of two committers win.
	LinkNoReplace(oldname, newname string) error
	// Rename replaces newname by oldname atomically.
	Rename(oldname, newname string) error
	// Remove removes a file.
	Remove(name string) error
}

// OSFS is the [FS] of the operating system. LinkNoReplace is a hard link
// (link(2)), which never replaces an existing name; a file system without
// hard links cannot host commits.
type OSFS struct{}

// ReadFile implements [FS].
func (OSFS) ReadFile(name string) ([]byte, error) { return os.ReadFile(name) }

// ReadDir implements [FS].
func (OSFS) ReadDir(dir string) ([]string, error) {
	es, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = e.Name()
	}
	return names, nil
}

// WriteTemp implements [FS]: the file is named ".lakecat-*.tmp".
func (OSFS) WriteTemp(dir string, data []byte) (string, error) {
	f, err := os.CreateTemp(dir, ".lakecat-*.tmp")
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

// LinkNoReplace implements [FS].
func (OSFS) LinkNoReplace(oldname, newname string) error { return os.Link(oldname, newname) }

// Rename implements [FS].
func (OSFS) Rename(oldname, newname string) error { return os.Rename(oldname, newname) }

// Remove implements [FS].
func (OSFS) Remove(name string) error { return os.Remove(name) }

// ErrCommitConflict is matched (with [errors.Is]) by the [*ConflictError] a
// commit returns when another writer committed the same version first.
var ErrCommitConflict = errors.New("evolve: commit conflict")

// ConflictError reports a lost race: File, the name the commit meant to
// create, exists already.
type ConflictError struct {
	File string
}

// Error returns "evolve: commit conflict: <file> exists".
func (e *ConflictError) Error() string { return "evolve: commit conflict: " + e.File + " exists" }

// Unwrap returns [ErrCommitConflict].
func (e *ConflictError) Unwrap() error { return ErrCommitConflict }

// publish writes data to final without ever replacing an existing file: a
// temporary file in the same directory, then a no-replace link. A link that
// finds final existing returns a [*ConflictError]. The temporary file is
// removed in every case.
func publish(fsys FS, final string, data []byte) error {
	tmp, err := fsys.WriteTemp(filepath.Dir(final), data)
	if err != nil {
		return err
	}
	err = fsys.LinkNoReplace(tmp, final)
	if rerr := fsys.Remove(tmp); err == nil && rerr != nil {
		// The new file is in place; a stray temporary file is harmless.
		_ = rerr
	}
	// ErrNotExist: a concurrent committer that won cleaned our temporary
	// file away (removeTemps); we lost the race as surely as with ErrExist.
	if errors.Is(err, fs.ErrExist) || errors.Is(err, fs.ErrNotExist) {
		return &ConflictError{File: final}
	}
	if err == nil {
		removeTemps(fsys, filepath.Dir(final))
	}
	return err
}

// removeTemps removes the temporary files ([OSFS.WriteTemp]'s
// ".lakecat-*.tmp") left in dir by commits that were killed between
// writing and linking them; readers ignore them (they are not
// metadata or schema file names), and the next successful commit removes
// them. A concurrent committer whose temporary file goes this way gets
// fs.ErrNotExist from its link and retries as after a lost race. Errors
// are ignored: the commit is already in place.
func removeTemps(fsys FS, dir string) {
	names, err := fsys.ReadDir(dir)
	if err != nil {
		return
	}
	for _, n := range names {
		if strings.HasPrefix(n, ".lakecat-") && strings.HasSuffix(n, ".tmp") {
			_ = fsys.Remove(filepath.Join(dir, n))
		}
	}
}
