package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lakecat/lakecat/reader"
)

type planOptions struct {
	Path   string
	Schema schemaFlags
	Format string
	Where  string
	Table  tableFlags
}

func newPlanCmd(f *factory, runF func(*planOptions) error) *cobra.Command {
	opts := &planOptions{}
	c := &cobra.Command{
		Use:   "plan FILE",
		Short: "Explain, column by column, what reading FILE in the read schema does",
		Long: `Explain the projection plan: for each read field its id, name and what the
read does (taken from a file column, renamed, promoted, null-filled,
defaulted), then the file columns the read schema dropped.`,
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
	fl.StringVar(&opts.Where, "where", "", "TABLE: show which files and row groups this filter skips, and why")
	return c
}

func runPlan(f *factory, o *planOptions) error {
	if o.Where != "" {
		if !isTable(o.Path) {
			return usageError{fmt.Errorf("--where applies to a TABLE")}
		}
		filter, err := parseWhere(o.Where)
		if err != nil {
			return err
		}
		o.Table.filter = filter
		return runPlanWhere(context.Background(), f, o.Path, &o.Table)
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
