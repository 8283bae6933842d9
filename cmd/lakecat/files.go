package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/hudi"
)

type filesOptions struct {
	Table      string
	Format     string
	TableFlags tableFlags
	Where      string
	Catalog    catalogFlags
	// Output is --output: the file the listing goes to ("" or "-": stdout).
	Output string
}

func newFilesCmd(f *factory, runF func(*filesOptions) error) *cobra.Command {
	opts := &filesOptions{}
	c := &cobra.Command{
		Use:   "files TABLE",
		Short: "List a table's live data files and how each differs from the read schema",
		Long: `List each live data file of the table: path, format, record count, partition,
the schema id it was written with (Paimon), which read columns it lacks
(null-filled or defaulted) or holds in an older type (promoted), the delete
files that apply to it (Iceberg: kind, record count and path, separated by
"; ") and how many of its rows they delete where the metadata tells (a
deletion vector or a position delete file for this file only; "?" when an
equality delete or a shared position delete file applies). A Hudi file
slice's log files follow its base file, one row each with FORMAT HUDI-LOG,
in the order they are merged. Each file's footer is read; no data is
decoded.`,
		Args: cobraArgs(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Table = args[0]
			if opts.Format != "text" && opts.Format != "json" {
				return usageError{fmt.Errorf("unknown --format %q (want text or json)", opts.Format)}
			}
			if runF != nil {
				return runF(opts)
			}
			return withOutput(f, opts.Output, func(f *factory) error { return runFiles(c.Context(), f, opts) })
		},
	}
	c.Flags().StringVar(&opts.Format, "format", "text", "text, or json: one object per line for each file")
	c.Flags().StringVarP(&opts.Output, "output", "o", "", outputUsage)
	opts.TableFlags.registerListing(c.Flags())
	opts.Catalog.register(c.Flags())
	stringOnce(c.Flags(), &opts.Where, "where", "list only the files that may hold rows matching this filter (partition values, column metrics, Paimon value and key statistics, columns a file lacks, row group statistics)")
	return c
}

