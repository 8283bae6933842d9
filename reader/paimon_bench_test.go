package reader_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"syscall"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/parquet-go/parquet-go"

	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/paimon/paimonwrite"
)

// The benchmark table: an append table whose 100 Parquet files are spread
// over 3 schema ids (34, 33 and 33 files); schema-1 renames name →
// customer and adds note, schema-2 widens qty INT → BIGINT and adds flag.
// Every file holds benchRowsPerFile rows.
const (
	benchFiles       = 100
	benchRowsPerFile = 10_000
)

type benchRow0 struct {
	ID    int64   `parquet:"id,id(1)"`
	Name  *string `parquet:"name,id(2),optional"`
	Qty   *int32  `parquet:"qty,id(3),optional"`
	Price float64 `parquet:"price,id(4)"`
}

type benchRow1 struct {
	ID       int64   `parquet:"id,id(1)"`
	Customer *string `parquet:"customer,id(2),optional"`
	Qty      *int32  `parquet:"qty,id(3),optional"`
	Price    float64 `parquet:"price,id(4)"`
	Note     *string `parquet:"note,id(5),optional"`
}

// benchRow2 is also the layout of the plain files: the latest schema.
type benchRow2 struct {
	ID       int64   `parquet:"id,id(1)"`
	Customer *string `parquet:"customer,id(2),optional"`
	Qty      *int64  `parquet:"qty,id(3),optional"`
	Price    float64 `parquet:"price,id(4)"`
	Note     *string `parquet:"note,id(5),optional"`
	Flag     *bool   `parquet:"flag,id(6),optional"`
}

func benchPaimonSchemas() []*schema.PaimonSchema {
	opt := func(id int, name string, t schema.Type) *schema.Field {
		return &schema.Field{ID: id, Name: name, Type: t}
	}
	req := func(id int, name string, t schema.Type) *schema.Field {
		return &schema.Field{ID: id, Name: name, Type: t, Required: true}
	}
	o := map[string]string{"bucket": "-1"}
	return []*schema.PaimonSchema{
		schema.NewPaimonSchema(0, []*schema.Field{req(1, "id", schema.Long), opt(2, "name", schema.String), opt(3, "qty", schema.Int), req(4, "price", schema.Double)}, nil, nil, o),
		schema.NewPaimonSchema(1, []*schema.Field{req(1, "id", schema.Long), opt(2, "customer", schema.String), opt(3, "qty", schema.Int), req(4, "price", schema.Double), opt(5, "note", schema.String)}, nil, nil, o),
		schema.NewPaimonSchema(2, []*schema.Field{req(1, "id", schema.Long), opt(2, "customer", schema.String), opt(3, "qty", schema.Long), req(4, "price", schema.Double), opt(5, "note", schema.String), opt(6, "flag", schema.Boolean)}, nil, nil, o),
	}
}

