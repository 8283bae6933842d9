package reader_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/internal/render"
	"github.com/lakecat/lakecat/reader"
)

// TestDecoderSkipDifferential reads every table with deletes (the real
// tables, the bundled ones and the generated delete tables) with position
// deletes and deletion vectors applied inside the Parquet decoder and with
// them applied to decoded batches: the rows, _pos and _file included, are
// the same, in the same order, in batches of 3 rows and of the default
// size, with and without a filter on the first column (the row groups the
// filter keeps are read through the same skipping).
func TestDecoderSkipDifferential(t *testing.T) {
	defer reader.SetDecoderSkip(false)
	dirs := filterTables(t)
	gen, _ := filepath.Glob(filepath.Join("testdata", "deletes", "*"))
	for _, g := range gen {
		if st, err := os.Stat(g); err == nil && st.IsDir() {
			dirs = append(dirs, g)
		}
	}
	read := func(dir string, opts reader.TableOptions) (string, reader.ScanCounts, error) {
		var stats reader.ScanStats
		opts.Stats = &stats
		tbl, err := reader.OpenTable(context.Background(), dir, opts)
		if err != nil {
			return "", reader.ScanCounts{}, err
		}
		rr, err := tbl.Scan(context.Background())
		if err != nil {
			return "", reader.ScanCounts{}, err
		}
		defer rr.Release()
		var b []byte
		for rr.Next() {
			rec := rr.RecordBatch()
			for r := 0; r < int(rec.NumRows()); r++ {
				b = render.AppendRow(b, rec, r, nil)
				b = append(b, '\n')
			}
		}
		return string(b), stats.Counts(), rr.Err()
	}
	tables, reads, rows := 0, 0, 0
	skipFiles := reader.DecoderSkipFiles()
	for _, dir := range dirs {
		base := reader.TableOptions{MetadataColumns: []string{"_file", "_pos"}}
		reader.SetDecoderSkip(false)
		stored := base
		stored.IgnoreDeletes = true
		plain, _, err := read(dir, stored)
		if err != nil {
			continue
		}
		if all, _, err := read(dir, base); err != nil || all == plain {
			continue // no deletes
		}
		tbl, err := reader.OpenTable(context.Background(), dir, base)
		if err != nil {
			continue
		}
		first := tbl.ReadSchema.Fields[0].Name
		tables++
		for _, batch := range []int{3, 0} {
			for _, where := range []string{"", first + " IS NOT NULL", "NOT (" + first + " IS NULL)"} {
				opts := base
				opts.BatchRows = batch
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				opts.Allocator = mem
				if where != "" {
					e, err := expr.Parse(where)
					if err != nil {
						t.Fatal(err)
					}
					opts.Filter = e
				}
				reader.SetDecoderSkip(false)
				want, wc, err := read(dir, opts)
				if err != nil {
					t.Errorf("%s %q: filtering decoded batches: %v", dir, where, err)
					continue
				}
				reader.SetDecoderSkip(true)
				got, gc, err := read(dir, opts)
				if err != nil {
					t.Errorf("%s %q: in the decoder: %v", dir, where, err)
					continue
				}
				mem.AssertSize(t, 0)
				if got != want {
					t.Errorf("%s %q, batches of %d:\n got %s\nwant %s", dir, where, batch, got, want)
				}
				if gc.RowsRead != wc.RowsRead {
					t.Errorf("%s %q: RowsRead %d, filtering decoded batches %d", dir, where, gc.RowsRead, wc.RowsRead)
				}
				reads++
				rows += strings.Count(got, "\n")
			}
		}
	}
	skipFiles = reader.DecoderSkipFiles() - skipFiles
	t.Logf("%d tables, %d reads, %d rows, %d files read skipping in the decoder", tables, reads, rows, skipFiles)
	if tables < 9 || skipFiles < 20 {
		t.Errorf("only %d tables with deletes, %d files read skipping in the decoder", tables, skipFiles)
	}
}
