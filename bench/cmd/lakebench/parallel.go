package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
)

// The parallel variants of issue 20 (parallel within a file) read the data
// set once with 1 worker and once with 2, back to back in each round:
//
//	lakecat/rowgroups/<W>    reader.Open on the Parquet file (row groups of
//	                         -rowgroup rows), Options.Workers W
//	lakecat-orc/stripes/<W>  reader.Open on an ORC file of the same rows in
//	                         stripes of -stripe rows (-rowgroup rows when
//	                         -stripe is 0), Options.Workers W
//	lakecat/files/<W>        4 Parquet part files of the same rows through
//	                         reader.ScanFiles, ScanOptions.Workers W
//
// printParallel prints, per pair, the wall-time ratio W=2 / W=1 (least
// and median of the per-round ratios) and the process CPU time per row of
// each, and the median bytes allocated on Go's heap per run (a figure load
// does not disturb: a decoder that reuses its buffers allocates few). Wall
// time means something only on an idle machine: on a loaded one
// the second worker waits for a core, and only the CPU time per row (which
// waiting is not charged to) compares.

// parallelFiles is the number of part files of lakecat/files/<W>.
const parallelFiles = 4

// parallelWorkers are the worker counts of every parallel variant.
var parallelWorkers = []int{1, 2}

// parallelVariants returns the parallel variants of one codec; pqData is
// the Parquet file of ds in that codec and fileSchema its schema.
func parallelVariants(cfg config, codec string, ds *dataset, pqData []byte, fileSchema *schema.Schema, decoded int64) ([]*variant, error) {
	stripe := cfg.stripeRows
	if stripe <= 0 {
		stripe = cfg.rowGroup
	}
	orcData, err := writeORC(ds, codec, stripe)
	if err != nil {
		return nil, fmt.Errorf("writing orc with %d-row stripes: %w", stripe, err)
	}
	var parts [][]byte
	per := (ds.n + parallelFiles - 1) / parallelFiles
	for lo := 0; lo < ds.n; lo += per {
		b, err := writeParquet(ds.slice(lo, min(ds.n, lo+per)), codec, cfg.rowGroup)
		if err != nil {
			return nil, fmt.Errorf("writing parquet part: %w", err)
		}
		parts = append(parts, b)
	}
	open := func(data []byte, workers int) func(ctx context.Context) (int64, error) {
		return func(ctx context.Context) (int64, error) {
			rr, err := reader.Open(ctx, bytes.NewReader(data), int64(len(data)), reader.Options{
				Rules: project.IcebergV2, BatchRows: batchRows, Allocator: alloc, Workers: workers})
			if err != nil {
				return 0, err
			}
			return drain(rr, false)
		}
	}
	scan := func(workers int) func(ctx context.Context) (int64, error) {
		return func(ctx context.Context) (int64, error) {
			tasks := make([]reader.FileTask, len(parts))
			for i, b := range parts {
				tasks[i] = reader.FileTask{
					Name: fmt.Sprintf("part-%d", i),
					Open: func(context.Context) (io.ReaderAt, int64, func() error, error) {
						return bytes.NewReader(b), int64(len(b)), nil, nil
					},
					Options: reader.Options{ReadSchema: fileSchema, Rules: project.IcebergV2, BatchRows: batchRows, Allocator: alloc},
				}
			}
			rr, err := reader.ScanFiles(ctx, tasks, reader.ScanOptions{Workers: workers})
			if err != nil {
				return 0, err
			}
			return drain(rr, false)
		}
	}
	var vs []*variant
	for _, w := range parallelWorkers {
		add := func(name string, fn func(ctx context.Context) (int64, error)) {
			vs = append(vs, &variant{name: fmt.Sprintf("%s/%d", name, w), codec: codec, rows: int64(ds.n), bytes: decoded, fn: fn})
		}
		add("lakecat/rowgroups", open(pqData, w))
		add("lakecat-orc/stripes", open(orcData, w))
		add("lakecat/files", scan(w))
	}
	// Each pair runs back to back within a round: 1 worker, then 2.
	slices.SortStableFunc(vs, func(a, b *variant) int { return strings.Compare(parallelBase(a.name), parallelBase(b.name)) })
	return vs, nil
}

