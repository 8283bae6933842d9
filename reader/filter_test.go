package reader_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pqparquet "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table"
)

// idField is an Arrow field carrying a Parquet field id.
func idField(name string, id int, t arrow.DataType, nullable bool) arrow.Field {
	return arrow.Field{Name: name, Type: t, Nullable: nullable, Metadata: arrow.NewMetadata([]string{schema.FieldIDKey}, []string{fmt.Sprint(id)})}
}

// sortedFile writes rows rows of (n: int32 id 1 = row, old_name: string id 2
// = "k%03d" of row/100) in row groups of 100 rows, sorted by n, with
// statistics.
func sortedFile(t *testing.T, rows int) []byte {
	t.Helper()
	sc := arrow.NewSchema([]arrow.Field{
		idField("n", 1, arrow.PrimitiveTypes.Int32, false),
		idField("old_name", 2, arrow.BinaryTypes.String, true),
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	for i := 0; i < rows; i++ {
		b.Field(0).(*array.Int32Builder).Append(int32(i))
		b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("k%03d", i/100))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(sc, &buf, pqparquet.NewWriterProperties(pqparquet.WithMaxRowGroupLength(100)), pqarrow.NewArrowWriterProperties())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// evolved is the read schema of sortedFile after evolution: n promoted to
// long, old_name renamed to name, added (id 3, long) added, dflt (id 4,
// long, initial-default 5) added, and _pos.
func evolved() *schema.Schema {
	return schema.New(1,
		&schema.Field{ID: 1, Name: "n", Type: schema.Long, Required: true},
		&schema.Field{ID: 2, Name: "name", Type: schema.String},
		&schema.Field{ID: 3, Name: "added", Type: schema.Long},
		&schema.Field{ID: 4, Name: "dflt", Type: schema.Long, InitialDefault: int64(5)},
		&schema.Field{ID: reader.FieldIDPos, Name: reader.ColumnPos, Type: schema.Long, Required: true},
	)
}

func readFiltered(t *testing.T, data []byte, read *schema.Schema, where string, batchRows int) (string, reader.ScanCounts) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	e, err := expr.Parse(where)
	if err != nil {
		t.Fatal(err)
	}
	var st reader.ScanStats
	rr, err := reader.Open(context.Background(), bytes.NewReader(data), int64(len(data)), reader.Options{ReadSchema: read, Filter: e, Stats: &st, Allocator: mem, BatchRows: batchRows})
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	got := testutil.ReaderJSON(t, rr)
	rr.Release()
	return got, st.Counts()
}

// wantRows renders the rows of sortedFile in evolved() for the positions
// given.
func wantRows(pos ...int) string {
	var b strings.Builder
	for _, p := range pos {
		fmt.Fprintf(&b, `{"n":%d,"name":"k%03d","added":null,"dflt":5,"_pos":%d}`+"\n", p, p/100, p)
	}
	return b.String()
}

func span(from, to int) []int {
	var out []int
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

func TestFilterRowGroupPruning(t *testing.T) {
	data := sortedFile(t, 1000) // 10 row groups
	for _, c := range []struct {
		name, where   string
		rows          []int
		read, skipped int64
	}{
		// must skip
		{"range", "n >= 950", span(950, 1000), 1, 9},
		{"eq", "n = 123", []int{123}, 1, 9},
		{"in", "n in (5, 905)", []int{5, 905}, 2, 8},
		{"renamed string column by id", "name = 'k004' and n < 410", span(400, 410), 1, 9},
		{"or", "n < 3 or name starts with 'k009'", append(span(0, 3), span(900, 1000)...), 2, 8},
		{"column missing from the file", "added = 5", nil, 0, 10},
		{"initial-default differs from the literal", "dflt != 5", nil, 0, 10},
		{"not null on a missing column", "added is not null", nil, 0, 10},
		// a naive reader would wrongly skip these
		{"promoted column, literal beyond int", "n < 3000000000 and n > 997", span(998, 1000), 1, 9},
		{"missing column is null", "added is null and n < 2", span(0, 2), 1, 9},
		{"initial-default equals the literal", "dflt = 5 and n >= 999", []int{999}, 1, 9},
		{"renamed column", "name = 'k000' and n = 7", []int{7}, 1, 9},
		{"not equal keeps groups", "n != 5 and n < 7", []int{0, 1, 2, 3, 4, 6}, 1, 9},
		// _pos is right after skipped groups and across batches
		{"positions", "n >= 499 and n <= 501", span(499, 502), 2, 8},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, st := readFiltered(t, data, evolved(), c.where, 7)
			if want := wantRows(c.rows...); got != want {
				t.Errorf("%s: rows\n%s\nwant\n%s", c.where, got, want)
			}
			if st.RowGroupsRead != c.read || st.RowGroupsSkipped != c.skipped {
				t.Errorf("%s: row groups read %d skipped %d, want %d and %d", c.where, st.RowGroupsRead, st.RowGroupsSkipped, c.read, c.skipped)
			}
			if c.skipped > 0 && st.BytesSkippedRowGroups <= 0 {
				t.Errorf("%s: no bytes counted as skipped", c.where)
			}
			if st.RowsSelected != int64(len(c.rows)) {
				t.Errorf("%s: RowsSelected %d, want %d", c.where, st.RowsSelected, len(c.rows))
			}
		})
	}
}

func TestFilterErrors(t *testing.T) {
	data := sortedFile(t, 10)
	for where, class := range map[string]error{
		"name > 5":  expr.ErrType,
		"nope = 1":  expr.ErrUnknownColumn,
		"n = 'one'": expr.ErrType,
	} {
		e, err := expr.Parse(where)
		if err != nil {
			t.Fatal(err)
		}
		_, err = reader.Open(context.Background(), bytes.NewReader(data), int64(len(data)), reader.Options{ReadSchema: evolved(), Filter: e})
		if !errors.Is(err, class) {
			t.Errorf("%s: %v, want %v", where, err, class)
		}
	}
	e, _ := expr.Parse("nope = 1")
	_, err := reader.Open(context.Background(), bytes.NewReader(data), int64(len(data)), reader.Options{ReadSchema: evolved(), Filter: e})
	if !errors.Is(err, lakecat.ErrNotFound) {
		t.Errorf("unknown column: %v is not of class not found", err)
	}
}

// TestTaskMayMatchIdentityPartition: an identity-partition source promoted
// int→long; the task's constant may come in either width.
func TestTaskMayMatchIdentityPartition(t *testing.T) {
	read := schema.New(0, &schema.Field{ID: 1, Name: "p", Type: schema.Long}, &schema.Field{ID: 2, Name: "v", Type: schema.String})
	for _, c := range []struct {
		constant any
		where    string
		want     bool
	}{
		{int64(7), "p = 7", true},
		{int32(7), "p = 7", true},
		{int64(7), "p = 8", false},
		{int32(7), "p > 6 and v = 'x'", true},
		{int32(7), "p >= 3000000000", false},
		{nil, "p is null", true},
		{nil, "p = 1", false},
		{int64(7), "v = 'x'", true},
	} {
		b := expr.MustParseBind(c.where, read)
		task := table.Task{ReadSchema: read, Constants: map[int]any{1: c.constant}}
		if got := reader.TaskMayMatch(task, b); got != c.want {
			t.Errorf("%v %s: %v, want %v", c.constant, c.where, got, c.want)
		}
	}
}