func runFiles(ctx context.Context, f *factory, o *filesOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	o.TableFlags.forListing()
	filter, err := parseWhere(o.Where)
	if err != nil {
		return err
	}
	o.TableFlags.filter = filter
	var t *reader.Table
	if o.Catalog.applies(o.Table) {
		t, err = openCatalogTable(ctx, f, &o.Catalog, o.Table, &o.TableFlags, nil, 0)
	} else if st, serr := os.Stat(o.Table); serr == nil && !st.IsDir() && !isTable(o.Table) && !strings.HasSuffix(o.Table, ".metadata.json.gz") {
		// A data file (or any file but a metadata file): no table, as a
		// folder that holds none.
		return fmt.Errorf("%w: %s is a file; files takes a TABLE (a table's folder, metadata file or URL); cat, schema and plan also read data files", table.ErrNotATable, o.Table)
	} else {
		t, err = openTable(ctx, f, o.Table, &o.TableFlags, nil, 0)
	}
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(f.Stdout, 0, 4, 2, ' ', 0)
	enc := json.NewEncoder(f.Stdout)
	lsm := false // a Paimon primary-key table read merged: LSM columns
	for _, tf := range t.Files {
		lsm = lsm || tf.LSM != nil
	}
	if o.Format == "text" {
		header := "PATH\tFORMAT\tROWS\tPARTITION\tSCHEMA\tLACKS\tOLDER TYPE\tDELETES\tDELETED"
		if lsm {
			header += lsmHeader
		}
		fmt.Fprintln(tw, header)
	}
	var firstErr error
	failed := 0
	for i, tf := range t.Files {
		if filter != nil {
			pr, err := t.Prune(ctx, i)
			if err != nil {
				return err
			}
			if !pr.MayMatch {
				continue
			}
		}
		fj := fileJSON{Path: tf.Path, Format: tf.Format, Partition: tf.Partition, Lacks: []string{}, OlderType: []olderJSON{}, Deletes: []deleteJSON{}}
		for _, d := range tf.Deletes {
			dj := deleteJSON{Kind: string(d.Content), Path: d.Path}
			if d.RecordCount >= 0 {
				dj.RecordCount = &d.RecordCount
			}
			fj.Deletes = append(fj.Deletes, dj)
		}
		if n, ok := (table.Task{Deletes: tf.Deletes}).DeletedRows(); ok {
			fj.DeletedRows = &n
		}
		var l, older []string
		p, err := t.Plan(ctx, i)
		if err != nil {
			fj.Error = strings.ReplaceAll(err.Error(), "\n", " ")
			if firstErr == nil {
				firstErr = err
			}
			failed++
		} else {
			var od []olderJSON
			collectDiffs(p.Explain().Fields, "", &l, &od)
			p.Release()
			for _, d := range od {
				older = append(older, fmt.Sprintf("%s(%s)", d.Name, d.From))
			}
			fj.Lacks, fj.OlderType = append(fj.Lacks, l...), append(fj.OlderType, od...)
		}
		fj.LogFiles = hudiLogFiles(tf.Task)
		if tf.SchemaID >= 0 {
			id := tf.SchemaID
			fj.SchemaID = &id
		}
		if tf.RecordCount >= 0 {
			n := tf.RecordCount
			fj.Rows = &n
		}
		if tf.LSM != nil {
			fj.LSM = &lsmJSON{Bucket: tf.LSM.Bucket, Level: tf.LSM.Level, Section: tf.LSM.Section, Run: tf.LSM.Run, Runs: tf.LSM.Runs, Merged: tf.LSM.Merged}
		}
		if o.Format == "json" {
			if err := enc.Encode(fj); err != nil {
				return err
			}
			continue
		}
		lacks := strings.Join(l, ",")
		if fj.Error != "" {
			lacks = "error: " + fj.Error
		}
		schemaID, rows := "-", "-"
		if fj.SchemaID != nil {
			schemaID = fmt.Sprint(*fj.SchemaID)
		}
		if fj.Rows != nil {
			rows = fmt.Sprint(*fj.Rows)
		}
		deletes, deleted := deleteColumns(tf.Deletes)
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", tf.Path, tf.Format, rows, dash(tf.Partition), schemaID, dash(lacks), dash(strings.Join(older, ",")), deletes, deleted)
		if lsm {
			line += lsmCells(fj.LSM)
		}
		fmt.Fprintln(tw, line)
		for _, l := range hudiLogFiles(tf.Task) {
			if l != tf.Path {
				fmt.Fprintf(tw, "%s\t%s\t-\t%s\t-\t-\t-\t-\t-\n", l, hudi.LogFormat, dash(tf.Partition))
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if firstErr != nil {
		// Every file is listed, the broken ones with their error; the exit
		// code then tells the class of the first failure.
		return fmt.Errorf("%d of %d data files could not be opened; the first: %w", failed, len(t.Files), firstErr)
	}
	return nil
}

// fileJSON is one line of `lakecat files --format json`.
type fileJSON struct {
	Path      string      `json:"path"`
	Format    string      `json:"format"`
	Rows      *int64      `json:"rows"`      // null: not recorded
	Partition string      `json:"partition"` // "name=value,…", "" for none
	SchemaID  *int64      `json:"schema-id"` // null: not recorded (Iceberg, Hudi)
	Lacks     []string    `json:"lacks"`     // read columns the file lacks (null-filled or defaulted)
	OlderType []olderJSON `json:"older-type"`
	Error     string      `json:"error,omitempty"` // the file's plan failed
	// Deletes are the delete files that apply (Iceberg); DeletedRows how
	// many rows they delete, null when only reading them tells.
	Deletes     []deleteJSON `json:"deletes"`
	DeletedRows *int64       `json:"deleted-rows"`
	// LogFiles are a Hudi file slice's log files, merged onto the file.
	LogFiles []string `json:"log-files,omitempty"`
	// LSM is the file's place in its bucket's LSM tree (a Paimon
	// primary-key table read merged).
	LSM *lsmJSON `json:"lsm,omitempty"`
}

// hudiLogFiles returns the log files of a Hudi file slice's task, in the
// order they merge (none for other tasks): `lakecat files` lists each
// under its file group's base file, FORMAT HUDI-LOG (a slice of log files
// only: the first is the file's own row), and in JSON as "log-files".
func hudiLogFiles(t table.Task) []string {
	if t.Hudi == nil {
		return nil
	}
	out := make([]string, len(t.Hudi.LogFiles))
	for i, l := range t.Hudi.LogFiles {
		out[i] = l.Path
	}
	return out
}

// lsmJSON is a Paimon primary-key table file's bucket, level, section of
// overlapping key ranges and sorted run in it, and whether the section is
// merged on read (else it streams as stored).
type lsmJSON struct {
	Bucket  int  `json:"bucket"`
	Level   int  `json:"level"`
	Section int  `json:"section"`
	Run     int  `json:"run"`
	Runs    int  `json:"runs"`
	Merged  bool `json:"merged"`
}

// lsmHeader and lsmCells are the text columns of lsmJSON: BUCKET, LEVEL,
// RUN as "<run>/<runs> of section <section>", and MERGE "merge" or
// "stream".
const lsmHeader = "\tBUCKET\tLEVEL\tRUN\tMERGE"

func lsmCells(l *lsmJSON) string {
	if l == nil {
		return "\t-\t-\t-\t-"
	}
	m := "stream"
	if l.Merged {
		m = "merge"
	}
	return fmt.Sprintf("\t%d\t%d\t%d/%d of section %d\t%s", l.Bucket, l.Level, l.Run+1, l.Runs, l.Section, m)
}

// deleteJSON is a delete file of a data file.
type deleteJSON struct {
	Kind        string `json:"kind"` // position-deletes, equality-deletes, deletion-vector
	Path        string `json:"path"`
	RecordCount *int64 `json:"record-count,omitempty"` // absent when the metadata does not state it
}

// deleteColumns returns the DELETES and DELETED cells of a file's delete
// files.
func deleteColumns(files []table.DeleteFile) (deletes, deleted string) {
	if len(files) == 0 {
		return "-", "0"
	}
	parts := make([]string, len(files))
	for i, d := range files {
		n := "?" // the metadata does not state the count
		if d.RecordCount >= 0 {
			n = fmt.Sprint(d.RecordCount)
		}
		parts[i] = fmt.Sprintf("%s %s (%s)", d.Content, n, d.Path)
	}
	deleted = "?"
	if n, ok := (table.Task{Deletes: files}).DeletedRows(); ok {
		deleted = fmt.Sprint(n)
	}
	return strings.Join(parts, "; "), deleted
}

// olderJSON is a read column a file holds in an older type.
type olderJSON struct {
	Name string `json:"name"`
	From string `json:"from"`
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// collectDiffs lists, by dotted name, the read fields a file lacks and the
// ones it holds in an older type.
func collectDiffs(steps []project.Step, prefix string, lacks *[]string, older *[]olderJSON) {
	for _, s := range steps {
		name := prefix + s.Name
		switch s.Action {
		case project.ActionNull, project.ActionDefault:
			*lacks = append(*lacks, name)
		case project.ActionPromote:
			*older = append(*older, olderJSON{name, fmt.Sprint(s.PromotedFrom)})
		}
		collectDiffs(s.Children, name+".", lacks, older)
	}
}
