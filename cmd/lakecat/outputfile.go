package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return usageError{fmt.Errorf("--output %s is a folder; want a file", path)}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("--output: %w", err)
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

// removeQuiet removes a temporary file; a file already gone is no error.
func removeQuiet(p string) error {
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
