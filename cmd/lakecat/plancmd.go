package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/table"
)

type planOptions struct {
	Path   string
	Schema schemaFlags
	Format string
	Where  string
	Table  tableFlags
	// Catalog names a table of an Iceberg REST catalog (rest:// TABLE
	// or --catalog), opened as schema and files open it.
	Catalog catalogFlags
}

func newPlanCmd(f *factory, runF func(*planOptions) error) *cobra.Command {
	opts := &planOptions{}
	c := &cobra.Command{
		Use:   "plan FILE|TABLE",
		Short: "Explain, column by column, what reading FILE in the read schema does",
		Long: `Explain the projection plan: for each read field its id, name and what the
read does (taken from a file column, renamed, promoted, null-filled,
defaulted), then the file columns the read schema dropped.

For a TABLE (a folder, an Iceberg metadata file, an object-store URL, or an
Iceberg REST catalog's table: rest://HOST[:PORT][/PREFIX]/NS.TABLE, or
NS.TABLE with --catalog), each live data file's
plan in the table's read schema, each followed by its delete files and how
many rows they remove when the metadata tells (deletion vectors, position
delete files for that file alone), in text format.`,
		Args: cobraArgs(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Path = args[0]
			if opts.Format != "text" && opts.Format != "json" {
				return usageError{fmt.Errorf("unknown --format %q (want text or json)", opts.Format)}
			}
			if runF != nil {
				return runF(opts)
			}
			return runPlan(f, opts)
		},
	}
	fl := c.Flags()
	fl.StringVar(&opts.Schema.SchemaPath, "schema", "", "read schema: Iceberg schema JSON, table metadata JSON or Paimon schema-N")
	fl.StringVar(&opts.Schema.FileSchemaPath, "file-schema", "", "schema the file was written with, for files located by name")
	fl.StringVar(&opts.Schema.NameMappingPath, "name-mapping", "", "name mapping JSON for files written without field ids")
	fl.StringVar(&opts.Schema.Rules, "rules", "", "promotion rules: iceberg, iceberg-v3, paimon or hudi")
	fl.StringVar(&opts.Format, "format", "text", "text or json")
	stringOnce(fl, &opts.Where, "where", "TABLE: show which files and row groups this filter skips, and why")
	opts.Catalog.register(fl)
	return c
}

