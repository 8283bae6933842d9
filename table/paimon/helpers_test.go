package paimon

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
)

// cppDir returns the paimon-cpp test tables folder (slash-separated); see
// testutil.RealDir for the skip/fail rule.
func cppDir(t testing.TB) string {
	return filepath.ToSlash(testutil.RealDir(t, "paimon-cpp", "test", "test_data"))
}

// fileLine renders a planned data file for exact comparisons.
func fileLine(root string, f *DataFile) string {
	br := ""
	if f.Branch != "" {
		br = " branch=" + f.Branch
	}
	return fmt.Sprintf("%s %s%s schema=%d rows=%d level=%d bucket=%d part=%v", strings.TrimPrefix(f.Path, root+"/"), f.Format, br, f.SchemaID, f.RowCount, f.Level, f.Bucket, f.PartitionValues)
}
