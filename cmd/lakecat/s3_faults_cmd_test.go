package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lakecat/lakecat/internal/s3fake"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/storage/blob"
)

// faultProxy serves the in-memory S3 fake on loopback and damages ranged
// GETs (the reads of metadata, manifests and data files) while on: mode
// "drop" sends half of every third one's body and closes the connection,
// "stall-once" sends half of the first GET of each object and then nothing
// more, "stall" does that to every GET. Stalled
// handlers return when the client goes away.
type faultProxy struct {
	mode   string
	on     atomic.Bool
	gets   atomic.Int64
	faults atomic.Int64
	mu     sync.Mutex
	hit    map[string]bool
}

func (p *faultProxy) serve(t *testing.T) string {
	t.Helper()
	srv := s3fake.New(t)
	srv.SetHook(func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if !s3fake.IsRangedGET(r) || !p.on.Load() {
			next.ServeHTTP(w, r)
			return
		}
		n := p.gets.Add(1)
		key := r.URL.Path + " " + r.Header.Get("Range")
		damage := false
		switch p.mode {
		case "drop":
			damage = n%3 == 0 && p.first(key)
		case "stall-once":
			// Once per object: a retry resumes at the first byte not
			// received, a range of its own.
			damage = p.first(r.URL.Path)
		case "stall":
			damage = true
		}
		switch {
		case !damage:
			next.ServeHTTP(w, r)
		case p.mode == "drop":
			p.faults.Add(1)
			s3fake.Cut(w, r, next)
		default:
			p.faults.Add(1)
			s3fake.Stall(w, r, next)
		}
	})
	return srv.URL
}

// first reports whether key is damaged for the first time, and marks it.
func (p *faultProxy) first(key string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.hit == nil {
		p.hit = map[string]bool{}
	}
	if p.hit[key] {
		return false
	}
	p.hit[key] = true
	return true
}

// TestObjectStoreFaultsBinary runs the lakecat binary in a subprocess on
// the bundled Iceberg table served by an S3 fake through a fault proxy on
// loopback. Dropped connections and a body that stalls once are retried by
// the command (storage.RetryFS over blob's timeouts, LAKECAT_IDLE_TIMEOUT
// set to 300ms): the exact rows, exit 0, nothing on stderr. A body that
// stalls on every try fails after the last retry with exit 9
// (unavailable) and one line naming the object and the idle timeout.
func TestObjectStoreFaultsBinary(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the binary")
	}
	bin := filepath.Join(t.TempDir(), "lakecat")
	if out, err := exec.Command(gobin, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, c := range []struct {
		mode   string
		code   int
		stderr string // a part of the one line on stderr; "" for none
	}{
		{"drop", 0, ""},
		{"stall-once", 0, ""},
		{"stall", 9, "no data for 300ms (idle timeout)"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			p := &faultProxy{mode: c.mode}
			q := "?endpoint=" + p.serve(t) + "&use_path_style=true&region=us-east-1&anonymous=true"
			stage(t, q)
			p.on.Store(true)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "cat", "s3://lake/wh/orders"+q)
			cmd.Env = append(os.Environ(), "LAKECAT_IDLE_TIMEOUT=300ms", "AWS_EC2_METADATA_DISABLED=true")
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			err := cmd.Run()
			code := cmd.ProcessState.ExitCode()
			t.Logf("%d ranged GETs, %d damaged; exit %d (%v); stderr %q", p.gets.Load(), p.faults.Load(), code, err, errOut.String())
			if p.faults.Load() == 0 {
				t.Fatal("no GET was damaged")
			}
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, c.code, errOut.String())
			}
			if c.stderr == "" {
				if out.String() != demoTable || errOut.Len() != 0 {
					t.Errorf("stderr %q, stdout:\n%s\nwant:\n%s", errOut.String(), out.String(), demoTable)
				}
				return
			}
			if lines := strings.Count(errOut.String(), "\n"); lines != 1 || !strings.Contains(errOut.String(), c.stderr) ||
				!strings.Contains(errOut.String(), "s3://lake/wh/orders/") || strings.Contains(errOut.String(), "fatal error") {
				t.Errorf("stderr %q, want one line naming the object and saying %q", errOut.String(), c.stderr)
			}
		})
	}
}

// stage uploads the bundled orders table to s3://lake/wh/orders.
func stage(t *testing.T, q string) {
	t.Helper()
	fsys := blob.New()
	defer fsys.Close()
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
}

// TestTimeoutEnvironment: a timeout variable that is not a duration (or is
// zero) is a usage error naming it, before any request.
func TestTimeoutEnvironment(t *testing.T) {
	for _, c := range []struct{ name, value string }{{envIdleTimeout, "soon"}, {envRequestTimeout, "0"}} {
		t.Setenv(c.name, c.value)
		_, errOut, code := runCLI(t, "cat", "s3://lake/wh/orders?endpoint=http://127.0.0.1:1&anonymous=true")
		if code != exitUsage || !strings.Contains(errOut, c.name) {
			t.Errorf("%s=%s: exit %d, stderr %q; want a usage error naming it", c.name, c.value, code, errOut)
		}
		t.Setenv(c.name, "")
	}
}
