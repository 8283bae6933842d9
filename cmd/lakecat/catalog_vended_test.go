//go:build !lakecat_local && !lakecat_nos3

package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lakecat/lakecat/internal/restcatalog"
	"github.com/lakecat/lakecat/internal/s3fake"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/testdata/orders"
)

// TestRESTVendedCredentials serves the bundled orders table from the S3
// fake, registered in the in-process catalog at s3://lake/wh/orders. The
// fake refuses (403) every request not signed with the access key the
// catalog vends; the environment has no AWS credentials and no endpoint.
// cat, schema, files and plan on rest:// (and cat and files with --catalog) read
// the table with the vended s3.* properties, and no output names the
// secret. The vended key is in "storage-credentials" for the bucket's
// prefix, the endpoint and region in "config".
func TestRESTVendedCredentials(t *testing.T) {
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3"} {
		t.Setenv(k, "")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(home, "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(home, "none"))
	s3 := s3fake.New(t)
	stageFolder(t, s3.FS(t), filepath.Join(testutil.RepoRoot(t), "testdata", "orders"), "s3://lake/wh/orders", "")
	var signed, refused atomic.Int64
	s3.SetHook(func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if !strings.Contains(r.Header.Get("Authorization"), "Credential=AKIDVENDED1/") {
			refused.Add(1)
			w.WriteHeader(http.StatusForbidden)
			return
		}
		signed.Add(1)
		next.ServeHTTP(w, r)
	})
	meta, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), "testdata", "orders", filepath.FromSlash(orders.MetadataPath)))
	if err != nil {
		t.Fatal(err)
	}
	creds, _ := json.Marshal([]map[string]any{{
		"prefix": "s3://lake/wh/",
		"config": map[string]string{"s3.access-key-id": "AKIDVENDED1", "s3.secret-access-key": "vended-secret-9", "s3.session-token": "vended-session-9"},
	}})
	cat := restcatalog.New(restcatalog.Options{
		TableConfig:        map[string]string{"s3.endpoint": s3.URL, "s3.region": "us-east-1", "s3.path-style-access": "true"},
		StorageCredentials: creds,
	})
	t.Cleanup(cat.Close)
	cat.RegisterRemote([]string{"db"}, "orders", "s3://lake/wh/orders/"+orders.MetadataPath, meta)
	table := "rest://" + hostPort(cat) + "/db.orders"
	for _, c := range []struct {
		name string
		args []string
		want func(string) bool
	}{
		{"cat", []string{"cat", "--format", "jsonl", table}, func(out string) bool { return out == ordersJSONL }},
		{"cat --catalog", []string{"cat", "--format", "jsonl", "--catalog", "rest://" + hostPort(cat), "db.orders"}, func(out string) bool { return out == ordersJSONL }},
		{"schema", []string{"schema", table}, func(out string) bool { return strings.Contains(out, "order_id") && strings.Contains(out, "channel") }},
		{"files", []string{"files", table}, func(out string) bool { return strings.Count(out, "s3://lake/wh/orders/data/") >= 2 }},
		{"plan", []string{"plan", table}, func(out string) bool { return strings.Count(out, "file s3://lake/wh/orders/data/") == 3 }},
		{"plan --where", []string{"plan", "--where", "channel = 'app'", table}, func(out string) bool {
			return strings.Count(out, "s3://lake/wh/orders/data/") == 3 && strings.HasSuffix(out, "files: 1 read, 2 skipped; row groups: 1 of 3 kept; bytes skipped: 972\n")
		}},
		{"files --catalog", []string{"files", "--format", "json", "--catalog", "rest://" + hostPort(cat), "db.orders"}, func(out string) bool {
			return strings.Count(out, "s3://lake/wh/orders/data/") >= 2
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := signed.Load()
			out, errOut, code := runCLI(t, c.args...)
			if code != exitOK || errOut != "" || !c.want(out) {
				t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
			}
			if signed.Load() == before {
				t.Error("no request signed with the vended key")
			}
			for _, secret := range []string{"vended-secret-9", "vended-session-9"} {
				if strings.Contains(out+errOut, secret) {
					t.Errorf("output names the vended secret %q", secret)
				}
			}
		})
	}
	if n := refused.Load(); n != 0 {
		t.Errorf("%d requests not signed with the vended key", n)
	}
}
