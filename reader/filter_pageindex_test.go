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
	"github.com/lakecat/lakecat/internal/icebergwrite"
	"github.com/lakecat/lakecat/internal/render"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
)

// pageFileRow is a row of pageFile, in the file's (old) types and names.
type pageFileRow struct {
	K int32  `parquet:"k,id(1)"`
	S string `parquet:"s,id(2)"`
	V *int32 `parquet:"v,id(3),optional"`
}

// pageFile writes 1,000 rows sorted by k (k = row) in 2 row groups of 500,
// in pages of a few dozen rows, with parquet-go's column and offset
// indexes; s is "s%04d" of k and v is k, null for k in [500, 600).
func pageFile(t *testing.T) []byte {
	t.Helper()
	var rows []pageFileRow
	for r := 0; r < 1000; r++ {
		row := pageFileRow{K: int32(r), S: fmt.Sprintf("s%04d", r)}
		if r < 500 || r >= 600 {
			v := int32(r)
			row.V = &v
		}
		rows = append(rows, row)
	}
	var buf bytes.Buffer
	w := pq.NewGenericWriter[pageFileRow](&buf, pq.MaxRowsPerRowGroup(500), pq.PageBufferSize(256))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pageEvolved is pageFile's read schema after evolution: k promoted
// int→long, s renamed to name, v kept, added (id 4) added, and _pos.
func pageEvolved() *schema.Schema {
	return schema.New(1,
		&schema.Field{ID: 1, Name: "k", Type: schema.Long, Required: true},
		&schema.Field{ID: 2, Name: "name", Type: schema.String, Required: true},
		&schema.Field{ID: 3, Name: "v", Type: schema.Int},
		&schema.Field{ID: 4, Name: "added", Type: schema.Long},
		&schema.Field{ID: reader.FieldIDPos, Name: reader.ColumnPos, Type: schema.Long, Required: true},
	)
}

// pageRows renders the rows of pageFile with the given k, in pageEvolved.
func pageRows(ks ...int) string {
	var b strings.Builder
	for _, k := range ks {
		v := fmt.Sprint(k)
		if k >= 500 && k < 600 {
			v = "null"
		}
		fmt.Fprintf(&b, `{"k":%d,"name":"s%04d","v":%s,"added":null,"_pos":%d}`+"\n", k, k, v, k)
	}
	return b.String()
}

// TestPageIndexWritten: the generated file has a page index of many pages
// per column chunk, with first rows from 0 and int32 bounds.
func TestPageIndexWritten(t *testing.T) {
	data := pageFile(t)
	f, err := parquet.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	k := f.Schema().Fields[0]
	ps, err := f.PageIndexOf(0, k)
	if err != nil || len(ps) < 5 {
		t.Fatalf("%d pages, %v; want several", len(ps), err)
	}
	if ps[0].FirstRow != 0 || ps[0].Min != int32(0) || ps[0].Max != int32(ps[0].Rows-1) || ps[0].NullCount != 0 {
		t.Errorf("first page %+v", ps[0])
	}
	v := f.Schema().Fields[2]
	ps, err = f.PageIndexOf(1, v)
	if err != nil || len(ps) < 2 || !ps[0].NullPage || ps[0].Min != nil {
		t.Fatalf("v in row group 1: %+v, %v; want a first page of nulls", ps, err)
	}
}

// TestPageIndexPruning: the page index skips the rows of the pages whose
// statistics cannot match, after the row group statistics, with the right
// _pos, the int32 page bounds of a column read as long, a renamed column
// matched by field id and the null pages of an optional column.
func TestPageIndexPruning(t *testing.T) {
	data := pageFile(t)
	for _, c := range []struct {
		name, where string
		rows        []int
	}{
		{"eq on a promoted int", "k = 123", []int{123}},
		{"a range", "k >= 100 and k < 110", span(100, 110)},
		{"or of two ends", "k < 3 or k > 997", []int{0, 1, 2, 998, 999}},
		{"not", "not (k >= 3)", []int{0, 1, 2}},
		{"renamed column by field id", "name = 's0321'", []int{321}},
		{"two columns and", "k > 300 and name < 's0303'", []int{301, 302}},
		{"two columns or", "k = 7 or name = 's0777'", []int{7, 777}},
		{"null pages", "v is null and k < 505", span(500, 505)},
		{"not null", "v is not null and k >= 598 and k < 602", []int{600, 601}},
		{"a missing column by its constant", "added is null and k = 5", []int{5}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, batch := range []int{7, 0} {
				for _, on := range []bool{true, false} {
					reader.SetPageIndex(on)
					got, st := readFiltered(t, data, pageEvolved(), c.where, batch)
					reader.SetPageIndex(true)
					if want := pageRows(c.rows...); got != want {
						t.Errorf("%s (batch %d, page index %v): rows\n%s\nwant\n%s", c.where, batch, on, got, want)
					}
					if on && (st.PageIndexRowsSkipped == 0 || st.PageIndexPagesSkipped == 0) {
						t.Errorf("%s: page index skipped %d rows, %d pages; want some", c.where, st.PageIndexRowsSkipped, st.PageIndexPagesSkipped)
					}
					if !on && st.PageIndexRowsSkipped != 0 {
						t.Errorf("%s: page index off skipped %d rows", c.where, st.PageIndexRowsSkipped)
					}
					if on && st.RowsRead+st.PageIndexRowsSkipped != 500*st.RowGroupsRead {
						t.Errorf("%s: %d rows decoded + %d skipped, want %d", c.where, st.RowsRead, st.PageIndexRowsSkipped, 500*st.RowGroupsRead)
					}
				}
			}
		})
	}
}

