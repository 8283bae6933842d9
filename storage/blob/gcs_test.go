//go:build !lakecat_nogcs

package blob_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/storage/blob"
)

// fakeGCS is an in-process Cloud Storage JSON API: object metadata, media
// downloads with Range, listings with a delimiter (pages of two names),
// media uploads with ifGenerationMatch=0, deletes; bucket "private" wants
// the bearer token "tok-1" (401 without it), bucket "denied" answers 403;
// POST /token hands out tok-1 for a signed JWT (a service account's token
// exchange).
type fakeGCS struct {
	mu      sync.Mutex
	objects map[string]string // "bucket/name" → data
	gets    []string          // "name range" of media GETs
	tokens  int
}

func (g *fakeGCS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	defer g.mu.Unlock()
	fail := func(code int, msg string) {
		w.WriteHeader(code)
		fmt.Fprintf(w, `{"error": {"code": %d, "message": %q, "errors": [{"reason": "r%d"}]}}`, code, msg, code)
	}
	if r.URL.Path == "/token" {
		r.ParseForm()
		if r.Form.Get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer" || r.Form.Get("assertion") == "" {
			fail(400, "bad grant")
			return
		}
		g.tokens++
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"access_token": "tok-1", "token_type": "Bearer", "expires_in": 3600}`)
		return
	}
	upload := strings.HasPrefix(r.URL.Path, "/upload")
	rest, ok := strings.CutPrefix(strings.TrimPrefix(r.URL.Path, "/upload"), "/storage/v1/b/")
	if !ok {
		fail(404, "no such API")
		return
	}
	bucket, obj, _ := strings.Cut(rest, "/o")
	obj = strings.TrimPrefix(obj, "/")
	switch {
	case bucket == "denied":
		fail(403, "caller does not have storage.objects.get access")
		return
	case bucket == "private" && r.Header.Get("Authorization") != "Bearer tok-1":
		fail(401, "Anonymous caller does not have storage.objects.get access")
		return
	}
	q := r.URL.Query()
	switch {
	case upload && r.Method == http.MethodPost:
		key := bucket + "/" + q.Get("name")
		if _, exists := g.objects[key]; exists && q.Get("ifGenerationMatch") == "0" {
			fail(412, "At least one of the pre-conditions you specified did not hold.")
			return
		}
		data, _ := io.ReadAll(r.Body)
		g.objects[key] = string(data)
		fmt.Fprintf(w, `{"name": %q, "size": "%d"}`, q.Get("name"), len(data))
	case r.Method == http.MethodGet && obj == "":
		g.list(w, bucket, q)
	case r.Method == http.MethodGet:
		data, ok := g.objects[bucket+"/"+obj]
		if !ok {
			fail(404, "No such object: "+bucket+"/"+obj)
			return
		}
		if q.Get("alt") != "media" {
			fmt.Fprintf(w, `{"name": %q, "size": "%d"}`, obj, len(data))
			return
		}
		g.gets = append(g.gets, obj+" "+r.Header.Get("Range"))
		if rng := r.Header.Get("Range"); rng != "" {
			var from, to int
			fmt.Sscanf(rng, "bytes=%d-%d", &from, &to)
			w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", from, to, len(data)))
			w.WriteHeader(http.StatusPartialContent)
			io.WriteString(w, data[from:to+1])
			return
		}
		io.WriteString(w, data)
	case r.Method == http.MethodDelete:
		if _, ok := g.objects[bucket+"/"+obj]; !ok {
			fail(404, "No such object")
			return
		}
		delete(g.objects, bucket+"/"+obj)
		w.WriteHeader(http.StatusNoContent)
	default:
		fail(405, "method")
	}
}

func (g *fakeGCS) list(w http.ResponseWriter, bucket string, q url.Values) {
	prefix, delim := q.Get("prefix"), q.Get("delimiter")
	seen := map[string]bool{}
	var names []string // items, and prefixes ending in "/"
	for k := range g.objects {
		b, name, _ := strings.Cut(k, "/")
		if b != bucket || !strings.HasPrefix(name, prefix) {
			continue
		}
		if i := strings.Index(name[len(prefix):], delim); delim != "" && i >= 0 {
			name = name[:len(prefix)+i+1]
		}
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	sort.Strings(names)
	start, _ := strconv.Atoi(q.Get("pageToken"))
	end := min(start+2, len(names))
	var page struct {
		Items         []map[string]string `json:"items,omitempty"`
		Prefixes      []string            `json:"prefixes,omitempty"`
		NextPageToken string              `json:"nextPageToken,omitempty"`
	}
	for _, n := range names[start:end] {
		if strings.HasSuffix(n, "/") {
			page.Prefixes = append(page.Prefixes, n)
		} else {
			page.Items = append(page.Items, map[string]string{"name": n})
		}
	}
	if end < len(names) {
		page.NextPageToken = strconv.Itoa(end)
	}
	json.NewEncoder(w).Encode(page)
}

// TestGCSDriver reads and writes through the gs driver against fakeGCS
// (STORAGE_EMULATOR_HOST): sizes, ranged reads, paged listings,
// create-no-replace, remove, and the errors of a missing object (not
// found), a 401 and a 403 (permission, not retried).
func TestGCSDriver(t *testing.T) {
	g := &fakeGCS{objects: map[string]string{}}
	srv := httptest.NewServer(g)
	defer srv.Close()
	t.Setenv("STORAGE_EMULATOR_HOST", strings.TrimPrefix(srv.URL, "http://"))
	ctx := context.Background()
	f := blob.New()
	defer f.Close()
	for k, v := range map[string]string{"t/metadata/v1.metadata.json": "{}", "t/data/a.parquet": "0123456789", "t/data/b.parquet": "x", "t/data/c.parquet": "y", "t/version-hint.text": "1"} {
		if err := f.WriteAll(ctx, "gs://lake/"+k, []byte(v)); err != nil {
			t.Fatal(err)
		}
	}
	names, err := f.List(ctx, "gs://lake/t")
	if got, want := strings.Join(names, ","), "data,metadata,version-hint.text"; err != nil || got != want {
		t.Errorf("List(t) = %q, %v; want %q", got, err, want)
	}
	names, err = f.List(ctx, "gs://lake/t/data/")
	if got, want := strings.Join(names, ","), "a.parquet,b.parquet,c.parquet"; err != nil || got != want {
		t.Errorf("List(t/data/) = %q, %v; want %q", got, err, want)
	}
	if _, err := f.List(ctx, "gs://lake/none"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("List(none) err = %v, want fs.ErrNotExist", err)
	}
	file, err := f.Open(ctx, "gs://lake/t/data/a.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if file.Size() != 10 {
		t.Errorf("Size = %d, want 10", file.Size())
	}
	p := make([]byte, 4)
	if n, err := file.ReadAt(p, 3); n != 4 || err != nil || string(p) != "3456" {
		t.Errorf("ReadAt(3) = %d %v %q, want 4 <nil> \"3456\"", n, err, p)
	}
	if n, err := file.ReadAt(p, 8); n != 2 || err != io.EOF || string(p[:2]) != "89" {
		t.Errorf("ReadAt(8) = %d %v %q, want 2 EOF \"89\"", n, err, p[:n])
	}
	file.Close()
	if got, want := strings.Join(g.gets, ";"), "t/data/a.parquet bytes=3-6;t/data/a.parquet bytes=8-9"; got != want {
		t.Errorf("media GETs %q, want %q", got, want)
	}
	_, err = f.Open(ctx, "gs://lake/t/data/missing")
	if !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, lakecat.ErrNotFound) {
		t.Errorf("Open(missing) err = %v, want fs.ErrNotExist", err)
	}
	if err := f.CreateNoReplace(ctx, "gs://lake/t/metadata/v2.metadata.json", []byte("{}")); err != nil {
		t.Errorf("CreateNoReplace(new) = %v", err)
	}
	err = f.CreateNoReplace(ctx, "gs://lake/t/metadata/v2.metadata.json", []byte("{2}"))
	if !errors.Is(err, fs.ErrExist) {
		t.Errorf("CreateNoReplace(existing) = %v, want fs.ErrExist", err)
	}
	if got := g.objects["lake/t/metadata/v2.metadata.json"]; got != "{}" {
		t.Errorf("after the lost create the object is %q, want {}", got)
	}
	if err := f.Remove(ctx, "gs://lake/t/version-hint.text"); err != nil {
		t.Errorf("Remove = %v", err)
	}
	if _, err := f.Open(ctx, "gs://lake/t/version-hint.text"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(removed) err = %v, want fs.ErrNotExist", err)
	}
	for _, c := range []struct {
		url, want string
	}{
		{"gs://private/t/x", "blob: gs://private/t/x: GET: HTTP 401 r401: Anonymous caller does not have storage.objects.get access"},
		{"gs://denied/t/x", "blob: gs://denied/t/x: GET: HTTP 403 r403: caller does not have storage.objects.get access"},
	} {
		_, err := f.Open(ctx, c.url)
		if err == nil || err.Error() != c.want {
			t.Errorf("Open(%s) = %v, want %q", c.url, err, c.want)
		}
		if !errors.Is(err, fs.ErrPermission) || !errors.Is(err, lakecat.ErrPermission) || storage.IsTransient(err) {
			t.Errorf("Open(%s): %v: want fs.ErrPermission and lakecat.ErrPermission, not transient", c.url, err)
		}
	}
}

// TestGCSServiceAccount reads a private bucket with a service-account JSON
// named by GOOGLE_APPLICATION_CREDENTIALS: the driver exchanges a signed
// JWT at the file's token_uri (the fake's /token) and sends the token it
// gets as a bearer token.
func TestGCSServiceAccount(t *testing.T) {
	g := &fakeGCS{objects: map[string]string{"private/t/a": "secret rows"}}
	srv := httptest.NewServer(g)
	defer srv.Close()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	sa, _ := json.Marshal(map[string]string{
		"type": "service_account", "project_id": "p", "private_key_id": "k1", "private_key": string(pemKey),
		"client_email": "lakecat@p.iam.gserviceaccount.com", "client_id": "1", "token_uri": srv.URL + "/token",
	})
	path := filepath.Join(t.TempDir(), "sa.json")
	if err := os.WriteFile(path, sa, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", path)
	t.Setenv("STORAGE_EMULATOR_HOST", "")
	// A universe domain of its own, so that no client cached by another
	// test is reused.
	f := blob.New()
	defer f.Close()
	u := "gs://private/t/a?endpoint=" + srv.URL + "&universe_domain=googleapis.com"
	file, err := f.Open(context.Background(), f.StripQuery(u))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	p := make([]byte, file.Size())
	if _, err := file.ReadAt(p, 0); err != nil || string(p) != "secret rows" {
		t.Fatalf("ReadAt = %q, %v", p, err)
	}
	if g.tokens != 1 {
		t.Errorf("%d token exchanges, want 1", g.tokens)
	}
}
