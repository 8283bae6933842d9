//go:build !lakecat_local

package main

import (
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/storage/blob"
)

// objectStore returns the storage of an object-store URL (s3://, gs://,
// azblob://, file://) and the URL without its driver query
// (?region=…&endpoint=…), which the storage keeps.
func objectStore(url string) (storage.FS, string, error) {
	if !knownScheme(url) {
		return nil, "", unsupportedScheme(url)
	}
	bfs := blob.New()
	return bfs, bfs.StripQuery(url), nil
}
