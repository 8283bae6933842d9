package main

import (
	"path/filepath"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
)

// TestFlagOfAnotherFormat: a table flag that does not apply to the table's
// format is a usage error (exit 2) naming the flag and the table's format;
// before, --raw, --ignore-logs, --path-map and --no-rebase were ignored
// silently where they do not apply.
func TestFlagOfAnotherFormat(t *testing.T) {
	orders := filepath.Join("..", "..", "testdata", "orders")
	paimonOrders := filepath.Join("..", "..", "testdata", "paimon_orders")
	hudiTable := unzipTable(t, filepath.Join(testutil.RealDir(t, "hudi-rs", "crates", "test", "data", "sample_table"), "cow", "v8_nonpartitioned.zip"), "v8_nonpartitioned")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"cat", orders, "--raw"}, "lakecat: --raw does not apply to an Iceberg table (it is for Paimon tables)\n"},
		{[]string{"cat", orders, "--ignore-logs"}, "lakecat: --ignore-logs does not apply to an Iceberg table (it is for Hudi tables)\n"},
		{[]string{"schema", orders, "--branch", "b"}, "lakecat: --branch does not apply to an Iceberg table (it is for Paimon tables)\n"},
		{[]string{"cat", paimonOrders, "--path-map", "a=b"}, "lakecat: --path-map does not apply to a Paimon table (it is for Iceberg tables)\n"},
		{[]string{"files", paimonOrders, "--no-rebase"}, "lakecat: --no-rebase does not apply to a Paimon table (it is for Iceberg tables)\n"},
		{[]string{"cat", paimonOrders, "--ignore-logs"}, "lakecat: --ignore-logs does not apply to a Paimon table (it is for Hudi tables)\n"},
		{[]string{"cat", hudiTable, "--ignore-deletes"}, "lakecat: --ignore-deletes does not apply to a Hudi table (it is for Iceberg and Paimon tables): a Hudi table's deletes are log records (--ignore-logs reads base files only)\n"},
		{[]string{"cat", hudiTable, "--snapshot-id", "1"}, "lakecat: --snapshot-id does not apply to a Hudi table (it is for Iceberg and Paimon tables): a Hudi table is read as of an instant time (--as-of)\n"},
		{[]string{"cat", hudiTable, "--raw"}, "lakecat: --raw does not apply to a Hudi table (it is for Paimon tables)\n"},
	}
	for _, tc := range cases {
		out, errOut, code := runCLI(t, tc.args...)
		if code != exitUsage || out != "" || errOut != tc.want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d, stderr %q", tc.args, code, out, errOut, exitUsage, tc.want)
		}
	}
	// The flags of the table's own format still work.
	for _, args := range [][]string{
		{"cat", orders, "--path-map", "/nowhere=/else", "--limit", "1"},
		{"cat", paimonOrders, "--raw", "--limit", "1"},
		{"cat", hudiTable, "--ignore-logs", "--limit", "1"},
	} {
		if _, errOut, code := runCLI(t, args...); code != exitOK {
			t.Errorf("%q: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// TestFlagOfAnotherFormatAnyValue: a flag of another format is refused
// when the command line names it, whatever its value (pflag's Changed):
// --raw=false on an Iceberg table is as much a Paimon flag as --raw, and
// so is an empty --branch; on FILE arguments too. The table's own flags
// still take false.
func TestFlagOfAnotherFormatAnyValue(t *testing.T) {
	orders := filepath.Join("..", "..", "testdata", "orders")
	paimonOrders := filepath.Join("..", "..", "testdata", "paimon_orders")
	hudiTable := unzipTable(t, filepath.Join(testutil.RealDir(t, "hudi-rs", "crates", "test", "data", "sample_table"), "cow", "v8_nonpartitioned.zip"), "v8_nonpartitioned")
	files, err := filepath.Glob(filepath.Join(orders, "data", "*.parquet"))
	if err != nil || len(files) == 0 {
		t.Fatalf("orders data files: %v %v", files, err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"cat", orders, "--raw=false"}, "lakecat: --raw does not apply to an Iceberg table (it is for Paimon tables)\n"},
		{[]string{"schema", orders, "--raw=false"}, "lakecat: --raw does not apply to an Iceberg table (it is for Paimon tables)\n"},
		{[]string{"files", orders, "--ignore-logs=false"}, "lakecat: --ignore-logs does not apply to an Iceberg table (it is for Hudi tables)\n"},
		{[]string{"schema", orders, "--branch", ""}, "lakecat: --branch does not apply to an Iceberg table (it is for Paimon tables)\n"},
		{[]string{"cat", orders, "--time-zone="}, "lakecat: --time-zone does not apply to an Iceberg table (it is for Paimon tables)\n"},
		{[]string{"cat", paimonOrders, "--no-rebase=false"}, "lakecat: --no-rebase does not apply to a Paimon table (it is for Iceberg tables)\n"},
		{[]string{"cat", paimonOrders, "--as-of="}, "lakecat: --as-of does not apply to a Paimon table (it is for Iceberg and Hudi tables): a Paimon table is read by snapshot id; reading as of a time is not supported yet (--snapshot-id)\n"},
		{[]string{"cat", hudiTable, "--raw=false"}, "lakecat: --raw does not apply to a Hudi table (it is for Paimon tables)\n"},
		{[]string{"cat", hudiTable, "--ignore-deletes=false"}, "lakecat: --ignore-deletes does not apply to a Hudi table (it is for Iceberg and Paimon tables): a Hudi table's deletes are log records (--ignore-logs reads base files only)\n"},
		{[]string{"cat", files[0], "--raw=false"}, "lakecat: --raw applies to a TABLE, not to data files\n"},
	}
	for _, tc := range cases {
		out, errOut, code := runCLI(t, tc.args...)
		if code != exitUsage || out != "" || errOut != tc.want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d, stderr %q", tc.args, code, out, errOut, exitUsage, tc.want)
		}
	}
	for _, args := range [][]string{
		{"cat", orders, "--no-rebase=false", "--ignore-deletes=false", "--limit", "1"},
		{"cat", paimonOrders, "--raw=false", "--limit", "1"},
		{"cat", hudiTable, "--ignore-logs=false", "--limit", "1"},
	} {
		if _, errOut, code := runCLI(t, args...); code != exitOK {
			t.Errorf("%q: exit %d, stderr %q", args, code, errOut)
		}
	}
}
