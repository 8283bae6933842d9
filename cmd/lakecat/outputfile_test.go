package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOutputFileMode: --output creates a new FILE with the mode a shell
// redirect gives (0666 less the umask, found by creating a probe file the
// same way), not 0600, and replacing an existing FILE keeps its mode.
func TestOutputFileMode(t *testing.T) {
	dir := t.TempDir()
	probe := filepath.Join(dir, "probe")
	pf, err := os.OpenFile(probe, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		t.Fatal(err)
	}
	pf.Close()
	pst, err := os.Stat(probe)
	if err != nil {
		t.Fatal(err)
	}
	orders := filepath.Join("..", "..", "testdata", "orders")
	fresh := filepath.Join(dir, "new.csv")
	if _, errOut, code := runCLI(t, "cat", orders, "--format", "csv", "-o", fresh); code != exitOK {
		t.Fatalf("new FILE: exit %d, %s", code, errOut)
	}
	st, err := os.Stat(fresh)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != pst.Mode().Perm() {
		t.Errorf("new FILE: mode %v, want %v", st.Mode().Perm(), pst.Mode().Perm())
	}
	old := filepath.Join(dir, "old.csv")
	if err := os.WriteFile(old, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(old, 0o640); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, "cat", orders, "--format", "csv", "-o", old); code != exitOK {
		t.Fatalf("existing FILE: exit %d, %s", code, errOut)
	}
	if st, err = os.Stat(old); err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o640 || st.Size() <= 1 {
		t.Errorf("existing FILE: mode %v, size %d, want 0640 and the rows", st.Mode().Perm(), st.Size())
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
}
