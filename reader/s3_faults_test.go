package reader_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lakecat/lakecat/internal/s3fake"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/storage/blob"
)

// s3Faults is what the fake S3 server does to ranged GETs (numbered from
// 1): every failEvery-th answers failStatus, every shortEvery-th sends
// only half of its body (the connection drops), each waits delay first. A
// request (object and range) is damaged at most once, so that a retry of
// it succeeds whatever the interleaving of concurrent requests.
type s3Faults struct {
	failEvery, shortEvery int64
	failStatus            int
	delay                 time.Duration
	gets, faults          atomic.Int64
	on                    atomic.Bool
	mu                    sync.Mutex
	hit                   map[string]bool
}

// damage reports whether request n for key may be damaged, and marks it.
func (f *s3Faults) damage(n, every int64, key string) bool {
	if every <= 0 || n%every != 0 {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.hit == nil {
		f.hit = map[string]bool{}
	}
	if f.hit[key] {
		return false
	}
	f.hit[key] = true
	f.faults.Add(1)
	return true
}

// faultyS3 serves the in-memory S3 fake (internal/s3fake) with faults on
// ranged GETs and returns a blob.FS over it. The AWS SDK's own retries are
// off, so that what is retried is retried by storage.RetryFS.
func faultyS3(t *testing.T, f *s3Faults) *blob.FS {
	t.Helper()
	s3fake.NoSDKRetries(t)
	srv := s3fake.New(t)
	srv.SetHook(func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if !s3fake.IsRangedGET(r) || !f.on.Load() {
			next.ServeHTTP(w, r)
			return
		}
		n := f.gets.Add(1)
		if f.delay > 0 {
			time.Sleep(f.delay)
		}
		key := r.URL.Path + " " + r.Header.Get("Range")
		switch {
		case f.damage(n, f.failEvery, key):
			w.WriteHeader(f.failStatus)
		case f.damage(n, f.shortEvery, key):
			s3fake.Cut(w, r, next)
		default:
			next.ServeHTTP(w, r)
		}
	})
	return srv.FS(t)
}

// TestS3Faults serves the bundled Iceberg table from the S3 fake and
// injects faults into its ranged GETs: 503s and dropped connections are
// retried by RetryFS and the scan gives exactly the folder's rows; slow
// GETs are only slow; a 403 is permanent and fails the scan at once
// (no retry, no rows reported as complete); without RetryFS a 503 fails
// the scan.
func TestS3Faults(t *testing.T) {
	dir := bundledOrders(t)
	want, err := scanTable(context.Background(), dir, storage.OSFS{}, testutil.CheckedAllocator(t))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		faults  *s3Faults
		retry   bool
		wantErr string // "" : the clean rows
	}{
		{"503 every 3rd GET", &s3Faults{failEvery: 3, failStatus: 503}, true, ""},
		{"dropped connection every 4th GET", &s3Faults{shortEvery: 4}, true, ""},
		{"slow GETs", &s3Faults{delay: 5 * time.Millisecond}, true, ""},
		{"403 on the 5th GET", &s3Faults{failEvery: 5, failStatus: 403}, true, "403"},
		{"503 without RetryFS", &s3Faults{failEvery: 3, failStatus: 503}, false, "503"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s3fs := faultyS3(t, c.faults)
			upload(t, s3fs, dir, "orders")
			c.faults.on.Store(true)
			var retries atomic.Int64
			var fsys storage.FS = s3fs
			if c.retry {
				fsys = storage.RetryFS(s3fs, fastRetry(&retries))
			}
			got, err := scanTable(context.Background(), "s3://lake/orders", fsys, testutil.CheckedAllocator(t))
			t.Logf("%d ranged GETs, %d faults, %d retries, err %v", c.faults.gets.Load(), c.faults.faults.Load(), retries.Load(), err)
			if c.wantErr == "" {
				if err != nil || got != want {
					t.Fatalf("err %v, rows\n%s\nwant\n%s", err, got, want)
				}
				if c.faults.faults.Load() > 0 && retries.Load() < c.faults.faults.Load() {
					t.Errorf("%d faults, %d retries", c.faults.faults.Load(), retries.Load())
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("err %v, want one mentioning %s; rows\n%s", err, c.wantErr, got)
			}
			if errors.Is(err, context.Canceled) {
				t.Errorf("reported as canceled: %v", err)
			}
			if c.faults.failStatus == 403 && retries.Load() != 0 {
				t.Errorf("a 403 was retried %d times", retries.Load())
			}
		})
	}
}
