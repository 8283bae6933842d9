package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ordersCopy copies the bundled demo table to a temporary folder.
func ordersCopy(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "orders")
	copyTree(t, filepath.Join("..", "..", "testdata", "orders"), dir)
	return dir
}

// TestCatRelativeTablePaths: a table opened by a relative path without
// "./" (a metadata file inside the table folder, the metadata folder, or
// "." inside it) re-roots its stored paths like an absolute one (the
// metadata file's parent "metadata" had an empty parent, which turned
// re-rooting off).
func TestCatRelativeTablePaths(t *testing.T) {
	dir := ordersCopy(t)
	for _, c := range []struct{ cwd, arg string }{
		{dir, "metadata/v1.metadata.json"},
		{dir, "metadata"},
		{filepath.Join(dir, "metadata"), "v1.metadata.json"},
		{filepath.Join(dir, "metadata"), "."},
		{filepath.Dir(dir), "orders"},
	} {
		t.Run(c.arg, func(t *testing.T) {
			t.Chdir(c.cwd)
			out, errOut, code := runCLI(t, "cat", c.arg)
			if code != exitOK || errOut != "" || out != demoTable {
				t.Errorf("cat %s in %s: exit %d, stderr %q, stdout:\n%s", c.arg, c.cwd, code, errOut, out)
			}
		})
	}
}

// TestUnsupportedURLScheme: a URL of a scheme lakecat does not read is
// refused as unsupported (it was read as a local path and "not found").
func TestUnsupportedURLScheme(t *testing.T) {
	for _, args := range [][]string{
		{"cat", "hdfs://namenode:8020/warehouse/db/t"},
		{"cat", "abfss://c@acct.dfs.core.windows.net/t/metadata/v1.metadata.json"},
		{"schema", "hdfs://namenode:8020/warehouse/db/t"},
		{"files", "hdfs://namenode:8020/warehouse/db/t"},
	} {
		_, errOut, code := runCLI(t, args...)
		if code != exitUnsupported || !strings.Contains(errOut, "unsupported URL scheme") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// TestCorruptManifestNamesOpenedFile: a damaged manifest is reported under
// the file read (re-rooted at the opened folder), with the stored path
// beside it.
func TestCorruptManifestNamesOpenedFile(t *testing.T) {
	dir := ordersCopy(t)
	m := filepath.Join(dir, "metadata", "orders-m1.avro")
	b, err := os.ReadFile(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(m, b[:300], 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runCLI(t, "cat", dir)
	want := filepath.ToSlash(m) + " (stored as orders/metadata/orders-m1.avro): iceberg: corrupt manifest"
	if code != exitCorrupt || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, stderr %q; want exit 3 and %q", code, errOut, want)
	}
}

// TestFlagFiles: a folder given to a flag that wants a file is a usage
// error that says what the flag wants; a file of the wrong content is
// corrupt input (exit 3) for --schema as for --name-mapping.
func TestFlagFiles(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join("..", "..", "testdata", "orders", "data", "00000-orders-schema0.parquet")
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"x": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code exitCode
		msg  string
	}{
		{[]string{"cat", "--schema", dir, file}, exitUsage, "--schema " + dir + " is a folder; want a file: an Iceberg schema JSON"},
		{[]string{"cat", "--file-schema", dir, file}, exitUsage, "--file-schema " + dir + " is a folder"},
		{[]string{"cat", "--name-mapping", dir, file}, exitUsage, "--name-mapping " + dir + " is a folder; want an Iceberg name mapping JSON"},
		{[]string{"plan", file, "--schema", dir}, exitUsage, "--schema " + dir + " is a folder"},
		{[]string{"cat", "--schema", bad, file}, exitCorrupt, bad + ": reader: not an Iceberg schema"},
		{[]string{"cat", "--name-mapping", bad, file}, exitCorrupt, bad + ": schema: name mapping"},
	} {
		_, errOut, code := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.msg) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, errOut, c.code, c.msg)
		}
	}
}
