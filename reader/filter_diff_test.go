package reader_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/internal/render"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
)

// filterTables returns the real tables of the shared test data and the
// bundled ones.
func filterTables(t *testing.T) []string {
	var out []string
	filepath.WalkDir(testutil.RealDir(t), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if _, err := table.Detect(context.Background(), storage.OSFS{}, p); err == nil {
			out = append(out, p)
			return filepath.SkipDir
		}
		return nil
	})
	repo := testutil.RepoRoot(t)
	return append(out, filepath.Join(repo, "testdata", "orders"), filepath.Join(repo, "testdata", "paimon_orders"))
}

// TestFilterDifferential: over every table lakecat reads, random filters
// built from the columns' types and values give exactly the rows of the
// unfiltered read filtered afterwards (pruning off), in the same order.
func TestFilterDifferential(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 16))
	var tables, filters, rows int
	var stats reader.ScanStats
	for _, dir := range filterTables(t) {
		tbl, err := reader.OpenTable(context.Background(), dir, reader.TableOptions{})
		if err != nil {
			continue // refused (deletes, primary keys, logs, …)
		}
		rr, err := tbl.Scan(context.Background())
		if err != nil {
			continue
		}
		var batches []arrow.RecordBatch
		for rr.Next() {
			rec := rr.RecordBatch()
			rec.Retain()
			batches = append(batches, rec)
		}
		err = rr.Err()
		rr.Release()
		release := func() {
			for _, b := range batches {
				b.Release()
			}
		}
		if err != nil {
			release()
			continue
		}
		cands := filterColumns(tbl.ReadSchema, batches)
		if len(cands) == 0 {
			release()
			continue
		}
		tables++
		for k := 0; k < 12; k++ {
			e := randomFilter(rng, cands, 0)
			bound, err := expr.Bind(e, tbl.ReadSchema)
			if err != nil {
				t.Errorf("%s: %s: bind: %v", dir, e, err)
				continue
			}
			var want []byte
			for _, b := range batches {
				sel, _, err := bound.Select(b)
				if err != nil {
					t.Fatalf("%s: %s: %v", dir, e, err)
				}
				for r := 0; r < int(b.NumRows()); r++ {
					if sel[r/8]&(1<<(r%8)) != 0 {
						want = render.AppendRow(want, b, r, nil)
						want = append(want, '\n')
					}
				}
			}
			ftbl, err := reader.OpenTable(context.Background(), dir, reader.TableOptions{Filter: e, Stats: &stats})
			if err != nil {
				t.Errorf("%s: %s: %v", dir, e, err)
				continue
			}
			frr, err := ftbl.Scan(context.Background())
			if err != nil {
				t.Errorf("%s: %s: %v", dir, e, err)
				continue
			}
			got := testutil.ReaderJSON(t, frr)
			frr.Release()
			if got != string(want) {
				t.Errorf("%s: %s:\n got %s\nwant %s", dir, e, got, want)
			}
			filters++
			rows += strings.Count(got, "\n")
		}
		release()
	}
	var bloomStats reader.ScanStats
	bf, br := diffBloomFiles(t, rng, &bloomStats)
	c, bc := stats.Counts(), bloomStats.Counts()
	t.Logf("%d tables, %d filters, %d rows selected; files %d read %d skipped (%d by Paimon statistics); row groups %d read %d skipped", tables, filters, rows, c.FilesRead, c.FilesSkipped, c.FilesSkippedStats, c.RowGroupsRead, c.RowGroupsSkipped)
	t.Logf("bloom-filtered files: %d filters, %d rows selected; row groups %d read %d skipped, %d of them by bloom filters", bf, br, bc.RowGroupsRead, bc.RowGroupsSkipped, bc.RowGroupsSkippedBloom)
	if filters < 200 {
		t.Errorf("only %d filters", filters)
	}
	if c.FilesSkippedStats == 0 {
		t.Errorf("no Paimon file skipped by its manifest statistics")
	}
	if bc.RowGroupsSkippedBloom == 0 {
		t.Errorf("no row group skipped by a bloom filter")
	}
	var pageStats reader.ScanStats
	pf, pr := diffPageIndexFiles(t, rng, &pageStats)
	pc := pageStats.Counts()
	t.Logf("page-indexed files: %d filters, %d rows selected; row groups %d read; %d pages, %d rows skipped by the page index", pf, pr, pc.RowGroupsRead, pc.PageIndexPagesSkipped, pc.PageIndexRowsSkipped)
	if pc.PageIndexRowsSkipped == 0 {
		t.Errorf("no row skipped by the page index")
	}
}

// candidate is a top-level primitive column and literals seen in it.
type candidate struct {
	name string
	kind schema.Kind
	lits []expr.Literal
	nan  bool
}

