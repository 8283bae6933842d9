package reader_test

import (
	"bytes"
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table/paimon"
)

// drainBatches retains and returns every batch of rr, then releases rr.
func drainBatches(t *testing.T, rr array.RecordReader) []arrow.RecordBatch {
	t.Helper()
	defer rr.Release()
	var out []arrow.RecordBatch
	for rr.Next() {
		rec := rr.RecordBatch()
		rec.Retain()
		out = append(out, rec)
	}
	if err := rr.Err(); err != nil {
		t.Fatalf("read: %v", err)
	}
	return out
}

// undict returns a dictionary array's values as a plain array.
func undict(t *testing.T, mem memory.Allocator, a arrow.Array) arrow.Array {
	t.Helper()
	d := a.(*array.Dictionary)
	b := array.NewBuilder(mem, d.Dictionary().DataType())
	defer b.Release()
	for i := 0; i < d.Len(); i++ {
		if d.IsNull(i) {
			b.AppendNull()
			continue
		}
		switch v := d.Dictionary().(type) {
		case *array.String:
			b.(*array.StringBuilder).Append(v.Value(d.GetValueIndex(i)))
		case *array.Binary:
			b.(*array.BinaryBuilder).Append(v.Value(d.GetValueIndex(i)))
		default:
			t.Fatalf("dictionary of %s", v.DataType())
		}
	}
	return b.NewArray()
}

// checkDictionaryRead compares the batches of a read with Dictionary
// (dict) to those of the same read without it (plain): every top-level
// string or binary column is a dictionary<int32, its plain type> in the
// schema and in every batch, with the same values; the other columns are
// equal. It returns the number of dictionary columns and rows compared.
func checkDictionaryRead(t *testing.T, mem memory.Allocator, plainSchema, dictSchema *arrow.Schema, plain, dict []arrow.RecordBatch) (cols int, rows int64) {
	t.Helper()
	if plainSchema.NumFields() != dictSchema.NumFields() {
		t.Fatalf("schema: %d fields with Dictionary, %d without", dictSchema.NumFields(), plainSchema.NumFields())
	}
	for i, f := range plainSchema.Fields() {
		g := dictSchema.Field(i)
		if g.Name != f.Name || g.Nullable != f.Nullable || !g.Metadata.Equal(f.Metadata) {
			t.Errorf("field %d: %v with Dictionary, %v without", i, g, f)
		}
		switch f.Type.ID() {
		case arrow.STRING, arrow.BINARY:
			dt, ok := g.Type.(*arrow.DictionaryType)
			if !ok || !arrow.TypeEqual(dt.IndexType, arrow.PrimitiveTypes.Int32) || !arrow.TypeEqual(dt.ValueType, f.Type) {
				t.Fatalf("field %q: type %s, want dictionary<values=%s, indices=int32>", f.Name, g.Type, f.Type)
			}
			cols++
		default:
			if !arrow.TypeEqual(g.Type, f.Type) {
				t.Errorf("field %q: type %s with Dictionary, %s without", f.Name, g.Type, f.Type)
			}
		}
	}
	// Batches may end at other rows (the Parquet decoder's dictionary
	// batches end at row group ends): the columns are compared whole.
	for _, d := range dict {
		if !d.Schema().Equal(dictSchema) {
			t.Fatalf("batch schema %s, the reader's %s", d.Schema(), dictSchema)
		}
		rows += d.NumRows()
	}
	var prows int64
	for _, p := range plain {
		prows += p.NumRows()
	}
	if prows != rows {
		t.Fatalf("%d rows with Dictionary, %d without", rows, prows)
	}
	for i := 0; i < plainSchema.NumFields(); i++ {
		var got, want []arrow.Array
		for b, d := range dict {
			c := d.Column(i)
			if !arrow.TypeEqual(c.DataType(), dictSchema.Field(i).Type) {
				t.Fatalf("batch %d column %d: array type %s, schema %s", b, i, c.DataType(), dictSchema.Field(i).Type)
			}
			if _, ok := c.(*array.Dictionary); ok {
				c = undict(t, mem, c)
			} else {
				c.Retain()
			}
			got = append(got, c)
		}
		for _, p := range plain {
			want = append(want, p.Column(i))
		}
		g, w := concatColumn(t, mem, plainSchema.Field(i).Type, got), concatColumn(t, mem, plainSchema.Field(i).Type, want)
		if !array.ApproxEqual(g, w, array.WithNaNsEqual(true)) {
			t.Errorf("column %q: values differ\n dict: %v\nplain: %v", plainSchema.Field(i).Name, g, w)
		}
		g.Release()
		w.Release()
		for _, c := range got {
			c.Release()
		}
	}
	return cols, rows
}

