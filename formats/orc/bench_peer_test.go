//go:build pqpeer

// The Parquet peer benchmark lives behind the pqpeer build tag so that the
// package's fuzz builds do not instrument all of arrow-go's parquet stack.
// Run: go test -tags pqpeer -run '^$' -bench . ./formats/orc

package orc

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// BenchmarkPqarrowGenerated reads the same data written as Parquet (ZSTD,
// dictionary on) with arrow-go's pqarrow, as a peer figure in the same run.
func BenchmarkPqarrowGenerated(b *testing.B) {
	ids, qty, opt, present, price, names, cities, secs := generated(genRows)
	mem := memory.NewGoAllocator()
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "price", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "city", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "opt", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "ts", Type: arrow.FixedWidthTypes.Timestamp_ns, Nullable: true},
	}, nil)
	bld := array.NewRecordBuilder(mem, sc)
	defer bld.Release()
	j := 0
	for i := range genRows {
		bld.Field(0).(*array.Int64Builder).Append(ids[i])
		bld.Field(1).(*array.Int32Builder).Append(int32(qty[i]))
		bld.Field(2).(*array.Float64Builder).Append(price[i])
		bld.Field(3).(*array.StringBuilder).Append(names[i])
		bld.Field(4).(*array.StringBuilder).Append(cities[i])
		if present[i] == 0 {
			bld.Field(5).AppendNull()
		} else {
			bld.Field(5).(*array.Int64Builder).Append(opt[j])
			j++
		}
		bld.Field(6).(*array.TimestampBuilder).Append(arrow.Timestamp(secs[i] * 1e9))
	}
	rec := bld.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(sc, &buf, parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithMaxRowGroupLength(genRows)), pqarrow.DefaultWriterProps())
	if err != nil {
		b.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		b.Fatal(err)
	}
	w.Close()
	data := buf.Bytes()
	read := func() (rows, size int64) {
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 64 << 10}, mem)
		if err != nil {
			b.Fatal(err)
		}
		rr, err := fr.GetRecordReader(context.Background(), nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer rr.Release()
		for rr.Next() {
			r := rr.RecordBatch()
			rows += r.NumRows()
			size += arrowBytes(r)
		}
		return
	}
	rows, size := read()
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		read()
	}
	b.ReportMetric(float64(rows)*float64(b.N)/time.Since(start).Seconds(), "rows/s")
}
