// Command scanbench measures whole-table scans: it generates an Iceberg
// table of many Parquet files written under three schema versions (by
// default 200 files × 50,000 rows), then scans it through reader.OpenTable
// with 1 worker and with GOMAXPROCS workers under a memory budget, each
// scan in its own process so that its peak RSS is its own. It is a
// benchmark, not a test:
//
//	go run ./reader/internal/scanbench [-files 200] [-rows 50000] [-memory 268435456] [-dir DIR]
//
// Output: one line per scan with rows, seconds, rows/s, MB/s of Parquet
// read, and the peak resident set size (getrusage ru_maxrss).
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"github.com/hamba/avro/v2"
	"github.com/hamba/avro/v2/ocf"
	"github.com/parquet-go/parquet-go"

	"github.com/lakecat/lakecat/reader"
)

// Rows under the three schemas: v1 renames name→customer and adds note; v2
// widens qty int→long and price float→double, and adds channel with an
// initial-default.
type row0 struct {
	ID    int64   `parquet:"id,id(1)"`
	Name  *string `parquet:"name,id(2),optional"`
	Qty   int32   `parquet:"qty,id(3)"`
	Price float32 `parquet:"price,id(4)"`
	TS    int64   `parquet:"ts,id(5),timestamp(microsecond)"`
}

type row1 struct {
	ID       int64   `parquet:"id,id(1)"`
	Customer *string `parquet:"customer,id(2),optional"`
	Qty      int32   `parquet:"qty,id(3)"`
	Price    float32 `parquet:"price,id(4)"`
	TS       int64   `parquet:"ts,id(5),timestamp(microsecond)"`
	Note     *string `parquet:"note,id(6),optional"`
}

type row2 struct {
	ID       int64   `parquet:"id,id(1)"`
	Customer *string `parquet:"customer,id(2),optional"`
	Qty      int64   `parquet:"qty,id(3)"`
	Price    float64 `parquet:"price,id(4)"`
	TS       int64   `parquet:"ts,id(5),timestamp(microsecond)"`
	Note     *string `parquet:"note,id(6),optional"`
	Channel  *string `parquet:"channel,id(7),optional"`
}

const schemas = `[
 {"type":"struct","schema-id":0,"fields":[
  {"id":1,"name":"id","required":true,"type":"long"},{"id":2,"name":"name","required":false,"type":"string"},
  {"id":3,"name":"qty","required":true,"type":"int"},{"id":4,"name":"price","required":true,"type":"float"},
  {"id":5,"name":"ts","required":true,"type":"timestamptz"}]},
 {"type":"struct","schema-id":1,"fields":[
  {"id":1,"name":"id","required":true,"type":"long"},{"id":2,"name":"customer","required":false,"type":"string"},
  {"id":3,"name":"qty","required":true,"type":"int"},{"id":4,"name":"price","required":true,"type":"float"},
  {"id":5,"name":"ts","required":true,"type":"timestamptz"},{"id":6,"name":"note","required":false,"type":"string"}]},
 {"type":"struct","schema-id":2,"fields":[
  {"id":1,"name":"id","required":true,"type":"long"},{"id":2,"name":"customer","required":false,"type":"string"},
  {"id":3,"name":"qty","required":true,"type":"long"},{"id":4,"name":"price","required":true,"type":"double"},
  {"id":5,"name":"ts","required":true,"type":"timestamptz"},{"id":6,"name":"note","required":false,"type":"string"},
  {"id":7,"name":"channel","required":false,"type":"string","initial-default":"web"}]}]`

const manifestListSchema = `{"type":"record","name":"manifest_file","fields":[
 {"name":"manifest_path","type":"string","field-id":500},{"name":"manifest_length","type":"long","field-id":501},
 {"name":"partition_spec_id","type":"int","field-id":502},{"name":"content","type":"int","field-id":517},
 {"name":"sequence_number","type":"long","field-id":515},{"name":"min_sequence_number","type":"long","field-id":516},
 {"name":"added_snapshot_id","type":"long","field-id":503}]}`

