package reader_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/parquet-go/parquet-go"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/formats/parquet"
	"github.com/lakecat/lakecat/internal/render"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
)

// bloomFileRow is a row of bloomFile, in the file's (old) types and names.
type bloomFileRow struct {
	K   int32   `parquet:"k,id(1)"`
	S   string  `parquet:"s,id(2)"`
	F   float32 `parquet:"f,id(3)"`
	Dec int32   `parquet:"dec,id(4),decimal(2:9)"`
}

// bloomValue is the k of row r of bloomFile: row group g holds
// {10*i + g : i < 100}, so every group's bounds span [g, 990+g] and the
// statistics rule none out for a value below 990; each value is stored
// once.
func bloomValue(r int) int { return (r%100)*10 + r/100 }

// bloomFile writes 1,000 rows in 10 row groups of 100, with a bloom filter
// (20 bits a value: about one false positive in 10,000) on every column
// and statistics.
func bloomFile(t *testing.T, filters bool) []byte {
	t.Helper()
	var rows []bloomFileRow
	for r := 0; r < 1000; r++ {
		v := bloomValue(r)
		rows = append(rows, bloomFileRow{K: int32(v), S: fmt.Sprintf("s%d", v), F: float32(v) + 0.5, Dec: int32(v)})
	}
	opts := []pq.WriterOption{pq.MaxRowsPerRowGroup(100)}
	if filters {
		opts = append(opts, pq.BloomFilters(pq.SplitBlockFilter(20, "k"), pq.SplitBlockFilter(20, "s"), pq.SplitBlockFilter(20, "f"), pq.SplitBlockFilter(20, "dec")))
	}
	var buf bytes.Buffer
	w := pq.NewGenericWriter[bloomFileRow](&buf, opts...)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// bloomEvolved is bloomFile's read schema after evolution: k promoted
// int→long, s renamed to name, f promoted float→double, dec widened to
// decimal(12,2), added (id 5) added.
func bloomEvolved() *schema.Schema {
	return schema.New(1,
		&schema.Field{ID: 1, Name: "k", Type: schema.Long, Required: true},
		&schema.Field{ID: 2, Name: "name", Type: schema.String, Required: true},
		&schema.Field{ID: 3, Name: "f", Type: schema.Double, Required: true},
		&schema.Field{ID: 4, Name: "dec", Type: schema.PrimitiveType{K: schema.KindDecimal, Precision: 12, Scale: 2}, Required: true},
		&schema.Field{ID: 5, Name: "added", Type: schema.Long},
	)
}

// bloomRows renders the rows of bloomFile with the given k values, in file
// order, in bloomEvolved.
func bloomRows(ks ...int) string {
	pos := map[int]int{}
	for r := 0; r < 1000; r++ {
		pos[bloomValue(r)] = r
	}
	sortByPos(ks, pos)
	var b strings.Builder
	for _, k := range ks {
		fmt.Fprintf(&b, `{"k":%d,"name":"s%d","f":%v,"dec":"%d.%02d","added":null}`+"\n", k, k, float64(k)+0.5, k/100, k%100)
	}
	return b.String()
}

func sortByPos(ks []int, pos map[int]int) {
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && pos[ks[j]] < pos[ks[j-1]]; j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
}

// TestFilterBloomPruning: = and IN skip the row groups whose bloom filters
// rule every literal out, after the statistics let them through, with the
// literal put in the file's type: a promoted int, a float read as double, a
// widened decimal, a renamed column matched by id.
func TestFilterBloomPruning(t *testing.T) {
	data := bloomFile(t, true)
	for _, c := range []struct {
		name, where      string
		rows             []int
		read, stats, blm int64
	}{
		{"eq on a promoted int", "k = 123", []int{123}, 1, 0, 9},
		{"in", "k in (123, 456)", []int{123, 456}, 2, 0, 8},
		{"a long literal beyond int cannot be stored", "k in (123, 3000000000)", []int{123}, 1, 0, 9},
		{"renamed string column by field id", "name = 's457'", []int{457}, 1, 0, 9},
		{"string in", "name in ('s1', 's2', 'nope')", []int{1, 2}, 2, 0, 8},
		{"float read as double, hashed as float", "f = 123.5", []int{123}, 1, 0, 9},
		{"double without a float form", "f = 123.6", nil, 0, 0, 10},
		{"decimal widened", "dec = 4.56", []int{456}, 1, 0, 9},
		{"or of two columns", "k = 123 or name = 's456'", []int{123, 456}, 2, 0, 8},
		{"and with a missing column", "k = 123 and added is null", []int{123}, 1, 0, 9},
		{"stats and bloom together", "k = 123 or k > 995", []int{123, 996, 997, 998, 999}, 5, 0, 5},
		{"statistics first", "k = 995", []int{995}, 1, 5, 4},
		{"not equal is not decided by bloom", "k != 123 and k < 3", []int{0, 1, 2}, 3, 7, 0},
		{"absent everywhere", "k = 1000", nil, 0, 10, 0},
		{"a missing column decides by its constant", "added = 5", nil, 0, 10, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, batch := range []int{7, 0} {
				got, st := readFiltered(t, data, bloomEvolved(), c.where, batch)
				if want := bloomRows(c.rows...); got != want {
					t.Errorf("%s: rows\n%s\nwant\n%s", c.where, got, want)
				}
				if st.RowGroupsRead != c.read || st.RowGroupsSkipped != c.stats+c.blm || st.RowGroupsSkippedBloom != c.blm {
					t.Errorf("%s: row groups read %d skipped %d (bloom %d), want %d, %d (bloom %d)", c.where, st.RowGroupsRead, st.RowGroupsSkipped, st.RowGroupsSkippedBloom, c.read, c.stats+c.blm, c.blm)
				}
			}
			// Without bloom filters the same rows, no bloom skips.
			got, st := readFiltered(t, bloomFile(t, false), bloomEvolved(), c.where, 0)
			if want := bloomRows(c.rows...); got != want || st.RowGroupsSkippedBloom != 0 {
				t.Errorf("%s without filters: rows\n%s\nwant\n%s (bloom skips %d)", c.where, got, want, st.RowGroupsSkippedBloom)
			}
		})
	}
}

