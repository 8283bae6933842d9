package parquet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"
)

// benchRows is the number of rows of the generated benchmark files.
const benchRows = 1 << 20

type flatBenchRow struct {
	I   *int32   `parquet:"i,optional"`
	L   *int64   `parquet:"l,optional"`
	F   *float32 `parquet:"f,optional"`
	D   *float64 `parquet:"d,optional"`
	S   *string  `parquet:"s,optional"`
	Dec *int64   `parquet:"dec,optional,decimal(2:18)"`
}

type benchItem struct {
	A int64  `parquet:"a"`
	B string `parquet:"b"`
}

type listBenchRow struct {
	Items []benchItem `parquet:"items,optional,list"`
}

type mapBenchRow struct {
	Tags map[string][]string `parquet:"tags,optional" parquet-value:",list"`
}

var benchFiles sync.Map // name → []byte

// benchFile returns the bytes of a generated benchmark file, cached on disk
// under the test cache directory of the process.
func benchFile(b *testing.B, name string) []byte {
	if v, ok := benchFiles.Load(name); ok {
		return v.([]byte)
	}
	path := filepath.Join(os.TempDir(), "lakecat-bench-"+name+".parquet")
	if data, err := os.ReadFile(path); err == nil {
		benchFiles.Store(name, data)
		return data
	}
	var buf bytes.Buffer
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett-kilo-lima"}
	switch name {
	case "flat":
		w := pq.NewGenericWriter[flatBenchRow](&buf, pq.Compression(&snappy.Codec{}), pq.PageBufferSize(1<<20))
		rows := make([]flatBenchRow, 0, 4096)
		for i := 0; i < benchRows; i++ {
			var r flatBenchRow
			if rng.IntN(10) != 0 {
				v := int32(rng.Int32())
				r.I = &v
			}
			if rng.IntN(10) != 0 {
				v := rng.Int64()
				r.L = &v
			}
			if rng.IntN(10) != 0 {
				v := rng.Float32()
				r.F = &v
			}
			if rng.IntN(10) != 0 {
				v := rng.Float64()
				r.D = &v
			}
			if rng.IntN(10) != 0 {
				v := fmt.Sprintf("%s-%d", words[rng.IntN(len(words))], rng.IntN(100000))
				r.S = &v
			}
			if rng.IntN(10) != 0 {
				v := rng.Int64N(1_000_000_000_000) - 500_000_000_000
				r.Dec = &v
			}
			rows = append(rows, r)
			if len(rows) == cap(rows) {
				if _, err := w.Write(rows); err != nil {
					b.Fatal(err)
				}
				rows = rows[:0]
			}
		}
		if _, err := w.Write(rows); err != nil {
			b.Fatal(err)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	case "list":
		w := pq.NewGenericWriter[listBenchRow](&buf, pq.Compression(&snappy.Codec{}), pq.PageBufferSize(1<<20))
		rows := make([]listBenchRow, 0, 4096)
		for i := 0; i < benchRows/4; i++ {
			var r listBenchRow
			if rng.IntN(10) != 0 {
				n := rng.IntN(7)
				r.Items = make([]benchItem, n)
				for j := range r.Items {
					r.Items[j] = benchItem{A: rng.Int64N(1 << 40), B: words[rng.IntN(len(words))]}
				}
			}
			rows = append(rows, r)
			if len(rows) == cap(rows) {
				if _, err := w.Write(rows); err != nil {
					b.Fatal(err)
				}
				rows = rows[:0]
			}
		}
		w.Write(rows)
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	case "map":
		w := pq.NewGenericWriter[mapBenchRow](&buf, pq.Compression(&snappy.Codec{}), pq.PageBufferSize(1<<20))
		rows := make([]mapBenchRow, 0, 4096)
		for i := 0; i < benchRows/4; i++ {
			var r mapBenchRow
			if rng.IntN(10) != 0 {
				n := rng.IntN(4)
				r.Tags = make(map[string][]string, n)
				for j := 0; j < n; j++ {
					k := fmt.Sprintf("k%d", j)
					vals := make([]string, rng.IntN(4))
					for x := range vals {
						vals[x] = words[rng.IntN(len(words))]
					}
					r.Tags[k] = vals
				}
			}
			rows = append(rows, r)
			if len(rows) == cap(rows) {
				if _, err := w.Write(rows); err != nil {
					b.Fatal(err)
				}
				rows = rows[:0]
			}
		}
		w.Write(rows)
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	data := buf.Bytes()
	_ = os.WriteFile(path, data, 0o644)
	benchFiles.Store(name, data)
	return data
}

// cpuNanos returns the CPU time (user + system, all threads, GC included)
// the process has used. Wall time is meaningless on a loaded machine; CPU
// time per row is what the benchmarks compare.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func benchLakecat(b *testing.B, data []byte) { benchLakecatOpts(b, data, BatchOptions{}) }

// benchLakecatOpts reads every row of data with opts (every column), per
// row of the file; rows of opts.Skip are left out.
func benchLakecatOpts(b *testing.B, data []byte, opts BatchOptions) {
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
		br, err := f.NewBatchReader(f.Schema(), opts)
		if err != nil {
			b.Fatal(err)
		}
		n := int64(0)
		if opts.Skip != nil {
			n = int64(opts.Skip.GetCardinality())
		}
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
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*rows), "ns/row")
	b.ReportMetric(float64(cpuNanos()-cpu0)/float64(int64(b.N)*rows), "cpu-ns/row")
}

