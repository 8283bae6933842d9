package parquet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pqparquet "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/parquet-go/parquet-go/format"
)

// dictionaryFieldsOf returns the top-level fields of f that
// [BatchOptions.DictionaryFields] may name.
func dictionaryFieldsOf(f *File) []int {
	var out []int
	for i, ln := range f.lroot.children {
		if ln.phys == nil || ln.conv == nil || ln.conv.op != opBytes || ln.phys.repLevel != 0 {
			continue
		}
		if k := ln.field.Type.Kind().String(); k != "string" && k != "binary" {
			continue
		}
		out = append(out, i)
	}
	return out
}

// dictStats counts what a read with dictionary fields returned.
type dictStats struct {
	batches int // dictionary column batches
	shared  int // of them, batches whose dictionary is the previous batch's
}

// readAllDict is readAll with opts, decoding dictionary arrays to their
// values; it checks that the dictionary columns are dictionary arrays of
// the batch schema's type.
func readAllDict(f *File, mem memory.Allocator, opts BatchOptions, st *dictStats) ([][]any, error) {
	opts.Allocator = mem
	br, err := f.NewBatchReader(f.Schema(), opts)
	if err != nil {
		return nil, err
	}
	defer br.Close()
	cols := make([][]any, len(f.Schema().Fields))
	last := make([]arrow.ArrayData, len(cols))
	defer func() {
		for _, d := range last {
			if d != nil {
				d.Release()
			}
		}
	}()
	for {
		rec, err := br.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if !rec.Schema().Equal(br.Schema()) {
			rec.Release()
			return nil, errors.New("batch schema differs from the reader's")
		}
		for c := 0; c < int(rec.NumCols()); c++ {
			col := rec.Column(c)
			if v, ok := col.(interface{ ValidateFull() error }); ok {
				if err := v.ValidateFull(); err != nil {
					rec.Release()
					return nil, err
				}
			}
			d, ok := col.(*array.Dictionary)
			if !ok {
				for i := 0; i < col.Len(); i++ {
					cols[c] = append(cols[c], canon(col, i))
				}
				continue
			}
			st.batches++
			dd := d.Dictionary().Data()
			if last[c] == dd {
				st.shared++
			}
			if last[c] != nil {
				last[c].Release()
			}
			dd.Retain()
			last[c] = dd
			for i := 0; i < d.Len(); i++ {
				if d.IsNull(i) {
					cols[c] = append(cols[c], nil)
					continue
				}
				cols[c] = append(cols[c], canon(d.Dictionary(), d.GetValueIndex(i)))
			}
		}
		rec.Release()
	}
	return cols, nil
}

// TestDictionaryFieldsReal reads every real Parquet file with its string
// and binary columns as dictionary arrays, in batches of several sizes,
// plain and with rows skipped, and compares the values with the plain read
// and with pqarrow.
func TestDictionaryFieldsReal(t *testing.T) {
	dir := realDir(t)
	files := realParquetFiles(t, dir)
	var withDict, compared int
	var total dictStats
	for _, rel := range files {
		t.Run(rel, func(t *testing.T) {
			if why, ok := differentialSkips[rel]; ok {
				t.Skip(why)
			}
			if _, ok := differentialErrors[rel]; ok {
				t.Skip("refused (TestDifferentialPQArrow)")
			}
			b, err := os.ReadFile(filepath.Join(dir, rel))
			if err != nil {
				t.Fatal(err)
			}
			f, err := Open(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				t.Skipf("Open: %v", err)
			}
			fields := dictionaryFieldsOf(f)
			if len(fields) == 0 {
				return
			}
			withDict++
			mem := newMem(t)
			want, err := readAll(f, mem, 1000)
			if err != nil {
				t.Skipf("plain read fails: %v", err)
			}
			pq, _, perr := readPQArrow(b, memory.NewGoAllocator())
			for _, c := range fields {
				if perr == nil && !reflect.DeepEqual(want[c], pq[c]) {
					t.Fatalf("column %d: the plain read differs from pqarrow", c)
				}
			}
			for _, rows := range []int{1000, 7, 1 << 16} {
				for _, skip := range []bool{false, true} {
					opts := BatchOptions{BatchRows: rows, DictionaryFields: fields}
					if skip {
						opts.Skip = everyThird(f.NumRows())
					}
					var st dictStats
					got, err := readAllDict(f, mem, opts, &st)
					if err != nil {
						t.Fatalf("rows %d skip %v: %v", rows, skip, err)
					}
					w := want
					if skip {
						w = dropEveryThird(want)
					}
					for c := range got {
						if !reflect.DeepEqual(got[c], w[c]) {
							t.Fatalf("rows %d skip %v: column %d (%s) differs from the plain read", rows, skip, c, f.Schema().Fields[c].Name)
						}
					}
					total.batches += st.batches
					total.shared += st.shared
				}
			}
			compared++
		})
	}
	t.Logf("%d files have dictionary fields, %d compared; %d dictionary batches, %d sharing the previous batch's dictionary",
		withDict, compared, total.batches, total.shared)
	if compared < 50 || total.shared == 0 {
		t.Fatalf("only %d files compared, %d shared dictionaries", compared, total.shared)
	}
}

