package orc

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/schema"
)

// readColumns decodes every batch of f under proj and returns, per column
// name, the concatenated fmt.Sprint of the column's arrays ("[1 2] [3]"
// for two batches).
func readColumns(t *testing.T, f *File, proj *schema.Schema, mem memory.Allocator) map[string]string {
	t.Helper()
	br, err := f.NewBatchReader(proj, BatchOptions{Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	out := map[string]string{}
	for {
		rec, err := br.Next(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if want := schema.ToArrowSchema(proj); !rec.Schema().Equal(want) {
			t.Errorf("batch schema %v, want %v", rec.Schema(), want)
		}
		for c := 0; c < int(rec.NumCols()); c++ {
			n := rec.ColumnName(c)
			if out[n] != "" {
				out[n] += " "
			}
			out[n] += fmt.Sprint(rec.Column(c))
		}
		rec.Release()
	}
	return out
}

// idPaths lists "path=id" for every field, spelled as the apache/orc tools
// spell ORC paths (_elem, _key, _value).
func idPaths(s *schema.Schema) []string {
	var out []string
	schema.Walk(s.Fields, func(path []string, f *schema.Field) bool {
		p := strings.Join(path, ".")
		p = strings.NewReplacer("element", "_elem", "key", "_key", "value", "_value").Replace(p)
		out = append(out, fmt.Sprintf("%s=%d", p, f.ID))
		return true
	})
	return out
}

// TestComplexTypesIceberg pins the facts apache/orc's C++ tool tests state
// about complextypes_iceberg.orc (see apache-orc/EXPECTED.md).
func TestComplexTypesIceberg(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	f := openFile(t, filepath.Join(examplesDir(t), "complextypes_iceberg.orc"))
	if f.NumRows() != 1 || f.NumStripes() != 1 || f.Compression() != "ZLIB" || f.Version() != "0.12" ||
		f.tail.ps.blockSize != 131072 {
		t.Errorf("rows %d stripes %d %s %s block %d", f.NumRows(), f.NumStripes(), f.Compression(), f.Version(), f.tail.ps.blockSize)
	}
	want := "id=1 int_array=2 int_array._elem=7 int_array_array=3 int_array_array._elem=8 " +
		"int_array_array._elem._elem=9 int_map=4 int_map._key=10 int_map._value=11 " +
		"int_map_array=5 int_map_array._elem=12 int_map_array._elem._key=13 " +
		"int_map_array._elem._value=14 nested_struct=6 nested_struct.a=15 nested_struct.b=16 " +
		"nested_struct.b._elem=19 nested_struct.c=17 nested_struct.c.d=20 nested_struct.c.d._elem=21 " +
		"nested_struct.c.d._elem._elem=22 nested_struct.c.d._elem._elem.e=23 " +
		"nested_struct.c.d._elem._elem.f=24 nested_struct.g=18 nested_struct.g._key=25 " +
		"nested_struct.g._value=26 nested_struct.g._value.h=27 nested_struct.g._value.h.i=28 " +
		"nested_struct.g._value.h.i._elem=29"
	got := idPaths(f.Schema())
	if strings.Join(got, " ") != want {
		t.Errorf("ids:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	// iceberg.required: map keys true, everything else false.
	schema.Walk(f.Schema().Fields, func(path []string, fl *schema.Field) bool {
		if isKey := path[len(path)-1] == schema.KeyName; fl.Required != isKey {
			t.Errorf("%s: required %v", strings.Join(path, "."), fl.Required)
		}
		return true
	})
	if id := f.Schema().Fields[0]; id.Type != schema.Long {
		t.Errorf("id type %v (iceberg.long-type=LONG)", id.Type)
	}
	// Projection of id, nested_struct.a, nested_struct.b.
	full := f.Schema()
	ns := full.Fields[5]
	proj := schema.New(0, full.Fields[0], &schema.Field{ID: ns.ID, Name: ns.Name,
		Type: &schema.StructType{Fields: ns.Type.(*schema.StructType).Fields[:2]}})
	cols := readColumns(t, f, proj, mem)
	if cols["id"] != "[8]" || cols["nested_struct"] != "{[-1] [[-1]]}" || len(cols) != 2 {
		t.Errorf("projection: %v", cols)
	}
}

func impalaDir(t *testing.T, sub string) string {
	return filepath.Join(realDir(t), "impala", "testdata", "data", "iceberg_test", sub)
}

func globOne(t *testing.T, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil || len(m) == 0 {
		t.Fatalf("no files match %s", pattern)
	}
	sort.Strings(m)
	return m
}

// TestImpalaComplexTypes reads the 7-row data file of Impala's
// complextypestbl_iceberg_orc and checks the values impala/EXPECTED.md
// states for it (ids 1..7; id 8 is complextypes_iceberg.orc).
func TestImpalaComplexTypes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	files := globOne(t, filepath.Join(impalaDir(t, "hadoop_catalog/ice/complextypestbl_iceberg_orc"), "data", "00000-*.orc"))
	f := openFile(t, files[0])
	if got := strings.Join(idPaths(f.Schema())[:4], " "); got != "id=1 int_array=2 int_array._elem=7 int_array_array=3" {
		t.Errorf("ids %s", got)
	}
	cols := readColumns(t, f, f.Schema(), mem)
	want := map[string]string{
		"id":              "[1 2 3 4 5 6 7]",
		"int_array":       "[[1 2 3] [(null) 1 2 (null) 3 (null)] [] (null) (null) (null) (null)]",
		"int_array_array": "[[[1 2] [3 4]] [[(null) 1 2 (null)] [3 (null) 4] [] (null)] [(null)] [] (null) (null) [(null) [5 6]]]",
		"int_map":         `[{["k1" "k2"] [1 100]} {["k1" "k2"] [2 (null)]} {[] []} {[] []} {[] []} (null) {["k1" "k3"] [(null) (null)]}]`,
		"int_map_array":   `[[{["k1"] [1]}] [{["k1" "k3"] [1 (null)]} (null) {[] []}] [(null) (null)] [] (null) (null) (null)]`,
		"nested_struct": `{[1 (null) (null) (null) (null) (null) 7] [[1] [(null)] (null) (null) (null) (null) [2 3 (null)]] ` +
			`{[[{[10 -10] ["aaa" "bbb"]} {[11] ["c"]}] [{[(null) 10 (null) -10 (null)] [(null) "aaa" (null) "bbb" (null)]} {[11 (null)] ["c" (null)]} {[] []} (null)] [] (null) (null) (null) [{[] []} {[(null)] [(null)]} (null)]]} ` +
			`[{["foo"] {{[[1.1]]}}} {["g1" "g2" "g3" "g4" "g5"] {{[[2.2 (null)] [] (null) (null) (null)]}}} {[] {{[]}}} (null) {["foo"] {{[[2.2 3.3]]}}} (null) (null)]}`,
	}
	for k, v := range want {
		if cols[k] != v {
			t.Errorf("%s:\n got %s\nwant %s", k, cols[k], v)
		}
	}
}

// TestImpalaMixedFormat reads the two ORC files of
// iceberg_mixed_file_format_test: rows (2,'B',1.5) and (4,'D',3.5), ids 1..3.
func TestImpalaMixedFormat(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	files := globOne(t, filepath.Join(impalaDir(t, "iceberg_mixed_file_format_test"), "data", "*.orc"))
	var got []string
	for _, p := range files {
		f := openFile(t, p)
		if s := f.Schema().String(); s != "table {\n  1:i: int\n  2:s: string\n  3:d: double\n}" {
			t.Errorf("schema %s", s)
		}
		c := readColumns(t, f, f.Schema(), mem)
		got = append(got, c["i"]+c["s"]+c["d"])
	}
	sort.Strings(got)
	if strings.Join(got, ",") != `[2]["B"][1.5],[4]["D"][3.5]` {
		t.Errorf("rows %v", got)
	}
}

// TestPaimonBuildInFieldID reads the ORC files of paimon-cpp's
// append_table_with_alter_table_build_in_fieldid: paimon.id attributes give
// the ids, and the raw values are those paimon-cpp/EXPECTED.md's rows come
// from (old files: a(2) b(3) c(4) d(5) k(6); new files: k(6) c(3) d(7) a(5) e(8)).
func TestPaimonBuildInFieldID(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := filepath.Join(realDir(t), "paimon-cpp", "test", "test_data", "orc",
		"append_table_with_alter_table_build_in_fieldid.db", "append_table_with_alter_table_build_in_fieldid")
	files := globOne(t, filepath.Join(dir, "key0=*", "key1=*", "bucket-0", "*.orc"))
	oldSchema := "table {\n  0:key0: int\n  1:key1: int\n  2:a: int\n  3:b: int\n  4:c: int\n  5:d: int\n  6:k: int\n}"
	newSchema := "table {\n  0:key0: int\n  1:key1: int\n  6:k: int\n  3:c: int\n  7:d: int\n  5:a: int\n  8:e: int\n}"
	var got []string
	for _, p := range files {
		f := openFile(t, p)
		s := f.Schema().String()
		if s != oldSchema && s != newSchema {
			t.Errorf("%s: schema %s", filepath.Base(p), s)
		}
		c := readColumns(t, f, f.Schema(), mem)
		var row []string
		for _, fl := range f.Schema().Fields {
			row = append(row, fmt.Sprintf("%d=%s", fl.ID, c[fl.Name]))
		}
		got = append(got, strings.Join(row, " "))
	}
	sort.Strings(got)
	want := []string{
		"0=[0 0 0] 1=[1 1 1] 2=[12 22 32] 3=[13 23 33] 4=[14 24 34] 5=[15 25 35] 6=[16 26 36]",
		"0=[0 0 0] 1=[1 1 1] 6=[66 76 86] 3=[63 73 83] 7=[517 527 537] 5=[65 75 85] 8=[618 628 638]",
		"0=[1 1] 1=[1 1] 2=[42 52] 3=[43 53] 4=[44 54] 5=[45 55] 6=[46 56]",
		"0=[1 1] 1=[1 1] 6=[96 106] 3=[93 103] 7=[547 557] 5=[95 105] 8=[648 658]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

var _ arrow.DataType

// readRaw is readColumns with a batch size, and timestamps as integers.
func readRaw(t *testing.T, f *File, proj *schema.Schema, mem memory.Allocator, batch int) map[string]string {
	t.Helper()
	br, err := f.NewBatchReader(proj, BatchOptions{Allocator: mem, BatchRows: batch})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	parts := map[string][]string{}
	for {
		rec, err := br.Next(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for c := 0; c < int(rec.NumCols()); c++ {
			col := rec.Column(c)
			s := fmt.Sprint(col)
			if ts, ok := col.(*array.Timestamp); ok {
				var v []string
				for i := 0; i < ts.Len(); i++ {
					if ts.IsNull(i) {
						v = append(v, "(null)")
					} else {
						v = append(v, fmt.Sprint(int64(ts.Value(i))))
					}
				}
				s = "[" + strings.Join(v, " ") + "]"
			}
			parts[rec.ColumnName(c)] = append(parts[rec.ColumnName(c)], s)
		}
		rec.Release()
	}
	out := map[string]string{}
	for k, v := range parts {
		out[k] = joinBatches(v)
	}
	return out
}

// joinBatches merges the printed arrays of several batches of a flat or
// list column into one ("[1 2]", "[3]" → "[1 2 3]"); struct columns
// ("{[..] [..]}") are merged field by field.
func joinBatches(v []string) string {
	if len(v) == 1 {
		return v[0]
	}
	if strings.HasPrefix(v[0], "{") {
		return strings.Join(v, " ")
	}
	var items []string
	for _, s := range v {
		s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
		if s != "" {
			items = append(items, s)
		}
	}
	return "[" + strings.Join(items, " ") + "]"
}