const manifestSchema = `{"type":"record","name":"manifest_entry","fields":[
 {"name":"status","type":"int","field-id":0},
 {"name":"snapshot_id","type":["null","long"],"default":null,"field-id":1},
 {"name":"data_file","type":{"type":"record","name":"r2","fields":[
  {"name":"content","type":"int","field-id":134},{"name":"file_path","type":"string","field-id":100},
  {"name":"file_format","type":"string","field-id":101},
  {"name":"partition","type":{"type":"record","name":"r102","fields":[]},"field-id":102},
  {"name":"record_count","type":"long","field-id":103},{"name":"file_size_in_bytes","type":"long","field-id":104}]},"field-id":2}]}`

func main() {
	files := flag.Int("files", 200, "data files")
	rows := flag.Int("rows", 50000, "rows per file")
	memBudget := flag.Int64("memory", 256<<20, "scan memory budget in bytes")
	dir := flag.String("dir", "", "table folder (default: a temporary folder, removed at the end)")
	child := flag.Int("scan", -1, "internal: scan the table at -dir with this many workers and report")
	flag.Parse()
	if *child >= 0 {
		scan(*dir, *child, *memBudget)
		return
	}
	if *dir == "" {
		d, err := os.MkdirTemp("", "scanbench")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(d)
		*dir = d
	}
	start := time.Now()
	bytesTotal := generate(*dir, *files, *rows)
	fmt.Printf("table: %d files × %d rows (3 schema versions), %.1f MB of Parquet, generated in %.1fs; GOMAXPROCS=%d\n",
		*files, *rows, float64(bytesTotal)/1e6, time.Since(start).Seconds(), runtime.GOMAXPROCS(0))
	exe, err := os.Executable()
	if err != nil {
		log.Fatal(err)
	}
	for _, w := range []int{1, runtime.GOMAXPROCS(0)} {
		cmd := exec.Command(exe, "-dir", *dir, "-scan", strconv.Itoa(w), "-memory", strconv.FormatInt(*memBudget, 10))
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			log.Fatal(err)
		}
	}
}

