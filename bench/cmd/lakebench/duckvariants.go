package main

import (
	"context"
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/reader"
)

// duckDBs are the two DuckDB databases every DuckDB variant runs in: one
// thread and GOMAXPROCS threads. They stay open for the whole run.
var duckDBs struct{ serial, parallel *duck }

func duckFor(parallel bool, threads int) (*duck, error) {
	p := &duckDBs.serial
	if parallel {
		p = &duckDBs.parallel
	}
	if *p == nil {
		d, err := openDuck(threads)
		if err != nil {
			return nil, err
		}
		*p = d
	}
	return *p, nil
}

// duckFileIDs is the FIELD_IDS option that gives DuckDB's copy of the
// generated data set the field ids of lakebench's own files.
const duckFileIDs = "{i: 1, l: 2, f: 3, d: 4, s: 5, dec: 6}"

// duckVariants writes the generated data set (pqData, parquet-go's file)
// again with DuckDB's Parquet writer (dictionary pages, RLE levels: what
// real writers produce) and returns the variants that read that copy:
//
//	lakecat/duckdb-file  reader.Open on DuckDB's file (an *os.File)
//	pqarrow/duckdb-file  pqarrow's record reader on it
//	duckdb/scan          DuckDB's SELECT * of it, one thread, every chunk
//	                     fetched and dropped
//	duckdb/parallel      the same with GOMAXPROCS threads
//	duckdb/arrow         duckdb/scan with every chunk converted to an Arrow
//	                     record batch (builds with -tags duckdb_arrow only)
//	floor/duckdb-file    decompression alone of every page of DuckDB's file
//	                     (the part of a read no decoder can avoid; the gate
//	                     compares decode time above it)
func duckVariants(cfg config, codec string, pqData []byte, rows, decoded int64) ([]*variant, error) {
	src := cfg.tmpPath("data-" + codec + ".parquet")
	if err := os.WriteFile(src, pqData, 0o644); err != nil {
		return nil, err
	}
	path := cfg.tmpPath("duckdb-" + codec + ".parquet")
	w, err := openDuckWriter()
	if err != nil {
		return nil, err
	}
	err = w.copyTo("SELECT * FROM read_parquet("+sqlString(src)+")", path, codec, duckFileIDs, cfg.rowGroup)
	w.close()
	if err != nil {
		return nil, err
	}
	vs, err := fileVariants(cfg, path, codec, "/duckdb-file", rows, decoded)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	fl, err := newFloor(data)
	if err != nil {
		return nil, fmt.Errorf("floor of %s: %w", path, err)
	}
	vs = append(vs, &variant{name: "floor/duckdb-file", codec: codec, rows: rows, bytes: decoded,
		fn: func(context.Context) (int64, error) { return rows, fl.decompress() }})
	return vs, nil
}

// fileVariants returns lakecat's, pqarrow's and DuckDB's reads of the
// Parquet file at path, named with suffix after lakecat and pqarrow.
func fileVariants(cfg config, path, codec, suffix string, rows, decoded int64) ([]*variant, error) {
	serial, err := duckFor(false, 1)
	if err != nil {
		return nil, err
	}
	parallel, err := duckFor(true, cfg.workers)
	if err != nil {
		return nil, err
	}
	var vs []*variant
	add := func(name string, fn func(ctx context.Context) (int64, error)) {
		vs = append(vs, &variant{name: name, codec: codec, rows: rows, bytes: decoded, fn: fn})
	}
	add("lakecat"+suffix, func(ctx context.Context) (int64, error) {
		return readFile(path, func(f *os.File, size int64) (array.RecordReader, error) {
			return reader.Open(ctx, f, size, reader.Options{Rules: project.IcebergV2, BatchRows: batchRows, Allocator: alloc})
		})
	})
	if suffix == "/duckdb-file" || cfg.dictionary {
		// Options.Dictionary: the decoder's dictionary pages handed
		// through, against the same dictionary encoding done at the
		// output on the plain read's batches (what the option did before
		// the decoder handed pages through).
		add("lakecat"+suffix+"-dictionary", func(ctx context.Context) (int64, error) {
			return readFile(path, func(f *os.File, size int64) (array.RecordReader, error) {
				return reader.Open(ctx, f, size, reader.Options{Rules: project.IcebergV2, BatchRows: batchRows, Allocator: alloc, Dictionary: true})
			})
		})
		add("lakecat"+suffix+"-dictionary-output", func(ctx context.Context) (int64, error) {
			return readFile(path, func(f *os.File, size int64) (array.RecordReader, error) {
				sc, _, err := reader.FileSchema(f, size)
				if err != nil {
					return nil, err
				}
				rr, err := reader.Open(ctx, f, size, reader.Options{Rules: project.IcebergV2, BatchRows: batchRows, Allocator: alloc})
				if err != nil {
					return nil, err
				}
				return reader.NarrowReader(rr, reader.SelfDescribed(sc), true, alloc), nil
			})
		})
	}
	add("pqarrow"+suffix, func(ctx context.Context) (int64, error) {
		return readFile(path, func(f *os.File, size int64) (array.RecordReader, error) {
			return openPqarrowFile(ctx, f)
		})
	})
	q := scanQuery(path)
	add("duckdb/scan", func(context.Context) (int64, error) { return serial.stream(q, nil) })
	add("duckdb/parallel", func(context.Context) (int64, error) { return parallel.stream(q, nil) })
	if haveDuckArrow {
		add("duckdb/arrow", func(context.Context) (int64, error) {
			return serial.streamArrow(q, func(arrow.RecordBatch) error { return nil })
		})
	}
	return vs, nil
}

// readFile opens path, reads every batch of the reader open makes of it
// and returns the rows.
func readFile(path string, open func(f *os.File, size int64) (array.RecordReader, error)) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	rr, err := open(f, st.Size())
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return drain(rr, false)
}

func openPqarrowFile(ctx context.Context, f *os.File) (pqarrow.RecordReader, error) {
	pf, err := file.NewParquetReader(f)
	if err != nil {
		return nil, err
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: batchRows}, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	return fr.GetRecordReader(ctx, nil, nil)
}
