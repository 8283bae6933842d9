package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/lakecat/lakecat/evolve"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/iceberg"
	"github.com/lakecat/lakecat/table/paimon"
)

// change is one schema-change flag, kept in command-line order.
type change struct{ Flag, Value string }

type evolveOptions struct {
	Table         string
	Changes       []change
	UnionByName   string
	DryRun        bool
	AllowBreaking bool
	Catalog       catalogFlags
	// AllowPaths widen where the commit may read and write, as cat's
	// --allow-path widens where a read may.
	AllowPaths []string
}

// orderedFlag is a pflag.Value that appends each occurrence, with its flag
// name, to one shared list, so that changes keep the order they were given
// in across different flags.
type orderedFlag struct {
	name string
	list *[]change
}

func (o orderedFlag) String() string { return "" }
func (o orderedFlag) Type() string   { return "string" }
func (o orderedFlag) Set(v string) error {
	*o.list = append(*o.list, change{o.name, v})
	return nil
}

func newEvolveCmd(f *factory, runF func(*evolveOptions) error) *cobra.Command {
	opts := &evolveOptions{}
	c := &cobra.Command{
		Use:   "evolve TABLE [changes]",
		Short: "Change the schema of a filesystem Iceberg or Paimon table",
		Long: `Apply schema changes to a filesystem Iceberg or Paimon table, print the
schema diff (old → new, with field ids) and commit it, unless --dry-run.

Changes apply in the order given; a later change may name a column by a name an
earlier rename gave it. New fields get fresh ids above last-column-id.`,
		Example: `  lakecat evolve warehouse/db/orders --add 'note string' --rename amount=total --type qty=long
  lakecat evolve warehouse/db/orders --move 'total after id' --dry-run
  lakecat evolve warehouse/db/orders --union-by-name incoming.json`,
		Args: cobraArgs(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Table = args[0]
			if len(opts.Changes) == 0 && opts.UnionByName == "" {
				return usageError{errors.New("no schema change given (see 'lakecat evolve --help')")}
			}
			for _, p := range opts.AllowPaths {
				if p == "" {
					return usageError{errors.New("--allow-path: want a folder or URL prefix, not an empty string")}
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return runEvolve(c.Context(), f, opts)
		},
	}
	fl := c.Flags()
	help := map[string]string{
		"add":        "add an optional top-level column: 'NAME TYPE'",
		"add-nested": "add a field to a struct (a list's element, a map's value): 'PARENT.NAME TYPE'",
		"rename":     "rename a column: PATH=NEWNAME",
		"optional":   "make a column optional: PATH",
		"type":       "widen a column's type: PATH=TYPE",
		"doc":        "set a column's doc: PATH=DOC",
		"delete":     "delete a column: PATH",
		"move":       "move a column: 'PATH first', 'PATH before REF' or 'PATH after REF'",
	}
	for _, name := range evolve.FlagNames {
		fl.Var(orderedFlag{name, &opts.Changes}, name, help[name])
	}
	fl.StringVar(&opts.UnionByName, "union-by-name", "", "add every field of this schema JSON the table lacks, matched by name")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "print the diff without committing")
	fl.BoolVar(&opts.AllowBreaking, "allow-incompatible-changes", false, "allow changes that break readers of old data (e.g. a required column)")
	fl.StringArrayVar(&opts.AllowPaths, "allow-path", nil, "let the commit read and write under this folder or URL prefix too, outside the table's own location (repeatable)")
	opts.Catalog.register(fl)
	return c
}

func runEvolve(ctx context.Context, f *factory, o *evolveOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	u := evolve.NewUpdate()
	if o.AllowBreaking {
		u.AllowIncompatibleChanges()
	}
	for _, c := range o.Changes {
		if err := u.AddFlag(c.Flag, c.Value); err != nil {
			return usageError{fmt.Errorf("--%s: %w", c.Flag, err)}
		}
	}
	if o.UnionByName != "" {
		doc, err := loadSchemaDocument("--union-by-name", o.UnionByName)
		if err != nil {
			return err
		}
		u.UnionByName(doc.Schema)
	}
	if o.Catalog.applies(o.Table) {
		return evolveCatalog(ctx, f, o, u)
	}
	c := evolve.Committer{AllowPaths: o.AllowPaths}
	dir := o.Table
	if urlScheme(dir) != "" {
		fsys, stripped, err := objectStore(dir, f.logger())
		if err != nil {
			return err
		}
		w, ok := fsys.(storage.WriteFS)
		if !ok {
			return fmt.Errorf("%s: the object store cannot be written to", dir)
		}
		c.FS, dir = w, stripped
	}
	if o.DryRun {
		return previewEvolve(ctx, f, c.FS, dir, o.AllowPaths, u)
	}
	res, err := c.Commit(ctx, dir, u)
	if err != nil {
		return err
	}
	if err := evolve.WriteDiff(f.Stdout, res.Old, res.New, -1, -1); err != nil {
		return err
	}
	if !res.Changed {
		fmt.Fprintln(f.Stdout, "no change: nothing committed")
		return nil
	}
	fmt.Fprintf(f.Stdout, "committed %s (last-column-id %d)\n", res.File, res.LastColumnID)
	return nil
}

// previewEvolve applies u to the table's current schema and prints the diff
// without writing anything.
func previewEvolve(ctx context.Context, f *factory, fsys storage.FS, dir string, allow []string, u *evolve.UpdateSchema) error {
	if fsys == nil {
		fsys = storage.OSFS{}
	}
	fsys = storage.Confine(fsys, table.Root(dir), allow)
	format, err := table.Detect(ctx, fsys, dir)
	if err != nil {
		return err
	}
	switch format {
	case table.Iceberg:
		t, err := iceberg.Open(ctx, fsys, dir)
		if err != nil {
			return err
		}
		c, err := evolve.PrepareSchemaUpdate(t.Metadata, u)
		if err != nil && !errors.Is(err, evolve.ErrNoChanges) {
			return err
		}
		old := t.Metadata.CurrentSchema()
		if err := evolve.WriteDiff(f.Stdout, old, c.Schema, t.Metadata.LastColumnID, c.Metadata.LastColumnID); err != nil {
			return err
		}
	case table.Paimon:
		t, err := paimon.Open(ctx, fsys, dir, "")
		if err != nil {
			return err
		}
		cur, err := t.LatestSchema(ctx, "")
		if err != nil {
			return err
		}
		next, _, err := evolve.PreparePaimonUpdate(cur, u, time.Now())
		if err != nil {
			return err
		}
		if err := evolve.WriteDiff(f.Stdout, cur.Schema(), next.Schema(), cur.HighestFieldID, next.HighestFieldID); err != nil {
			return err
		}
	default:
		return fmt.Errorf("%s: %s tables: %w", dir, format, evolve.ErrUnsupportedFormat)
	}
	fmt.Fprintln(f.Stdout, "dry run: nothing committed")
	return nil
}
