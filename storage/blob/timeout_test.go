package blob_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"gocloud.dev/blob/s3blob"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/storage/blob"
)

// stallingS3 serves the in-memory S3 fake on loopback; while stall is set,
// a ranged GET sends its headers and the first half of its body, then
// stops sending until the client gives up.
func stallingS3(t *testing.T, stall *atomic.Bool) *blob.FS {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket("lake"); err != nil {
		t.Fatal(err)
	}
	h := gofakes3.New(backend).Server()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.Header.Get("Range") == "" || !stall.Load() {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		body := rec.Body.Bytes()
		w.Write(body[:len(body)/2])
		w.(http.Flusher).Flush()
		<-r.Context().Done() // the stall: nothing more until the client leaves
	}))
	t.Cleanup(srv.Close)
	client := s3.New(s3.Options{BaseEndpoint: aws.String(srv.URL), UsePathStyle: true, Region: "us-east-1",
		Credentials: aws.AnonymousCredentials{}, Retryer: aws.NopRetryer{}})
	b, err := s3blob.OpenBucket(context.Background(), client, "lake", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	fsys := blob.New()
	fsys.SetBucket("s3://lake", b)
	return fsys
}

// TestStalledBody: a ranged GET whose body stops half-way fails after the
// idle timeout with a *blob.TimeoutError (transient, so RetryFS retries
// it) instead of hanging; once the server recovers, the retried read gets
// the exact bytes.
func TestStalledBody(t *testing.T) {
	ctx := context.Background()
	var stall atomic.Bool
	fsys := stallingS3(t, &stall)
	data := bytes.Repeat([]byte("0123456789"), 1000)
	if err := fsys.WriteAll(ctx, "s3://lake/t/data/a.parquet", data); err != nil {
		t.Fatal(err)
	}
	fsys.SetTimeouts(blob.Timeouts{Idle: 200 * time.Millisecond})
	f, err := fsys.Open(ctx, "s3://lake/t/data/a.parquet")
	if err != nil {
		t.Fatal(err)
	}
	stall.Store(true)
	buf := make([]byte, 4000)
	_, err = f.ReadAt(buf, 100)
	var te *blob.TimeoutError
	if !errors.As(err, &te) || !te.Idle || te.Limit != 200*time.Millisecond {
		t.Fatalf("ReadAt on a stalled body: %v, want an idle *blob.TimeoutError of 200ms", err)
	}
	if !storage.IsTransient(err) || !errors.Is(err, lakecat.ErrUnavailable) {
		t.Errorf("%v: IsTransient %v, class %v; want transient, ErrUnavailable", err, storage.IsTransient(err), lakecat.ClassOf(err))
	}
	if want := "blob: s3://lake/t/data/a.parquet: read 4000 bytes at 100: no data for 200ms (idle timeout)"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	stall.Store(false)
	if _, err := f.ReadAt(buf, 100); err != nil || !bytes.Equal(buf, data[100:4100]) {
		t.Fatalf("ReadAt after the stall: %v", err)
	}

	// The whole-request timeout, with the idle timeout off.
	fsys.SetTimeouts(blob.Timeouts{Request: 300 * time.Millisecond, Idle: -1})
	f, err = fsys.Open(ctx, "s3://lake/t/data/a.parquet")
	if err != nil {
		t.Fatal(err)
	}
	stall.Store(true)
	_, err = f.ReadAt(buf, 100)
	if !errors.As(err, &te) || te.Idle || te.Limit != 300*time.Millisecond {
		t.Fatalf("ReadAt on a stalled body: %v, want a request *blob.TimeoutError of 300ms", err)
	}
	stall.Store(false)

	// The caller's own cancellation stays context.Canceled.
	cctx, cancel := context.WithCancel(ctx)
	fsys.SetTimeouts(blob.Timeouts{})
	f, err = fsys.Open(cctx, "s3://lake/t/data/a.parquet")
	if err != nil {
		t.Fatal(err)
	}
	stall.Store(true)
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, err = f.ReadAt(buf, 100); !errors.Is(err, context.Canceled) {
		t.Fatalf("ReadAt canceled by the caller: %v, want context.Canceled", err)
	}
}