// everyThird returns the rows 0, 3, 6, ... of n.
func everyThird(n int64) *roaring64.Bitmap {
	bm := roaring64.New()
	for r := int64(0); r < n; r += 3 {
		bm.Add(uint64(r))
	}
	return bm
}

// dropEveryThird returns cols without the rows everyThird names.
func dropEveryThird(cols [][]any) [][]any {
	out := make([][]any, len(cols))
	for c, vs := range cols {
		for i, v := range vs {
			if i%3 != 0 {
				out[c] = append(out[c], v)
			}
		}
	}
	return out
}

// fallbackFile writes, with arrow-go's writer, n rows of an optional
// string column s (every seventh null) whose dictionary outgrows a small
// page size limit after a third of each row group, so that each column chunk's first pages are
// dictionary-encoded and the rest PLAIN, and a binary column b of few
// distinct values (dictionary pages only), in row groups of rg rows.
func fallbackFile(t *testing.T, n, rg int) []byte {
	t.Helper()
	mem := memory.NewGoAllocator()
	sb := array.NewStringBuilder(mem)
	bb := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
	for i := 0; i < n; i++ {
		if i%7 == 3 {
			sb.AppendNull()
		} else {
			// Few distinct values first in each row group, then many.
			k := i % 10
			if i%rg >= rg/3 {
				k = i
			}
			sb.Append(fmt.Sprintf("value-%d-%s", k, strings.Repeat("x", i%5)))
		}
		bb.Append([]byte{byte(i % 3), 'b'})
	}
	s, b := sb.NewArray(), bb.NewArray()
	defer s.Release()
	defer b.Release()
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "b", Type: arrow.BinaryTypes.Binary},
	}, nil)
	rec := array.NewRecordBatch(sc, []arrow.Array{s, b}, int64(n))
	defer rec.Release()
	tbl := array.NewTableFromRecords(sc, []arrow.RecordBatch{rec})
	defer tbl.Release()
	props := pqparquet.NewWriterProperties(pqparquet.WithDictionaryDefault(true),
		pqparquet.WithDictionaryPageSizeLimit(4<<10), pqparquet.WithDataPageSize(512),
		pqparquet.WithBatchSize(64), pqparquet.WithMaxRowGroupLength(int64(rg)))
	var buf bytes.Buffer
	if err := pqarrow.WriteTable(tbl, &buf, int64(rg), props, pqarrow.DefaultWriterProps()); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestDictionaryFieldsFallback reads a file whose chunks fall back from
// dictionary to PLAIN pages: the batches that hold PLAIN values, or
// values of two pages kinds, are encoded per batch, the others share
// their chunk's dictionary, and the values are those of the plain read.
func TestDictionaryFieldsFallback(t *testing.T) {
	b := fallbackFile(t, 5000, 2000)
	f := openBytes(t, b)
	pf, err := f.pqFileOnce()
	if err != nil {
		t.Fatal(err)
	}
	plainPages, dictPages := 0, 0
	for _, rg := range pf.Metadata().RowGroups {
		for _, es := range rg.Columns[0].MetaData.EncodingStats {
			if es.PageType == format.DataPage && es.Encoding == format.Plain {
				plainPages += int(es.Count)
			}
			if es.PageType == format.DataPage && es.Encoding == format.RLEDictionary {
				dictPages += int(es.Count)
			}
		}
	}
	if plainPages == 0 || dictPages == 0 {
		t.Fatal("the writer did not fall back to PLAIN pages")
	}
	mem := newMem(t)
	want, err := readAll(f, mem, 1000)
	if err != nil {
		t.Fatal(err)
	}
	pq, _, err := readPQArrow(b, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(want, pq) {
		t.Fatal("the plain read differs from pqarrow")
	}
	for _, rows := range []int{1, 100, 333, 1000, 4096} {
		var st dictStats
		got, err := readAllDict(f, mem, BatchOptions{BatchRows: rows, DictionaryFields: []int{0, 1}}, &st)
		if err != nil {
			t.Fatalf("rows %d: %v", rows, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("rows %d: values differ from the plain read", rows)
		}
		if rows < 2000 && st.shared == 0 {
			t.Fatalf("rows %d: no batch shares its chunk's dictionary", rows)
		}
	}
}

func TestDictionaryFieldsRefused(t *testing.T) {
	b := fallbackFile(t, 10, 10)
	f := openBytes(t, b)
	for _, idx := range [][]int{{2}, {-1}} {
		if _, err := f.NewBatchReader(f.Schema(), BatchOptions{DictionaryFields: idx}); err == nil {
			t.Fatalf("DictionaryFields %v: no error", idx)
		}
	}
}
