//go:build !lakecat_local

package main

import (
	"log/slog"

	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/storage/blob"
)

// objectStore returns the storage of an object-store URL (s3://, gs://,
// azblob://, file://) and the URL without its driver query
// (?region=…&endpoint=…), which the storage keeps. Reads are retried on
// transient errors (storage.RetryFS with its default policy: 4 tries,
// backoff from 50 ms), so one dropped connection does not fail a command;
// commits are not retried (a retried create could report its own success
// as a lost race). Each request is bounded by the timeouts of envTimeouts
// (LAKECAT_REQUEST_TIMEOUT, LAKECAT_IDLE_TIMEOUT); a timed-out read is
// retried like a dropped connection. Each file's ranged reads are coalesced
// (storage.CoalesceFS with its defaults: files up to 8 MiB read whole,
// 64 KiB tail for footers, 1 MiB gap threshold). What the cloud SDKs log
// goes to log (the --verbose logger; nil discards it).
func objectStore(url string, log *slog.Logger) (storage.FS, string, error) {
	return objectStoreVended(url, log, nil)
}

// objectStoreVended is objectStore with storage properties a catalog
// vended, by location prefix (blob.FS.SetProperties).
func objectStoreVended(url string, log *slog.Logger, vended []vendedProps) (storage.FS, string, error) {
	if !knownScheme(url) {
		return nil, "", unsupportedScheme(url)
	}
	timeouts, err := envTimeouts()
	if err != nil {
		return nil, "", err
	}
	bfs := blob.New()
	bfs.SetTimeouts(timeouts)
	bfs.SetLogger(log)
	for _, v := range vended {
		bfs.SetProperties(v.prefix, v.props)
	}
	return storage.CoalesceFS(storage.RetryFS(bfs, storage.RetryPolicy{}), storage.CoalesceOptions{}), bfs.StripQuery(url), nil
}

// storeDrivers returns the object-store URL schemes this build reads.
func storeDrivers() []string { return blob.Drivers() }
