package iceberg

import (
	"os"
	"path/filepath"
	"testing"
)

// realDir returns the folder of real third-party test files
// (../shared/testdata/real next to the repository root). It skips the test
// when the folder is absent, and fails it when CI=true.
func realDir(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			p := filepath.Join(filepath.Dir(d), "shared", "testdata", "real")
			if _, err := os.Stat(p); err != nil {
				if os.Getenv("CI") == "true" {
					t.Fatalf("real test data missing at %s", p)
				}
				t.Skipf("real test data missing at %s", p)
			}
			return filepath.ToSlash(p)
		}
		if filepath.Dir(d) == d {
			t.Fatal("repository root (go.mod) not found")
		}
	}
}

func duckdbDir(t testing.TB) string { return realDir(t) + "/duckdb-iceberg" }

func impalaDir(t testing.TB) string { return realDir(t) + "/impala/testdata/data/iceberg_test" }
