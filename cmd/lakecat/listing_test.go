package main

import (
	"archive/zip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
)

// unzipTable extracts a zipped sample table of the shared real test data
// (hudi-rs ships its tables as zips) into a temporary folder, leaving out
// macOS "__MACOSX" entries, and returns the folder of table inside it.
func unzipTable(t *testing.T, zipPath, table string) string {
	t.Helper()
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	dst := t.TempDir()
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "__MACOSX") || f.FileInfo().IsDir() {
			continue
		}
		p := filepath.Join(dst, filepath.FromSlash(f.Name))
		if !strings.HasPrefix(p, dst+string(filepath.Separator)) {
			t.Fatalf("zip entry %q escapes the folder", f.Name)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(io.LimitReader(rc, 64<<20))
		rc.Close()
		if err != nil && !errors.Is(err, io.EOF) {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dst, table)
}

func hudiMOR(t *testing.T) string {
	return unzipTable(t, filepath.Join(testutil.RealDir(t, "hudi-rs", "crates", "test", "data", "sample_table"), "mor", "parquet", "v6_nonpartitioned.zip"), "v6_nonpartitioned")
}

// TestListingVerbsEveryFormat: `schema TABLE` and `files TABLE` read no
// rows, so they work on every table format, whatever a scan would refuse
// (a Paimon primary key, Hudi log files). They once set the Paimon-only raw
// option for every table and exited 2 on every Iceberg and Hudi table. A
// Paimon primary-key table lists its table schema, without the system
// columns a raw read adds.
func TestListingVerbsEveryFormat(t *testing.T) {
	orders := filepath.Join("..", "..", "testdata", "orders")
	paimon := filepath.Join("..", "..", "testdata", "paimon_orders")
	hudi := hudiMOR(t)
	cases := []struct {
		args      []string
		wantStart string
	}{
		{[]string{"schema", orders}, "iceberg table " + orders + ", 3 live data files\nread schema (schema 2)\n  4 order_shop_id: optional long\n  1 order_id: required long\n"},
		{[]string{"files", orders}, "PATH FORMAT ROWS PARTITION SCHEMA LACKS OLDER TYPE DELETES DELETED\n" +
			filepath.Join(orders, "data", "00000-orders-schema0.parquet") + " PARQUET 2 - - note,channel order_shop_id(int),price(float),amount(decimal(9, 2)) - 0\n" +
			filepath.Join(orders, "data", "00001-orders-schema1.parquet") + " PARQUET 2 - - channel price(float),amount(decimal(9, 2)) - 0\n" +
			filepath.Join(orders, "data", "00002-orders-schema2.parquet") + " PARQUET 2 - - - - - 0\n"},
		{[]string{"schema", paimon}, "paimon table " + paimon + ", 14 live data files\nread schema (schema 2)\n  0 order_id: required long\n  1 customer_name: optional string\n"},
		{[]string{"schema", hudi}, "hudi table " + hudi + ", 2 live data files\nread schema (schema 0)\n  1 id: optional int\n"},
		{[]string{"files", hudi}, "PATH FORMAT ROWS PARTITION SCHEMA LACKS OLDER TYPE DELETES DELETED\n"},
	}
	for _, c := range cases {
		out, errOut, code := runCLI(t, c.args...)
		if code != exitOK || errOut != "" {
			t.Errorf("%s: exit %d, stderr %q", strings.Join(c.args, " "), code, errOut)
			continue
		}
		if c.args[0] == "files" {
			out = squeezeSpaces(out) // the column widths follow the paths
		}
		if !strings.HasPrefix(out, c.wantStart) {
			t.Errorf("%s: stdout:\n%s\nwant it to start with\n%s", strings.Join(c.args, " "), out, c.wantStart)
		}
	}
}

// squeezeSpaces turns each run of spaces into one space, line by line.
func squeezeSpaces(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.FieldsFunc(l, func(r rune) bool { return r == ' ' }), " ")
	}
	return strings.Join(lines, "\n")
}

// TestCatPaimonRawMetadataColumns is the issue's command: `cat
// testdata/paimon_orders --raw --columns _file,_pos` failed because _file
// took the id of Paimon's _SEQUENCE_NUMBER system column.
func TestCatPaimonRawMetadataColumns(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "paimon_orders")
	out, errOut, code := runCLI(t, "cat", dir, "--raw", "--columns", "_file,_pos", "--format", "csv", "--workers", "1", "--limit", "1")
	want := "_KEY_order_id,_SEQUENCE_NUMBER,_VALUE_KIND,order_id,customer_name,order_user_id,order_shop_id,quantity,note,_file,_pos\n" +
		"5,0,0,5,erin,102,10,,," + filepath.ToSlash(filepath.Join(dir, "bucket-0", "data-00000000-0000-0000-0000-000000000001-0.parquet")) + ",0\n"
	if code != exitOK || errOut != rawWarning(dir) || out != want {
		t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant\n%s", code, errOut, out, want)
	}
}

// TestFilesBrokenDataFile: `files` lists every data file, a missing one
// with its error, and then fails with the class of that error (not found,
// exit 6) instead of exiting 0.
func TestFilesBrokenDataFile(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("..", "..", "testdata", "orders"), dir)
	if err := os.Remove(filepath.Join(dir, "data", "00001-orders-schema1.parquet")); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "files", dir)
	if code != exitNotFound {
		t.Fatalf("exit %d, want %d; stderr %q", code, exitNotFound, errOut)
	}
	if n := strings.Count(out, "\n"); n != 4 { // the header and the three files
		t.Errorf("stdout lists %d files, want 3:\n%s", n, out)
	}
	if !strings.Contains(out, "error: ") || !strings.Contains(errOut, "1 of 3 data files could not be opened; the first: ") || !strings.Contains(errOut, "00001-orders-schema1.parquet") {
		t.Errorf("stdout %q\nstderr %q", out, errOut)
	}
}

// TestCatHudiLogFileMissing: a log file a completed deltacommit wrote,
// emptied, exits 3 (corrupt); removed, 6 (not found), naming it; never the
// base rows it updates (id 1 isActive=true) with exit 0.
func TestCatHudiLogFileMissing(t *testing.T) {
	dir := hudiMOR(t)
	logFile := filepath.Join(dir, ".d206069c-22c8-4532-b9ea-3cf4282342c4-0_20250117083125837.log.1_0-33-43")
	if err := os.Truncate(logFile, 0); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "cat", "--columns", "id,isActive", "--format", "csv", dir)
	if code != exitCorrupt || out != "" || !strings.Contains(errOut, logFile+": 0 bytes, a completed commit recorded 11721") {
		t.Errorf("emptied log: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	if err := os.Remove(logFile); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = runCLI(t, "cat", "--columns", "id,isActive", "--format", "csv", dir)
	if code != exitNotFound || out != "" || !strings.Contains(errOut, "log file "+logFile+" written by a completed commit") {
		t.Errorf("removed log: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
}