// concatColumn returns the arrays as one array of type dt.
func concatColumn(t *testing.T, mem memory.Allocator, dt arrow.DataType, arrs []arrow.Array) arrow.Array {
	t.Helper()
	if len(arrs) == 0 {
		return array.MakeArrayOfNull(mem, dt, 0)
	}
	c, err := array.Concatenate(arrs, mem)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// checkIPCRoundTrip writes recs as an Arrow IPC stream (a dictionary
// replacement per batch) and reads every batch back equal.
func checkIPCRoundTrip(t *testing.T, mem memory.Allocator, sc *arrow.Schema, recs []arrow.RecordBatch) {
	t.Helper()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(sc), ipc.WithAllocator(mem))
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatalf("ipc write: %v", err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rd, err := ipc.NewReader(&buf, ipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Release()
	if !rd.Schema().Equal(sc) {
		t.Fatalf("ipc schema %s, wrote %s", rd.Schema(), sc)
	}
	n := 0
	for rd.Next() {
		if n >= len(recs) {
			t.Fatalf("ipc: more batches than the %d written", len(recs))
		}
		if !array.RecordApproxEqual(rd.RecordBatch(), recs[n], array.WithNaNsEqual(true)) {
			t.Fatalf("ipc batch %d differs", n)
		}
		n++
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	if n != len(recs) {
		t.Fatalf("ipc: read %d batches, wrote %d", n, len(recs))
	}
}

func TestDictionaryTables(t *testing.T) {
	root := testutil.RepoRoot(t)
	real := testutil.RealDir(t)
	ice := filepath.Join(real, "impala", "testdata", "data", "iceberg_test")
	orders := filepath.Join(root, "testdata", "orders")
	cases := []struct {
		name string
		dir  string
		opts reader.TableOptions
		// wantCols and wantRows are the dictionary columns and rows read
		// (wantCols 0: not checked).
		wantCols int
		wantRows int64
	}{
		{"orders", orders, reader.TableOptions{}, 3, 6},
		{"orders, 2-row batches", orders, reader.TableOptions{BatchRows: 2}, 3, 6},
		{"orders, columns reordered", orders, reader.TableOptions{Columns: []string{"customer", "order_id"}}, 1, 6},
		{"orders, filter", orders, reader.TableOptions{Filter: expr.Compare("order_id", expr.Gt, int64(3))}, 3, 3},
		{"orders, filter on a column not returned", orders, reader.TableOptions{Columns: []string{"customer"},
			Filter: expr.Compare("order_id", expr.Gt, int64(3))}, 1, 3},
		{"orders, _file", orders, reader.TableOptions{MetadataColumns: []string{"_file", "_pos"}}, 4, 6},
		{"paimon_orders merged", filepath.Join(root, "testdata", "paimon_orders"), reader.TableOptions{}, 2, 11},
		{"paimon_orders raw", filepath.Join(root, "testdata", "paimon_orders"), reader.TableOptions{FormatOptions: paimon.Options{Raw: true}}, 2, 14},
		{"impala eq and pos deletes", filepath.Join(ice, "hadoop_catalog", "ice", "iceberg_v2_delete_both_eq_and_pos"), reader.TableOptions{}, 1, 2},
		{"deletion vector over position deletes, _pos", filepath.Join("testdata", "deletes", "v3_dv"), reader.TableOptions{MetadataColumns: []string{"_pos"}}, 1, 8},
		{"deletion vector, 3-row batches", filepath.Join("testdata", "deletes", "v3_dv"), reader.TableOptions{BatchRows: 3}, 1, 8},
		{"hudi merge-on-read v6_nonpartitioned", unzipHudi(t, "mor/parquet/v6_nonpartitioned.zip", "v6_nonpartitioned"), reader.TableOptions{}, 2, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			ctx := context.Background()
			scan := func(dict bool) (*arrow.Schema, []arrow.RecordBatch) {
				opts := tc.opts
				opts.Allocator, opts.Dictionary, opts.Workers = mem, dict, 2
				tbl, err := reader.OpenTable(ctx, tc.dir, opts)
				if err != nil {
					t.Fatal(err)
				}
				rr, err := tbl.Scan(ctx)
				if err != nil {
					t.Fatal(err)
				}
				return rr.Schema(), drainBatches(t, rr)
			}
			ps, plain := scan(false)
			defer releaseAll(plain)
			ds, dict := scan(true)
			defer releaseAll(dict)
			cols, rows := checkDictionaryRead(t, mem, ps, ds, plain, dict)
			t.Logf("%d dictionary columns, %d rows, %d batches", cols, rows, len(dict))
			if tc.wantCols > 0 && (cols != tc.wantCols || rows != tc.wantRows) {
				t.Errorf("%d dictionary columns and %d rows, want %d and %d", cols, rows, tc.wantCols, tc.wantRows)
			}
			if cols == 0 {
				t.Errorf("no string or binary column")
			}
			checkIPCRoundTrip(t, mem, ds, dict)
		})
	}
}

func TestDictionaryFiles(t *testing.T) {
	data := filepath.Join(testutil.RealDir(t), "parquet-testing", "data")
	for _, name := range []string{"alltypes_dictionary.parquet", "binary.parquet",
		"rle-dict-snappy-checksum.parquet", "plain-dict-uncompressed-checksum.parquet"} {
		t.Run(name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			read := func(dict bool) (*arrow.Schema, []arrow.RecordBatch) {
				rr, err := reader.OpenFile(context.Background(), filepath.Join(data, name),
					reader.Options{Allocator: mem, Dictionary: dict, BatchRows: 3})
				if err != nil {
					t.Fatal(err)
				}
				return rr.Schema(), drainBatches(t, rr)
			}
			ps, plain := read(false)
			defer releaseAll(plain)
			ds, dict := read(true)
			defer releaseAll(dict)
			cols, rows := checkDictionaryRead(t, mem, ps, ds, plain, dict)
			t.Logf("%d dictionary columns, %d rows", cols, rows)
			if cols == 0 {
				t.Errorf("no string or binary column")
			}
			checkIPCRoundTrip(t, mem, ds, dict)
		})
	}
}

// TestDictionaryValues checks one batch's dictionary exactly: distinct
// values in order of first appearance, nulls as null indices.
func TestDictionaryValues(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	tbl, err := reader.OpenTable(ctx, filepath.Join(testutil.RepoRoot(t), "testdata", "orders"),
		reader.TableOptions{Allocator: mem, Dictionary: true, Columns: []string{"customer"}})
	if err != nil {
		t.Fatal(err)
	}
	rr, err := tbl.Scan(ctx)
	if err != nil {
		t.Fatal(err)
	}
	recs := drainBatches(t, rr)
	defer releaseAll(recs)
	for _, rec := range recs {
		d := rec.Column(0).(*array.Dictionary)
		idx := d.Indices().(*array.Int32)
		seen := map[string]bool{}
		next := 0
		for i := 0; i < d.Len(); i++ {
			if d.IsNull(i) != idx.IsNull(i) {
				t.Fatalf("row %d: null %v, index null %v", i, d.IsNull(i), idx.IsNull(i))
			}
			if d.IsNull(i) {
				continue
			}
			v := d.Dictionary().(*array.String).Value(int(idx.Value(i)))
			if !seen[v] {
				if int(idx.Value(i)) != next {
					t.Fatalf("row %d: first %q has index %d, want %d", i, v, idx.Value(i), next)
				}
				seen[v] = true
				next++
			}
		}
		if d.Dictionary().Len() != next {
			t.Fatalf("dictionary of %d values, %d distinct in the batch", d.Dictionary().Len(), next)
		}
		t.Logf("batch of %d rows: dictionary %v, indices %v", d.Len(), d.Dictionary(), idx)
	}
}

// TestDictionaryReadTask reads each task of a table with ReadTask, with and
// without Dictionary.
func TestDictionaryReadTask(t *testing.T) {
	root := testutil.RepoRoot(t)
	for _, dir := range []string{filepath.Join(root, "testdata", "orders"), filepath.Join(root, "testdata", "paimon_orders")} {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			ctx := context.Background()
			tbl, err := reader.OpenTable(ctx, dir, reader.TableOptions{})
			if err != nil {
				t.Fatal(err)
			}
			tasks, err := tbl.Tasks(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var rows int64
			for _, task := range tasks {
				read := func(dict bool) (*arrow.Schema, []arrow.RecordBatch) {
					rr, err := reader.ReadTask(ctx, storage.OSFS{}, task, reader.TaskOptions{Allocator: mem, Dictionary: dict})
					if err != nil {
						t.Fatal(err)
					}
					return rr.Schema(), drainBatches(t, rr)
				}
				ps, plain := read(false)
				ds, dict := read(true)
				_, n := checkDictionaryRead(t, mem, ps, ds, plain, dict)
				rows += n
				releaseAll(plain)
				releaseAll(dict)
			}
			t.Logf("%d tasks, %d rows", len(tasks), rows)
			if rows == 0 {
				t.Errorf("no rows")
			}
		})
	}
}

