package parquet

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"runtime"
	"testing"

	"github.com/lakecat/lakecat/schema"
)

// BenchmarkDecodeFileColumns decodes the Parquet file the environment
// variable LAKECAT_BENCH_PARQUET names (for instance one of lakebench's
// DuckDB-written shapes), the whole file and then one top-level column at a
// time, reporting CPU ns per row. It is skipped when the variable is unset.
func BenchmarkDecodeFileColumns(b *testing.B) {
	path := os.Getenv("LAKECAT_BENCH_PARQUET")
	if path == "" {
		b.Skip("LAKECAT_BENCH_PARQUET names no file")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("all", func(b *testing.B) { benchProjection(b, data, f.Schema()) })
	for _, fld := range f.Schema().Fields {
		proj := f.Schema().Clone()
		proj.Fields = []*schema.Field{proj.Fields[indexOfField(proj, fld.ID)]}
		b.Run(fld.Name, func(b *testing.B) { benchProjection(b, data, proj) })
	}
}

func indexOfField(s *schema.Schema, id int) int {
	for i, f := range s.Fields {
		if f.ID == id {
			return i
		}
	}
	return -1
}

func benchProjection(b *testing.B, data []byte, proj *schema.Schema) {
	var rows int64
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	runtime.GC()
	b.ResetTimer()
	cpu0 := cpuNanos()
	for i := 0; i < b.N; i++ {
		f, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			b.Fatal(err)
		}
		rows = f.NumRows()
		br, err := f.NewBatchReader(proj, BatchOptions{})
		if err != nil {
			b.Fatal(err)
		}
		n := int64(0)
		for {
			rec, err := br.Next(context.Background())
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n += rec.NumRows()
			rec.Release()
		}
		br.Close()
		if n != rows {
			b.Fatalf("%d rows, want %d", n, rows)
		}
	}
	b.ReportMetric(float64(cpuNanos()-cpu0)/float64(int64(b.N)*rows), "cpu-ns/row")
}
