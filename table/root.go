package table

import (
	"strings"

	"github.com/lakecat/lakecat/storage"
)

// Root returns the folder (or URL prefix) of the table at location:
// location itself, or for an Iceberg metadata file named directly its
// folder, and the parent of that folder when it is "metadata" (as
// iceberg.FindMetadata roots it); a location inside its metadata folder is
// rooted at the table folder too. It is the root that the readers and the
// schema commits of a table are confined to (storage.Confine).
func Root(location string) string {
	root := strings.TrimSuffix(location, "/")
	if strings.HasSuffix(root, ".metadata.json") || strings.HasSuffix(root, ".metadata.json.gz") {
		root = storage.ParentDir(root)
	}
	if storage.BaseName(root) == "metadata" {
		root = storage.ParentDir(root)
	}
	return root
}