// TestDictionaryRealFiles reads every real Parquet file with and without
// Dictionary: the Parquet decoder hands dictionary pages through for the
// columns the plan takes as they are, and the values are those of the
// plain read; the IPC stream round-trips.
func TestDictionaryRealFiles(t *testing.T) {
	dir := testutil.RealDir(t)
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".parquet") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var read, withCols, shared int
	for _, path := range files {
		rel, _ := filepath.Rel(dir, path)
		t.Run(rel, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			workers := 1
			open := func(dict bool) (*arrow.Schema, []arrow.RecordBatch, error) {
				rr, err := reader.OpenFile(context.Background(), path, reader.Options{Allocator: mem, Dictionary: dict, BatchRows: 100, Workers: workers})
				if err != nil {
					return nil, nil, err
				}
				defer rr.Release()
				var out []arrow.RecordBatch
				for rr.Next() {
					rec := rr.RecordBatch()
					rec.Retain()
					out = append(out, rec)
				}
				if err := rr.Err(); err != nil {
					releaseAll(out)
					return nil, nil, err
				}
				return rr.Schema(), out, nil
			}
			ps, plain, err := open(false)
			if err != nil {
				_, _, derr := open(true)
				if derr == nil {
					t.Fatalf("the plain read fails (%v), the dictionary read does not", err)
				}
				t.Skipf("plain read: %v", err)
			}
			defer releaseAll(plain)
			ds, dict, err := open(true)
			if err != nil {
				t.Fatalf("dictionary read: %v", err)
			}
			defer releaseAll(dict)
			cols, _ := checkDictionaryRead(t, mem, ps, ds, plain, dict)
			read++
			if cols > 0 {
				withCols++
			}
			for i := 1; i < len(dict); i++ {
				for c, a := range dict[i].Columns() {
					if d, ok := a.(*array.Dictionary); ok && d.Dictionary().Data() == dict[i-1].Column(c).(*array.Dictionary).Dictionary().Data() {
						shared++
					}
				}
			}
			checkIPCRoundTrip(t, mem, ds, dict)

			// Row groups decoded in parallel: each takes its chunks'
			// dictionaries.
			workers = 2
			ws, wdict, err := open(true)
			if err != nil {
				t.Fatalf("dictionary read, 2 workers: %v", err)
			}
			defer releaseAll(wdict)
			checkDictionaryRead(t, mem, ps, ws, plain, wdict)
		})
	}
	t.Logf("%d files read, %d with dictionary columns; %d batch columns share the previous batch's dictionary", read, withCols, shared)
	if withCols < 50 || shared == 0 {
		t.Fatalf("%d files with dictionary columns, %d shared dictionaries", withCols, shared)
	}
}
