package reader_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
)

// TestBucketPruningImpala: Impala's iceberg_column_case_sensitivity_issue
// is partitioned by bucket[16] of the string ID, its two rows in buckets 3
// and 7 (Impala's own hash): ID = '1' and ID = '2' each read one file and
// skip the other by the bucket's hash alone (each file has its own
// manifest, whose partition summary is its bucket: the manifest is not
// read); ID = '3' (in neither bucket) skips both; ID IN ('1', '2') reads
// both.
func TestBucketPruningImpala(t *testing.T) {
	dir := filepath.Join(testutil.RealDir(t), "impala/testdata/data/iceberg_test/iceberg_column_case_sensitivity_issue")
	for _, c := range []struct {
		where                    string
		want                     string
		read, skipped, manifests int64
	}{
		{"ID = '1'", `{"ID":"1","OWNERID":"impala"}` + "\n", 1, 1, 1},
		{"ID = '2'", `{"ID":"2","OWNERID":"hive"}` + "\n", 1, 1, 1},
		{"ID = '3'", "", 0, 2, 2},
		{"ID in ('1', '2')", `{"ID":"2","OWNERID":"hive"}` + "\n" + `{"ID":"1","OWNERID":"impala"}` + "\n", 2, 0, 0},
		{"ID != '1'", `{"ID":"2","OWNERID":"hive"}` + "\n", 2, 0, 0},
	} {
		e, err := expr.Parse(c.where)
		if err != nil {
			t.Fatal(err)
		}
		var stats reader.ScanStats
		mem := testutil.CheckedAllocator(t)
		tbl, err := reader.OpenTable(context.Background(), dir, reader.TableOptions{Filter: e, Stats: &stats, Allocator: mem})
		if err != nil {
			t.Fatal(err)
		}
		rr, err := tbl.Scan(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got := testutil.ReaderJSON(t, rr)
		rr.Release()
		if got != c.want {
			t.Errorf("%s: rows\n%s\nwant\n%s", c.where, got, c.want)
		}
		if n := stats.Counts(); n.FilesRead != c.read || n.FilesSkipped != c.skipped || n.ManifestsSkipped != c.manifests {
			t.Errorf("%s: files read %d, skipped %d, manifests skipped %d; want %d, %d, %d", c.where, n.FilesRead, n.FilesSkipped, n.ManifestsSkipped, c.read, c.skipped, c.manifests)
		}
	}
}
