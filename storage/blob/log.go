package blob

import (
	"context"
	"log/slog"
	"net/url"
	"sort"

	gcblob "gocloud.dev/blob"
)

// The cloud SDKs under the drivers log on their own: the AWS SDK writes a
// line for every GET whose response has no checksum it can validate (an
// S3-compatible store's ranged reads) to stderr, and gocloud's GCS driver
// prints a warning to stdout when it finds no Application Default
// Credentials. An [FS] opens its buckets through its own URL mux, whose
// openers hand each SDK the FS's logger instead ([FS.SetLogger]; by default
// it discards), so nothing an SDK says reaches stdout or stderr unless the
// caller routes it there.

// driver makes the bucket opener of one URL scheme, logging to log.
type driver func(log *slog.Logger) gcblob.BucketURLOpener

// drivers are the object-store drivers linked into this build, by URL
// scheme; each driver_*.go file adds its own (build tags leave some out).
var drivers = map[string]driver{}

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

// discard is the logger of an FS whose caller set none.
var discard = slog.New(slog.DiscardHandler)

// SetLogger makes the SDKs of the buckets the FS opens from now on log to
// l (nil: discard, the default): SDK warnings at slog.LevelWarn, their
// debug lines at slog.LevelDebug.
func (f *FS) SetLogger(l *slog.Logger) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if l == nil {
		l = discard
	}
	f.log, f.mux = l, nil
}

// urlMux returns the FS's URL mux, made on first use; f.mu is held.
func (f *FS) urlMux() *gcblob.URLMux {
	if f.mux != nil {
		return f.mux
	}
	if f.log == nil {
		f.log = discard
	}
	m := new(gcblob.URLMux)
	for scheme, d := range drivers {
		m.RegisterBucket(scheme, d(f.log))
	}
	// file:// (with query parameters) from gocloud's own opener, which
	// logs nothing.
	m.RegisterBucket("file", fileOpener{})
	f.mux = m
	return m
}

// fileOpener opens file:// URLs through gocloud's default mux.
type fileOpener struct{}

func (fileOpener) OpenBucketURL(ctx context.Context, u *url.URL) (*gcblob.Bucket, error) {
	return gcblob.DefaultURLMux().OpenBucketURL(ctx, u)
}
