package reader

import (
	"testing"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/table/hudi"
	"github.com/lakecat/lakecat/table/iceberg"
	"github.com/lakecat/lakecat/table/paimon"
)

// TestTableSentinelClasses pins the table readers' rows of the root
// package's error table.
func TestTableSentinelClasses(t *testing.T) {
	cases := []struct {
		err   error
		class error
		text  string
	}{
		{iceberg.ErrNoMetadata, lakecat.ErrNotFound, "iceberg: no table metadata found"},
		{iceberg.ErrSnapshotNotFound, lakecat.ErrNotFound, "iceberg: snapshot not found"},
		{iceberg.ErrDeleteFiles, lakecat.ErrUnsupported, "iceberg: snapshot has delete files"},
		{iceberg.ErrCorruptManifest, lakecat.ErrCorrupt, "iceberg: corrupt manifest"},
		{paimon.ErrInvalidSnapshot, lakecat.ErrCorrupt, "paimon: invalid snapshot"},
		{paimon.ErrNoSnapshot, lakecat.ErrNotFound, "paimon: snapshot not found"},
		{paimon.ErrPrimaryKeyTable, lakecat.ErrUnsupported, "paimon: primary-key table"},
		{paimon.ErrDeletionVectors, lakecat.ErrUnsupported, "paimon: table has deletion vectors"},
		{paimon.ErrUnsupportedPartition, lakecat.ErrUnsupported, "paimon: unsupported partition type"},
		{paimon.ErrCorruptManifest, lakecat.ErrCorrupt, "paimon: corrupt manifest"},
		{hudi.ErrMergeOnRead, lakecat.ErrUnsupported, "hudi: merge-on-read log files"},
		{hudi.ErrNoCommits, lakecat.ErrNotFound, "hudi: no completed commit"},
		{hudi.ErrUnsupportedSchema, lakecat.ErrUnsupported, "hudi: unsupported schema"},
		{hudi.ErrNotHudi, lakecat.ErrNotFound, "hudi: not a Hudi table"},
		{hudi.ErrCorruptTimeline, lakecat.ErrCorrupt, "hudi: corrupt timeline"},
	}
	for _, c := range cases {
		if got := lakecat.ClassOf(c.err); got != c.class {
			t.Errorf("%q: class %v, want %v", c.err, got, c.class)
		}
		if c.err.Error() != c.text {
			t.Errorf("text %q, want %q", c.err, c.text)
		}
	}
}
