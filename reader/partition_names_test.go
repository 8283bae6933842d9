package reader

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
)

// TestTableFilePartitionNames: TableFile.Partition names the partition
// fields and spells their values as text ("f1=20"; it was "0=20", the field
// id and a Go value).
func TestTableFilePartitionNames(t *testing.T) {
	real := testutil.RealDir(t)
	for _, c := range []struct {
		table string
		want  string
	}{
		{real + "/paimon-cpp/test/test_data/parquet/append_complex_data.db/append_complex_data", "f1=10 f1=20 f1=20"},
		{real + "/impala/testdata/data/iceberg_test/iceberg_v3/test_default_part", "  j=10 j=5 j=null"},
	} {
		tbl, err := OpenTable(context.Background(), c.table, TableOptions{IgnoreDeletes: true})
		if err != nil {
			t.Fatalf("%s: %v", c.table, err)
		}
		var got []string
		for _, f := range tbl.Files {
			got = append(got, f.Partition)
		}
		sort.Strings(got)
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s: partitions %q, want %q", c.table, got, c.want)
		}
	}
}
