package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/spf13/cobra"

	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
)

type catOptions struct {
	Paths     []string
	Schema    schemaFlags
	Columns   []string
	Limit     int64
	Format    string
	BatchRows int
}

func newCatCmd(f *factory, runF func(*catOptions) error) *cobra.Command {
	opts := &catOptions{}
	c := &cobra.Command{
		Use:   "cat [FILE ...]",
		Short: "Print the rows of data files in the read schema (no FILE: the bundled demo table)",
		Long: `Print the rows of Parquet or ORC data files, aligned by field id to the read schema.

--schema takes an Iceberg schema JSON, an Iceberg table metadata JSON (its
current schema) or a Paimon schema-N file; without it each file is read in its
own schema. With no FILE, cat reads the bundled demo table "orders" (three
files written under three schema versions) in its current schema.`,
		Args: cobraArgs(cobra.ArbitraryArgs),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Paths = args
			if !slices.Contains(outputFormats, opts.Format) {
				return usageError{fmt.Errorf("unknown --format %q (want table, jsonl, csv or arrow)", opts.Format)}
			}
			if opts.Limit < -1 {
				return usageError{fmt.Errorf("--limit must be ≥ 0")}
			}
			if runF != nil {
				return runF(opts)
			}
			return runCat(c.Context(), f, opts)
		},
	}
	fl := c.Flags()
	fl.StringVar(&opts.Schema.SchemaPath, "schema", "", "read schema: Iceberg schema JSON, table metadata JSON or Paimon schema-N")
	fl.StringVar(&opts.Schema.FileSchemaPath, "file-schema", "", "schema the files were written with (Paimon schema-N or Iceberg schema JSON), for files located by name")
	fl.StringVar(&opts.Schema.NameMappingPath, "name-mapping", "", "name mapping JSON for files written without field ids")
	fl.StringVar(&opts.Schema.Rules, "rules", "", "promotion rules: iceberg, iceberg-v3, paimon or hudi (default: from the schema's source)")
	fl.StringSliceVar(&opts.Columns, "columns", nil, "read only these columns of the read schema (a,b.c)")
	fl.Int64Var(&opts.Limit, "limit", -1, "print at most N rows")
	fl.StringVar(&opts.Format, "format", formatTable, "output: table, jsonl, csv or arrow (an Arrow IPC stream)")
	fl.IntVar(&opts.BatchRows, "batch-rows", 0, "rows per record batch (default 65536)")
	return c
}

func runCat(ctx context.Context, f *factory, o *catOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ropts, err := o.Schema.readOptions()
	if err != nil {
		return err
	}
	var inputs []*input
	if len(o.Paths) == 0 {
		ins, doc, err := demoInputs()
		if err != nil {
			return err
		}
		inputs = ins
		if ropts.ReadSchema == nil {
			ropts.ReadSchema, ropts.Rules = doc.Schema, doc.Rules
		}
	} else {
		for _, p := range o.Paths {
			in, err := openInput(p)
			if err != nil {
				return err
			}
			defer in.Close()
			inputs = append(inputs, in)
		}
	}
	if len(o.Columns) > 0 {
		if ropts.ReadSchema == nil {
			s, _, err := reader.FileSchema(inputs[0].r, inputs[0].size)
			if err != nil {
				return fmt.Errorf("%s: %w", inputs[0].name, err)
			}
			if !s.HasIDs() {
				return usageError{fmt.Errorf("--columns on a file without field ids needs --schema, --file-schema or --name-mapping")}
			}
			ropts.ReadSchema = s
		}
		sel, err := schema.Select(ropts.ReadSchema, o.Columns, false)
		if err != nil {
			return err
		}
		ropts.ReadSchema = sel
	}
	ropts.BatchRows = o.BatchRows
	ropts.Allocator = memory.DefaultAllocator

	var w batchWriter
	var firstSchema *arrow.Schema
	remaining := o.Limit
	for _, in := range inputs {
		if remaining == 0 {
			break
		}
		opts := ropts
		opts.Name = in.name
		rr, err := reader.Open(ctx, in.r, in.size, opts)
		if err != nil {
			return err
		}
		if w == nil {
			read := ropts.ReadSchema
			if read == nil {
				s, _, _ := reader.FileSchema(in.r, in.size)
				read = s
			}
			if w, err = newBatchWriter(o.Format, f.Stdout, rr.Schema(), read, opts.Allocator); err != nil {
				rr.Release()
				return err
			}
			firstSchema = rr.Schema()
		} else if !rr.Schema().Equal(firstSchema) {
			rr.Release()
			w.Close()
			return usageError{fmt.Errorf("%s: schema differs from %s; give --schema to read both in one schema", in.name, inputs[0].name)}
		}
		for rr.Next() && remaining != 0 {
			rec := rr.RecordBatch()
			if remaining > 0 && rec.NumRows() > remaining {
				rec = rec.NewSlice(0, remaining)
				err = w.Write(rec)
				rec.Release()
			} else {
				err = w.Write(rec)
			}
			if err != nil {
				rr.Release()
				return err
			}
			if remaining > 0 {
				remaining -= min(remaining, rr.RecordBatch().NumRows())
			}
		}
		err = rr.Err()
		rr.Release()
		if err != nil {
			if w != nil {
				w.Close()
			}
			return err
		}
	}
	if w == nil {
		return nil
	}
	return w.Close()
}
