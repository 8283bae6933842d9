package evolve

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lakecat/lakecat/schema"
)

// ErrNoMetadata: a table directory holds no metadata file this package
// recognizes.
var ErrNoMetadata = errors.New("evolve: no table metadata found")

// IcebergTable is a filesystem Iceberg table (a Hadoop-style table: no
// catalog, the metadata directory is the source of truth) as loaded by
// [LoadIcebergTable].
type IcebergTable struct {
	// Dir is the table directory (holding "metadata/").
	Dir string
	// MetadataFile is the current metadata file's name inside Dir/metadata.
	MetadataFile string
	// Version is its version number (N of vN.metadata.json or of
	// NNNNN-uuid.metadata.json).
	Version int
	// Metadata is its decoded content.
	Metadata *schema.TableMetadata
}

var (
	hadoopName = regexp.MustCompile(`^v([0-9]+)(\.gz)?\.metadata\.json$`)
	uuidName   = regexp.MustCompile(`^([0-9]+)-[^/]+\.metadata\.json$`)
)

// metadataVersion returns the version number of a metadata file name and
// whether the name is Hadoop style (vN.metadata.json).
func metadataVersion(name string) (int, bool, bool) {
	if m := hadoopName.FindStringSubmatch(name); m != nil {
		v, err := strconv.Atoi(m[1])
		return v, true, err == nil
	}
	if m := uuidName.FindStringSubmatch(name); m != nil {
		v, err := strconv.Atoi(m[1])
		return v, false, err == nil
	}
	return 0, false, false
}

// maxMetadataBytes caps the uncompressed size of a gzip-compressed metadata
// file (a guard against a compression bomb): the one cap on table metadata.
const maxMetadataBytes = schema.MaxTableMetadataBytes

// LoadIcebergTable finds and decodes the current metadata file of the
// filesystem Iceberg table in dir: the highest version among
// metadata/vN.metadata.json (Hadoop tables) and
// metadata/NNNNN-<uuid>.metadata.json (files written by catalogs), either
// possibly gzip-compressed (".gz.metadata.json"). The next version is always
// written uncompressed.
// metadata/version-hint.text is only a hint (Iceberg table spec, "File System
// Tables") and is not trusted over the directory listing. Errors:
// [ErrNoMetadata], or the file system's and the decoder's.
func LoadIcebergTable(fsys FS, dir string) (*IcebergTable, error) {
	mdir := filepath.Join(dir, "metadata")
	names, err := fsys.ReadDir(mdir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w in %s", ErrNoMetadata, dir)
		}
		return nil, err
	}
	best, bestV := "", -1
	for _, n := range names {
		if v, _, ok := metadataVersion(n); ok && (v > bestV || v == bestV && n < best) {
			best, bestV = n, v
		}
	}
	if best == "" {
		return nil, fmt.Errorf("%w in %s", ErrNoMetadata, mdir)
	}
	data, err := fsys.ReadFile(filepath.Join(mdir, best))
	if err != nil {
		return nil, err
	}
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b { // gzip ("….gz.metadata.json")
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("evolve: %s: %w", best, err)
		}
		data, err = io.ReadAll(io.LimitReader(zr, maxMetadataBytes+1))
		if err == nil && len(data) > maxMetadataBytes {
			err = fmt.Errorf("more than %d bytes uncompressed", maxMetadataBytes)
		}
		if err != nil {
			return nil, fmt.Errorf("evolve: %s: %w", best, err)
		}
	}
	m, err := schema.ParseTableMetadata(data)
	if err != nil {
		return nil, fmt.Errorf("evolve: %s: %w", best, err)
	}
	return &IcebergTable{Dir: dir, MetadataFile: best, Version: bestV, Metadata: m}, nil
}

