//go:build !lakecat_local

package main

import (
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/reader/blobfs"
)

// objectStore returns the storage of an object-store URL (s3://, gs://,
// azblob://, file://) and the URL without its driver query
// (?region=…&endpoint=…), which the storage keeps.
func objectStore(url string) (reader.FS, string, error) {
	if !knownScheme(url) {
		return nil, "", unsupportedScheme(url)
	}
	bfs := blobfs.New()
	return bfs, bfs.StripQuery(url), nil
}
