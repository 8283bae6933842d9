package reader_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"gocloud.dev/blob/s3blob"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/storage/blob"
)

// s3Fake serves an in-memory S3 (gofakes3) on loopback and returns a
// blob.FS with bucket "lake" opened through gocloud's s3blob (path-style
// addressing, anonymous credentials), plus a counter of GET requests.
func s3Fake(t *testing.T) (*blob.FS, *atomic.Int64) {
	t.Helper()
	return s3FakeBuckets(t, "lake")
}

// s3FakeBuckets is s3Fake with the named buckets, each at s3://<name>.
func s3FakeBuckets(t *testing.T, names ...string) (*blob.FS, *atomic.Int64) {
	t.Helper()
	backend := s3mem.New()
	for _, n := range names {
		if err := backend.CreateBucket(n); err != nil {
			t.Fatal(err)
		}
	}
	faker := gofakes3.New(backend)
	var gets atomic.Int64
	h := faker.Server()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.Header.Get("Range") != "" {
			gets.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	client := s3.New(s3.Options{
		BaseEndpoint: aws.String(srv.URL),
		UsePathStyle: true,
		Region:       "us-east-1",
		Credentials:  aws.AnonymousCredentials{},
	})
	fsys := blob.New()
	for _, n := range names {
		b, err := s3blob.OpenBucket(context.Background(), client, n, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		fsys.SetBucket("s3://"+n, b)
	}
	t.Cleanup(func() { fsys.Close() })
	return fsys, &gets
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
