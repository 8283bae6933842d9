package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
)

// batchRows is the batch size of every reader (lakecat and pqarrow).
const batchRows = 64 * 1024

// alloc allocates every Arrow buffer of the lakecat readers (tests swap in
// a checked allocator); pqarrow always uses memory.DefaultAllocator (its
// DELTA_BINARY_PACKED decoder does not free 64-byte scratch blocks, which a
// checked allocator reports).
var alloc memory.Allocator = memory.DefaultAllocator

// evolvedSchema is the read schema of the evolved variants: the six file
// columns reordered, s renamed to name, i promoted int→long (and renamed),
// f promoted float→double (and renamed), dec widened decimal(18,2) →
// decimal(28,2) and renamed, and a column added after the file was written
// (id 7, null-filled).
func evolvedSchema() *schema.Schema {
	return schema.New(2,
		&schema.Field{ID: 6, Name: "amount", Type: schema.Decimal(28, 2)},
		&schema.Field{ID: 5, Name: "name", Type: schema.String},
		&schema.Field{ID: 1, Name: "i_wide", Type: schema.Long},
		&schema.Field{ID: 3, Name: "f_wide", Type: schema.Double},
		&schema.Field{ID: 7, Name: "added", Type: schema.Long},
		&schema.Field{ID: 4, Name: "d", Type: schema.Double},
		&schema.Field{ID: 2, Name: "l", Type: schema.Long},
	)
}

// icebergFileSchema and icebergEvolvedSchema are the same two schemas in
// iceberg-go's types.
func icebergFileSchema() *iceberg.Schema {
	return iceberg.NewSchema(0,
		iceberg.NestedField{ID: 1, Name: "i", Type: iceberg.PrimitiveTypes.Int32},
		iceberg.NestedField{ID: 2, Name: "l", Type: iceberg.PrimitiveTypes.Int64},
		iceberg.NestedField{ID: 3, Name: "f", Type: iceberg.PrimitiveTypes.Float32},
		iceberg.NestedField{ID: 4, Name: "d", Type: iceberg.PrimitiveTypes.Float64},
		iceberg.NestedField{ID: 5, Name: "s", Type: iceberg.PrimitiveTypes.String},
		iceberg.NestedField{ID: 6, Name: "dec", Type: iceberg.DecimalTypeOf(18, 2)},
	)
}

func icebergEvolvedSchema() *iceberg.Schema {
	return iceberg.NewSchema(2,
		iceberg.NestedField{ID: 6, Name: "amount", Type: iceberg.DecimalTypeOf(28, 2)},
		iceberg.NestedField{ID: 5, Name: "name", Type: iceberg.PrimitiveTypes.String},
		iceberg.NestedField{ID: 1, Name: "i_wide", Type: iceberg.PrimitiveTypes.Int64},
		iceberg.NestedField{ID: 3, Name: "f_wide", Type: iceberg.PrimitiveTypes.Float64},
		iceberg.NestedField{ID: 7, Name: "added", Type: iceberg.PrimitiveTypes.Int64},
		iceberg.NestedField{ID: 4, Name: "d", Type: iceberg.PrimitiveTypes.Float64},
		iceberg.NestedField{ID: 2, Name: "l", Type: iceberg.PrimitiveTypes.Int64},
	)
}

// sink keeps the deliberate per-row allocations of LAKEBENCH_SLOW alive.
var sink *[16]int64

// drain reads rr to the end and returns the rows it saw. With slow set it
// allocates once per row: the deliberately slowed build that shows the CI
// gate failing (LAKEBENCH_SLOW=evolved or =plain: a 128-byte object per
// row; never in the library).
func drain(rr array.RecordReader, slow bool) (int64, error) {
	defer rr.Release()
	var n int64
	for rr.Next() {
		rec := rr.RecordBatch()
		if slow {
			for j := int64(0); j < rec.NumRows(); j++ {
				sink = &[16]int64{j, n}
			}
		}
		n += rec.NumRows()
	}
	return n, rr.Err()
}

// arrowBytes is the byte size of the Arrow buffers of one read of rr.
func arrowBytes(rr array.RecordReader, keep bool) (int64, [][]byte, error) {
	defer rr.Release()
	var n int64
	var bufs [][]byte
	for rr.Next() {
		rec := rr.RecordBatch()
		for _, col := range rec.Columns() {
			for _, b := range col.Data().Buffers() {
				if b != nil {
					n += int64(b.Len())
					if keep {
						bufs = append(bufs, bytes.Clone(b.Bytes()))
					}
				}
			}
		}
	}
	return n, bufs, rr.Err()
}

