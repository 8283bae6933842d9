package blob_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/internal/s3fake"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/storage/blob"
)

// stallingS3 serves the in-memory S3 fake on loopback; while stall is set,
// a ranged GET sends its headers and the first half of its body, then
// stops sending until the client gives up.
func stallingS3(t *testing.T, stall *atomic.Bool) *blob.FS {
	t.Helper()
	s3fake.NoSDKRetries(t)
	srv := s3fake.New(t)
	srv.SetHook(func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if s3fake.IsRangedGET(r) && stall.Load() {
			s3fake.Stall(w, r, next)
			return
		}
		next.ServeHTTP(w, r)
	})
	return srv.FS(t)
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
