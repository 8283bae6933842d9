package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lakecat/lakecat/internal/s3fake"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/storage/blob"
)

// s3Counts are the requests a counting S3 fake served.
type s3Counts struct {
	gets, heads, lists atomic.Int64
}

// countingS3Fake is s3Fake with the requests counted: object GETs (whole
// or ranged), HEADs (a file's size) and listings.
func countingS3Fake(t *testing.T) (string, *blob.FS, *s3Counts) {
	t.Helper()
	var c s3Counts
	srv := s3fake.New(t)
	srv.SetHook(func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		key := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, "/"), "lake")
		switch {
		case r.Method == http.MethodHead:
			c.heads.Add(1)
		case r.Method == http.MethodGet && strings.Trim(key, "/") == "":
			c.lists.Add(1)
		case r.Method == http.MethodGet:
			c.gets.Add(1)
			if os.Getenv("LAKECAT_TRACE_GETS") != "" {
				t.Logf("GET %s %s", r.URL.Path, r.Header.Get("Range"))
			}
		}
		next.ServeHTTP(w, r)
	})
	fsys := blob.New()
	t.Cleanup(func() { fsys.Close() })
	return "?" + srv.Query, fsys, &c
}

// TestObjectStoreGETs reads the bundled tables and real Iceberg and Paimon
// tables from the counting S3 fake with `lakecat cat`: the same rows as
// from the folder, in at most maxGets object GETs each, one per file
// (storage.CoalesceFS reads a file below 8 MiB whole; without it each
// column chunk, page header and footer part was a GET of its own).
func TestObjectStoreGETs(t *testing.T) {
	real := testutil.RealDir(t)
	repo := testutil.RepoRoot(t)
	q, fsys, counts := countingS3Fake(t)
	tables := []struct {
		name, dir string
		args      []string
		maxGets   int64 // without storage.CoalesceFS: 83 (orders), 294 (paimon_orders before its fourth commit, read --raw), 42 (paimon ts)
	}{
		{"orders", filepath.Join(repo, "testdata", "orders"), nil, 8},
		{"paimon_orders", filepath.Join(repo, "testdata", "paimon_orders"), nil, 25},
		{"iceberg add_columns_with_defaults", filepath.Join(real, "duckdb-iceberg", "data", "persistent", "add_columns_with_defaults", "default.db", "add_columns_with_defaults"), nil, 6},
		{"paimon ts precision", filepath.Join(real, "paimon-cpp", "test", "test_data", "parquet", "append_with_multiple_ts_precision_and_timezone.db", "append_with_multiple_ts_precision_and_timezone"), nil, 7},
	}
	for i, tb := range tables {
		url := "s3://lake/t" + string(rune('0'+i))
		stageFolder(t, fsys, tb.dir, url, q)
		t.Run(tb.name, func(t *testing.T) {
			args := append([]string{"cat", "--format", "jsonl"}, tb.args...)
			local, errOut, code := runCLI(t, append(args, tb.dir)...)
			if code != exitOK {
				t.Fatalf("local: exit %d, %s", code, errOut)
			}
			g, h, l := counts.gets.Load(), counts.heads.Load(), counts.lists.Load()
			remote, errOut, code := runCLI(t, append(args, url+q)...)
			// The real Iceberg table has no version-hint.text: one warning.
			if code != exitOK || (errOut != "" && !strings.HasPrefix(errOut, "lakecat: warning: ")) {
				t.Fatalf("s3: exit %d, stderr %q", code, errOut)
			}
			rows := strings.Count(local, "\n")
			if remote != local || rows == 0 {
				t.Errorf("s3 rows:\n%s\nfolder rows:\n%s", remote, local)
			}
			gets, heads := counts.gets.Load()-g, counts.heads.Load()-h
			t.Logf("%s: %d rows in %d GETs, %d HEADs, %d LISTs", tb.name, rows, gets, heads, counts.lists.Load()-l)
			// Every file here is below 8 MiB: at most one GET per file
			// opened (one HEAD each).
			if gets > tb.maxGets || gets > heads {
				t.Errorf("%d GETs for %d files opened, want at most %d", gets, heads, tb.maxGets)
			}
		})
	}
}