// TestPageIndexCounts: exact counters for a filter selecting one page of
// the first row group: every other page of k is skipped, and its rows.
func TestPageIndexCounts(t *testing.T) {
	data := pageFile(t)
	f, err := parquet.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	ps, err := f.PageIndexOf(0, f.Schema().Fields[0])
	if err != nil {
		t.Fatal(err)
	}
	p := ps[2]
	t.Logf("%d pages of k in row group 0; page 2 rows %d from %d", len(ps), p.Rows, p.FirstRow)
	got, st := readFiltered(t, data, pageEvolved(), fmt.Sprintf("k = %d", p.FirstRow), 0)
	if want := pageRows(int(p.FirstRow)); got != want {
		t.Errorf("rows\n%s\nwant\n%s", got, want)
	}
	if st.RowGroupsRead != 1 || st.RowGroupsSkipped != 1 || st.RowsRead != p.Rows || st.PageIndexRowsSkipped != 500-p.Rows || st.PageIndexPagesSkipped != int64(len(ps)-1) {
		t.Errorf("counts %+v; want 1 group read, 1 skipped, %d rows read, %d skipped, %d pages skipped", st, p.Rows, 500-p.Rows, len(ps)-1)
	}
}

// TestPageIndexWorkers: the parallel row-group path skips pages alike,
// with the right _pos.
func TestPageIndexWorkers(t *testing.T) {
	data := pageFile(t)
	for _, where := range []string{"k in (5, 123, 456, 777)", "k < 2 or k > 997"} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		e, _ := expr.Parse(where)
		var st reader.ScanStats
		rr, err := reader.Open(context.Background(), bytes.NewReader(data), int64(len(data)), reader.Options{ReadSchema: pageEvolved(), Filter: e, Stats: &st, Allocator: mem, Workers: 2, BatchRows: 5})
		if err != nil {
			t.Fatal(err)
		}
		got := testutil.ReaderJSON(t, rr)
		rr.Release()
		mem.AssertSize(t, 0)
		want := pageRows(5, 123, 456, 777)
		if where != "k in (5, 123, 456, 777)" {
			want = pageRows(0, 1, 998, 999)
		}
		if got != want {
			t.Errorf("%s: rows\n%s\nwant\n%s", where, got, want)
		}
		if c := st.Counts(); c.RowGroupsRead != 2 || c.PageIndexRowsSkipped == 0 {
			t.Errorf("%s: %+v; want 2 groups read and rows skipped by the page index", where, c)
		}
	}
}

// corruptPageIndex returns data with the first column index parquet-go
// wrote (right after the last page of the last column chunk) made
// undecodable: its first field header gets a type code thrift does not
// define.
func corruptPageIndex(t *testing.T, data []byte) []byte {
	t.Helper()
	f, err := parquet.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	last := f.Schema().Fields[len(f.Schema().Fields)-1]
	ps, err := f.PageIndexOf(f.NumRowGroups()-1, last)
	if err != nil || len(ps) == 0 {
		t.Fatalf("%d pages, %v", len(ps), err)
	}
	end := ps[len(ps)-1].Offset + ps[len(ps)-1].Bytes
	bad := append([]byte(nil), data...)
	bad[end] = 0x1f
	return bad
}