func filterColumns(s *schema.Schema, batches []arrow.RecordBatch) []candidate {
	var out []candidate
	for i, f := range s.Fields {
		pt, ok := f.Type.(schema.PrimitiveType)
		if !ok || f.ID >= 2147483447 {
			continue
		}
		c := candidate{name: f.Name, kind: pt.K, nan: pt.K == schema.KindFloat || pt.K == schema.KindDouble}
		for _, b := range batches {
			col := b.Column(i)
			for r := 0; r < col.Len() && len(c.lits) < 40; r++ {
				if col.IsNull(r) {
					continue
				}
				if l, ok := literalOf(col, r, pt); ok {
					c.lits = append(c.lits, l)
				}
			}
		}
		if len(c.lits) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// literalOf returns row r of col as a literal of the field's type.
func literalOf(col arrow.Array, r int, t schema.PrimitiveType) (expr.Literal, bool) {
	switch a := col.(type) {
	case *array.Int8:
		return expr.Literal{Kind: expr.LitNumber, Text: strconv.Itoa(int(a.Value(r)))}, true
	case *array.Int16:
		return expr.Literal{Kind: expr.LitNumber, Text: strconv.Itoa(int(a.Value(r)))}, true
	case *array.Int32:
		return expr.Literal{Kind: expr.LitNumber, Text: strconv.Itoa(int(a.Value(r)))}, true
	case *array.Int64:
		return expr.Literal{Kind: expr.LitNumber, Text: strconv.FormatInt(a.Value(r), 10)}, true
	case *array.Float32:
		v := a.Value(r)
		if v != v || v > 1e30 || v < -1e30 {
			return expr.Literal{}, false
		}
		return expr.Literal{Kind: expr.LitNumber, Text: strconv.FormatFloat(float64(v), 'g', -1, 32)}, true
	case *array.Float64:
		v := a.Value(r)
		if v != v || v > 1e300 || v < -1e300 {
			return expr.Literal{}, false
		}
		return expr.Literal{Kind: expr.LitNumber, Text: strconv.FormatFloat(v, 'g', -1, 64)}, true
	case *array.String:
		return expr.Literal{Kind: expr.LitString, Text: a.Value(r)}, true
	case *array.Boolean:
		return expr.Literal{Kind: expr.LitBool, Text: strconv.FormatBool(a.Value(r))}, true
	case *array.Date32:
		raw, err := schema.MarshalLiteral(t, int32(a.Value(r)))
		return jsonStringLit(raw, err)
	case *array.Timestamp:
		raw, err := schema.MarshalLiteral(t, int64(a.Value(r)))
		return jsonStringLit(raw, err)
	case *array.Decimal128:
		v := a.Value(r)
		raw, err := schema.MarshalLiteral(t, schema.DecimalValue{Hi: v.HighBits(), Lo: v.LowBits()})
		return jsonStringLit(raw, err)
	}
	return expr.Literal{}, false
}

func jsonStringLit(raw []byte, err error) (expr.Literal, bool) {
	var s string
	if err != nil || json.Unmarshal(raw, &s) != nil {
		return expr.Literal{}, false
	}
	return expr.Literal{Kind: expr.LitString, Text: s}, true
}

var randomOps = []expr.Op{expr.Eq, expr.NotEq, expr.Lt, expr.LtEq, expr.Gt, expr.GtEq, expr.In, expr.NotIn, expr.IsNull, expr.NotNull}

func randomFilter(rng *rand.Rand, cands []candidate, depth int) expr.Expr {
	if depth < 2 && rng.IntN(3) == 0 {
		l, r := randomFilter(rng, cands, depth+1), randomFilter(rng, cands, depth+1)
		switch rng.IntN(3) {
		case 0:
			return expr.And{Left: l, Right: r}
		case 1:
			return expr.Or{Left: l, Right: r}
		}
		return expr.Not{E: expr.And{Left: l, Right: r}}
	}
	c := cands[rng.IntN(len(cands))]
	op := randomOps[rng.IntN(len(randomOps))]
	if c.nan && rng.IntN(8) == 0 {
		op = expr.IsNaN
	}
	if (c.kind == schema.KindString) && rng.IntN(6) == 0 {
		l := c.lits[rng.IntN(len(c.lits))]
		if len(l.Text) > 1 {
			l.Text = l.Text[:1+rng.IntN(len(l.Text)-1)]
		}
		return expr.Pred{Op: expr.StartsWith, Column: c.name, Values: []expr.Literal{l}}
	}
	p := expr.Pred{Op: op, Column: c.name}
	switch op {
	case expr.IsNull, expr.NotNull, expr.IsNaN:
	case expr.In, expr.NotIn:
		for i := 0; i < 1+rng.IntN(3); i++ {
			p.Values = append(p.Values, c.lits[rng.IntN(len(c.lits))])
		}
	default:
		p.Values = []expr.Literal{c.lits[rng.IntN(len(c.lits))]}
	}
	return p
}