// parallelBase returns a parallel variant's name without its worker count
// ("" for any other variant).
func parallelBase(name string) string {
	for _, p := range []string{"lakecat/rowgroups/", "lakecat-orc/stripes/", "lakecat/files/"} {
		if strings.HasPrefix(name, p) {
			return p
		}
	}
	return ""
}

// parallelRow is one line of printParallel: a pair of variants, one worker
// against two.
type parallelRow struct {
	name, codec              string
	ratioMin, ratioMed       float64 // wall time 2 workers / 1 worker, per round
	cpu1Min, cpu1Med         float64 // process CPU ns/row, 1 worker
	cpu2Min, cpu2Med         float64 // process CPU ns/row, 2 workers
	wall1Min, wall2Min       float64 // least wall ms
	wall1Med, wall2Med       float64 // median wall ms
	cpuRatioMin, cpuRatioMed float64 // CPU time 2 workers / 1 worker, per round
	heap1, heap2             float64 // median MB allocated on Go's heap per run
}

// parallelRows pairs the parallel variants of vs by codec and name.
func parallelRows(vs []*variant) []parallelRow {
	byName := map[string]*variant{}
	for _, v := range vs {
		byName[v.codec+" "+v.name] = v
	}
	var out []parallelRow
	for _, v := range vs {
		base := parallelBase(v.name)
		if base == "" || v.name != base+"1" {
			continue
		}
		two := byName[v.codec+" "+base+"2"]
		if two == nil || len(v.times) == 0 || len(two.times) == 0 {
			continue
		}
		n := min(len(v.times), len(two.times))
		wall := make([]float64, n)
		cpu := make([]float64, n)
		for i := range n {
			wall[i] = float64(two.times[i]) / float64(v.times[i])
			cpu[i] = float64(two.cpu[i]) / float64(max(v.cpu[i], 1))
		}
		perRow := func(ts []time.Duration, rows int64) (float64, float64) {
			return float64(best(ts).Nanoseconds()) / float64(rows), float64(median(ts).Nanoseconds()) / float64(rows)
		}
		r := parallelRow{name: strings.TrimSuffix(base, "/"), codec: v.codec,
			ratioMin: slices.Min(wall), ratioMed: medianFloat(wall),
			cpuRatioMin: slices.Min(cpu), cpuRatioMed: medianFloat(cpu),
			wall1Min: ms(best(v.times)), wall2Min: ms(best(two.times)),
			wall1Med: ms(median(v.times)), wall2Med: ms(median(two.times))}
		r.heap1, r.heap2 = medianHeapMB(v.heap), medianHeapMB(two.heap)
		r.cpu1Min, r.cpu1Med = perRow(v.cpu, v.rows)
		r.cpu2Min, r.cpu2Med = perRow(two.cpu, two.rows)
		out = append(out, r)
	}
	return out
}

// printParallel prints the parallel pairs of vs, if any ran.
func printParallel(w *os.File, vs []*variant) {
	rows := parallelRows(vs)
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\nParallel within a file, 2 workers against 1 (load average now %s). Wall time means something only on an idle machine;\n", loadAvg())
	fmt.Fprintln(w, "on a loaded one compare CPU ns/row (process CPU time, GC included), which time spent waiting for a core is not charged to.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| pair | codec | wall ms 1w min / med | wall ms 2w min / med | wall 2w/1w min / med | CPU ns/row 1w min / med | CPU ns/row 2w min / med | CPU 2w/1w min / med | Go heap MB/run 1w / 2w |")
	fmt.Fprintln(w, "|---|---|--:|--:|--:|--:|--:|--:|--:|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %.1f / %.1f | %.1f / %.1f | %.2f / %.2f | %.1f / %.1f | %.1f / %.1f | %.2f / %.2f | %.1f / %.1f |\n",
			r.name, r.codec, r.wall1Min, r.wall1Med, r.wall2Min, r.wall2Med, r.ratioMin, r.ratioMed,
			r.cpu1Min, r.cpu1Med, r.cpu2Min, r.cpu2Med, r.cpuRatioMin, r.cpuRatioMed, r.heap1, r.heap2)
	}
}

// medianHeapMB returns the median of the heap bytes of runs, in MB.
func medianHeapMB(runs []uint64) float64 {
	xs := make([]float64, len(runs))
	for i, b := range runs {
		xs[i] = float64(b) / 1e6
	}
	if len(xs) == 0 {
		return 0
	}
	return medianFloat(xs)
}

// medianFloat returns the median of xs (not empty).
func medianFloat(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
