package reader_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/internal/corrupt"
	"github.com/lakecat/lakecat/internal/render"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
)

// corpusMemCap is the most Arrow memory one read of a damaged file may hold
// at once (bytes). The sources are at most a few tens of kilobytes; a
// damaged size field must not make a decoder allocate more than this.
const corpusMemCap = 64 << 20

// corpusHeapCap bounds the Go heap one read of a damaged file may
// allocate in all (bytes; runtime.MemStats.TotalAlloc, an upper bound of
// what it holds at once), for the decoders' own buffers that do not go
// through the Arrow allocator.
const corpusHeapCap = 256 << 20

// corpusSlow is the longest one read of a damaged file may take.
const corpusSlow = 10 * time.Second

// errPanic marks a read that panicked.
var errPanic = errors.New("panic")

// readAll opens b with reader.Open, reads every batch and returns the Arrow
// schema and the rows as JSON lines. A panic becomes an error wrapping
// errPanic with the stack.
func readAll(ctx context.Context, name string, b []byte, mem memory.Allocator) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", errPanic, r)
		}
	}()
	rr, err := reader.Open(ctx, bytes.NewReader(b), int64(len(b)), reader.Options{Name: name, Allocator: mem, BatchRows: 512})
	if err != nil {
		return "", err
	}
	defer rr.Release()
	var sb []byte
	sb = append(sb, rr.Schema().String()...)
	sb = append(sb, '\n')
	for rr.Next() {
		rec := rr.RecordBatch()
		for r := 0; r < int(rec.NumRows()); r++ {
			sb = render.AppendRow(sb, rec, r, nil)
			sb = append(sb, '\n')
		}
	}
	if err := rr.Err(); err != nil {
		return "", err
	}
	return string(sb), nil
}

// corpusSources returns the files the corrupt corpus damages: the bundled
// demo table's Parquet files and the small real Parquet and ORC files.
func corpusSources(t *testing.T) []string {
	root := testutil.RepoRoot(t)
	files, _ := filepath.Glob(filepath.Join(root, "testdata", "orders", "data", "*.parquet"))
	real := testutil.RealDir(t)
	for _, g := range []struct {
		glob string
		max  int64
	}{
		{filepath.Join(real, "parquet-testing", "data", "*.parquet"), 16 << 10},
		{filepath.Join(real, "apache-orc", "examples", "*.orc"), 32 << 10},
	} {
		m, _ := filepath.Glob(g.glob)
		for _, f := range m {
			if st, err := os.Stat(f); err == nil && st.Size() > 0 && st.Size() <= g.max {
				files = append(files, f)
			}
		}
	}
	sort.Strings(files)
	return files
}

// TestCorruptCorpus damages every source file (package internal/corrupt:
// truncations, flipped bytes in head, body and tail; the same mutants as
// `go run ./internal/corrupt/cmd/mkcorrupt`), writes the copies to a
// temporary folder, and reads each through reader.Open to the end with a
// checked allocator. Each must end in an error of one of the lakecat
// classes, or in rows: exactly the original's for a truncated copy (a file
// cut short must never read as complete), the original's or others for a
// flipped byte in a page or stream (Parquet and ORC data carry no required
// checksum, so a flipped value can read as another value). Never a panic,
// never more than corpusMemCap bytes held, never longer than corpusSlow.
func TestCorruptCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corrupt corpus: skipped in -short mode")
	}
	srcs := corpusSources(t)
	dir := t.TempDir()
	originals := map[string]string{}
	origErr := map[string]error{}
	var names []string
	for _, src := range srcs {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(src)
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		originals[base], origErr[base] = readAll(context.Background(), base, b, mem)
		mem.AssertSize(t, 0)
		for _, m := range corrupt.Mutants(base, b, 1) {
			if err := os.WriteFile(filepath.Join(dir, m.Name), m.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			names = append(names, m.Name)
		}
	}
	type counts struct{ tried, errs, correct, differ, panics int }
	var total counts
	byKind := map[string]*counts{}
	byClass := map[string]int{}
	var peak int64
	var slowest time.Duration
	var slowestName, heapName string
	var heapMost uint64 // Go heap bytes allocated by one read (decoders' own buffers too)
	for _, name := range names {
		base, rest, _ := strings.Cut(name, ".truncate@")
		kind := corrupt.Truncate
		if rest == "" {
			for _, k := range []string{corrupt.FlipHead, corrupt.FlipBody, corrupt.FlipTail, corrupt.MaxTail} {
				if i := strings.LastIndex(name, "."+k+"@"); i >= 0 {
					base, kind = name[:i], k
				}
			}
		}
		c := byKind[kind]
		if c == nil {
			c = &counts{}
			byKind[kind] = c
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		mem := newPeakAllocator(corpusMemCap)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		out, err := readAll(context.Background(), name, b, mem)
		if d := time.Since(start); d > slowest {
			slowest, slowestName = d, name
		}
		runtime.ReadMemStats(&after)
		if d := after.TotalAlloc - before.TotalAlloc; d > heapMost {
			heapMost, heapName = d, name
		}
		mem.AssertSize(t, 0)
		peak = max(peak, mem.Peak())
		if mem.OverCap() > 0 {
			t.Errorf("%s: held %d bytes, over the %d-byte cap", name, mem.Peak(), corpusMemCap)
		}
		c.tried++
		total.tried++
		switch {
		case errors.Is(err, errPanic):
			c.panics++
			total.panics++
			t.Errorf("%s: %v", name, err)
		case err != nil:
			c.errs++
			total.errs++
			class := lakecat.ClassOf(err)
			if class == nil {
				byClass["(none)"]++
				t.Errorf("%s: error of no class: %v", name, err)
			} else {
				byClass[class.Error()]++
			}
		case origErr[base] == nil && out == originals[base]:
			c.correct++
			total.correct++
		default:
			c.differ++
			total.differ++
			if kind == corrupt.Truncate {
				t.Errorf("%s: a truncated file read without error and rows differ from the original", name)
			}
		}
	}
	if heapMost > corpusHeapCap {
		t.Errorf("%s allocated %d bytes of Go heap (cap %d)", heapName, heapMost, corpusHeapCap)
	}
	if slowest > corpusSlow {
		t.Errorf("%s took %v", slowestName, slowest)
	}
	t.Logf("sources %d, mutants tried %d: errors %d, correct rows %d, other rows %d (flipped data bytes), panics %d; peak Arrow memory %d bytes (cap %d); most Go heap allocated by one read %d bytes (%s; cap %d); slowest %v (%s)",
		len(srcs), total.tried, total.errs, total.correct, total.differ, total.panics, peak, corpusMemCap, heapMost, heapName, corpusHeapCap, slowest, slowestName)
	kinds := make([]string, 0, len(byKind))
	for k := range byKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		c := byKind[k]
		t.Logf("  %-10s tried %4d  errors %4d  correct %4d  other rows %4d", k, c.tried, c.errs, c.correct, c.differ)
	}
	t.Logf("  error classes: %v", byClass)
	if total.tried < 1000 {
		t.Errorf("only %d mutants tried", total.tried)
	}
}
