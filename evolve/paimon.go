package evolve

import (
	"context"
	"errors"
	"io/fs"
	"time"

	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/paimon"
)

// PreparePaimonUpdate applies update to the Paimon schema cur under Paimon's
// rules and returns the next schema file's content: schema id cur.ID+1,
// highestFieldId advanced to the highest id handed out, options, partition
// keys, primary keys and comment carried over, the file format version set to
// [schema.PaimonCurrentVersion] and timeMillis to now. changed is false (and
// next is cur) when the result equals cur's schema. cur is not modified.
//
// Paimon's rules, where they differ from Iceberg's: a partition key or
// primary key column cannot be renamed, deleted, retyped or made optional
// ([ErrKeyColumn]); an added column cannot be NOT NULL
// ([ErrRequiredColumn]) nor carry a default; a type change may be any cast
// [project.Paimon] allows; new nested ROW fields get ids depth first and
// list elements and map keys and values none.
//
// A top-level column the update leaves as it was is written exactly as
// decoded; a changed one is written in Paimon's canonical form, without a
// "defaultValue" it may have had.
func PreparePaimonUpdate(cur *schema.PaimonSchema, update *UpdateSchema, now time.Time) (next *schema.PaimonSchema, changed bool, err error) {
	u := update.clone()
	u.format = Paimon
	u.partition = nil
	u.keyNames = append(append([]string(nil), cur.PartitionKeys...), cur.PrimaryKeys...)
	base := cur.Schema()
	s, last, err := u.Apply(base, cur.HighestFieldID)
	if err != nil {
		return nil, false, err
	}
	if s.Equal(base) {
		return cur, false, nil
	}
	n := *cur
	n.Version = schema.PaimonCurrentVersion
	n.ID = cur.ID + 1
	// A column the update left as it was keeps its decoded form (type
	// spelling, "defaultValue", other keys): reuse cur's field.
	n.Fields = make([]*schema.Field, len(s.Fields))
	for i, f := range s.Fields {
		n.Fields[i] = f
		for _, o := range cur.Fields {
			if o.ID == f.ID && o.Equal(f) {
				n.Fields[i] = o
			}
		}
	}
	n.HighestFieldID = max(cur.HighestFieldID, last)
	n.PartitionKeys = append([]string{}, cur.PartitionKeys...)
	n.PrimaryKeys = append([]string{}, cur.PrimaryKeys...)
	n.Options = make(map[string]string, len(cur.Options))
	for k, v := range cur.Options {
		n.Options[k] = v
	}
	n.TimeMillis = now.UnixMilli()
	return &n, true, nil
}

// CommitPaimon applies update to the latest schema of the Paimon table in
// dir (paimon.Table.LatestSchema) and writes schema/schema-<N+1>
// ([PreparePaimonUpdate], paimon.Table.CommitSchema) atomically and never
// over an existing file. When another writer wrote schema-<N+1> first, it loads the
// new latest schema and applies the same changes again, up to MaxAttempts
// times; then it returns the last [*ConflictError].
func (c *Committer) CommitPaimon(ctx context.Context, dir string, update *UpdateSchema) (Result, error) {
	fsys := c.fs(dir)
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return Result{Attempts: n - 1}, err
		}
		t, err := paimon.Open(ctx, fsys, dir, "")
		if err != nil {
			return Result{Attempts: n}, err
		}
		cur, err := t.LatestSchema(ctx, "")
		if err != nil {
			return Result{Attempts: n}, err
		}
		next, changed, err := PreparePaimonUpdate(cur, update, c.now())
		if err != nil {
			return Result{Attempts: n}, err
		}
		res := Result{Old: cur.Schema(), New: next.Schema(), LastColumnID: next.HighestFieldID, Changed: changed, Attempts: n}
		if !changed {
			return res, nil
		}
		file, err := t.CommitSchema(ctx, fsys, "", next)
		if err == nil {
			res.File = file
			return res, nil
		}
		if errors.Is(err, fs.ErrExist) {
			err = &ConflictError{File: t.SchemaPath("", int64(next.ID))}
		}
		if !errors.Is(err, ErrCommitConflict) || n >= c.attempts() {
			return res, err
		}
		if err := backoff(ctx, n); err != nil {
			return Result{Attempts: n}, err
		}
	}
}