// readPageErr reads data named pages.parquet with filter e and returns
// the rows read and the first error.
func readPageErr(data []byte, e expr.Expr, workers int) (int64, error) {
	rr, err := reader.Open(context.Background(), bytes.NewReader(data), int64(len(data)), reader.Options{Name: "pages.parquet", ReadSchema: pageEvolved(), Filter: e, Allocator: memory.NewGoAllocator(), Workers: workers})
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

// TestPageIndexCorrupt: a column index that does not decode fails the
// read with ErrCorrupt naming the file; it is never taken as a skip.
func TestPageIndexCorrupt(t *testing.T) {
	bad := corruptPageIndex(t, pageFile(t))
	for _, workers := range []int{1, 2} {
		e, _ := expr.Parse("k = 123 or k = 777")
		_, err := readPageErr(bad, e, workers)
		if !errors.Is(err, lakecat.ErrCorrupt) || !errors.Is(err, parquet.ErrCorrupt) || !strings.Contains(err.Error(), "pages.parquet") || !strings.Contains(err.Error(), "column index") {
			t.Errorf("workers %d: %v, want a corrupt column index error naming pages.parquet", workers, err)
		}
	}
	// Without a filter the index is never read.
	if n, err := readPageErr(bad, nil, 1); err != nil || n != 1000 {
		t.Errorf("no filter: %d rows, %v; want 1000", n, err)
	}
}

// pageIndexRealFiles are the files of parquet-testing with a page index of
// several pages per column chunk.
var pageIndexRealFiles = []string{
	"int32_with_null_pages.parquet",
	"datapage_v1-snappy-compressed-checksum.parquet",
	"datapage_v1-uncompressed-checksum.parquet",
}

// diffPageIndexFiles is TestFilterDifferential's part for page-indexed
// files: the real ones above and pageFile read evolved, each with random
// filters read with the page index, 1 or 2 workers and small or default
// batches, against the unfiltered read filtered afterwards.
func diffPageIndexFiles(t *testing.T, rng *rand.Rand, stats *reader.ScanStats) (filters, rows int) {
	type file struct {
		name string
		data []byte
		read *schema.Schema // what the filter binds to
		opt  *schema.Schema // Options.ReadSchema (nil: the file's own)
	}
	var files []file
	for _, n := range pageIndexRealFiles {
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
	files = append(files, file{"pageFile", pageFile(t), pageEvolved(), pageEvolved()})
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
		if len(cands) == 0 {
			t.Errorf("%s: no column to filter on", f.name)
		}
		for k := 0; k < 40 && len(cands) > 0; k++ {
			e := randomFilter(rng, cands, 0)
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
			batch := 0
			if k%3 == 0 {
				batch = 1 + rng.IntN(50)
			}
			frr, err := reader.Open(context.Background(), bytes.NewReader(f.data), int64(len(f.data)), reader.Options{ReadSchema: f.opt, Filter: e, Stats: stats, Workers: 1 + k%2, BatchRows: batch})
			if err != nil {
				t.Errorf("%s: %s: %v", f.name, e, err)
				continue
			}
			got := testutil.ReaderJSON(t, frr)
			frr.Release()
			if got != string(want) {
				t.Errorf("%s: %s (batch %d, workers %d):\n got %s\nwant %s", f.name, e, batch, 1+k%2, got, want)
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

// realPageCount reads the parquet-testing file name with filter where and
// returns the rows and the counters.
func realPageCount(t *testing.T, name, where string) (int64, reader.ScanCounts) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testutil.RealDir(t), "parquet-testing", "data", name))
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	e, err := expr.Parse(where)
	if err != nil {
		t.Fatal(err)
	}
	var st reader.ScanStats
	rr, err := reader.Open(context.Background(), bytes.NewReader(data), int64(len(data)), reader.Options{Name: name, Filter: e, Stats: &st, Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	var n int64
	for rr.Next() {
		n += rr.RecordBatch().NumRows()
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	return n, st.Counts()
}

// TestPageIndexRealFiles: parquet-mr's int32_with_null_pages.parquet
// (1,000 rows, 10 pages of 100, 275 nulls) skips its null page for IS NOT
// NULL; datapage_v1-snappy-compressed-checksum.parquet, whose column
// index marks every page of its required columns null without null
// counts, skips nothing and keeps all 5,120 rows.
func TestPageIndexRealFiles(t *testing.T) {
	n, c := realPageCount(t, "int32_with_null_pages.parquet", "int32_field is not null")
	if n != 725 || c.PageIndexRowsSkipped != 100 || c.PageIndexPagesSkipped != 1 || c.RowsRead != 900 {
		t.Errorf("int32_with_null_pages: %d rows, %+v; want 725 rows, 900 decoded, 1 page and 100 rows skipped", n, c)
	}
	n, c = realPageCount(t, "datapage_v1-snappy-compressed-checksum.parquet", "a is not null or b is not null")
	if n != 5120 || c.PageIndexRowsSkipped != 0 {
		t.Errorf("datapage_v1-snappy-compressed-checksum: %d rows, %+v; want 5120 rows, none skipped", n, c)
	}
}

// pageDeletesTable writes an Iceberg table of one data file of 1,000 rows
// (id = row, long) in 2 row groups of 500, in small pages with a page
// index, and a position delete file deleting every 7th row and rows
// 120..130; deleted reports which rows it deletes.
func pageDeletesTable(t *testing.T) (dir string, deleted func(int) bool) {
	t.Helper()
	dir = t.TempDir()
	tb := &icebergwrite.Table{Dir: dir, Location: "/warehouse/pages", FormatVersion: 2, LastColumnID: 1,
		Schemas: []string{`{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": true, "type": "long"}]}`},
		Specs:   []icebergwrite.Spec{{ID: 0}}}
	type row struct {
		ID int64 `parquet:"id,id(1)"`
	}
	rows := make([]row, 1000)
	for i := range rows {
		rows[i].ID = int64(i)
	}
	f, err := icebergwrite.WriteParquetWith(tb, "data/d.parquet", rows, pq.MaxRowsPerRowGroup(500), pq.PageBufferSize(256))
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Commit(f); err != nil {
		t.Fatal(err)
	}
	deleted = func(i int) bool { return i%7 == 0 || (i >= 120 && i <= 130) }
	var pd []icebergwrite.PositionDelete
	for i := range rows {
		if deleted(i) {
			pd = append(pd, icebergwrite.PositionDelete{FilePath: f.Path, Pos: int64(i)})
		}
	}
	d, err := icebergwrite.WritePositionDeletes(tb, "data/pos.parquet", pd)
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Commit(d); err != nil {
		t.Fatal(err)
	}
	if err := tb.WriteMetadata(); err != nil {
		t.Fatal(err)
	}
	return dir, deleted
}

// TestPageIndexWithDeletes: position deletes and the page index together,
// the deletes applied to decoded batches or inside the decoder, dropped or
// flagged in _deleted: the surviving rows of the filter, each with its
// file position, in batches of 3 rows and of the default size, and with
// 2 workers.
func TestPageIndexWithDeletes(t *testing.T) {
	defer reader.SetDecoderSkip(false)
	dir, deleted := pageDeletesTable(t)
	const where = "(id >= 100 and id < 140) or id > 990"
	match := func(i int) bool { return (i >= 100 && i < 140) || i > 990 }
	var live, flagged []string
	for i := 0; i < 1000; i++ {
		if !match(i) {
			continue
		}
		flagged = append(flagged, fmt.Sprintf(`{"id":%d,"_pos":%d,"_deleted":%t}`, i, i, deleted(i)))
		if !deleted(i) {
			live = append(live, fmt.Sprintf(`{"id":%d,"_pos":%d}`, i, i))
		}
	}
	e, err := expr.Parse(where)
	if err != nil {
		t.Fatal(err)
	}
	for _, inDecoder := range []bool{false, true} {
		for _, batch := range []int{3, 0, -2} {
			for _, cols := range [][]string{{"id", "_pos"}, {"id", "_pos", "_deleted"}} {
				reader.SetDecoderSkip(inDecoder)
				var st reader.ScanStats
				o := reader.TableOptions{Columns: cols, BatchRows: batch, Filter: e, Stats: &st}
				if batch < 0 {
					o.BatchRows, o.Workers = 5, 2 // row groups decoded in parallel
				}
				got := tableRows(t, dir, o, true)
				want := live
				if len(cols) == 3 {
					want = flagged
				}
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("in decoder %v, batch %d, %v: rows\n%s\nwant\n%s", inDecoder, batch, cols, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
				if c := st.Counts(); c.PageIndexRowsSkipped == 0 {
					t.Errorf("in decoder %v, batch %d, %v: no row skipped by the page index (%+v)", inDecoder, batch, cols, c)
				}
			}
		}
	}
}
