package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/lakecat/lakecat/project"
)

type filesOptions struct {
	Table      string
	TableFlags tableFlags
	Where      string
}

func newFilesCmd(f *factory, runF func(*filesOptions) error) *cobra.Command {
	opts := &filesOptions{}
	c := &cobra.Command{
		Use:   "files TABLE",
		Short: "List a table's live data files and how each differs from the read schema",
		Long: `List each live data file of the table: path, format, record count, partition,
the schema id it was written with (Paimon), and which read columns it lacks
(null-filled or defaulted) or holds in an older type (promoted). Each file's
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
	c.Flags().StringVar(&opts.Where, "where", "", "list only the files that may hold rows matching this filter (partition values, columns a file lacks, row group statistics)")
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
	t, err := openTable(ctx, f, o.Table, &o.TableFlags, nil, 0)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(f.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PATH\tFORMAT\tROWS\tPARTITION\tSCHEMA\tLACKS\tOLDER TYPE")
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", tf.Path, tf.Format, rows, dash(tf.Partition), schemaID, dash(lacks), dash(older))
	}
	return tw.Flush()
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
