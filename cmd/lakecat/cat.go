package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/spf13/cobra"

	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table"
)

type catOptions struct {
	Paths     []string
	Schema    schemaFlags
	Table     tableFlags
	Catalog   catalogFlags
	Columns   []string
	Limit     int64
	Format    string
	BatchRows int
	Where     string
	Stats     bool
	// Output is --output: the file the rows go to ("" or "-": stdout).
	Output string
	// Dictionary is --dictionary: with --format arrow, string and binary
	// columns are written as dictionary arrays.
	Dictionary bool
}

// maxBatchRows is the largest --batch-rows: the decoders' cap on the rows
// of one record batch (2^24).
const maxBatchRows = 1 << 24

func newCatCmd(f *factory, runF func(*catOptions) error) *cobra.Command {
	opts := &catOptions{}
	c := &cobra.Command{
		Use:   "cat [TABLE | FILE ...]",
		Short: "Print the rows of a table or of data files in the read schema (no argument: the bundled demo table)",
		Long: `Print the rows of a table (an Iceberg, Paimon or Hudi folder, or an Iceberg
metadata file) in its current schema, or of Parquet or ORC data files aligned
by field id to the read schema.

--schema takes an Iceberg schema JSON, an Iceberg table metadata JSON (its
current schema) or a Paimon schema-N file; without it each file is read in its
own schema. With no FILE, cat reads the bundled demo table "orders" (three
files written under three schema versions) in its current schema.

Every format streams. The table format sets its column widths from the
header and the first 1000 rows and widens a column for a later, wider cell.
CSV writes NULL as an empty field and an empty string as "".`,
		Example: `  lakecat cat                                      # the bundled demo table
  lakecat cat warehouse/db/orders --limit 10       # an Iceberg, Paimon or Hudi table folder
  lakecat cat t/metadata/v3.metadata.json --columns id,name,_file
  lakecat cat s3://bucket/wh/t --as-of 2024-06-01T00:00:00Z --format jsonl
  lakecat cat hudi_table --as-of 20250713010535797 # a Hudi instant time
  lakecat cat part-0.parquet part-1.parquet --schema metadata/v2.metadata.json
  lakecat cat t --format arrow > t.arrows          # an Arrow IPC stream (pyarrow.ipc.open_stream)
  lakecat cat t --format arrow --output t.arrows   # the same, without shell redirection`,
		Args: cobraArgs(cobra.ArbitraryArgs),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Paths = args
			if !slices.Contains(outputFormats, opts.Format) {
				return usageError{fmt.Errorf("unknown --format %q (want table, jsonl, csv, arrow or parquet)", opts.Format)}
			}
			if opts.Limit < -1 {
				return usageError{fmt.Errorf("--limit must be ≥ 0, or -1 for no limit")}
			}
			if runF != nil {
				return runF(opts)
			}
			return withOutput(f, opts.Output, func(f *factory) error { return runCat(c.Context(), f, opts) })
		},
	}
	fl := c.Flags()
	fl.StringVar(&opts.Schema.SchemaPath, "schema", "", "read schema: Iceberg schema JSON, table metadata JSON or Paimon schema-N")
	fl.StringVar(&opts.Schema.FileSchemaPath, "file-schema", "", "schema the files were written with (Paimon schema-N or Iceberg schema JSON), for files located by name")
	fl.StringVar(&opts.Schema.NameMappingPath, "name-mapping", "", "name mapping JSON for files written without field ids")
	fl.StringVar(&opts.Schema.Rules, "rules", "", "promotion rules: iceberg, iceberg-v3, paimon or hudi (default: from the schema's source)")
	fl.StringSliceVar(&opts.Columns, "columns", nil, "read only these columns of the read schema (a,b.c)")
	fl.Int64Var(&opts.Limit, "limit", -1, "print at most N rows (-1: no limit)")
	fl.StringVar(&opts.Format, "format", formatTable, "output: table, jsonl, csv, arrow (an Arrow IPC stream) or parquet (a Parquet file with field ids)")
	fl.IntVar(&opts.BatchRows, "batch-rows", 0, "rows per record batch (default 65536, at most 16777216)")
	stringOnce(fl, &opts.Where, "where", whereUsage)
	fl.StringVarP(&opts.Output, "output", "o", "", outputUsage)
	fl.BoolVar(&opts.Stats, "stats", false, "with --where: print what the filter skipped to stderr")
	fl.BoolVar(&opts.Dictionary, "dictionary", false, "with --format arrow: top-level string and binary columns as dictionary<int32> arrays (other formats print the same values)")
	opts.Table.register(fl)
	opts.Catalog.register(fl)
	return c
}

