package evolve

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/iceberg"
)

// Committer commits schema updates to filesystem tables, retrying a commit
// that loses a race by applying the same changes to the schema that won.
// The zero value uses the operating system's file system, 10 attempts and
// the wall clock.
type Committer struct {
	// FS is the storage the table is in; nil means [storage.OSFS].
	FS storage.WriteFS
	// MaxAttempts bounds the attempts of one commit; 0 means 10.
	MaxAttempts int
	// Now returns the commit time; nil means time.Now.
	Now func() time.Time
	// AllowPaths are folders or URL prefixes outside the table's own
	// location that a commit may read and write too. By default a commit
	// reads and writes only inside the table (table.Root of dir), symbolic
	// links evaluated (storage.ConfineWrite): a metadata folder linked out
	// of the table is refused with an error matching
	// storage.ErrPathNotAllowed, as reader.OpenTable refuses it.
	AllowPaths []string
}

// fs returns the storage of a commit to the table at dir, confined to it.
func (c *Committer) fs(dir string) storage.WriteFS {
	var fsys storage.WriteFS = storage.OSFS{}
	if c.FS != nil {
		fsys = c.FS
	}
	return storage.ConfineWrite(fsys, table.Root(dir), c.AllowPaths)
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
// iceberg.Table.CommitMetadata; the current metadata is found by
// iceberg.FindMetadata, the rule readers use). When another writer commits first, it
// loads the new current metadata and applies the same changes again, up to
// MaxAttempts times; then it returns the last [*ConflictError]. A change that
// no longer applies to the winner's schema (say, both added the same name)
// is returned as the [UpdateSchema.Apply] error, without retrying.
func (c *Committer) CommitIceberg(ctx context.Context, dir string, update *UpdateSchema) (Result, error) {
	fsys := c.fs(dir)
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return Result{Attempts: n - 1}, err
		}
		t, err := iceberg.Open(ctx, fsys, dir)
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
		file, err := t.CommitMetadata(ctx, fsys, sc.Metadata, c.now())
		if err == nil {
			res.File = file
			return res, nil
		}
		if errors.Is(err, fs.ErrExist) {
			err = &ConflictError{File: mustNext(t)}
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
	return (&Committer{}).Commit(ctx, dir, update)
}

// Commit applies update to the table in dir on c.FS — an Iceberg table (a
// "metadata" directory) or a Paimon table (a "schema" directory) —
// retrying lost races.
func (c *Committer) Commit(ctx context.Context, dir string, update *UpdateSchema) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	format, err := table.Detect(ctx, c.fs(dir), dir)
	if err != nil {
		return Result{}, err
	}
	switch format {
	case table.Iceberg:
		return c.CommitIceberg(ctx, dir, update)
	case table.Paimon:
		return c.CommitPaimon(ctx, dir, update)
	}
	return Result{}, fmt.Errorf("%s: %w: lakecat evolves Iceberg and Paimon tables, not %s", dir, ErrUnsupportedFormat, format)
}

// ErrUnsupportedFormat is returned by [Committer.Commit] for a table of a
// format lakecat does not commit to (Hudi).
var ErrUnsupportedFormat = lakecat.NewSentinel(lakecat.ErrUnsupported, "evolve: table format cannot be evolved")

// mustNext names the file a lost Iceberg commit meant to create.
func mustNext(t *iceberg.Table) string {
	p, _ := t.NextMetadataPath()
	return p
}
