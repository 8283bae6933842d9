package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/table"
)

type filesOptions struct {
	Table      string
	TableFlags tableFlags
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
equality delete or a shared position delete file applies). Each file's
footer is read; no data is decoded.`,
		Args: cobraArgs(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Table = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runFiles(c.Context(), f, opts)
		},
	}
	opts.TableFlags.register(c.Flags())
	return c
}

func runFiles(ctx context.Context, f *factory, o *filesOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	o.TableFlags.forListing()
	t, err := openTable(ctx, f, o.Table, &o.TableFlags, nil, 0)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(f.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PATH\tFORMAT\tROWS\tPARTITION\tSCHEMA\tLACKS\tOLDER TYPE\tDELETES\tDELETED")
	for i, tf := range t.Files {
		lacks, older := "", ""
		p, err := t.Plan(ctx, i)
		if err != nil {
			lacks = "error: " + strings.ReplaceAll(err.Error(), "\n", " ")
		} else {
			var l, o []string
			collectDiffs(p.Explain().Fields, "", &l, &o)
			p.Release()
			lacks, older = strings.Join(l, ","), strings.Join(o, ",")
		}
		schemaID := "-"
		if tf.SchemaID >= 0 {
			schemaID = fmt.Sprint(tf.SchemaID)
		}
		rows := "-"
		if tf.RecordCount >= 0 {
			rows = fmt.Sprint(tf.RecordCount)
		}
		deletes, deleted := deleteColumns(tf.Deletes)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", tf.Path, tf.Format, rows, dash(tf.Partition), schemaID, dash(lacks), dash(older), deletes, deleted)
	}
	return tw.Flush()
}

// deleteColumns returns the DELETES and DELETED cells of a file's delete
// files.
func deleteColumns(files []table.DeleteFile) (deletes, deleted string) {
	if len(files) == 0 {
		return "-", "0"
	}
	parts := make([]string, len(files))
	for i, d := range files {
		parts[i] = fmt.Sprintf("%s %d (%s)", d.Content, d.RecordCount, d.Path)
	}
	deleted = "?"
	if n, ok := (table.Task{Deletes: files}).DeletedRows(); ok {
		deleted = fmt.Sprint(n)
	}
	return strings.Join(parts, "; "), deleted
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// collectDiffs lists, by dotted name, the read fields a file lacks and the
// ones it holds in an older type.
func collectDiffs(steps []project.Step, prefix string, lacks, older *[]string) {
	for _, s := range steps {
		name := prefix + s.Name
		switch s.Action {
		case project.ActionNull, project.ActionDefault:
			*lacks = append(*lacks, name)
		case project.ActionPromote:
			*older = append(*older, fmt.Sprintf("%s(%s)", name, s.PromotedFrom))
		}
		collectDiffs(s.Children, name+".", lacks, older)
	}
}
