package main

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// outputUsage is the help of --output, on every verb that prints rows.
const outputUsage = "write the output to FILE instead of stdout (created or replaced when the command succeeds; on failure no FILE is left)"

// withOutput runs run with stdout going to the file path, or to f.Stdout
// when path is "". The rows go to a temporary file beside path, renamed to
// path only when run succeeds, so a failed read never leaves a partial
// file where a complete one is expected (an existing FILE stays as it
// was).
func withOutput(f *factory, path string, run func(*factory) error) error {
	if path == "" {
		return run(f)
	}
	if path == "-" {
		return run(f)
	}
	st, err := os.Stat(path)
	if err == nil && st.IsDir() {
		return usageError{fmt.Errorf("--output %s is a folder; want a file", path)}
	}
	tmp, err := createOutputTemp(path)
	if err != nil {
		return fmt.Errorf("--output: %w", err)
	}
	if st != nil && st.Mode().IsRegular() {
		// Replacing FILE keeps its mode, as writing into it would.
		if err := tmp.Chmod(st.Mode().Perm()); err != nil {
			tmp.Close()
			return errors.Join(fmt.Errorf("--output: %w", err), removeQuiet(tmp.Name()))
		}
	}
	bw := bufio.NewWriterSize(tmp, 1<<20)
	g := *f
	g.Stdout = bw
	err = run(&g)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		if err = os.Rename(tmp.Name(), path); err != nil {
			err = fmt.Errorf("--output: %w", err)
		}
	}
	if err != nil {
		return errors.Join(err, removeQuiet(tmp.Name()))
	}
	return nil
}

// createOutputTemp creates a new temporary file beside path with mode
// 0666 less the umask, the mode a shell redirect gives a new file
// (os.CreateTemp would give 0600).
func createOutputTemp(path string) (*os.File, error) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	for range 100 {
		name := filepath.Join(dir, "."+base+"."+strconv.FormatUint(rand.Uint64(), 36)+".tmp")
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, os.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("no free temporary name beside %s", path)
}

// removeQuiet removes a temporary file; a file already gone is no error.
func removeQuiet(p string) error {
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
