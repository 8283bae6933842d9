package realdata

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRequire: $LAKECAT_REAL_DATA names the folder, an absent folder skips
// (CI unset), and each call is logged to $LAKECAT_REAL_DATA_LOG.
func TestRequire(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	t.Setenv(EnvLog, log)
	t.Setenv("CI", "")
	t.Setenv(EnvDir, dir)
	if got := Require(t); got != dir {
		t.Errorf("Require = %q, want %q", got, dir)
	}
	if got := Present(); got != dir {
		t.Errorf("Present = %q, want %q", got, dir)
	}
	t.Setenv(EnvDir, filepath.Join(dir, "missing"))
	if got := Present(); got != "" {
		t.Errorf("Present = %q for an absent folder", got)
	}
	skipped := true
	t.Run("absent", func(t *testing.T) {
		Require(t)
		skipped = false
	})
	if !skipped {
		t.Error("Require did not skip for an absent folder")
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if want := "ran " + wd + ":TestRequire\nskipped " + wd + ":TestRequire/absent\n"; string(b) != want {
		t.Errorf("log:\n%s\nwant\n%s", b, want)
	}
}