func openLakecat(ctx context.Context, data []byte, read *schema.Schema) (array.RecordReader, error) {
	return openLakecatWith(ctx, data, read, alloc)
}

func openLakecatWith(ctx context.Context, data []byte, read *schema.Schema, mem memory.Allocator) (array.RecordReader, error) {
	return reader.Open(ctx, bytes.NewReader(data), int64(len(data)), reader.Options{
		ReadSchema: read, Rules: project.IcebergV2, BatchRows: batchRows, Allocator: mem})
}

func openPqarrow(ctx context.Context, data []byte, parallel bool) (pqarrow.RecordReader, error) {
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{Parallel: parallel, BatchSize: batchRows}, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	return fr.GetRecordReader(ctx, nil, nil)
}

// setup generates the files and returns the variants in the order they
// run within a round.
func setup(ctx context.Context, cfg config) ([]*variant, error) {
	ds := generate(cfg.rows, 42)
	rows := int64(cfg.rows)
	slowPlain := cfg.slow == "plain"
	slowEvolved := cfg.slow == "evolved"
	evolved := evolvedSchema()
	iceFile, iceRead := icebergFileSchema(), icebergEvolvedSchema()
	var vs []*variant
	for _, codec := range cfg.codecs {
		pqData, err := writeParquet(ds, codec, cfg.rowGroup)
		if err != nil {
			return nil, fmt.Errorf("writing parquet: %w", err)
		}
		var partData [][]byte
		per := (cfg.rows + cfg.parts - 1) / cfg.parts
		for lo := 0; lo < cfg.rows; lo += per {
			b, err := writeParquet(ds.slice(lo, min(cfg.rows, lo+per)), codec, cfg.rowGroup)
			if err != nil {
				return nil, fmt.Errorf("writing parquet part: %w", err)
			}
			partData = append(partData, b)
		}
		fileSchema, _, err := reader.FileSchema(bytes.NewReader(pqData), int64(len(pqData)))
		if err != nil {
			return nil, err
		}
		rr, err := openLakecat(ctx, pqData, nil)
		if err != nil {
			return nil, err
		}
		decoded, bufs, err := arrowBytes(rr, true)
		if err != nil {
			return nil, err
		}
		orcData, err := writeORC(ds, codec, cfg.orcStripeRows(decoded))
		if err != nil {
			return nil, fmt.Errorf("writing orc: %w", err)
		}
		if cfg.keep {
			os.WriteFile(cfg.tmpPath("data-"+codec+".parquet"), pqData, 0o644)
			os.WriteFile(cfg.tmpPath("data-"+codec+".orc"), orcData, 0o644)
		}
		floor, err := newFloor(pqData)
		if err != nil {
			return nil, fmt.Errorf("floor: %w", err)
		}
		add := func(name string, fn func(ctx context.Context) (int64, error)) {
			vs = append(vs, &variant{name: name, codec: codec, rows: rows, bytes: decoded, fn: fn})
		}
		dvs, err := duckVariants(cfg, codec, pqData, rows, decoded)
		if err != nil {
			return nil, err
		}
		add("lakecat/plain", func(ctx context.Context) (int64, error) {
			rr, err := openLakecat(ctx, pqData, nil)
			if err != nil {
				return 0, err
			}
			return drain(rr, slowPlain)
		})
		add("lakecat/dictionary", func(ctx context.Context) (int64, error) {
			rr, err := reader.Open(ctx, bytes.NewReader(pqData), int64(len(pqData)), reader.Options{
				Rules: project.IcebergV2, BatchRows: batchRows, Allocator: alloc, Dictionary: true})
			if err != nil {
				return 0, err
			}
			return drain(rr, slowPlain)
		})
		if cfg.poolVariant {
			pool := &poolAllocator{}
			add("x/lakecat/plain+pool", func(ctx context.Context) (int64, error) {
				rr, err := openLakecatWith(ctx, pqData, nil, pool)
				if err != nil {
					return 0, err
				}
				return drain(rr, false)
			})
		}
		add("lakecat/evolved", func(ctx context.Context) (int64, error) {
			rr, err := openLakecat(ctx, pqData, evolved)
			if err != nil {
				return 0, err
			}
			return drain(rr, slowEvolved)
		})
		add("lakecat/plain-parallel", func(ctx context.Context) (int64, error) {
			tasks := make([]reader.FileTask, len(partData))
			for i, b := range partData {
				tasks[i] = reader.FileTask{
					Name: fmt.Sprintf("part-%d", i),
					Open: func(context.Context) (io.ReaderAt, int64, func() error, error) {
						return bytes.NewReader(b), int64(len(b)), nil, nil
					},
					Options: reader.Options{ReadSchema: fileSchema, Rules: project.IcebergV2, BatchRows: batchRows, Allocator: alloc},
				}
			}
			rr, err := reader.ScanFiles(ctx, tasks, reader.ScanOptions{Workers: cfg.workers})
			if err != nil {
				return 0, err
			}
			return drain(rr, slowPlain)
		})
		add("lakecat-orc/plain", func(ctx context.Context) (int64, error) {
			rr, err := openLakecat(ctx, orcData, nil)
			if err != nil {
				return 0, err
			}
			return drain(rr, false)
		})
		add("lakecat-orc/evolved", func(ctx context.Context) (int64, error) {
			rr, err := openLakecat(ctx, orcData, evolved)
			if err != nil {
				return 0, err
			}
			return drain(rr, false)
		})
		add("pqarrow/serial", func(ctx context.Context) (int64, error) {
			rr, err := openPqarrow(ctx, pqData, false)
			if err != nil {
				return 0, err
			}
			return drain(rr, false)
		})
		add("pqarrow/parallel", func(ctx context.Context) (int64, error) {
			rr, err := openPqarrow(ctx, pqData, true)
			if err != nil {
				return 0, err
			}
			return drain(rr, false)
		})
		add("iceberg-go/evolved", func(ctx context.Context) (int64, error) {
			rr, err := openPqarrow(ctx, pqData, false)
			if err != nil {
				return 0, err
			}
			defer rr.Release()
			var n int64
			for rr.Next() {
				out, err := table.ToRequestedSchema(ctx, iceRead, iceFile, rr.RecordBatch(),
					table.SchemaOptions{FormatVersion: 2, IncludeFieldIDs: true})
				if err != nil {
					return n, err
				}
				n += out.NumRows()
				out.Release()
			}
			return n, rr.Err()
		})
		add("floor/decompress", func(context.Context) (int64, error) {
			if err := floor.decompress(); err != nil {
				return 0, err
			}
			return rows, nil
		})
		dst := make([]byte, decoded)
		add("floor/copy", func(context.Context) (int64, error) {
			off := 0
			for _, b := range bufs {
				off += copy(dst[off:], b)
			}
			return rows, nil
		})
		vs = append(vs, dvs...)
		pvs, err := parallelVariants(cfg, codec, ds, pqData, fileSchema, decoded)
		if err != nil {
			return nil, err
		}
		vs = append(vs, pvs...)
	}
	tvs, err := tableVariants(ctx, cfg, ds)
	if err != nil {
		return nil, err
	}
	dvs, err := deleteVariants(cfg, ds)
	if err != nil {
		return nil, err
	}
	return append(append(vs, tvs...), dvs...), nil
}

