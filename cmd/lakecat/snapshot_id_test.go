package main

import (
	"path/filepath"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
)

// TestSnapshotIDAboveInt64: DuckDB's test table states its snapshot id as
// 9876543210123456789, above 2^63-1; the metadata reader takes it modulo
// 2^64 (as Java's Jackson does), and --snapshot-id takes the same decimal
// to the same id. A decimal beyond 2^64, or on --schema-id, is out of
// range (exit 2), and text is not an integer.
func TestSnapshotIDAboveInt64(t *testing.T) {
	m := filepath.Join(testutil.RealDir(t, "duckdb-iceberg"), "data/persistent/equality_delete_extra_column/warehouse/ns/t/metadata/vfinal.metadata.json")
	out, errOut, code := runCLI(t, "cat", m, "--snapshot-id", "9876543210123456789", "--format", "csv")
	if code != exitOK || out != "id,val\n1,a\n3,c\n" || errOut != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, c := range []struct{ flag, value, want string }{
		{"--snapshot-id", "98765432101234567890", `lakecat: invalid argument "98765432101234567890" for "--snapshot-id" flag: out of range (see 'lakecat cat --help')` + "\n"},
		{"--schema-id", "9876543210123456789", `lakecat: invalid argument "9876543210123456789" for "--schema-id" flag: out of range (see 'lakecat cat --help')` + "\n"},
		{"--snapshot-id", "12x", `lakecat: invalid argument "12x" for "--snapshot-id" flag: not an integer (see 'lakecat cat --help')` + "\n"},
	} {
		out, errOut, code := runCLI(t, "cat", m, c.flag, c.value)
		if code != exitUsage || out != "" || errOut != c.want {
			t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want %q", c.flag, c.value, code, out, errOut, c.want)
		}
	}
}