// TestFilterBloomWorkers: the parallel row-group path skips alike.
func TestFilterBloomWorkers(t *testing.T) {
	data := bloomFile(t, true)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	e, _ := expr.Parse("k in (5, 123, 456)")
	var st reader.ScanStats
	rr, err := reader.Open(context.Background(), bytes.NewReader(data), int64(len(data)), reader.Options{ReadSchema: bloomEvolved(), Filter: e, Stats: &st, Allocator: mem, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	got := testutil.ReaderJSON(t, rr)
	rr.Release()
	if want := bloomRows(5, 123, 456); got != want {
		t.Errorf("rows\n%s\nwant\n%s", got, want)
	}
	if c := st.Counts(); c.RowGroupsRead != 3 || c.RowGroupsSkippedBloom != 7 {
		t.Errorf("read %d, bloom skipped %d; want 3 and 7", c.RowGroupsRead, c.RowGroupsSkippedBloom)
	}
}

// corruptFirstBloomHeader returns data with the first bloom filter header
// parquet-go wrote (num_bytes, then the unions split block, xxHash and
// uncompressed) made undecodable: its algorithm field gets a type code
// thrift does not define.
func corruptFirstBloomHeader(t *testing.T, data []byte) []byte {
	t.Helper()
	unions := []byte{0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00}
	i := bytes.Index(data, unions)
	if i < 0 {
		t.Fatal("no bloom filter header found")
	}
	bad := append([]byte(nil), data...)
	bad[i] = 0x1f
	return bad
}

// readAllErr reads data named bloom.parquet with filter e and returns the
// rows read and the first error.
func readAllErr(data []byte, e expr.Expr, workers int) (int64, error) {
	mem := memory.NewGoAllocator()
	rr, err := reader.Open(context.Background(), bytes.NewReader(data), int64(len(data)), reader.Options{Name: "bloom.parquet", ReadSchema: bloomEvolved(), Filter: e, Allocator: mem, Workers: workers})
	if err != nil {
		return 0, err
	}
	defer rr.Release()
	var n int64
	for rr.Next() {
		n += rr.RecordBatch().NumRows()
	}
	return n, rr.Err()
}

// TestFilterBloomCorrupt: a bloom filter whose header is corrupt fails the
// read with ErrCorrupt naming the file; it is never taken as a skip.
func TestFilterBloomCorrupt(t *testing.T) {
	bad := corruptFirstBloomHeader(t, bloomFile(t, true))
	for _, workers := range []int{1, 2} {
		e, _ := expr.Parse("k = 123")
		_, err := readAllErr(bad, e, workers)
		if !errors.Is(err, lakecat.ErrCorrupt) || !errors.Is(err, parquet.ErrCorrupt) || !strings.Contains(err.Error(), "bloom.parquet") {
			t.Errorf("workers %d: %v, want a corrupt error naming bloom.parquet", workers, err)
		}
	}
	// A filter without = or IN never reads it.
	e, _ := expr.Parse("k < 3")
	if n, err := readAllErr(bad, e, 1); err != nil || n != 3 {
		t.Errorf("k < 3: %d rows, %v; want 3 rows", n, err)
	}
}

// bloomFile2Row is a row of bloomFile2: nulls, dates, millisecond
// timestamps and a narrow int, each with a bloom filter.
type bloomFile2Row struct {
	ID   int64   `parquet:"id,id(1)"`
	Tag  *string `parquet:"tag,id(2),optional"`
	Day  int32   `parquet:"day,id(3),date"`
	TsMs int64   `parquet:"ts,id(4),timestamp(millisecond)"`
	Tiny int8    `parquet:"tiny,id(5),int(8)"`
}

// bloomFile2 writes 600 rows in 10 row groups of 60, values interleaved
// across groups as in bloomFile.
func bloomFile2(t *testing.T) []byte {
	t.Helper()
	var rows []bloomFile2Row
	for r := 0; r < 600; r++ {
		v := (r%60)*10 + r/60
		row := bloomFile2Row{ID: int64(v) * 1_000_003, Day: int32(19_000 + v%97), TsMs: 1_700_000_000_000 + int64(v)*1001, Tiny: int8(v%200 - 100)}
		if v%7 != 0 {
			s := fmt.Sprintf("t%d", v%50)
			row.Tag = &s
		}
		rows = append(rows, row)
	}
	var filters []pq.BloomFilterColumn
	for _, c := range []string{"id", "tag", "day", "ts", "tiny"} {
		filters = append(filters, pq.SplitBlockFilter(20, c))
	}
	var buf bytes.Buffer
	w := pq.NewGenericWriter[bloomFile2Row](&buf, pq.MaxRowsPerRowGroup(60), pq.BloomFilters(filters...))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// bloomFile2Evolved renames tag to label and widens tiny to int.
func bloomFile2Evolved() *schema.Schema {
	return schema.New(1,
		&schema.Field{ID: 1, Name: "id", Type: schema.Long, Required: true},
		&schema.Field{ID: 2, Name: "label", Type: schema.String},
		&schema.Field{ID: 3, Name: "day", Type: schema.Date, Required: true},
		&schema.Field{ID: 4, Name: "ts", Type: schema.TimestampTz, Required: true},
		&schema.Field{ID: 5, Name: "tiny", Type: schema.Int, Required: true},
	)
}

// diffBloomFiles is the bloom-filter part of TestFilterDifferential: over
// Parquet files with bloom filters (parquet-testing's two, and generated
// ones read after evolution), random filters, half of them = and IN, give
// the rows of the unfiltered read filtered afterwards. It returns the
// filters run and the rows selected.
func diffBloomFiles(t *testing.T, rng *rand.Rand, stats *reader.ScanStats) (filters, rows int) {
	type file struct {
		name string
		data []byte
		read *schema.Schema // what the filter binds to
		opt  *schema.Schema // Options.ReadSchema (nil: the file's own)
	}
	var files []file
	for _, n := range []string{"data_index_bloom_encoding_stats.parquet", "data_index_bloom_encoding_with_length.parquet"} {
		data, err := os.ReadFile(filepath.Join(testutil.RealDir(t), "parquet-testing", "data", n))
		if err != nil {
			t.Fatal(err)
		}
		pf, err := parquet.Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, file{n, data, reader.SelfDescribed(pf.Schema()), nil})
	}
	files = append(files,
		file{"bloomFile", bloomFile(t, true), bloomEvolved(), bloomEvolved()},
		file{"bloomFile2", bloomFile2(t), bloomFile2Evolved(), bloomFile2Evolved()},
	)
	for _, f := range files {
		rr, err := reader.Open(context.Background(), bytes.NewReader(f.data), int64(len(f.data)), reader.Options{ReadSchema: f.opt})
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		var batches []arrow.RecordBatch
		for rr.Next() {
			rec := rr.RecordBatch()
			rec.Retain()
			batches = append(batches, rec)
		}
		if err := rr.Err(); err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		rr.Release()
		cands := filterColumns(f.read, batches)
		for k := 0; k < 40; k++ {
			var e expr.Expr
			if k%2 == 0 {
				e = randomFilter(rng, cands, 0)
			} else {
				e = randomEquality(rng, cands)
				if rng.IntN(3) == 0 {
					e = expr.Or{Left: e, Right: randomEquality(rng, cands)}
				}
			}
			bound, err := expr.Bind(e, f.read)
			if err != nil {
				t.Errorf("%s: %s: bind: %v", f.name, e, err)
				continue
			}
			var want []byte
			for _, b := range batches {
				sel, _, err := bound.Select(b)
				if err != nil {
					t.Fatalf("%s: %s: %v", f.name, e, err)
				}
				for r := 0; r < int(b.NumRows()); r++ {
					if sel[r/8]&(1<<(r%8)) != 0 {
						want = render.AppendRow(want, b, r, nil)
						want = append(want, '\n')
					}
				}
			}
			frr, err := reader.Open(context.Background(), bytes.NewReader(f.data), int64(len(f.data)), reader.Options{ReadSchema: f.opt, Filter: e, Stats: stats, Workers: 1 + k%2})
			if err != nil {
				t.Errorf("%s: %s: %v", f.name, e, err)
				continue
			}
			got := testutil.ReaderJSON(t, frr)
			frr.Release()
			if got != string(want) {
				t.Errorf("%s: %s:\n got %s\nwant %s", f.name, e, got, want)
			}
			filters++
			rows += strings.Count(got, "\n")
		}
		for _, b := range batches {
			b.Release()
		}
	}
	return filters, rows
}

// randomEquality is an = or IN predicate on a random candidate column.
func randomEquality(rng *rand.Rand, cands []candidate) expr.Expr {
	c := cands[rng.IntN(len(cands))]
	if rng.IntN(2) == 0 {
		return expr.Pred{Op: expr.Eq, Column: c.name, Values: []expr.Literal{c.lits[rng.IntN(len(c.lits))]}}
	}
	p := expr.Pred{Op: expr.In, Column: c.name}
	for i := 0; i < 1+rng.IntN(3); i++ {
		p.Values = append(p.Values, c.lits[rng.IntN(len(c.lits))])
	}
	return p
}
