package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/internal/testutil"
)

// arrowColumns reads an Arrow IPC stream and returns its schema and each
// column's values as strings, dictionary columns by their values.
func arrowColumns(t *testing.T, mem memory.Allocator, stream string) (*arrow.Schema, [][]string) {
	t.Helper()
	r, err := ipc.NewReader(strings.NewReader(stream), ipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	cols := make([][]string, r.Schema().NumFields())
	for r.Next() {
		rec := r.RecordBatch()
		for i := range cols {
			a := rec.Column(i)
			for j := 0; j < a.Len(); j++ {
				v := "NULL"
				if d, ok := a.(*array.Dictionary); ok && d.IsValid(j) {
					v = d.Dictionary().ValueStr(d.GetValueIndex(j))
				} else if a.IsValid(j) {
					v = a.ValueStr(j)
				}
				cols[i] = append(cols[i], v)
			}
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return r.Schema(), cols
}

func TestCatDictionary(t *testing.T) {
	root := testutil.RepoRoot(t)
	data := filepath.Join(root, "testdata", "orders", "data")
	files := []string{"--schema", filepath.Join(root, "testdata", "orders", "metadata", "v1.metadata.json"),
		filepath.Join(data, "00000-orders-schema0.parquet"), filepath.Join(data, "00001-orders-schema1.parquet"), filepath.Join(data, "00002-orders-schema2.parquet")}
	for _, tc := range []struct {
		name string
		args []string
		// dict are the columns written as dictionary<int32, string>.
		dict []string
	}{
		{"demo table", nil, []string{"customer", "note", "channel"}},
		{"table, columns and filter", []string{"--columns", "channel,order_id", "--where", "order_id > 3"}, []string{"channel"}},
		{"one file", files[:3], []string{"customer", "note", "channel"}},
		{"three files", files, []string{"customer", "note", "channel"}},
		{"three files, 1-row batches", append([]string{"--batch-rows", "1"}, files...), []string{"customer", "note", "channel"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			plainOut, errOut, code := runCLI(t, append([]string{"cat", "--format", "arrow"}, tc.args...)...)
			if code != exitOK {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			dictOut, errOut, code := runCLI(t, append([]string{"cat", "--format", "arrow", "--dictionary"}, tc.args...)...)
			if code != exitOK {
				t.Fatalf("--dictionary: exit %d, stderr %q", code, errOut)
			}
			ps, plain := arrowColumns(t, mem, plainOut)
			ds, dict := arrowColumns(t, mem, dictOut)
			var got []string
			for i, f := range ds.Fields() {
				if dt, ok := f.Type.(*arrow.DictionaryType); ok {
					if !arrow.TypeEqual(dt.IndexType, arrow.PrimitiveTypes.Int32) || !arrow.TypeEqual(dt.ValueType, ps.Field(i).Type) {
						t.Errorf("%s: %s, want dictionary<values=%s, indices=int32>", f.Name, f.Type, ps.Field(i).Type)
					}
					got = append(got, f.Name)
				} else if !arrow.TypeEqual(f.Type, ps.Field(i).Type) {
					t.Errorf("%s: %s, without --dictionary %s", f.Name, f.Type, ps.Field(i).Type)
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.dict, ",") {
				t.Errorf("dictionary columns %v, want %v", got, tc.dict)
			}
			if len(plain) != len(dict) || len(plain) == 0 {
				t.Fatalf("%d columns with --dictionary, %d without", len(dict), len(plain))
			}
			for i := range plain {
				if strings.Join(plain[i], "|") != strings.Join(dict[i], "|") {
					t.Errorf("column %s: %v with --dictionary, %v without", ps.Field(i).Name, dict[i], plain[i])
				}
			}
		})
	}
	// The other formats print the same values with --dictionary.
	for _, format := range []string{"table", "jsonl", "csv"} {
		want, _, _ := runCLI(t, "cat", "--format", format)
		got, errOut, code := runCLI(t, "cat", "--format", format, "--dictionary")
		if code != exitOK || got != want {
			t.Errorf("--format %s --dictionary: exit %d, stderr %q, stdout\n%s\nwant\n%s", format, code, errOut, got, want)
		}
	}
}
