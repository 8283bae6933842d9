package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
)

// TestAsOfHudiInstant: --as-of takes a Hudi instant time for a Hudi table
// (it was read as epoch milliseconds, year 642 million, and silently gave
// the latest commit), refuses one for another table, and refuses numbers
// whose unit cannot be told. hudi-rs's cow/v8_nonpartitioned: the first
// commit (20250713010535797) inserts ids 1, 2, 3; the second makes id 1
// inactive and inserts id 4 (EXPECTED.md).
func TestAsOfHudiInstant(t *testing.T) {
	zp := filepath.Join(testutil.RealDir(t, "hudi-rs", "crates", "test", "data", "sample_table"), "cow", "v8_nonpartitioned.zip")
	tbl := unzipTable(t, zp, "v8_nonpartitioned")
	args := []string{"cat", tbl, "--columns", "id,isActive", "--format", "csv", "--workers", "1"}
	for _, c := range []struct {
		asOf string
		want string
	}{
		{"20250713010535797", "id,isActive\n2,false\n3,true\n1,true\n"},
		{"20250713010536", "id,isActive\n2,false\n3,true\n1,true\n"},
		{"20250713010536861", "id,isActive\n2,false\n3,true\n1,false\n4,true\n"},
		{"1752368735797", "id,isActive\n2,false\n3,true\n1,true\n"}, // epoch ms of the first instant, the timeline being UTC
	} {
		out, errOut, code := runCLI(t, append(args, "--as-of", c.asOf)...)
		if code != exitOK || errOut != "" || out != c.want {
			t.Errorf("--as-of %s: exit %d, stderr %q, stdout:\n%s", c.asOf, code, errOut, out)
		}
	}
	orders := filepath.Join("..", "..", "testdata", "orders")
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"cat", orders, "--as-of", "20250713010535797"}, "is a Hudi instant time, and "},
		{[]string{"cat", tbl, "--as-of", "1752368735"}, "a number of 10 digits is ambiguous"},
		{[]string{"cat", tbl, "--as-of", "20251313010535797"}, "not a Hudi instant time"},
	} {
		_, errOut, code := runCLI(t, c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want a usage error with %q", c.args, code, errOut, c.msg)
		}
	}
}

// TestIntegerFlags: --snapshot-id and --schema-id are integers (help
// "int", a non-integer a flag error); --limit -1 is documented as no limit
// and is the default.
func TestIntegerFlags(t *testing.T) {
	orders := filepath.Join("..", "..", "testdata", "orders")
	for _, args := range [][]string{
		{"cat", orders, "--snapshot-id", "abc"},
		{"cat", orders, "--schema-id", "1.5"},
		{"files", orders, "--snapshot-id", "x"},
		{"cat", orders, "--limit", "-2"},
	} {
		_, errOut, code := runCLI(t, args...)
		if code != exitUsage || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
	out, _, _ := runCLI(t, "cat", "--help")
	for _, want := range []string{"--snapshot-id int", "--schema-id int", "print at most N rows (-1: no limit) (default -1)"} {
		if !strings.Contains(out, want) {
			t.Errorf("cat --help lacks %q", want)
		}
	}
	out, errOut, code := runCLI(t, "cat", orders, "--limit", "-1", "--format", "csv", "--columns", "order_id")
	if code != exitOK || out != "order_id\n1\n2\n3\n4\n5\n6\n" {
		t.Errorf("--limit -1: exit %d, stderr %q, stdout %q", code, errOut, out)
	}
}

// TestListingHelpHidesIdleFlags: schema and files read no rows, so the
// flags of a row read are not in their help (they are still accepted).
func TestListingHelpHidesIdleFlags(t *testing.T) {
	for _, verb := range []string{"schema", "files"} {
		out, _, code := runCLI(t, verb, "--help")
		if code != exitOK {
			t.Fatalf("%s --help: exit %d", verb, code)
		}
		for _, name := range listingHidden {
			if shown := strings.Contains(out, "--"+name+" "); shown != (verb == "schema" && name == "raw") {
				t.Errorf("%s --help: --%s shown %v", verb, name, shown)
			}
		}
		if !strings.Contains(out, "--snapshot-id int") {
			t.Errorf("%s --help lacks --snapshot-id", verb)
		}
	}
	out, _, _ := runCLI(t, "cat", "--help")
	for _, name := range listingHidden {
		if !strings.Contains(out, "--"+name+" ") {
			t.Errorf("cat --help lacks --%s", name)
		}
	}
}

// TestCatHelpExamples: cat --help shows examples.
func TestCatHelpExamples(t *testing.T) {
	out, _, code := runCLI(t, "cat", "--help")
	for _, want := range []string{"Examples:\n  lakecat cat  ", "--as-of 20250713010535797", "--format arrow > t.arrows", `an empty string as "".`} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("cat --help lacks %q", want)
		}
	}
}

// TestAsOfPaimonRefused: --as-of on a Paimon table is a usage error, not a
// read of the latest snapshot (it was silently ignored, exit 0).
func TestAsOfPaimonRefused(t *testing.T) {
	out, errOut, code := runCLI(t, "cat", "--raw", filepath.Join("..", "..", "testdata", "paimon_orders"), "--as-of", "2020-01-01")
	if code != exitUsage || out != "" || !strings.Contains(errOut, "a Paimon table is read by snapshot id; reading as of a time is not supported yet") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestHudiMissingBaseFile: a Hudi table whose committed base files are
// gone fails as not found (exit 6); it printed "(0 rows)" and exited 0.
// Removing only the newest base file of a file group would have read its
// older slice instead, as silently.
func TestHudiMissingBaseFile(t *testing.T) {
	zp := filepath.Join(testutil.RealDir(t, "hudi-rs", "crates", "test", "data", "sample_table"), "cow", "v8_nonpartitioned.zip")
	tbl := unzipTable(t, zp, "v8_nonpartitioned")
	names, err := filepath.Glob(filepath.Join(tbl, "*.parquet"))
	if err != nil || len(names) == 0 {
		t.Fatalf("base files %v: %v", names, err)
	}
	newest := names[0]
	for _, n := range names {
		if filepath.Base(n)[strings.LastIndex(filepath.Base(n), "_"):] > filepath.Base(newest)[strings.LastIndex(filepath.Base(newest), "_"):] {
			newest = n
		}
	}
	if err := os.Remove(newest); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "cat", tbl, "--columns", "id")
	if code != exitNotFound || out != "" || !strings.Contains(errOut, filepath.Base(newest)) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestEvolveHudiUnsupported: evolve refuses a Hudi table as unsupported
// (exit 4); it exited 1, the code of a bug.
func TestEvolveHudiUnsupported(t *testing.T) {
	zp := filepath.Join(testutil.RealDir(t, "hudi-rs", "crates", "test", "data", "sample_table"), "cow", "v8_nonpartitioned.zip")
	tbl := unzipTable(t, zp, "v8_nonpartitioned")
	out, errOut, code := runCLI(t, "evolve", tbl, "--add", "x int", "--dry-run")
	if code != exitUnsupported || out != "" || !strings.Contains(errOut, "hudi tables: evolve: table format cannot be evolved") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
