package lakecatio

import (
	"bytes"
	"context"
	"flag"
	"io"
	"log/slog"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/internal/render"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
)

func init() {
	register.DoFn1x0[[]byte](&collectFn{})
	register.DoFn1x0[order](&collectOrdersFn{})
	register.DoFn1x0[beam.X](&discardFn{})
}

func TestMain(m *testing.M) {
	flag.Parse()
	beam.Init()
	if os.Getenv("LAKECAT_BEAM_LOG") == "" { // Prism logs each failed bundle at length (through the logger beam.Init set)
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	os.Exit(m.Run())
}

// sinks hold what collectFn received, by key. Prism runs the SDK harness
// in the test's own process (loopback), so DoFns can write here.
var (
	sinkMu sync.Mutex
	sinks  = map[string][][]byte{}
)

// collectFn appends each element to sinks[Key].
type collectFn struct{ Key string }

func (fn *collectFn) ProcessElement(b []byte) {
	sinkMu.Lock()
	defer sinkMu.Unlock()
	sinks[fn.Key] = append(sinks[fn.Key], append([]byte(nil), b...))
}

func collect(s beam.Scope, key string, col beam.PCollection) {
	sinkMu.Lock()
	delete(sinks, key)
	sinkMu.Unlock()
	beam.ParDo0(s, &collectFn{Key: key}, col)
}

func sink(key string) [][]byte {
	sinkMu.Lock()
	defer sinkMu.Unlock()
	return sinks[key]
}

// run executes the pipeline on Prism and returns its counters by name.
func run(t *testing.T, p *beam.Pipeline) (map[string]int64, error) {
	t.Helper()
	return prismRun(p)
}

// prismRun executes the pipeline on Prism and returns its counters by name.
func prismRun(p *beam.Pipeline) (map[string]int64, error) {
	res, err := prism.Execute(context.Background(), p)
	if err != nil {
		return nil, err
	}
	counters := map[string]int64{}
	for _, c := range res.Metrics().AllMetrics().Counters() {
		if c.Namespace() == "lakecat" {
			counters[c.Name()] += c.Result()
		}
	}
	return counters, nil
}

// batchRows decodes elements of Read into rendered rows (the JSON lines
// of `lakecat cat --format jsonl`), sorted, and the Arrow schema of the
// first; it fails the test when two elements have different schemas.
func batchRows(t *testing.T, elems [][]byte) ([]string, *arrow.Schema) {
	t.Helper()
	var rows []string
	var sch *arrow.Schema
	for _, b := range elems {
		r, err := ipc.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("decoding an element: %v", err)
		}
		if sch == nil {
			sch = r.Schema()
		} else if !sch.Equal(r.Schema()) {
			t.Fatalf("schemas differ between elements:\n%s\n%s", sch, r.Schema())
		}
		n := 0
		for r.Next() {
			rec := r.RecordBatch()
			n++
			for i := 0; i < int(rec.NumRows()); i++ {
				rows = append(rows, string(render.AppendRow(nil, rec, i, nil)))
			}
		}
		if err := r.Err(); err != nil {
			t.Fatalf("decoding an element: %v", err)
		}
		if n != 1 {
			t.Fatalf("an element holds %d batches, want 1", n)
		}
		r.Release()
	}
	slices.Sort(rows)
	return rows, sch
}

// referenceRows reads the table with the reader library, as `lakecat cat`
// does, and returns its rendered rows sorted and its output schema.
func referenceRows(t *testing.T, location string, columns []string, where string) ([]string, *arrow.Schema, error) {
	t.Helper()
	o := reader.TableOptions{Columns: columns}
	if where != "" {
		f, err := expr.Parse(where)
		if err != nil {
			t.Fatal(err)
		}
		o.Filter = f
	}
	tbl, err := reader.OpenTable(context.Background(), location, o)
	if err != nil {
		return nil, nil, err
	}
	rr, err := tbl.Scan(context.Background())
	if err != nil {
		return nil, nil, err
	}
	defer rr.Release()
	var rows []string
	for rr.Next() {
		rec := rr.RecordBatch()
		for i := 0; i < int(rec.NumRows()); i++ {
			rows = append(rows, string(render.AppendRow(nil, rec, i, nil)))
		}
	}
	if err := rr.Err(); err != nil {
		return nil, nil, err
	}
	slices.Sort(rows)
	return rows, schema.ToArrowSchema(tbl.OutputSchema()), nil
}

// sameRows fails the test unless got and want are the same multiset
// (both sorted), showing the first difference.
func sameRows(t *testing.T, name string, got, want []string) {
	t.Helper()
	if slices.Equal(got, want) {
		return
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	g, w := "(end)", "(end)"
	if i < len(got) {
		g = got[i]
	}
	if i < len(want) {
		w = want[i]
	}
	t.Errorf("%s: %d rows, want %d; first difference at sorted row %d:\n got  %s\n want %s", name, len(got), len(want), i, g, w)
}

// sameSchema fails the test unless the element schema has the reference
// schema's field names and Arrow types (metadata aside).
func sameSchema(t *testing.T, name string, got, want *arrow.Schema) {
	t.Helper()
	if got == nil { // no rows: no element
		return
	}
	if got.NumFields() != want.NumFields() {
		t.Errorf("%s: %d columns, want %d:\n got  %s\n want %s", name, got.NumFields(), want.NumFields(), got, want)
		return
	}
	for i := range want.Fields() {
		g, w := got.Field(i), want.Field(i)
		if g.Name != w.Name || !arrow.TypeEqual(g.Type, w.Type) || g.Nullable != w.Nullable {
			t.Errorf("%s: column %d is %s %s (nullable %v), want %s %s (nullable %v)", name, i, g.Name, g.Type, g.Nullable, w.Name, w.Type, w.Nullable)
		}
	}
}