func runCat(ctx context.Context, f *factory, o *catOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if o.BatchRows < 0 || o.BatchRows > maxBatchRows {
		return usageError{fmt.Errorf("--batch-rows must be from 0 (the default, %d) to %d", reader.DefaultBatchRows, maxBatchRows)}
	}
	filter, err := parseWhere(o.Where)
	if err != nil {
		return err
	}
	var stats *reader.ScanStats
	if filter != nil {
		stats = &reader.ScanStats{}
		if o.Stats {
			defer func() { fmt.Fprintln(f.Stderr, scanStatsLine(stats.Counts())) }()
		}
	}
	o.Table.filter, o.Table.stats = filter, stats
	// Only the Arrow output carries dictionary arrays; the other formats
	// print values, which are the same either way.
	o.Table.dictionary = o.Dictionary && o.Format == formatArrow
	if o.Catalog.URL != "" && len(o.Paths) != 1 {
		return usageError{fmt.Errorf("--catalog takes one TABLE, NS.TABLE")}
	}
	if len(o.Paths) == 1 && (isTable(o.Paths[0]) || o.Catalog.applies(o.Paths[0])) {
		if o.Schema != (schemaFlags{}) {
			return usageError{fmt.Errorf("--schema, --file-schema, --name-mapping and --rules apply to data files; a table brings its own schemas, name mapping and rules")}
		}
		return catTable(ctx, f, o)
	}
	workers := o.Table.Workers
	if workers < 0 {
		return usageError{fmt.Errorf("--workers must be ≥ 0")}
	}
	// --workers and --memory apply to data files too.
	if given := o.Table.givenFlags("workers", "memory"); len(given) > 0 {
		verb := "applies"
		if len(given) > 1 {
			verb = "apply"
		}
		return usageError{fmt.Errorf("%s %s to a TABLE, not to data files", strings.Join(given, ", "), verb)}
	}
	budget := int64(defaultMemory)
	if o.Table.Memory != "" {
		if budget, err = parseBytes(o.Table.Memory); err != nil {
			return usageError{err}
		}
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
	given := ropts // the schema flags as given
	if ropts.ReadSchema == nil && (len(o.Columns) > 0 || len(inputs) > 1) {
		// One read schema for every file (a scan of several files needs
		// it): the first file's own.
		if err := firstFileSchema(inputs[0], &ropts); err != nil {
			return err
		}
	}
	// out is the schema printed when the filter reads columns --columns
	// leaves out (as a table read does: bound to the full read schema, its
	// columns read, the rows filtered, then narrowed); nil otherwise.
	var out *schema.Schema
	if len(o.Columns) > 0 {
		var filterIDs []int
		if filter != nil {
			b, err := table.BindFilter(filter, ropts.ReadSchema)
			if err != nil {
				return fmt.Errorf("%s: filter: %w", inputs[0].name, err)
			}
			filterIDs = b.ColumnIDs()
		}
		sel, narrowed, err := table.SelectForFilter(ropts.ReadSchema, o.Columns, filterIDs)
		if err != nil {
			return err
		}
		ropts.ReadSchema, out = sel, narrowed
	}
	ropts.BatchRows = o.BatchRows
	ropts.Allocator = memory.DefaultAllocator
	ropts.Filter, ropts.Stats = filter, stats
	ropts.Dictionary = o.Table.dictionary && out == nil
	narrow := func(rr array.RecordReader) array.RecordReader {
		if out == nil {
			return rr
		}
		return reader.NarrowReader(rr, out, o.Table.dictionary, ropts.Allocator)
	}

	// Open every file (footer, schema resolution, plan) before printing
	// anything, so that a bad file or schema fails the command with nothing
	// on stdout. An error inside the data of a later file can still come
	// after rows were streamed; the exit code says so.
	readers := make([]array.RecordReader, 0, len(inputs))
	defer func() {
		for _, rr := range readers {
			rr.Release()
		}
	}()
	for i, in := range inputs {
		opts := ropts
		opts.Name = in.name
		if len(inputs) == 1 {
			opts.Workers = workers
			if workers == 0 {
				opts.Workers = runtime.GOMAXPROCS(0)
			}
		} else {
			// These readers only check the files; the scan below reads
			// them again and counts them once (Open counts the files
			// and row groups its filter skips).
			opts.Stats = nil
		}
		if i > 0 && given.ReadSchema == nil && len(o.Columns) == 0 {
			// Each file read in its own schema must give the first's.
			own := given
			if err := firstFileSchema(in, &own); err != nil {
				return err
			}
			if !schema.ToArrowSchema(own.ReadSchema).Equal(schema.ToArrowSchema(ropts.ReadSchema)) {
				return usageError{fmt.Errorf("%s: schema differs from %s; give --schema to read both in one schema", in.name, inputs[0].name)}
			}
		}
		rr, err := reader.Open(ctx, in.r, in.size, opts)
		if err != nil {
			return err
		}
		readers = append(readers, rr)
		if !rr.Schema().Equal(readers[0].Schema()) {
			return usageError{fmt.Errorf("%s: schema differs from %s; give --schema to read both in one schema", in.name, inputs[0].name)}
		}
	}
	read := ropts.ReadSchema
	if read == nil {
		read, _, _ = reader.FileSchema(inputs[0].r, inputs[0].size)
	}
	if out != nil {
		read = out
	}
	readers[0] = narrow(readers[0])
	w, err := newBatchWriter(o.Format, f.Stdout, readers[0].Schema(), read, ropts.Allocator)
	if err != nil {
		return err
	}
	if len(readers) == 1 {
		if _, err = copyRows(w, readers[0], o.Limit); err != nil {
			return err
		}
		return w.Close()
	}
	// Several files: one scan of all of them, in argument order, --workers
	// files decoded at once (each file's row groups one after another).
	for _, rr := range readers {
		rr.Release()
	}
	readers = readers[:0]
	tasks := make([]reader.FileTask, len(inputs))
	for i, in := range inputs {
		opts := ropts
		opts.Name, opts.Workers = in.name, 0
		tasks[i] = reader.FileTask{Name: in.name, Options: opts,
			Open: func(context.Context) (io.ReaderAt, int64, func() error, error) { return in.r, in.size, nil, nil }}
	}
	if lim := memoryLimit(budget); lim > 0 && f.SetMemoryLimit != nil {
		f.SetMemoryLimit(lim)
	}
	rr, err := reader.ScanFiles(ctx, tasks, reader.ScanOptions{Workers: workers, MemoryBytes: budget})
	if err != nil {
		return err
	}
	rr = narrow(rr)
	defer rr.Release()
	if _, err = copyRows(w, rr, o.Limit); err != nil {
		return err
	}
	return w.Close()
}

// firstFileSchema sets ropts.ReadSchema to the schema cat reads in the data
// file in: its own, with the ids --file-schema or --name-mapping give its
// columns, or, for a file without ids, its columns located by name (then
// ropts.WriterSchema is set to it too).
func firstFileSchema(in *input, ropts *reader.Options) error {
	s, _, err := reader.FileSchema(in.r, in.size)
	if err != nil {
		return fmt.Errorf("%s: %w", in.name, err)
	}
	switch {
	case ropts.WriterSchema != nil || ropts.NameMapping != nil:
		if s, err = reader.ResolveFileSchema(s, ropts.WriterSchema, ropts.NameMapping); err != nil {
			return fmt.Errorf("%s: %w", in.name, err)
		}
		s = reader.SelfDescribed(s)
	case !s.HasIDs():
		s = reader.SelfDescribed(s)
		ropts.WriterSchema = s
	}
	ropts.ReadSchema = s
	return nil
}

// catTable prints a whole table: every live data file read through its own
// schema and aligned to the table's read schema.
func catTable(ctx context.Context, f *factory, o *catOptions) error {
	var t *reader.Table
	var err error
	if o.Catalog.applies(o.Paths[0]) {
		t, err = openCatalogTable(ctx, f, &o.Catalog, o.Paths[0], &o.Table, o.Columns, o.BatchRows)
	} else {
		t, err = openTable(ctx, f, o.Paths[0], &o.Table, o.Columns, o.BatchRows)
	}
	if err != nil {
		return err
	}
	budget := int64(defaultMemory)
	if o.Table.Memory != "" {
		budget, _ = parseBytes(o.Table.Memory) // checked by openTable
	}
	if lim := memoryLimit(budget); lim > 0 && f.SetMemoryLimit != nil {
		f.SetMemoryLimit(lim)
	}
	rr, err := t.Scan(ctx)
	if err != nil {
		return err
	}
	defer rr.Release()
	w, err := newBatchWriter(o.Format, f.Stdout, rr.Schema(), t.OutputSchema(), memory.DefaultAllocator)
	if err != nil {
		return err
	}
	if _, err := copyRows(w, rr, o.Limit); err != nil {
		return err // rows already printed stay; the exit code says the read failed
	}
	clearProgress(f)
	return w.Close()
}

// copyRows writes rr's batches to w, at most limit rows (negative: all),
// and returns how many of the limit remain.
func copyRows(w batchWriter, rr array.RecordReader, limit int64) (int64, error) {
	for limit != 0 && rr.Next() {
		rec := rr.RecordBatch()
		var err error
		if limit > 0 && rec.NumRows() > limit {
			s := rec.NewSlice(0, limit)
			err = w.Write(s)
			s.Release()
			limit = 0
		} else {
			err = w.Write(rec)
			if limit > 0 {
				limit -= rec.NumRows()
			}
		}
		if err != nil {
			return limit, err
		}
	}
	return limit, rr.Err()
}
