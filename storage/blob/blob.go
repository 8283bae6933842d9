// Package blob is a [storage.WriteFS] over object stores: s3://, gs://,
// azblob:// and file:// URLs, plus plain local paths. Data files are read
// with ranged reads (one ranged GET per ReadAt), so a Parquet or ORC footer
// costs a few small requests, not a download of the file.
//
// Each scheme has a small driver of its own: S3 on the AWS SDK's S3
// client, Azure on the Azure SDK's azblob client, GCS on the JSON API over
// net/http with golang.org/x/oauth2/google credentials. gocloud.dev's
// drivers are not used: they link gRPC and OpenTelemetry, and through
// gRPC's html/template the linker keeps every exported method of every
// type; they were about 24 MB of a 65 MB release binary.
//
// Credentials and regions come from each cloud's standard environment: for
// S3 the AWS SDK's chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY,
// AWS_PROFILE, AWS_REGION, AWS_ENDPOINT_URL_S3, instance roles); for GCS
// Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud's
// credentials, the metadata server); for Azure AZURE_STORAGE_ACCOUNT with
// AZURE_STORAGE_KEY, AZURE_STORAGE_SAS_TOKEN,
// AZURE_STORAGE_CONNECTION_STRING or a default Azure credential. Driver
// options may also be given as URL query parameters on the table location
// ("s3://bucket/t?region=eu-west-1"): they apply to every path of that
// bucket; an unknown parameter is an error.
//
// Every request has a deadline ([Timeouts]: 10 minutes a request, 30
// seconds without body bytes, by default), so a stalled connection fails
// with a [*TimeoutError], which storage.RetryFS retries, instead of hanging.
//
// The s3, gs and azblob drivers are linked by default; build with the tags
// lakecat_nos3, lakecat_nogcs or lakecat_noazure to leave one out (the AWS
// and Azure SDKs are most of the size they add to a binary).
package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"sort"
	"strings"
	"sync"

	"github.com/lakecat/lakecat/storage"
)

// FS is a [storage.WriteFS] over object-store URLs ("s3://bucket/key") and local
// paths. Buckets are opened on first use and kept until Close. It is safe
// for concurrent use.
type FS struct {
	mu      sync.Mutex
	buckets map[string]bucket // "scheme://bucket" → bucket
	query   map[string]string // "scheme://bucket" → driver query ("region=…")
	opened  map[string]bool   // buckets this FS opened (closed by Close)
	// props are storage properties by bucket ([FS.SetProperties]).
	props map[string]map[string]string
	local storage.OSFS
	// timeouts bound each request ([FS.SetTimeouts]).
	timeouts Timeouts
	// log receives what the SDKs log ([FS.SetLogger]).
	log *slog.Logger
}

// New returns an FS that opens buckets by URL with the drivers linked
// into the build ([Drivers]); the SDKs' own logging is discarded unless
// [FS.SetLogger] routes it somewhere.
func New() *FS {
	return &FS{buckets: map[string]bucket{}, query: map[string]string{}, opened: map[string]bool{}}
}

// StripQuery removes the driver query from a location URL
// ("s3://b/t?region=x" → "s3://b/t") and remembers it for every later path
// of that bucket, so paths joined to the location stay valid. Other paths
// are returned unchanged.
func (f *FS) StripQuery(p string) string {
	prefix, key, query, ok := split(p)
	if !ok || query == "" {
		return p
	}
	f.mu.Lock()
	f.query[prefix] = query
	f.mu.Unlock()
	if key == "" {
		return prefix
	}
	return prefix + "/" + key
}

// Close closes the buckets the FS opened.
func (f *FS) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	var first error
	for k, b := range f.buckets {
		if f.opened[k] {
			if err := b.close(); err != nil && first == nil {
				first = err
			}
		}
	}
	f.buckets, f.opened = map[string]bucket{}, map[string]bool{}
	return first
}