func runPlan(f *factory, o *planOptions) error {
	isTbl := isTable(o.Path) || o.Catalog.applies(o.Path)
	if isTbl && o.Format != "text" { // with or without --where
		return usageError{fmt.Errorf("plan %s: a table's plan is text only; --format json explains one FILE", o.Path)}
	}
	if o.Where != "" {
		if !isTbl {
			return usageError{fmt.Errorf("--where applies to a TABLE")}
		}
		filter, err := parseWhere(o.Where)
		if err != nil {
			return err
		}
		o.Table.filter = filter
		return runPlanWhere(context.Background(), f, o.Path, &o.Table, &o.Catalog)
	}
	if isTbl {
		return runTablePlan(f, o)
	}
	ropts, err := o.Schema.readOptions()
	if err != nil {
		return err
	}
	in, err := openInput(o.Path)
	if err != nil {
		return err
	}
	defer in.Close()
	ropts.Name = o.Path
	p, err := reader.Plan(in.r, in.size, ropts)
	if err != nil {
		return err
	}
	defer p.Release()
	if o.Format == "json" {
		b, err := json.MarshalIndent(p.Explain(), "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(f.Stdout, "%s\n", b)
		return err
	}
	_, err = fmt.Fprint(f.Stdout, p.Explain().String())
	return err
}

// runTablePlan explains the read of each data file of the table o.Path
// and what its deletes remove.
func runTablePlan(f *factory, o *planOptions) error {
	ctx := context.Background()
	tf := tableFlags{listing: true}
	t, err := openTableOrCatalog(ctx, f, &o.Catalog, o.Path, &tf)
	if err != nil {
		return err
	}
	for i, file := range t.Files {
		p, err := t.Plan(ctx, i)
		if err != nil {
			return err
		}
		fmt.Fprintf(f.Stdout, "file %s\n%s", file.Path, p.Explain().String())
		p.Release()
		if len(file.Deletes) > 0 {
			deletes, _ := deleteColumns(file.Deletes)
			n, known := (table.Task{Deletes: file.Deletes}).DeletedRows()
			removes := "an unknown number of rows (" + unknownDeletesReason(file.Deletes) + ": known only by reading them)"
			if known {
				removes = fmt.Sprintf("%d of %d rows", n, file.RecordCount)
			}
			fmt.Fprintf(f.Stdout, "deletes: %s\nthe deletes remove %s\n", deletes, removes)
		}
		if h := file.Task.Hudi; h != nil {
			fmt.Fprintf(f.Stdout, "%s\n", hudiMergeLine(h))
		}
		if file.LSM != nil {
			fmt.Fprintln(f.Stdout, lsmPlanLine(file))
		}
		fmt.Fprintln(f.Stdout)
	}
	return nil
}

// unknownDeletesReason names the deletes whose effect on one data file the
// metadata does not state (see [table.Task.DeletedRows]): equality deletes,
// position delete files shared with other data files, and deletion vectors
// without a recorded cardinality (a Paimon index manifest may omit it).
func unknownDeletesReason(deletes []table.DeleteFile) string {
	var eq, shared, dv bool
	for _, d := range deletes {
		switch {
		case d.Content == table.EqualityDeletes:
			eq = true
		case d.Content == table.PositionDeletes && d.ReferencedDataFile == "":
			shared = true
		case d.RecordCount < 0:
			dv = true
		}
	}
	var why []string
	if eq {
		why = append(why, "equality deletes")
	}
	if shared {
		why = append(why, "shared position delete files")
	}
	if dv {
		why = append(why, "deletion vectors whose cardinality the metadata does not record")
	}
	if len(why) == 0 { // not reached while DeletedRows and this agree
		why = append(why, "deletes of an unknown kind")
	}
	return strings.Join(why, " and ")
}

// hudiMergeLine says what a Hudi file slice's read merges: its log files,
// in order, by record key under the merge mode and ordering fields.
func hudiMergeLine(h *table.HudiSlice) string {
	logs := make([]string, len(h.LogFiles))
	for i, l := range h.LogFiles {
		logs[i] = l.Path
	}
	onto := "onto the base file"
	if h.NoBase {
		onto = "alone (no base file)"
	}
	by := "no ordering field"
	if h.Ordering != nil && len(h.Ordering.Fields) > 0 {
		names := make([]string, len(h.Ordering.Fields))
		for i, f := range h.Ordering.Fields {
			names[i] = f.Name
		}
		by = "ordering " + strings.Join(names, ",")
	}
	return fmt.Sprintf("merges %d log files %s by _hoodie_record_key (%s, %s): %s", len(logs), onto, h.MergeMode, by, strings.Join(logs, "; "))
}

// lsmPlanLine says how a Paimon primary-key table's file is read: merged
// with the other sorted runs of its section (by key, the merge engine
// keeping one row per key) or streamed as stored.
func lsmPlanLine(file reader.TableFile) string {
	l := file.LSM
	where := fmt.Sprintf("bucket %d, level %d, sorted run %d of %d in section %d", l.Bucket, l.Level, l.Run+1, l.Runs, l.Section)
	if !l.Merged {
		return "lsm: " + where + ": read as stored (its key range overlaps no other file and it holds no retracts)"
	}
	if l.Runs == 1 {
		return "lsm: " + where + ": merged alone (it may hold retracts)"
	}
	return fmt.Sprintf("lsm: %s: merged with the section's other %d sorted runs", where, l.Runs-1)
}
