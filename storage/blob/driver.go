package blob

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"net/url"
	"sort"
	"strings"

	"github.com/lakecat/lakecat"
)

// bucket is what an FS needs of one bucket (or Azure container) of an
// object store. Keys have no leading slash. Errors match fs.ErrNotExist for
// a missing object or bucket, fs.ErrPermission for refused credentials and
// fs.ErrExist for a conditional write that lost (a [*StatusError] does).
type bucket interface {
	// attributes returns the size in bytes of the object key.
	attributes(ctx context.Context, key string) (int64, error)
	// newRangeReader opens n bytes of the object key from off; n > 0 and
	// off+n is within the object.
	newRangeReader(ctx context.Context, key string, off, n int64) (io.ReadCloser, error)
	// listPage returns one page of the objects and common prefixes (ending
	// in "/") directly under prefix, with "/" as the delimiter, from the
	// page token ("" for the first), and the next page's token ("" after
	// the last).
	listPage(ctx context.Context, prefix, token string) (names []string, next string, err error)
	// write stores data as the object key, replacing it unless ifNotExist.
	write(ctx context.Context, key string, data []byte, ifNotExist bool) error
	// remove deletes the object key.
	remove(ctx context.Context, key string) error
	close() error
}

// driver opens the bucket named name of one URL scheme with the URL's
// query parameters (driver options) and the storage properties set for it
// ([FS.SetProperties]), logging to log.
type driver func(ctx context.Context, name string, q url.Values, props map[string]string, log *slog.Logger) (bucket, error)

// drivers are the object-store drivers linked into this build, by URL
// scheme; each driver_*.go file adds its own (build tags leave some out).
var drivers = map[string]driver{}

// open opens the bucket of prefix ("s3://name") with its driver query.
func (f *FS) open(ctx context.Context, prefix, query string) (bucket, error) {
	scheme, name, _ := strings.Cut(prefix, "://")
	d := drivers[scheme]
	if d == nil {
		return nil, fmt.Errorf("%w: no driver for %s:// in this build (drivers: %s)", ErrNoDriver, scheme, strings.Join(Drivers(), ", "))
	}
	q, err := url.ParseQuery(query)
	if err != nil {
		return nil, fmt.Errorf("%w: query of %s: %v", ErrDriverOption, prefix, err)
	}
	if f.log == nil {
		f.log = discard
	}
	return d(ctx, name, q, f.props[prefix], f.log)
}

// SetProperties gives the buckets under prefix ("s3://bucket"; a longer
// prefix stands for its bucket) storage properties in the Iceberg
// FileIO form, as an Iceberg REST catalog vends them with a table (its
// LoadTableResult's config and storage-credentials), for buckets opened
// from now on:
//
//   - s3: s3.access-key-id, s3.secret-access-key and s3.session-token
//     (static credentials, in place of the SDK's chain), s3.endpoint,
//     s3.region (or client.region), s3.path-style-access.
//   - gs: gcs.oauth2.token (a bearer token, in place of Application
//     Default Credentials), gcs.service.host (the API's base URL).
//
// Other properties are ignored. The values are kept only in the FS: no
// error or log line prints them. URL query parameters given for the same
// bucket take precedence.
func (f *FS) SetProperties(prefix string, props map[string]string) {
	p, _, _, ok := split(prefix)
	if !ok {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.props == nil {
		f.props = map[string]map[string]string{}
	}
	f.props[p] = maps.Clone(props)
}

// ErrNoDriver is returned for a URL scheme this build has no driver for.
var ErrNoDriver = lakecat.NewSentinel(lakecat.ErrUnsupported, "blob: no object-store driver")

// ErrDriverOption is returned for a driver query parameter that is unknown
// or has a bad value.
var ErrDriverOption = lakecat.NewSentinel(lakecat.ErrInvalidArgument, "blob: bad driver option")

// options reads a URL query's driver options: each key of known is taken
// (its value given to the function) and removed; a key left over is
// [ErrDriverOption].
func options(q url.Values, known map[string]func(string) error) error {
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		set, ok := known[k]
		if !ok {
			return fmt.Errorf("%w: unknown query parameter %q", ErrDriverOption, k)
		}
		if err := set(q.Get(k)); err != nil {
			return fmt.Errorf("%w: %s=%q: %v", ErrDriverOption, k, q.Get(k), err)
		}
	}
	return nil
}

// StatusError is a request an object store refused: its HTTP status, the
// store's error code and message. It matches fs.ErrNotExist and
// lakecat.ErrNotFound (404),
// fs.ErrPermission and lakecat.ErrPermission (401, 403) and fs.ErrExist (a
// precondition that failed: 409, 412). storage.IsTransient retries it for
// 429 and 5xx (its HTTPStatusCode method).
type StatusError struct {
	Op     string // "GET", "PUT", …
	Status int
	Code   string // the store's error code, if it sent one
	Msg    string
}

func (e *StatusError) Error() string {
	s := fmt.Sprintf("%s: HTTP %d", e.Op, e.Status)
	if e.Code != "" {
		s += " " + e.Code
	}
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	return s
}

// HTTPStatusCode returns the status, as the AWS SDK's errors do.
func (e *StatusError) HTTPStatusCode() int { return e.Status }

// Is reports whether e is of the class target names.
func (e *StatusError) Is(target error) bool {
	switch e.Status {
	case 404:
		return target == fs.ErrNotExist || target == lakecat.ErrNotFound
	case 401, 403:
		return target == fs.ErrPermission || target == lakecat.ErrPermission
	case 409, 412:
		return target == fs.ErrExist
	}
	return false
}

// Drivers returns the URL schemes of the object-store drivers linked into
// this build ("azblob", "gs", "s3"), sorted.
func Drivers() []string {
	names := make([]string, 0, len(drivers))
	for s := range drivers {
		names = append(names, s)
	}
	sort.Strings(names)
	return names
}
