package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEvolveConfined: evolve honours the confinement cat applies. A table
// whose metadata folder (Iceberg "metadata", Paimon "schema") is a symbolic
// link out of the table is refused, dry run or not, with exit 7 and an
// error naming the path and the link's target; with --allow-path naming
// the target the commit goes through, and an empty --allow-path is a usage
// error.
func TestEvolveConfined(t *testing.T) {
	for _, c := range []struct{ table, folder string }{
		{"orders", "metadata"},
		{"paimon_orders", "schema"},
	} {
		t.Run(c.table, func(t *testing.T) {
			base := t.TempDir()
			dir := filepath.Join(base, c.table)
			copyTree(t, filepath.Join("..", "..", "testdata", c.table), dir)
			outside := filepath.Join(base, "elsewhere")
			if err := os.MkdirAll(outside, 0o755); err != nil {
				t.Fatal(err)
			}
			moved := filepath.Join(outside, c.folder)
			if err := os.Rename(filepath.Join(dir, c.folder), moved); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(moved, filepath.Join(dir, c.folder)); err != nil {
				t.Fatal(err)
			}
			for _, dry := range []bool{true, false} {
				args := []string{"evolve", dir, "--add", "extra string"}
				if dry {
					args = append(args, "--dry-run")
				}
				out, errOut, code := runCLI(t, args...)
				if code != exitPermission || out != "" || !strings.Contains(errOut, filepath.Join(dir, c.folder)) ||
					!strings.Contains(errOut, "a symbolic link leads to "+moved) {
					t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d naming the link", args, code, out, errOut, exitPermission)
				}
			}
			out, errOut, code := runCLI(t, "evolve", dir, "--add", "extra string", "--allow-path", outside)
			if code != exitOK || errOut != "" || !strings.Contains(out, "committed "+filepath.Join(dir, c.folder)+string(filepath.Separator)) {
				t.Errorf("with --allow-path: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
			}
			if _, errOut, code := runCLI(t, "evolve", dir, "--add", "more string", "--allow-path", ""); code != exitUsage || !strings.Contains(errOut, "--allow-path") {
				t.Errorf("empty --allow-path: exit %d, stderr %q", code, errOut)
			}
		})
	}
}