// IsURL reports whether p is an object-store URL this package handles
// (scheme s3, gs, azblob or file).
func IsURL(p string) bool {
	for _, s := range []string{"s3://", "gs://", "azblob://", "file://"} {
		if strings.HasPrefix(p, s) {
			return true
		}
	}
	return false
}

// split parses "scheme://bucket/key?query" into the bucket prefix, the key
// and the query. It returns ok=false for a local path.
func split(p string) (prefix, key, query string, ok bool) {
	i := strings.Index(p, "://")
	if i <= 0 || strings.ContainsAny(p[:i], "/.") {
		return "", "", "", false
	}
	rest := p[i+3:]
	if q := strings.IndexByte(rest, '?'); q >= 0 {
		rest, query = rest[:q], rest[q+1:]
	}
	bucket, key, _ := strings.Cut(rest, "/")
	return p[:i+3] + bucket, key, query, true
}

func (f *FS) bucket(ctx context.Context, prefix, query string) (bucket, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if b, ok := f.buckets[prefix]; ok {
		return b, nil
	}
	if query == "" {
		query = f.query[prefix]
	} else {
		f.query[prefix] = query
	}
	b, err := f.open(ctx, prefix, query)
	if err != nil {
		return nil, fmt.Errorf("blob: open bucket %s: %w", prefix, err)
	}
	f.buckets[prefix], f.opened[prefix] = b, true
	return b, nil
}

// localPath returns the local path of p when p is a local path or a
// file:// URL (whose query, if any, is dropped: a local file has no
// driver options).
func localPath(p string) (string, bool) {
	if strings.HasPrefix(p, "file://") {
		p = p[len("file://"):]
		if i := strings.IndexByte(p, '?'); i >= 0 {
			p = p[:i]
		}
		return p, true
	}
	if _, _, _, ok := split(p); ok {
		return "", false
	}
	return p, true
}

// Open implements [storage.FS]: the object's size comes from its attributes;
// reads are ranged. A missing object yields an error matching
// fs.ErrNotExist.
func (f *FS) Open(ctx context.Context, p string) (storage.File, error) {
	if lp, ok := localPath(p); ok {
		return f.local.Open(ctx, lp)
	}
	prefix, key, query, _ := split(p)
	b, err := f.bucket(ctx, prefix, query)
	if err != nil {
		return nil, err
	}
	t := f.requestTimeouts()
	req := newRequest(ctx, t)
	size, err := b.attributes(req.ctx, key)
	req.done()
	if err != nil {
		if terr := req.err(ctx, p, "attributes", err); terr != err {
			return nil, terr
		}
		return nil, wrap(p, err)
	}
	return &file{ctx: ctx, b: b, key: key, size: size, name: p, timeouts: t}, nil
}

// List implements [storage.FS]: the names directly under dir (objects and
// common prefixes), sorted. A prefix with no objects yields an error
// matching fs.ErrNotExist.
func (f *FS) List(ctx context.Context, dir string) ([]string, error) {
	if lp, ok := localPath(dir); ok {
		return f.local.List(ctx, lp)
	}
	prefix, key, query, _ := split(dir)
	b, err := f.bucket(ctx, prefix, query)
	if err != nil {
		return nil, err
	}
	pfx := strings.TrimSuffix(key, "/")
	if pfx != "" {
		pfx += "/"
	}
	var names []string
	t := f.requestTimeouts()
	token := ""
	for {
		req := newRequest(ctx, t)
		page, next, err := b.listPage(req.ctx, pfx, token)
		req.done()
		if err != nil {
			if terr := req.err(ctx, dir, "list", err); terr != err {
				return nil, terr
			}
			return nil, wrap(dir, err)
		}
		for _, k := range page {
			if n := strings.TrimSuffix(strings.TrimPrefix(k, pfx), "/"); n != "" {
				names = append(names, n)
			}
		}
		if next == "" {
			break
		}
		token = next
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("blob: %s: %w", dir, fs.ErrNotExist)
	}
	sort.Strings(names)
	return names, nil
}

