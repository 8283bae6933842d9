package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

// shapeVariantNames are the reads of every file of the real-writer
// comparison, in the order they run within a round.
var shapeVariantNames = []string{"lakecat", "pqarrow", "duckdb/scan", "duckdb/parallel", "duckdb/arrow", "floor/decompress"}

// runShapes measures the real-writer comparison: every file of shapeFiles
// read by lakecat, pqarrow and DuckDB, with the decompression floor, in
// interleaved rounds; it prints one table of CPU ns/row (min / median) and
// returns the exit status.
func runShapes(ctx context.Context, cfg config, cpuprof string) int {
	start := time.Now()
	files, err := shapeFiles(cfg.cacheDir, cfg.shapes, cfg.codecs, cfg.scale, cfg.rowGroup)
	if err != nil {
		fmt.Fprintln(os.Stderr, "lakebench: shapes:", err)
		return 2
	}
	type fileRun struct {
		f  shapeFile
		vs map[string]*variant
	}
	var runs []fileRun
	var all []*variant
	for _, f := range files {
		key := f.shape + "/" + f.writer
		vs, err := fileVariants(cfg, f.path, f.codec, "", int64(f.rows), 0)
		if err != nil {
			fmt.Fprintln(os.Stderr, "lakebench: shapes:", err)
			return 2
		}
		data, err := os.ReadFile(f.path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "lakebench: shapes:", err)
			return 2
		}
		fl, err := newFloor(data)
		if err != nil {
			fmt.Fprintf(os.Stderr, "lakebench: shapes: floor of %s: %v\n", f.path, err)
			return 2
		}
		rows := int64(f.rows)
		vs = append(vs, &variant{name: "floor/decompress", codec: f.codec, rows: rows, fn: func(context.Context) (int64, error) {
			return rows, fl.decompress()
		}})
		fr := fileRun{f: f, vs: map[string]*variant{}}
		for _, v := range vs {
			if cfg.only != nil && !cfg.only.MatchString(key+" "+v.name) {
				continue
			}
			v.name = key + " " + v.name // names errors by file
			fr.vs[strings.TrimPrefix(v.name, key+" ")] = v
			all = append(all, v)
		}
		runs = append(runs, fr)
	}
	fmt.Fprintf(os.Stderr, "lakebench: shapes ready in %v (cache %s); %d variants × %d runs\n",
		time.Since(start).Round(time.Millisecond), cfg.cacheDir, len(all), cfg.runs)
	if code := measure(ctx, all, cfg.runs, cpuprof); code != 0 {
		return code
	}
	fmt.Printf("\nReal-writer files (scale %g of issue 20's sizes): process CPU ns/row, min / median of %d interleaved rounds; duckdb/parallel in wall-clock ns/row (%d threads)\n\n",
		cfg.scale, cfg.runs, cfg.workers)
	each := func(yield func(shapeFile, map[string]*variant) bool) {
		for _, r := range runs {
			if !yield(r.f, r.vs) {
				return
			}
		}
	}
	printShapes(os.Stdout, each)
	if cfg.dictionary {
		fmt.Printf("\nOptions.Dictionary on the same files, same rounds: process CPU ns/row, min / median; ratios per round, min / median\n\n")
		printDictionary(os.Stdout, each)
	}
	return 0
}

// printShapes writes the real-writer table: one row per file.
func printShapes(w io.Writer, rows func(yield func(shapeFile, map[string]*variant) bool)) {
	fmt.Fprintln(w, "| shape | writer | codec | rows | lakecat | pqarrow | duckdb/scan | duckdb/parallel (wall) | duckdb/arrow | floor/decompress | lakecat ÷ duckdb/scan | pqarrow ÷ lakecat |")
	fmt.Fprintln(w, "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	for f, vs := range rows {
		cell := func(name string, wall bool) string {
			v := vs[name]
			if v == nil || len(v.cpu) == 0 {
				return "—"
			}
			ts := v.cpu
			if wall {
				ts = v.times
			}
			per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(v.rows) }
			return fmt.Sprintf("%.0f / %.0f", per(best(ts)), per(median(ts)))
		}
		ratio := func(a, b string) string {
			va, vb := vs[a], vs[b]
			if va == nil || vb == nil || len(va.cpu) == 0 || len(vb.cpu) == 0 {
				return "—"
			}
			var per []float64
			for i := range min(len(va.cpu), len(vb.cpu)) {
				per = append(per, float64(va.cpu[i])/float64(vb.cpu[i]))
			}
			slices.Sort(per)
			return fmt.Sprintf("%.2f / %.2f", float64(best(va.cpu))/float64(best(vb.cpu)), per[len(per)/2])
		}
		fmt.Fprintf(w, "| %s | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			f.shape, f.writer, f.codec, f.rows,
			cell("lakecat", false), cell("pqarrow", false), cell("duckdb/scan", false),
			cell("duckdb/parallel", true), cell("duckdb/arrow", false), cell("floor/decompress", false),
			ratio("lakecat", "duckdb/scan"), ratio("pqarrow", "lakecat"))
	}
}

// printDictionary writes the dictionary table of the real-writer files
// (-dictionary): lakecat's plain read, with Options.Dictionary, and with
// the plain read's batches encoded at the output.
func printDictionary(w io.Writer, rows func(yield func(shapeFile, map[string]*variant) bool)) {
	fmt.Fprintln(w, "| shape | writer | codec | rows | lakecat | lakecat-dictionary | lakecat-dictionary-output | dictionary ÷ lakecat | dictionary ÷ output |")
	fmt.Fprintln(w, "|---|---|---|--:|--:|--:|--:|--:|--:|")
	for f, vs := range rows {
		cell := func(name string) string {
			v := vs[name]
			if v == nil || len(v.cpu) == 0 {
				return "—"
			}
			per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(v.rows) }
			return fmt.Sprintf("%.0f / %.0f", per(best(v.cpu)), per(median(v.cpu)))
		}
		ratio := func(a, b string) string {
			va, vb := vs[a], vs[b]
			if va == nil || vb == nil || len(va.cpu) == 0 || len(vb.cpu) == 0 {
				return "—"
			}
			var per []float64
			for i := range min(len(va.cpu), len(vb.cpu)) {
				per = append(per, float64(va.cpu[i])/float64(vb.cpu[i]))
			}
			slices.Sort(per)
			return fmt.Sprintf("%.2f / %.2f", per[0], per[len(per)/2])
		}
		fmt.Fprintf(w, "| %s | %s | %s | %d | %s | %s | %s | %s | %s |\n", f.shape, f.writer, f.codec, f.rows,
			cell("lakecat"), cell("lakecat-dictionary"), cell("lakecat-dictionary-output"),
			ratio("lakecat-dictionary", "lakecat"), ratio("lakecat-dictionary", "lakecat-dictionary-output"))
	}
}
