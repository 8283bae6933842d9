package iceberg

import (
	"path/filepath"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
)

// realDir returns ../shared/testdata/real (slash-separated); see
// testutil.RealDir for the skip/fail rule.
func realDir(t testing.TB) string { return filepath.ToSlash(testutil.RealDir(t)) }

func duckdbDir(t testing.TB) string { return realDir(t) + "/duckdb-iceberg" }

func impalaDir(t testing.TB) string { return realDir(t) + "/impala/testdata/data/iceberg_test" }