// wrap names p in a driver's error, which matches fs.ErrNotExist,
// fs.ErrPermission or fs.ErrExist where the store said so.
func wrap(p string, err error) error {
	return fmt.Errorf("blob: %s: %w", p, err)
}

// file is an object opened for ranged reads.
type file struct {
	ctx  context.Context
	b    bucket
	key  string
	size int64
	name string
	// timeouts bound each ranged GET.
	timeouts Timeouts
}

func (f *file) Size() int64  { return f.size }
func (f *file) Close() error { return nil }

// ReadAt reads len(p) bytes at off with one ranged GET; fewer bytes at the
// end of the object return io.EOF.
func (f *file) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("blob: negative offset")
	}
	if off >= f.size {
		if len(p) == 0 {
			return 0, nil
		}
		return 0, io.EOF
	}
	n := int64(len(p))
	if off+n > f.size {
		n = f.size - off
	}
	if n == 0 {
		return 0, nil
	}
	// The request's context bounds the whole GET and is canceled when its
	// body stops sending for the idle timeout.
	req := newRequest(f.ctx, f.timeouts)
	defer req.done()
	r, err := f.b.newRangeReader(req.ctx, f.key, off, n)
	if err != nil {
		if terr := req.err(f.ctx, f.name, "read", err); terr != err {
			return 0, terr
		}
		return 0, wrap(f.name, err)
	}
	defer r.Close()
	req.progress()
	got, err := req.readFull(r, p[:n])
	if err != nil {
		if terr := req.err(f.ctx, f.name, fmt.Sprintf("read %d bytes at %d", n, off), err); terr != err {
			return got, terr
		}
		return got, fmt.Errorf("blob: %s: read %d bytes at %d: %w", f.name, n, off, err)
	}
	if int(n) < len(p) {
		return got, io.EOF
	}
	return got, nil
}

// CreateNoReplace implements [storage.WriteFS] with a conditional write
// (If-None-Match: * on S3 and Azure, ifGenerationMatch=0 on GCS): an
// existing object makes it fail with an error matching fs.ErrExist. A
// local path goes to [storage.OSFS].
func (f *FS) CreateNoReplace(ctx context.Context, p string, data []byte) error {
	if lp, ok := localPath(p); ok {
		return f.local.CreateNoReplace(ctx, lp, data)
	}
	return f.write(ctx, p, data, true)
}

// Replace implements [storage.WriteFS]: an object-store write replaces the
// object atomically.
func (f *FS) Replace(ctx context.Context, p string, data []byte) error {
	if lp, ok := localPath(p); ok {
		return f.local.Replace(ctx, lp, data)
	}
	return f.write(ctx, p, data, false)
}

// Remove implements [storage.WriteFS].
func (f *FS) Remove(ctx context.Context, p string) error {
	if lp, ok := localPath(p); ok {
		return f.local.Remove(ctx, lp)
	}
	prefix, key, query, _ := split(p)
	b, err := f.bucket(ctx, prefix, query)
	if err != nil {
		return err
	}
	if err := b.remove(ctx, key); err != nil {
		return wrap(p, err)
	}
	return nil
}

func (f *FS) write(ctx context.Context, p string, data []byte, ifNotExist bool) error {
	prefix, key, query, ok := split(p)
	if !ok {
		return fmt.Errorf("blob: %s: not an object-store URL", p)
	}
	b, err := f.bucket(ctx, prefix, query)
	if err != nil {
		return err
	}
	if err := b.write(ctx, key, data, ifNotExist); err != nil {
		return wrap(p, err)
	}
	return nil
}

// WriteAll writes data to the object at the URL p, replacing it (a helper
// for tests and tools that stage a table in a bucket).
func (f *FS) WriteAll(ctx context.Context, p string, data []byte) error {
	return f.write(ctx, p, data, false)
}

var _ storage.WriteFS = (*FS)(nil)
