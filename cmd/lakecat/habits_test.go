package main

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestVersion: `lakecat version` and `lakecat --version` print the same
// four lines: module version, commit, Go version with platform, and the
// object-store drivers of this build (all three in a default build).
func TestVersion(t *testing.T) {
	out, errOut, code := runCLI(t, "version")
	if code != exitOK || errOut != "" {
		t.Fatalf("version: exit %d, stderr %q", code, errOut)
	}
	want := regexp.MustCompile(`^lakecat \S+\ncommit   \S.*\ngo       go1\.\S+ ` + regexp.QuoteMeta(runtime.GOOS+"/"+runtime.GOARCH) + `\ndrivers  .+\n$`)
	if !want.MatchString(out) {
		t.Errorf("version:\n%s", out)
	}
	if d := strings.Join(storeDrivers(), ", "); d != "" && !strings.Contains(out, "drivers  "+d+" (object stores; local paths always)\n") {
		t.Errorf("version does not list the drivers %s:\n%s", d, out)
	}
	out2, _, code := runCLI(t, "--version")
	if code != exitOK || out2 != out {
		t.Errorf("--version (exit %d):\n%s\nwant the output of version:\n%s", code, out2, out)
	}
	if _, errOut, code := runCLI(t, "version", "extra"); code != exitUsage || errOut == "" {
		t.Errorf("version extra: exit %d, stderr %q", code, errOut)
	}
}

// TestCompletion asks cobra's hidden __complete verb what the shell
// scripts of `lakecat completion bash|zsh|fish|powershell` ask: flag
// values of --format and --rules, filtered by what was typed, with no
// file names offered (directive 4, ShellCompDirectiveNoFileComp).
func TestCompletion(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"cat", "--format", ""}, "table\njsonl\ncsv\narrow\nparquet\n:4\n"},
		{[]string{"cat", "--format", "j"}, "jsonl\n:4\n"},
		{[]string{"cat", "--rules", ""}, "hudi\niceberg\niceberg-v3\npaimon\n:4\n"},
		{[]string{"plan", "--rules", "ice"}, "iceberg\niceberg-v3\n:4\n"},
		{[]string{"plan", "--format", ""}, "text\njson\n:4\n"},
		{[]string{"schema", "--format", "t"}, "text\n:4\n"},
		{[]string{"files", "--format", ""}, "text\njson\n:4\n"},
	} {
		out, _, code := runCLI(t, append([]string{"__complete"}, c.args...)...)
		if code != exitOK || out != c.want {
			t.Errorf("__complete %q: exit %d, stdout %q, want %q", c.args, code, out, c.want)
		}
	}
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		out, _, code := runCLI(t, "completion", sh)
		if code != exitOK || !strings.Contains(out, "lakecat") {
			t.Errorf("completion %s: exit %d, %d bytes", sh, code, len(out))
		}
	}
}

// TestOutputFile: --output writes what stdout would get to a file (cat in
// every row format, files), and stdout stays empty; a failed read leaves
// no file and keeps an existing one as it was.
func TestOutputFile(t *testing.T) {
	dir := t.TempDir()
	table := filepath.Join("..", "..", "testdata", "orders")
	for _, args := range [][]string{
		{"cat", "--format", "jsonl"},
		{"cat", "--format", "csv"},
		{"cat", "--format", "table"},
		{"cat", table, "--format", "arrow"},
		{"files", table},
		{"files", table, "--format", "json"},
	} {
		want, _, code := runCLI(t, args...)
		if code != exitOK || want == "" {
			t.Fatalf("%q: exit %d", args, code)
		}
		path := filepath.Join(dir, "out")
		out, errOut, code := runCLI(t, append(args, "--output", path)...)
		got, err := os.ReadFile(path)
		if code != exitOK || out != "" || errOut != "" || err != nil || string(got) != want {
			t.Errorf("%q --output: exit %d, stdout %q, stderr %q, %v; file %d bytes, want %d", args, code, out, errOut, err, len(got), len(want))
		}
	}
	keep := filepath.Join(dir, "keep")
	if err := os.WriteFile(keep, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runCLI(t, "cat", filepath.Join(dir, "no-such.parquet"), "--output", keep)
	if got, _ := os.ReadFile(keep); code != exitNotFound || string(got) != "old" || errOut == "" {
		t.Errorf("failed cat --output: exit %d, stderr %q, file %q", code, errOut, got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("files left in the output folder: %v", ents)
	}
	if _, _, code := runCLI(t, "cat", "--output", dir); code != exitUsage {
		t.Errorf("cat --output FOLDER: exit %d, want %d", code, exitUsage)
	}
}

// TestCLIHabitsUsage: a shell cobra has no completion script for, a bare
// completion verb and an empty --output name are usage errors (exit 2),
// not help on stdout with exit 0 or rows written to stdout.
func TestCLIHabitsUsage(t *testing.T) {
	table := filepath.Join("..", "..", "testdata", "orders")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"completion", "tcsh"}, `no completion script for shell "tcsh" (want bash, fish, powershell, zsh)`},
		{[]string{"completion"}, "completion wants a shell: bash, fish, powershell, zsh"},
		{[]string{"cat", table, "-o", ""}, "--output was given an empty value"},
		{[]string{"files", table, "--output="}, "--output was given an empty value"},
	} {
		out, errOut, code := runCLI(t, c.args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and %q", c.args, code, out, errOut, exitUsage, c.want)
		}
	}
}
