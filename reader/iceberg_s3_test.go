package reader_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lakecat/lakecat/internal/s3fake"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/storage/blob"
)

// s3Fake serves an in-memory S3 (internal/s3fake) on loopback and
// returns a blob.FS with bucket "lake" (path-style addressing, anonymous
// credentials), plus a counter of ranged GET requests.
func s3Fake(t *testing.T) (*blob.FS, *atomic.Int64) {
	t.Helper()
	return s3FakeBuckets(t, "lake")
}

// s3FakeBuckets is s3Fake with the named buckets, each at s3://<name>.
func s3FakeBuckets(t *testing.T, names ...string) (*blob.FS, *atomic.Int64) {
	t.Helper()
	srv := s3fake.New(t, names...)
	var gets atomic.Int64
	srv.SetHook(func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if s3fake.IsRangedGET(r) {
			gets.Add(1)
		}
		next.ServeHTTP(w, r)
	})
	return srv.FS(t), &gets
}

// upload copies the local folder dir to s3://lake/<key>/.
func upload(t *testing.T, fsys *blob.FS, dir, key string) {
	t.Helper()
	uploadTo(t, fsys, dir, "s3://lake/"+key)
}

// uploadTo copies the local folder dir to the URL prefix url.
func uploadTo(t *testing.T, fsys *blob.FS, dir, url string) {
	t.Helper()
	ctx := context.Background()
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		return fsys.WriteAll(ctx, url+"/"+filepath.ToSlash(rel), b)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestIcebergTableFromS3 serves Iceberg tables from the S3 fake and reads
// them through OpenTable with storage/blob: the same rows as from the folder. The
// stored hdfs:// paths are re-rooted at the s3:// location.
func TestIcebergTableFromS3(t *testing.T) {
	real := testutil.RealDir(t)
	fsys, gets := s3Fake(t)
	tables := map[string]string{
		"v3avro":   impala + "iceberg_v3/iceberg_v3_default_value_avro",
		"part":     impala + "iceberg_v3/test_default_part",
		"complex":  impala + "hadoop_catalog/ice/complextypestbl_iceberg_orc",
		"defaults": "duckdb-iceberg/data/persistent/add_columns_with_defaults/default.db/add_columns_with_defaults",
	}
	for key, dir := range tables {
		upload(t, fsys, real+"/"+dir, key)
	}
	for key, dir := range tables {
		t.Run(key, func(t *testing.T) {
			var opts reader.TableOptions
			local := tableRows(t, real+"/"+dir, opts, false)
			opts.FS = fsys
			before := gets.Load()
			remote := tableRows(t, "s3://lake/"+key, opts, false)
			if strings.Join(local, "\n") != strings.Join(remote, "\n") || len(local) == 0 {
				t.Errorf("S3 rows:\n%s\nfolder rows:\n%s", strings.Join(remote, "\n"), strings.Join(local, "\n"))
			}
			if gets.Load() == before {
				t.Errorf("no ranged GET was made")
			}
		})
	}
	// The rows themselves, for one table.
	got := tableRows(t, "s3://lake/part", reader.TableOptions{FS: fsys, Columns: []string{"i", "j", "_file"}}, false)
	if len(got) != 5 || !strings.HasPrefix(got[0], `{"i":1,"j":-1,"_file":"hdfs://localhost:20500/test-warehouse/test_default_part/data/00000-9-`) {
		t.Errorf("rows %q", got)
	}
}