// tableVariants writes the Iceberg and Paimon tables and returns their
// scans with one worker and with GOMAXPROCS workers.
func tableVariants(ctx context.Context, cfg config, ds *dataset) ([]*variant, error) {
	var vs []*variant
	for _, format := range []string{"iceberg", "paimon"} {
		dir := cfg.tmpPath(format)
		write := writeIcebergTable
		if format == "paimon" {
			write = writePaimonTable
		}
		if err := write(dir, ds, cfg.rowGroup); err != nil {
			return nil, fmt.Errorf("writing %s table: %w", format, err)
		}
		scan := func(workers int) func(ctx context.Context) (int64, error) {
			return func(ctx context.Context) (int64, error) {
				t, err := reader.OpenTable(ctx, dir, reader.TableOptions{Workers: workers, BatchRows: batchRows, Allocator: alloc})
				if err != nil {
					return 0, err
				}
				rr, err := t.Scan(ctx)
				if err != nil {
					return 0, err
				}
				return drain(rr, false)
			}
		}
		// Bytes credited: the Arrow size of the scan's output.
		t, err := reader.OpenTable(ctx, dir, reader.TableOptions{BatchRows: batchRows, Allocator: alloc})
		if err != nil {
			return nil, fmt.Errorf("%s table: %w", format, err)
		}
		rr, err := t.Scan(ctx)
		if err != nil {
			return nil, fmt.Errorf("%s table: %w", format, err)
		}
		n, _, err := arrowBytes(rr, false)
		if err != nil {
			return nil, fmt.Errorf("%s table: %w", format, err)
		}
		workers := []int{1}
		if cfg.workers > 1 {
			workers = append(workers, cfg.workers)
		}
		for _, w := range workers {
			vs = append(vs, &variant{name: fmt.Sprintf("table/%s/%d", format, w), codec: "snappy", rows: int64(ds.n), bytes: n, fn: scan(w)})
		}
	}
	return vs, nil
}
