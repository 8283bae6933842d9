//go:build !lakecat_local

package main

import (
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
// retried like a dropped connection.
func objectStore(url string) (storage.FS, string, error) {
	if !knownScheme(url) {
		return nil, "", unsupportedScheme(url)
	}
	timeouts, err := envTimeouts()
	if err != nil {
		return nil, "", err
	}
	bfs := blob.New()
	bfs.SetTimeouts(timeouts)
	return storage.RetryFS(bfs, storage.RetryPolicy{}), bfs.StripQuery(url), nil
}
