package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/s3fake"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/storage/blob"
)

// TestEvolveS3 commits a schema change with `lakecat evolve s3://…` to the
// bundled Iceberg table served from an in-process S3 fake: the next
// metadata file is a conditional write (If-None-Match: *), and `lakecat cat`
// of the same URL then reads the new column. A second commit writes v3; the
// first metadata file is never replaced.
func TestEvolveS3(t *testing.T) {
	q, fsys := s3Fake(t)
	dir := filepath.Join(testutil.RepoRoot(t), "testdata", "orders")
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || strings.HasSuffix(p, ".go") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filepath.Dir(dir), p)
		return fsys.WriteAll(context.Background(), "s3://lake/wh/"+filepath.ToSlash(rel)+q, b)
	})
	if err != nil {
		t.Fatal(err)
	}
	url := "s3://lake/wh/orders" + q
	out, errOut, code := runCLI(t, "evolve", url, "--add", "region string")
	if code != exitOK || errOut != "" || !strings.Contains(out, "+ 9 region: string") ||
		!strings.HasSuffix(out, "committed s3://lake/wh/orders/metadata/v2.metadata.json (last-column-id 9)\n") {
		t.Fatalf("evolve s3: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	out, errOut, code = runCLI(t, "cat", url, "--format", "csv", "--columns", "order_id,region", "--limit", "2")
	if code != exitOK || errOut != "" || out != "order_id,region\n1,\n2,\n" {
		t.Fatalf("cat s3 after evolve: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	out, errOut, code = runCLI(t, "evolve", url, "--rename", "region=zone")
	if code != exitOK || !strings.HasSuffix(out, "committed s3://lake/wh/orders/metadata/v3.metadata.json (last-column-id 9)\n") {
		t.Fatalf("second evolve s3: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	names, err := fsys.List(context.Background(), "s3://lake/wh/orders/metadata")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names, ","); !strings.Contains(got, "v1.metadata.json,v2.metadata.json,v3.metadata.json,version-hint.text") {
		t.Fatalf("metadata folder: %s", got)
	}
}

// s3Fake serves an in-memory S3 (internal/s3fake) with bucket "lake" on
// loopback for the test and returns the URL query ("?endpoint=…") that
// points the s3 driver at it, and a storage/blob FS to stage files with.
func s3Fake(t *testing.T) (string, *blob.FS) {
	t.Helper()
	srv := s3fake.New(t)
	fsys := blob.New()
	t.Cleanup(func() { fsys.Close() })
	return "?" + srv.Query, fsys
}
