// Command filterbench measures row filters on a sorted table: it writes one
// Parquet file of -rows rows (default 20M) sorted by a long key, in 64 row
// groups (snappy, statistics on), then reads it with lakecat's reader.Open
// unfiltered and with filters selecting 0.1%, 1% and 10% of the rows (a key
// range starting mid-file), interleaved round by round in one process, and
// prints the bytes read from the file, the best wall-clock time and the
// median CPU time (user + system, of the whole process, during the read)
// of each against the unfiltered read. With -page-index the file carries
// a page index (column and offset indexes) and data pages of -page-bytes
// bytes, so that the filters also skip pages within row groups.
//
// Usage (from the bench directory):
//
//	go run ./cmd/filterbench [-rows N] [-groups N] [-runs N] [-keep DIR] [-page-index] [-page-bytes N]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
)

func main() {
	rows := flag.Int("rows", 20_000_000, "rows in the file")
	groups := flag.Int("groups", 64, "row groups")
	runs := flag.Int("runs", 3, "rounds")
	keep := flag.String("keep", "", "write the file in this folder and keep it")
	flag.BoolVar(&pageIndex, "page-index", false, "write a page index (column and offset indexes)")
	flag.Int64Var(&pageBytes, "page-bytes", parquet.DefaultDataPageSize, "data page size in bytes")
	flag.Parse()
	if err := run(*rows, *groups, *runs, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "filterbench:", err)
		os.Exit(1)
	}
}

// pageIndex and pageBytes: how the file is written (-page-index,
// -page-bytes).
var (
	pageIndex bool
	pageBytes int64
)

func run(rows, groups, runs int, keep string) error {
	dir := keep
	if dir == "" {
		d, err := os.MkdirTemp("", "filterbench")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	path := filepath.Join(dir, "sorted.parquet")
	layout := "kept from an earlier run (written as that run's flags said)"
	if _, err := os.Stat(path); err != nil {
		layout = fmt.Sprintf("page index %v, pages of %d bytes", pageIndex, pageBytes)
		start := time.Now()
		if err := write(path, rows, groups); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "wrote %s in %v\n", path, time.Since(start).Round(time.Millisecond))
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	type variant struct {
		name   string
		filter string
		best   time.Duration
		cpu    []time.Duration
		bytes  int64
		rows   int64
		groups int64
	}
	mid := rows / 2
	vs := []*variant{{name: "unfiltered"}}
	for _, sel := range []float64{0.001, 0.01, 0.1} {
		n := int(float64(rows) * sel)
		vs = append(vs, &variant{name: fmt.Sprintf("%.1f%%", sel*100), filter: fmt.Sprintf("key >= %d and key < %d", mid, mid+n)})
	}
	for r := 0; r < runs; r++ {
		for _, v := range vs {
			c0 := cpuTime()
			d, b, n, g, err := read(path, v.filter)
			if err != nil {
				return err
			}
			v.cpu = append(v.cpu, cpuTime()-c0)
			if v.best == 0 || d < v.best {
				v.best = d
			}
			v.bytes, v.rows, v.groups = b, n, g
		}
	}
	base := vs[0]
	fmt.Printf("file: %d rows, %d row groups, %d bytes, %s\n\n", rows, groups, st.Size(), layout)
	fmt.Println("| read | filter | rows | row groups read | bytes read | bytes vs unfiltered | best time | time vs unfiltered | median CPU | CPU vs unfiltered |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	for _, v := range vs {
		f := v.filter
		if f == "" {
			f = "-"
		}
		fmt.Printf("| %s | `%s` | %d | %d | %d | %.2f%% | %v | %.2f%% | %v | %.2f%% |\n", v.name, f, v.rows, v.groups, v.bytes,
			100*float64(v.bytes)/float64(base.bytes), v.best.Round(time.Microsecond), 100*float64(v.best)/float64(base.best),
			median(v.cpu).Round(time.Microsecond), 100*float64(median(v.cpu))/float64(median(base.cpu)))
	}
	return nil
}

// cpuTime returns the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// median returns the median of ds (the lower middle of an even count).
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}

// countingFile counts the bytes read through ReadAt.
type countingFile struct {
	f *os.File
	n atomic.Int64
}

func (c *countingFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.f.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

func read(path, where string) (time.Duration, int64, int64, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, 0, 0, 0, err
	}
	cf := &countingFile{f: f}
	var e expr.Expr
	if where != "" {
		if e, err = expr.Parse(where); err != nil {
			return 0, 0, 0, 0, err
		}
	}
	var stats reader.ScanStats
	start := time.Now()
	rr, err := reader.Open(context.Background(), cf, st.Size(), reader.Options{Filter: e, Stats: &stats})
	if err != nil {
		return 0, 0, 0, 0, err
	}
	var rows int64
	for rr.Next() {
		rows += rr.RecordBatch().NumRows()
	}
	err = rr.Err()
	rr.Release()
	d := time.Since(start)
	if err != nil && err != io.EOF {
		return 0, 0, 0, 0, err
	}
	groups := stats.Counts().RowGroupsRead
	if where == "" {
		groups = -1
	}
	return d, cf.n.Load(), rows, groups, nil
}

func idField(name string, id int, t arrow.DataType) arrow.Field {
	return arrow.Field{Name: name, Type: t, Nullable: true, Metadata: arrow.NewMetadata([]string{schema.FieldIDKey}, []string{fmt.Sprint(id)})}
}

// write writes the sorted file: key (long, 0..rows-1), amount (double),
// region (string, one of 8), qty (int, 10% null).
func write(path string, rows, groups int) error {
	sc := arrow.NewSchema([]arrow.Field{
		idField("key", 1, arrow.PrimitiveTypes.Int64),
		idField("amount", 2, arrow.PrimitiveTypes.Float64),
		idField("region", 3, arrow.BinaryTypes.String),
		idField("qty", 4, arrow.PrimitiveTypes.Int32),
	}, nil)
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	perGroup := int64(math.Ceil(float64(rows) / float64(groups)))
	props := parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(perGroup), parquet.WithCompression(compress.Codecs.Snappy), parquet.WithStats(true),
		parquet.WithPageIndexEnabled(pageIndex), parquet.WithDataPageSize(pageBytes))
	w, err := pqarrow.NewFileWriter(sc, out, props, pqarrow.NewArrowWriterProperties())
	if err != nil {
		out.Close()
		return err
	}
	regions := []string{"eu-west", "eu-north", "us-east", "us-west", "ap-south", "ap-east", "sa-east", "af-south"}
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	const chunk = 1 << 20
	for lo := 0; lo < rows; lo += chunk {
		hi := min(lo+chunk, rows)
		for i := lo; i < hi; i++ {
			b.Field(0).(*array.Int64Builder).Append(int64(i))
			b.Field(1).(*array.Float64Builder).Append(float64(i%100000) / 7)
			b.Field(2).(*array.StringBuilder).Append(regions[(i*7)%len(regions)])
			if i%10 == 3 {
				b.Field(3).(*array.Int32Builder).AppendNull()
			} else {
				b.Field(3).(*array.Int32Builder).Append(int32(i % 1000))
			}
		}
		rec := b.NewRecordBatch()
		err := w.WriteBuffered(rec)
		rec.Release()
		if err != nil {
			w.Close()
			return err
		}
	}
	return w.Close()
}