// writeBenchTables writes the Paimon table under dir/table and the same rows,
// in the latest schema, as plain files under dir/plain. It returns the plain
// file paths and the total bytes of the table's data files.
func writeBenchTables(b *testing.B, dir string) (table string, plain []string, tableBytes int64) {
	b.Helper()
	table = filepath.Join(dir, "table")
	w := &paimonwrite.Writer{Dir: table, TimeMillis: 1}
	for _, s := range benchPaimonSchemas() {
		if err := w.WriteSchema(s); err != nil {
			b.Fatal(err)
		}
	}
	names := []string{"alice", "bob", "carol", "dave"}
	for sid := int64(0); sid < 3; sid++ {
		var files []paimonwrite.DataFile
		lo, hi := int(sid)*benchFiles/3, int(sid+1)*benchFiles/3
		if sid == 2 {
			hi = benchFiles
		}
		for f := lo; f < hi; f++ {
			name := fmt.Sprintf("data-%03d.parquet", f)
			path, err := w.DataFilePath(0, name)
			if err != nil {
				b.Fatal(err)
			}
			rows2 := make([]benchRow2, benchRowsPerFile)
			for i := range rows2 {
				n := names[i%len(names)]
				q := int64(i % 100)
				r := benchRow2{ID: int64(f*benchRowsPerFile + i), Customer: &n, Qty: &q, Price: float64(i) / 4}
				if sid >= 1 && i%3 == 0 {
					note := "note"
					r.Note = &note
				}
				if sid == 2 {
					flag := i%2 == 0
					r.Flag = &flag
				}
				rows2[i] = r
			}
			switch sid {
			case 0:
				rows := make([]benchRow0, len(rows2))
				for i, r := range rows2 {
					q := int32(*r.Qty)
					rows[i] = benchRow0{r.ID, r.Customer, &q, r.Price}
				}
				err = parquet.WriteFile(path, rows)
			case 1:
				rows := make([]benchRow1, len(rows2))
				for i, r := range rows2 {
					q := int32(*r.Qty)
					rows[i] = benchRow1{r.ID, r.Customer, &q, r.Price, r.Note}
				}
				err = parquet.WriteFile(path, rows)
			default:
				err = parquet.WriteFile(path, rows2)
			}
			if err != nil {
				b.Fatal(err)
			}
			st, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			tableBytes += st.Size()
			files = append(files, paimonwrite.DataFile{Name: name, Bucket: 0, TotalBuckets: -1, SchemaID: sid,
				RowCount: benchRowsPerFile, MinSequence: int64(f * benchRowsPerFile), MaxSequence: int64((f+1)*benchRowsPerFile - 1)})
			pp := filepath.Join(dir, "plain", name)
			if err := os.MkdirAll(filepath.Dir(pp), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := parquet.WriteFile(pp, rows2); err != nil {
				b.Fatal(err)
			}
			plain = append(plain, pp)
		}
		if err := w.Commit(sid, files); err != nil {
			b.Fatal(err)
		}
	}
	return table, plain, tableBytes
}

func drainRows(b *testing.B, rr interface {
	Next() bool
	Err() error
	Release()
}, rec func() int64) int64 {
	var n int64
	for rr.Next() {
		n += rec()
	}
	if err := rr.Err(); err != nil {
		b.Fatal(err)
	}
	rr.Release()
	return n
}

// BenchmarkPaimonPerFileResolution measures what resolving each file through
// its own schema-N costs: "table" scans the 100-file, 3-schema-id Paimon
// table through its manifests (every file aligned by id to schema-2, old
// files with a rename, a widening and missing columns); "plain" reads the
// same rows from 100 plain Parquet files already in schema-2's layout, with
// one read schema and nothing to resolve; "files" reads the table's own data
// files with their writer schemas but without snapshot and manifests. All
// run in the same process and
// report rows/s (wall) and cpu-ns/row (process CPU time, steadier on a shared
// machine); bytes are the table's data file bytes.
func BenchmarkPaimonPerFileResolution(b *testing.B) {
	dir := b.TempDir()
	table, plain, tableBytes := writeBenchTables(b, dir)
	read := benchPaimonSchemas()[2].Schema()
	schemas := benchPaimonSchemas()
	const total = benchFiles * benchRowsPerFile
	ctx := context.Background()
	drain := func(b *testing.B, rr array.RecordReader) {
		if n := drainRows(b, rr, func() int64 { return rr.RecordBatch().NumRows() }); n != total {
			b.Fatalf("%d rows", n)
		}
	}
	variants := []struct {
		name string
		scan func(b *testing.B)
	}{
		{"table", func(b *testing.B) {
			tbl, err := reader.OpenTable(ctx, table, reader.TableOptions{})
			if err != nil {
				b.Fatal(err)
			}
			rr, err := tbl.Scan(ctx)
			if err != nil {
				b.Fatal(err)
			}
			drain(b, rr)
		}},
		// The table's own data files, each with its writer schema (what
		// Table.Scan runs), without reading snapshot and manifests.
		{"files", func(b *testing.B) {
			tasks := make([]reader.FileTask, benchFiles)
			for i := range tasks {
				sid := min(i/(benchFiles/3), 2)
				tasks[i] = benchTask(filepath.Join(table, "bucket-0", fmt.Sprintf("data-%03d.parquet", i)),
					reader.Options{ReadSchema: read, WriterSchema: schemas[sid].Schema(), Rules: project.Paimon})
			}
			rr, err := reader.ScanFiles(ctx, tasks, reader.ScanOptions{})
			if err != nil {
				b.Fatal(err)
			}
			drain(b, rr)
		}},
		{"plain", func(b *testing.B) {
			tasks := make([]reader.FileTask, len(plain))
			for i, p := range plain {
				tasks[i] = benchTask(p, reader.Options{ReadSchema: read, Rules: project.Paimon})
			}
			rr, err := reader.ScanFiles(ctx, tasks, reader.ScanOptions{})
			if err != nil {
				b.Fatal(err)
			}
			drain(b, rr)
		}},
	}
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(tableBytes)
			cpu0 := benchCPUNanos()
			for b.Loop() {
				v.scan(b)
			}
			b.ReportMetric(float64(total)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(benchCPUNanos()-cpu0)/float64(int64(b.N)*total), "cpu-ns/row")
		})
	}
	// "plan": OpenTable alone (snapshot, manifest lists, manifests, schemas).
	b.Run("plan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			tbl, err := reader.OpenTable(ctx, table, reader.TableOptions{})
			if err != nil || len(tbl.Files) != benchFiles {
				b.Fatal(err)
			}
		}
	})
	// "paired": each iteration runs the three back to back (in a rotating
	// order, each after a GC) and records the process CPU time of each; the medians of the per-iteration ratios
	// table/plain and files/plain are steadier than separate runs on a
	// shared machine.
	b.Run("paired", func(b *testing.B) {
		var rt, rf []float64
		round := 0
		for b.Loop() {
			var cpu [3]int64
			// Rotate the order so that none always follows another's
			// garbage.
			for k := range variants {
				i := (k + round) % len(variants)
				runtime.GC()
				c0 := benchCPUNanos()
				variants[i].scan(b)
				cpu[i] = benchCPUNanos() - c0
			}
			round++
			rt = append(rt, float64(cpu[0])/float64(cpu[2]))
			rf = append(rf, float64(cpu[1])/float64(cpu[2]))
		}
		b.ReportMetric(median(rt), "table/plain-cpu")
		b.ReportMetric(median(rf), "files/plain-cpu")
	})
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// benchCPUNanos returns the process's CPU time (user + system, all threads)
// in nanoseconds: a figure less disturbed than wall time when other
// processes share the machine.
func benchCPUNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// benchTask returns a scan task for the local file p.
func benchTask(p string, opts reader.Options) reader.FileTask {
	return reader.FileTask{Name: p, Options: opts, Open: func(ctx context.Context) (io.ReaderAt, int64, func() error, error) {
		f, err := os.Open(p)
		if err != nil {
			return nil, 0, nil, err
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, 0, nil, err
		}
		return f, st.Size(), f.Close, nil
	}}
}
