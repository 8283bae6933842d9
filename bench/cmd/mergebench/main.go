// Command mergebench measures lakecat's merge on read of a Paimon
// primary-key table: it writes a table of -runs overlapping sorted runs
// (level-0 files, each holding every one of -keys keys, so every key merges
// -runs records) and a table holding the same rows in one file, then reads
// the first merged (the default) and the second as stored (raw: no merge),
// interleaved round by round in one process, and prints the best
// wall-clock time of each, the median process CPU time (user plus system,
// all goroutines) of each, and their ratios.
//
// Usage (from the bench directory):
//
//	go run ./cmd/mergebench [-keys N] [-runs N] [-rounds N] [-keep DIR]
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"syscall"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/paimon"
	"github.com/lakecat/lakecat/table/paimon/paimonwrite"
)

type row struct {
	Key  int64  `parquet:"_KEY_id,id(1073741823)"`
	Seq  int64  `parquet:"_SEQUENCE_NUMBER,id(2147483646)"`
	Kind int8   `parquet:"_VALUE_KIND,id(2147483645)"`
	ID   int64  `parquet:"id,id(0)"`
	V    int64  `parquet:"v,id(1)"`
	S    string `parquet:"s,id(2)"`
}

func writeTable(dir string, files [][]row) error {
	w := &paimonwrite.Writer{Dir: dir, TimeMillis: 1}
	fields := []*schema.Field{{ID: 0, Name: "id", Type: schema.Long, Required: true},
		{ID: 1, Name: "v", Type: schema.Long, Required: true}, {ID: 2, Name: "s", Type: schema.String, Required: true}}
	if err := w.WriteSchema(schema.NewPaimonSchema(0, fields, nil, []string{"id"}, map[string]string{"bucket": "1"})); err != nil {
		return err
	}
	var dfs []paimonwrite.DataFile
	for i, rows := range files {
		name := fmt.Sprintf("data-%d.parquet", i)
		p, err := w.DataFilePath(0, name)
		if err != nil {
			return err
		}
		if err := parquet.WriteFile(p, rows, parquet.Compression(&parquet.Snappy)); err != nil {
			return err
		}
		dfs = append(dfs, paimonwrite.DataFile{Name: name, Bucket: 0, TotalBuckets: 1, RowCount: int64(len(rows)),
			MinSequence: rows[0].Seq, MaxSequence: rows[len(rows)-1].Seq,
			MinKey: paimonwrite.KeyRow(rows[0].ID), MaxKey: paimonwrite.KeyRow(rows[len(rows)-1].ID)})
	}
	return w.Commit(0, dfs)
}

func read(dir string, raw bool) (int64, time.Duration, error) {
	start := time.Now()
	tbl, err := reader.OpenTable(context.Background(), dir, reader.TableOptions{FormatOptions: paimon.Options{Raw: raw}})
	if err != nil {
		return 0, 0, err
	}
	rr, err := tbl.Scan(context.Background())
	if err != nil {
		return 0, 0, err
	}
	defer rr.Release()
	var n int64
	for rr.Next() {
		n += rr.RecordBatch().NumRows()
	}
	return n, time.Since(start), rr.Err()
}

func main() {
	keys := flag.Int("keys", 1_000_000, "keys per run")
	runs := flag.Int("runs", 4, "overlapping sorted runs")
	rounds := flag.Int("rounds", 3, "rounds")
	keep := flag.String("keep", "", "write the tables here and keep them (default: a temporary folder)")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the merged reads here")
	flag.Parse()
	root := *keep
	if root == "" {
		d, err := os.MkdirTemp("", "mergebench")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(d)
		root = d
	}
	var merged [][]row
	var one []row
	seq := int64(0)
	for r := 0; r < *runs; r++ {
		rows := make([]row, *keys)
		for k := range rows {
			rows[k] = row{Key: int64(k), Seq: seq, ID: int64(k), V: int64(r*(*keys) + k), S: fmt.Sprintf("run-%d-key-%d", r, k)}
			seq++
		}
		merged = append(merged, rows)
		one = append(one, rows...)
	}
	mdir, odir := filepath.Join(root, "merged"), filepath.Join(root, "one-run")
	if err := writeTable(mdir, merged); err != nil {
		log.Fatal(err)
	}
	if err := writeTable(odir, [][]row{one}); err != nil {
		log.Fatal(err)
	}
	best := map[string]time.Duration{}
	cpus := map[string][]time.Duration{}
	var rowsOut = map[string]int64{}
	for i := 0; i < *rounds; i++ {
		for _, c := range []struct {
			name string
			dir  string
			raw  bool
		}{{"merged", mdir, false}, {"one run, raw", odir, true}} {
			if *profile != "" && !c.raw {
				f, err := os.Create(*profile)
				if err != nil {
					log.Fatal(err)
				}
				pprof.StartCPUProfile(f)
			}
			cpu0 := processCPU()
			n, d, err := read(c.dir, c.raw)
			cpus[c.name] = append(cpus[c.name], processCPU()-cpu0)
			if *profile != "" && !c.raw {
				pprof.StopCPUProfile()
			}
			if err != nil {
				log.Fatal(err)
			}
			rowsOut[c.name] = n
			if b, ok := best[c.name]; !ok || d < b {
				best[c.name] = d
			}
		}
	}
	in := int64(*runs) * int64(*keys)
	fmt.Printf("%d sorted runs x %d keys (%d rows stored)\n", *runs, *keys, in)
	fmt.Printf("merged:       %v best of %d, %d rows out\n", best["merged"], *rounds, rowsOut["merged"])
	fmt.Printf("one run, raw: %v best of %d, %d rows out\n", best["one run, raw"], *rounds, rowsOut["one run, raw"])
	fmt.Printf("ratio merged / unmerged: %.2fx\n", float64(best["merged"])/float64(best["one run, raw"]))
	m, o := median(cpus["merged"]), median(cpus["one run, raw"])
	fmt.Printf("process CPU, median of %d: merged %v, one run raw %v, ratio %.2fx\n", *rounds, m, o, float64(m)/float64(o))
}

// processCPU is the process's user plus system CPU time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	d = slices.Clone(d)
	slices.Sort(d)
	return d[len(d)/2]
}