func generate(dir string, files, rows int) int64 {
	ctx := context.Background()
	_ = ctx
	for _, d := range []string{"data", "metadata"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			log.Fatal(err)
		}
	}
	type entry struct {
		Status     int32          `avro:"status"`
		SnapshotID *int64         `avro:"snapshot_id"`
		DataFile   map[string]any `avro:"data_file"`
	}
	var entries []any
	var total int64
	names := []string{"alice", "bob", "carol", "dave"}
	for i := 0; i < files; i++ {
		var buf bytes.Buffer
		version := i * 3 / files
		base := int64(i * rows)
		opts := []parquet.WriterOption{parquet.Compression(&parquet.Snappy), parquet.MaxRowsPerRowGroup(int64(rows))}
		switch version {
		case 0:
			rs := make([]row0, rows)
			for r := range rs {
				rs[r] = row0{ID: base + int64(r), Name: &names[r%4], Qty: int32(r % 100), Price: float32(r) / 4, TS: 1.7e15 + int64(r)*1000}
			}
			write(&buf, rs, opts)
		case 1:
			rs := make([]row1, rows)
			for r := range rs {
				var note *string
				if r%3 == 0 {
					note = &names[r%4]
				}
				rs[r] = row1{ID: base + int64(r), Customer: &names[r%4], Qty: int32(r % 100), Price: float32(r) / 4, TS: 1.7e15 + int64(r)*1000, Note: note}
			}
			write(&buf, rs, opts)
		default:
			rs := make([]row2, rows)
			for r := range rs {
				rs[r] = row2{ID: base + int64(r), Customer: &names[r%4], Qty: int64(r % 100), Price: float64(r) / 4, TS: 1.7e15 + int64(r)*1000, Channel: &names[r%2]}
			}
			write(&buf, rs, opts)
		}
		p := filepath.ToSlash(filepath.Join(dir, "data", fmt.Sprintf("%05d-v%d.parquet", i, version)))
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			log.Fatal(err)
		}
		total += int64(buf.Len())
		id := int64(1)
		entries = append(entries, entry{Status: 1, SnapshotID: &id, DataFile: map[string]any{
			"content": int32(0), "file_path": p, "file_format": "PARQUET", "partition": map[string]any{},
			"record_count": int64(rows), "file_size_in_bytes": int64(buf.Len()),
		}})
	}
	mpath := filepath.ToSlash(filepath.Join(dir, "metadata", "m0.avro"))
	n := writeOCF(mpath, manifestSchema, entries)
	lpath := filepath.ToSlash(filepath.Join(dir, "metadata", "snap-1.avro"))
	writeOCF(lpath, manifestListSchema, []any{map[string]any{
		"manifest_path": mpath, "manifest_length": n, "partition_spec_id": int32(0), "content": int32(0),
		"sequence_number": int64(1), "min_sequence_number": int64(1), "added_snapshot_id": int64(1),
	}})
	md := fmt.Sprintf(`{"format-version":2,"table-uuid":"00000000-0000-0000-0000-000000000001","location":%q,
 "last-sequence-number":1,"last-updated-ms":1767225600000,"last-column-id":7,"current-schema-id":2,"schemas":%s,
 "default-spec-id":0,"partition-specs":[{"spec-id":0,"fields":[]}],"last-partition-id":999,
 "default-sort-order-id":0,"sort-orders":[{"order-id":0,"fields":[]}],"properties":{},
 "current-snapshot-id":1,"snapshots":[{"snapshot-id":1,"sequence-number":1,"timestamp-ms":1767225600000,
 "manifest-list":%q,"summary":{"operation":"append"},"schema-id":2}],"snapshot-log":[],"metadata-log":[]}`,
		filepath.ToSlash(dir), schemas, lpath)
	if err := os.WriteFile(filepath.Join(dir, "metadata", "v1.metadata.json"), []byte(md), 0o644); err != nil {
		log.Fatal(err)
	}
	return total
}

func write[T any](buf *bytes.Buffer, rows []T, opts []parquet.WriterOption) {
	w := parquet.NewGenericWriter[T](buf, opts...)
	if _, err := w.Write(rows); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
}

func writeOCF(path, schema string, recs []any) int64 {
	var buf bytes.Buffer
	enc, err := ocf.NewEncoder(schema, &buf, ocf.WithSchemaMarshaler(ocf.FullSchemaMarshaler))
	if err != nil {
		log.Fatal(err)
	}
	_ = avro.Marshal
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			log.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	return int64(buf.Len())
}

func scan(dir string, workers int, budget int64) {
	ctx := context.Background()
	start := time.Now()
	t, err := reader.OpenTable(ctx, dir, reader.TableOptions{Workers: workers, MemoryBytes: budget})
	if err != nil {
		log.Fatal(err)
	}
	var fileBytes int64
	for _, f := range t.Files {
		st, err := os.Stat(f.Path)
		if err != nil {
			log.Fatal(err)
		}
		fileBytes += st.Size()
	}
	rr, err := t.Scan(ctx)
	if err != nil {
		log.Fatal(err)
	}
	var rows int64
	for rr.Next() {
		rows += rr.RecordBatch().NumRows()
	}
	if err := rr.Err(); err != nil {
		log.Fatal(err)
	}
	rr.Release()
	secs := time.Since(start).Seconds()
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	fmt.Printf("workers=%-3d budget=%d MiB: %d rows in %.2fs = %.2fM rows/s, %.1f MB/s of Parquet, peak RSS %.0f MiB\n",
		workers, budget>>20, rows, secs, float64(rows)/secs/1e6, float64(fileBytes)/1e6/secs, float64(ru.Maxrss)/1024)
}