// nextMetadataFile names the metadata file of the next version. For a
// NNNNN-uuid table the uuid part is derived from the table uuid and the
// version (a name-based UUID), so that two writers racing for one version
// pick the same name and the no-replace link lets only one of them win.
func (t *IcebergTable) nextMetadataFile() string {
	v := t.Version + 1
	if _, hadoop, _ := metadataVersion(t.MetadataFile); hadoop {
		return fmt.Sprintf("v%d.metadata.json", v)
	}
	h := sha1.Sum([]byte("lakecat-metadata:" + t.Metadata.TableUUID + ":" + strconv.Itoa(v)))
	h[6] = h[6]&0x0f | 0x50 // version 5
	h[8] = h[8]&0x3f | 0x80 // RFC 4122 variant
	return fmt.Sprintf("%05d-%x-%x-%x-%x-%x.metadata.json", v, h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// defaultPreviousVersionsMax is Iceberg's default for the table property
// write.metadata.previous-versions-max: metadata-log entries kept.
const defaultPreviousVersionsMax = 100

// CommitMetadata writes m as the table's next metadata file, atomically and
// never over an existing file, and returns the new file's name. Before
// writing it sets last-updated-ms to now (never earlier than the current
// file's) and appends the current file to metadata-log (keeping at most
// write.metadata.previous-versions-max entries, default 100). For a Hadoop
// table it then points metadata/version-hint.text at the new version (a
// failure there is not an error: the hint is only a hint).
//
// A writer that committed the same version first makes it return a
// [*ConflictError] (matching [ErrCommitConflict]); load the table again and
// retry. t is not modified.
func (t *IcebergTable) CommitMetadata(fsys FS, m *schema.TableMetadata, now time.Time) (string, error) {
	out := *m
	out.LastUpdatedMs = max(now.UnixMilli(), t.Metadata.LastUpdatedMs)
	loc := t.Metadata.Location
	prev := "metadata/" + t.MetadataFile
	if loc != "" {
		prev = strings.TrimSuffix(loc, "/") + "/" + prev
	}
	keep := defaultPreviousVersionsMax
	if v, err := strconv.Atoi(out.Properties["write.metadata.previous-versions-max"]); err == nil && v >= 0 {
		keep = v
	}
	log := append(slices.Clip(t.Metadata.MetadataLog), schema.MetadataLogEntry{TimestampMs: t.Metadata.LastUpdatedMs, MetadataFile: prev})
	if len(log) > keep {
		log = log[len(log)-keep:]
	}
	out.MetadataLog = log
	data, err := schema.MarshalTableMetadata(&out)
	if err != nil {
		return "", err
	}
	mdir := filepath.Join(t.Dir, "metadata")
	name := t.nextMetadataFile()
	if err := publish(fsys, filepath.Join(mdir, name), data); err != nil {
		return "", err
	}
	if _, hadoop, _ := metadataVersion(name); hadoop {
		if tmp, err := fsys.WriteTemp(mdir, []byte(strconv.Itoa(t.Version+1))); err == nil {
			if fsys.Rename(tmp, filepath.Join(mdir, "version-hint.text")) != nil {
				fsys.Remove(tmp)
			}
		}
	}
	return name, nil
}

// Committer commits schema updates to filesystem tables, retrying a commit
// that loses a race by applying the same changes to the schema that won.
// The zero value uses the operating system's file system, 10 attempts and
// the wall clock.
type Committer struct {
	// FS is the file system; nil means [OSFS].
	FS FS
	// MaxAttempts bounds the attempts of one commit; 0 means 10.
	MaxAttempts int
	// Now returns the commit time; nil means time.Now.
	Now func() time.Time
}

func (c *Committer) fs() FS {
	if c.FS == nil {
		return OSFS{}
	}
	return c.FS
}

func (c *Committer) now() time.Time {
	if c.Now == nil {
		return time.Now()
	}
	return c.Now()
}

func (c *Committer) attempts() int {
	if c.MaxAttempts <= 0 {
		return 10
	}
	return c.MaxAttempts
}

// backoff waits before attempt n+1 (n ≥ 1): 5 ms · n, or until ctx ends.
func backoff(ctx context.Context, n int) error {
	t := time.NewTimer(time.Duration(n) * 5 * time.Millisecond)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Result describes a finished commit.
type Result struct {
	// Old is the schema the changes were applied to (the current schema at
	// the successful attempt); New the resulting schema, with its schema id.
	Old, New *schema.Schema
	// LastColumnID is the table's last-column-id (Paimon: highestFieldId)
	// after the commit.
	LastColumnID int
	// Changed reports whether anything was written.
	Changed bool
	// File is the path of the file written, empty when nothing changed.
	File string
	// Attempts is the number of attempts made (1 without a conflict).
	Attempts int
}

// CommitIceberg applies update to the filesystem Iceberg table in dir and
// writes the next metadata file ([PrepareSchemaUpdate],
// [IcebergTable.CommitMetadata]). When another writer commits first, it
// loads the new current metadata and applies the same changes again, up to
// MaxAttempts times; then it returns the last [*ConflictError]. A change that
// no longer applies to the winner's schema (say, both added the same name)
// is returned as the [UpdateSchema.Apply] error, without retrying.
func (c *Committer) CommitIceberg(ctx context.Context, dir string, update *UpdateSchema) (Result, error) {
	fsys := c.fs()
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return Result{Attempts: n - 1}, err
		}
		t, err := LoadIcebergTable(fsys, dir)
		if err != nil {
			return Result{Attempts: n}, err
		}
		sc, err := PrepareSchemaUpdate(t.Metadata, update)
		if err != nil {
			return Result{Attempts: n}, err
		}
		res := Result{Old: t.Metadata.CurrentSchema(), New: sc.Schema, LastColumnID: sc.Metadata.LastColumnID,
			Changed: sc.Changed, Attempts: n}
		if !sc.Changed {
			return res, nil
		}
		name, err := t.CommitMetadata(fsys, sc.Metadata, c.now())
		if err == nil {
			res.File = filepath.Join(dir, "metadata", name)
			return res, nil
		}
		if !errors.Is(err, ErrCommitConflict) || n >= c.attempts() {
			return res, err
		}
		if err := backoff(ctx, n); err != nil {
			return Result{Attempts: n}, err
		}
	}
}

// Commit applies update to the filesystem table in dir — an Iceberg table
// (a "metadata" directory) or a Paimon table (a "schema" directory) — on the
// operating system's file system, retrying lost races ([Committer]).
func Commit(ctx context.Context, dir string, update *UpdateSchema) (Result, error) {
	var c Committer
	if _, err := (OSFS{}).ReadDir(filepath.Join(dir, "metadata")); err == nil {
		return c.CommitIceberg(ctx, dir, update)
	}
	if _, err := (OSFS{}).ReadDir(filepath.Join(dir, "schema")); err == nil {
		return c.CommitPaimon(ctx, dir, update)
	}
	return Result{}, fmt.Errorf("%w in %s (neither metadata/ nor schema/)", ErrNoMetadata, dir)
}