func benchPQArrow(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	runtime.GC()
	b.ResetTimer()
	cpu0 := cpuNanos()
	var rows int64
	for i := 0; i < b.N; i++ {
		pr, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		fr, err := pqarrow.NewFileReader(pr, pqarrow.ArrowReadProperties{BatchSize: DefaultBatchRows}, memory.DefaultAllocator)
		if err != nil {
			b.Fatal(err)
		}
		rr, err := fr.GetRecordReader(context.Background(), nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		rows = 0
		for rr.Next() {
			rows += rr.RecordBatch().NumRows()
		}
		if err := rr.Err(); err != nil {
			b.Fatal(err)
		}
		rr.Release()
		pr.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*rows), "ns/row")
	b.ReportMetric(float64(cpuNanos()-cpu0)/float64(int64(b.N)*rows), "cpu-ns/row")
}

// BenchmarkDecodeFlat decodes a generated 1,048,576-row file (int, long,
// float, double, string, decimal(18,2); 10% nulls; snappy) with this package
// and, as the baseline, with arrow-go's pqarrow (serial).
func BenchmarkDecodeFlat(b *testing.B) {
	data := benchFile(b, "flat")
	b.Run("lakecat", func(b *testing.B) { benchLakecat(b, data) })
	b.Run("pqarrow", func(b *testing.B) { benchPQArrow(b, data) })
}

// BenchmarkSkipPos10 decodes the file of BenchmarkDecodeFlat whole (none)
// and leaving out lakebench's table/deletes/pos10 positions (pos10, 10% of
// the rows scattered; [BatchOptions.Skip]); per row of the file.
func BenchmarkSkipPos10(b *testing.B) {
	data := benchFile(b, "flat")
	skip := skipPatterns(benchRows)["pos10"]
	b.Run("none", func(b *testing.B) { benchLakecatOpts(b, data, BatchOptions{}) })
	b.Run("pos10", func(b *testing.B) { benchLakecatOpts(b, data, BatchOptions{Skip: skip}) })
}

// BenchmarkDecodeListStruct decodes a list<struct<a long, b string>> column
// (262,144 rows, 0–6 elements, 10% null lists).
func BenchmarkDecodeListStruct(b *testing.B) {
	data := benchFile(b, "list")
	b.Run("lakecat", func(b *testing.B) { benchLakecat(b, data) })
	b.Run("pqarrow", func(b *testing.B) { benchPQArrow(b, data) })
}

// BenchmarkDecodeMapOfLists decodes a map<string, list<string>> column
// (262,144 rows, 0–3 entries of 0–3 strings, 10% null maps).
func BenchmarkDecodeMapOfLists(b *testing.B) {
	data := benchFile(b, "map")
	b.Run("lakecat", func(b *testing.B) { benchLakecat(b, data) })
	b.Run("pqarrow", func(b *testing.B) { benchPQArrow(b, data) })
}

// BenchmarkPlanSelected plans the batches (runs, ranges, keep mask) of a
// 1,048,576-row read leaving out lakebench's pos10 positions; per row.
func BenchmarkPlanSelected(b *testing.B) {
	skip := skipPatterns(benchRows)["pos10"]
	b.ReportAllocs()
	cpu0 := cpuNanos()
	for b.Loop() {
		br := &BatchReader{rows: DefaultBatchRows, left: benchRows}
		br.startSkip(skip)
		for br.left > 0 {
			_, covered := br.planSelected()
			br.left -= covered
			br.next += covered
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*benchRows), "ns/row")
	b.ReportMetric(float64(cpuNanos()-cpu0)/float64(int64(b.N)*benchRows), "cpu-ns/row")
}
