package main

import (
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
)

// TestSchemaInitialDefaults: schema prints initial-defaults in Iceberg's
// JSON single-value form (spec, Appendix D), as the metadata stores them
// (it printed Go values: {0 1234500} for a decimal, day and microsecond
// counts, byte slices). duckdb-iceberg's add_columns_with_defaults.
func TestSchemaInitialDefaults(t *testing.T) {
	md := testutil.RealDir(t, "duckdb-iceberg", "data", "persistent", "add_columns_with_defaults", "default.db",
		"add_columns_with_defaults", "metadata", "00003-3f1801a5-7dfb-4072-b14a-39cd12f9279b.metadata.json")
	out, errOut, code := runCLI(t, "schema", md)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		`  7 col_decimal: optional decimal(16, 2) (initial-default "12345.00")`,
		`  8 col_date: optional date (initial-default "2003-10-20")`,
		`  9 col_time: optional time (initial-default "00:00:00.012345")`,
		`  10 col_timestamp: optional timestamp (initial-default "1970-01-01T00:00:00.012345")`,
		`  11 col_timestamptz: optional timestamptz (initial-default "1970-01-01T00:00:00.012345+00:00")`,
		`  13 col_uuid: optional uuid (initial-default "f79c3e09-677c-4bbd-a479-3f349cb785e7")`,
		`  14 col_fixed: optional fixed[5] (initial-default "010203ff03")`,
		`  15 col_binary: optional binary (initial-default "0102")`,
		`  4 col_long: optional long (initial-default -9223372036854775808)`,
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("schema lacks %q; stdout:\n%s", want, out)
		}
	}
}
