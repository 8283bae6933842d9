package iceberg

import (
	"context"
	"crypto/sha1"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/storage"
)

// ErrNotCommittable is matched by the error of [Table.CommitMetadata] for a
// table opened from a metadata file whose name holds no version
// ("vfinal.metadata.json"): the next version has no name.
var ErrNotCommittable = lakecat.NewSentinel(lakecat.ErrUnsupported, "iceberg: table opened from an unversioned metadata file cannot be committed to")

// defaultPreviousVersionsMax is Iceberg's default for the table property
// write.metadata.previous-versions-max: metadata-log entries kept.
const defaultPreviousVersionsMax = 100

// NextMetadataPath returns the path of the metadata file of the table's
// next version, in the naming style of the current one: v<N+1>.metadata.json
// for a Hadoop table, else <N+1>-<uuid>.metadata.json (5 digits at least)
// with a uuid derived from the table uuid and the version (a name-based
// UUID), so that two writers racing for one version pick the same name and
// the no-replace create lets only one of them win.
func (t *Table) NextMetadataPath() (string, error) {
	if t.Version < 0 {
		return "", fmt.Errorf("%w: %s", ErrNotCommittable, t.MetadataPath)
	}
	dir := storage.ParentDir(t.MetadataPath)
	v := t.Version + 1
	if strings.HasPrefix(storage.BaseName(t.MetadataPath), "v") {
		return storage.JoinPath(dir, fmt.Sprintf("v%d.metadata.json", v)), nil
	}
	h := sha1.Sum([]byte("lakecat-metadata:" + t.Metadata.TableUUID + ":" + strconv.FormatInt(v, 10)))
	h[6] = h[6]&0x0f | 0x50 // version 5
	h[8] = h[8]&0x3f | 0x80 // RFC 4122 variant
	return storage.JoinPath(dir, fmt.Sprintf("%05d-%x-%x-%x-%x-%x.metadata.json", v, h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])), nil
}

// CommitMetadata writes m as the table's next metadata file
// ([Table.NextMetadataPath]), atomically and never over an existing file,
// and returns its path. Before writing it sets last-updated-ms to now
// (never earlier than the current file's) and appends the current file to
// metadata-log, keeping at most write.metadata.previous-versions-max
// entries (default 100). For a Hadoop table (vN names) it then points
// metadata/version-hint.text at the new version; a failure there is not an
// error, since [FindMetadata] advances past a stale hint.
//
// When another writer committed the same version first, the error matches
// fs.ErrExist: load the table again and retry. t is not modified; the
// commit is written uncompressed whatever the current file was.
func (t *Table) CommitMetadata(ctx context.Context, fsys storage.WriteFS, m *Metadata, now time.Time) (string, error) {
	next, err := t.NextMetadataPath()
	if err != nil {
		return "", err
	}
	out := *m
	out.LastUpdatedMs = max(now.UnixMilli(), t.Metadata.LastUpdatedMs)
	prev := "metadata/" + storage.BaseName(t.MetadataPath)
	if loc := t.Metadata.Location; loc != "" {
		prev = strings.TrimSuffix(loc, "/") + "/" + prev
	}
	keep := defaultPreviousVersionsMax
	if v, err := strconv.Atoi(out.Properties["write.metadata.previous-versions-max"]); err == nil && v >= 0 {
		keep = v
	}
	log := append(slices.Clip(t.Metadata.MetadataLog), MetadataLogEntry{TimestampMs: t.Metadata.LastUpdatedMs, MetadataFile: prev})
	if len(log) > keep {
		log = log[len(log)-keep:]
	}
	out.MetadataLog = log
	data, err := MarshalMetadata(&out)
	if err != nil {
		return "", err
	}
	if err := fsys.CreateNoReplace(ctx, next, data); err != nil {
		return "", err
	}
	if strings.HasPrefix(storage.BaseName(next), "v") {
		hint := storage.JoinPath(storage.ParentDir(next), "version-hint.text")
		_ = fsys.Replace(ctx, hint, []byte(strconv.FormatInt(t.Version+1, 10)))
	}
	return next, nil
}
