package paimon

import "github.com/lakecat/lakecat"

// init files the package's sentinel errors under the error classes of the
// root package (see its documentation), so that errors.Is(err,
// lakecat.ErrCorrupt) and the others hold for them. Each keeps its own
// identity under errors.Is too. (Kept apart from the declarations so that it
// did not touch files being edited concurrently; fold into the declarations
// with [lakecat.NewSentinel] when convenient.)
func init() {
	ErrInvalidSnapshot = lakecat.Classify(lakecat.ErrCorrupt, ErrInvalidSnapshot)
	ErrNoSnapshot = lakecat.Classify(lakecat.ErrNotFound, ErrNoSnapshot)
	ErrPrimaryKeyTable = lakecat.Classify(lakecat.ErrUnsupported, ErrPrimaryKeyTable)
	ErrDeletionVectors = lakecat.Classify(lakecat.ErrUnsupported, ErrDeletionVectors)
	ErrUnsupportedPartition = lakecat.Classify(lakecat.ErrUnsupported, ErrUnsupportedPartition)
	ErrCorruptManifest = lakecat.Classify(lakecat.ErrCorrupt, ErrCorruptManifest)
}
