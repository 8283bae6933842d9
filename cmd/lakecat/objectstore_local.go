//go:build lakecat_local

package main

import (
	"fmt"
	"log/slog"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/storage"
)

// objectStore refuses every URL: a build with -tags lakecat_local (the
// quick start's) links no object-store drivers and none of their SDKs.
func objectStore(url string, log *slog.Logger) (storage.FS, string, error) {
	return objectStoreVended(url, log, nil)
}

// objectStoreVended refuses every URL, as objectStore does.
func objectStoreVended(url string, _ *slog.Logger, _ []vendedProps) (storage.FS, string, error) {
	if !knownScheme(url) {
		return nil, "", unsupportedScheme(url)
	}
	return nil, "", fmt.Errorf("%s: %w", url, errLocalBuild)
}

var errLocalBuild = lakecat.NewSentinel(lakecat.ErrUnsupported,
	"this lakecat was built with -tags lakecat_local, which reads only local paths; build without it for s3://, gs://, azblob:// and file:// URLs")

// storeDrivers returns nil: this build links no object-store drivers.
func storeDrivers() []string { return nil }
