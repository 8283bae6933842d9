package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
)

// TestObjectStoreQuiet runs the built binary against object stores and
// checks that no SDK line reaches stderr or stdout: an S3 read through the
// in-process S3 fake prints only the rows (the AWS SDK would log a WARN
// "Response has no supported checksum" for every GET), and a gs:// read
// without credentials fails with lakecat's one error line (Google's auth
// library would print "unable to load Default Credentials" on stdout).
// With --verbose the SDK lines come back, on stderr, through lakecat's
// logger.
func TestObjectStoreQuiet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	q, fsys := s3Fake(t)
	dir := filepath.Join(testutil.RepoRoot(t), "testdata", "orders")
	stageFolder(t, fsys, dir, "s3://lake/wh/orders", q)
	url := "s3://lake/wh/orders" + q
	runBin := func(env []string, args ...string) (string, string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), env...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		return out.String(), errb.String(), err
	}
	out, errOut, err := runBin(nil, "cat", url, "--format", "csv", "--columns", "order_id", "--limit", "2")
	if err != nil || errOut != "" || out != "order_id\n1\n2\n" {
		t.Errorf("cat s3: %v, stderr %q, stdout %q", err, errOut, out)
	}
	// gs:// with no credentials anywhere; requests go to a proxy that
	// refuses them (403), so that they fail at once instead of reaching
	// Google.
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusForbidden)
	}))
	defer proxy.Close()
	home := t.TempDir()
	noCreds := []string{"HOME=" + home, "GOOGLE_APPLICATION_CREDENTIALS=", "CLOUDSDK_CONFIG=" + home,
		"STORAGE_EMULATOR_HOST=", "HTTPS_PROXY=" + proxy.URL, "HTTP_PROXY=" + proxy.URL, "NO_PROXY="}
	out, errOut, _ = runBin(noCreds, "cat", "gs://lakecat-no-such-bucket/t")
	if out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "lakecat: ") {
		t.Errorf("cat gs: stdout %q, stderr %q (want one lakecat: line)", out, errOut)
	}
	// --verbose: the warning is logged to stderr, stdout stays empty.
	out, errOut, _ = runBin(noCreds, "cat", "gs://lakecat-no-such-bucket/t", "--verbose")
	if out != "" || !strings.Contains(errOut, `level=WARN msg="gs: no Application Default Credentials`) {
		t.Errorf("cat gs --verbose: stdout %q, stderr %q", out, errOut)
	}
}

// stageFolder copies the local folder dir (without .go files) to the URL
// prefix url, each object URL followed by the driver query q.
func stageFolder(t *testing.T, fsys interface {
	WriteAll(context.Context, string, []byte) error
}, dir, url, q string) {
	t.Helper()
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || strings.HasSuffix(p, ".go") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		return fsys.WriteAll(context.Background(), url+"/"+filepath.ToSlash(rel)+q, b)
	})
	if err != nil {
		t.Fatal(err)
	}
}
