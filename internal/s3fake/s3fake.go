// Package s3fake serves an in-memory S3 (gofakes3) on a loopback
// httptest server for tests, with a hook that sees every request first:
// to count requests, inject faults (statuses, cut or stalled bodies) or
// log them. storage/blob's s3 driver reaches it through the URL query
// [Server.Query].
package s3fake

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/lakecat/lakecat/storage/blob"
)

// Hook sees a request before the fake serves it; next serves it as the
// fake would (a hook that answers the request itself does not call it).
type Hook func(w http.ResponseWriter, r *http.Request, next http.Handler)

// Server is the fake S3 server of one test.
type Server struct {
	// URL is the server's base URL ("http://127.0.0.1:port").
	URL string
	// Query is the s3 driver query that points storage/blob at the server
	// (path-style addressing, region us-east-1, anonymous credentials),
	// without the leading "?".
	Query   string
	buckets []string
	hook    atomic.Pointer[Hook]
}

// New starts a fake with the named buckets (none: "lake"), stopped when
// the test ends.
func New(t testing.TB, buckets ...string) *Server {
	t.Helper()
	if len(buckets) == 0 {
		buckets = []string{"lake"}
	}
	backend := s3mem.New()
	for _, b := range buckets {
		if err := backend.CreateBucket(b); err != nil {
			t.Fatal(err)
		}
	}
	h := gofakes3.New(backend).Server()
	s := &Server{buckets: buckets}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hp := s.hook.Load(); hp != nil {
			(*hp)(w, r, h)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	s.Query = "endpoint=" + srv.URL + "&use_path_style=true&region=us-east-1&anonymous=true"
	return s
}

// SetHook makes h see every request from now on (nil: none).
func (s *Server) SetHook(h Hook) {
	if h == nil {
		s.hook.Store(nil)
		return
	}
	s.hook.Store(&h)
}

// FS returns a storage/blob FS whose s3://BUCKET paths, for each bucket of
// the fake, go to the fake; it is closed when the test ends.
func (s *Server) FS(t testing.TB) *blob.FS {
	t.Helper()
	fsys := blob.New()
	for _, b := range s.buckets {
		fsys.StripQuery("s3://" + b + "?" + s.Query)
	}
	t.Cleanup(func() { fsys.Close() })
	return fsys
}

// NoSDKRetries turns the AWS SDK's own retries off for the test (through
// AWS_MAX_ATTEMPTS=1), so that what is retried is retried by
// storage.RetryFS.
func NoSDKRetries(t *testing.T) { t.Setenv("AWS_MAX_ATTEMPTS", "1") }

// IsRangedGET reports whether r is an object GET with a Range header.
func IsRangedGET(r *http.Request) bool {
	return r.Method == http.MethodGet && r.Header.Get("Range") != ""
}

// Cut serves r as the fake would, but sends only the first half of the
// body and then drops the connection (the client sees a body shorter than
// its Content-Length).
func Cut(w http.ResponseWriter, r *http.Request, next http.Handler) {
	body, rec := record(r, next)
	copyHeader(w, rec)
	w.Write(body[:len(body)/2])
	if hj, ok := w.(http.Hijacker); ok {
		if c, _, err := hj.Hijack(); err == nil {
			c.Close()
		}
	}
}

// Stall serves r as the fake would, but sends only the headers and the
// first half of the body, then nothing until the client leaves.
func Stall(w http.ResponseWriter, r *http.Request, next http.Handler) {
	body, rec := record(r, next)
	copyHeader(w, rec)
	w.Write(body[:len(body)/2])
	w.(http.Flusher).Flush()
	<-r.Context().Done()
}

func record(r *http.Request, next http.Handler) ([]byte, *httptest.ResponseRecorder) {
	rec := httptest.NewRecorder()
	next.ServeHTTP(rec, r)
	return rec.Body.Bytes(), rec
}

func copyHeader(w http.ResponseWriter, rec *httptest.ResponseRecorder) {
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
}
