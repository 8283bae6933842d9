package reader_test

import (
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/paimon/paimonwrite"
)

// TestPaimonValueStatsPruning: on paimon-cpp's Java-written append tables
// (full _VALUE_STATS, _VALUE_STATS_COLS null, files of schemas 0 and 1),
// files are skipped by their value statistics under their own schema —
// found by field id after renames, promoted int→bigint, null for columns
// added later — and the rows are exactly the matching ones. Each "naive"
// case is one a reader taking statistics by name or by the latest schema
// would get wrong.
func TestPaimonValueStatsPruning(t *testing.T) {
	cases := []struct {
		table, where string
		skipped      int64 // files skipped by value statistics
		rows         []string
	}{
		// schema-1 a is id 5 (d in schema-0, 15/25/35 in old files); the
		// old a (id 2, 12..32) was dropped. Naive: by name, 35 > 32, the
		// old files skipped and the row lost.
		{"parquet/append_table_with_alter_table", "a = 35", 3,
			[]string{`{"key0":0,"key1":1,"k":36,"c":33,"d":null,"a":35,"e":null}`}},
		{"orc/append_table_with_alter_table", "a = 35", 3,
			[]string{`{"key0":0,"key1":1,"k":36,"c":33,"d":null,"a":35,"e":null}`}},
		// d (id 7) was added in schema-1: old files hold only nulls.
		{"parquet/append_table_with_alter_table", "d IS NULL", 2, []string{
			`{"key0":0,"key1":1,"k":16,"c":13,"d":null,"a":15,"e":null}`,
			`{"key0":0,"key1":1,"k":26,"c":23,"d":null,"a":25,"e":null}`,
			`{"key0":0,"key1":1,"k":36,"c":33,"d":null,"a":35,"e":null}`,
			`{"key0":1,"key1":1,"k":46,"c":43,"d":null,"a":45,"e":null}`,
			`{"key0":1,"key1":1,"k":56,"c":53,"d":null,"a":55,"e":null}`}},
		{"parquet/append_table_with_alter_table", "d = 517", 3,
			[]string{`{"key0":0,"key1":1,"k":66,"c":63,"d":517,"a":65,"e":618}`}},
		// c is id 3 (b in schema-0: 13..33 in old files).
		{"parquet/append_table_with_alter_table", "c < 20", 3,
			[]string{`{"key0":0,"key1":1,"k":16,"c":13,"d":null,"a":15,"e":null}`}},
		// f1 INT → BIGINT: the old file's int bounds (10..20) promoted.
		{"parquet/append_with_bitmap_alter_table", "f1 > 25", 1, []string{
			`{"f1":30,"f4":"Alice","f3":21.1,"f5":100}`,
			`{"f1":30,"f4":"David","f3":24.1,"f5":null}`}},
		{"orc/append_with_bitmap_alter_table", "f1 >= 20 and f1 <= 20", 0, []string{
			`{"f1":20,"f4":"Alice","f3":18.1,"f5":null}`,
			`{"f1":20,"f4":"Emily","f3":22.1,"f5":101}`,
			`{"f1":20,"f4":"Lucy","f3":15.1,"f5":null}`,
			`{"f1":20,"f4":"Tony","f3":17.1,"f5":null}`}},
		// f4 is f0 renamed (id 0). Naive: the old file lacks "f4", taken
		// as null, skipped, and Tony's rows lost.
		{"parquet/append_with_bitmap_alter_table", "f4 = 'Tony'", 1, []string{
			`{"f1":10,"f4":"Tony","f3":14.1,"f5":null}`,
			`{"f1":20,"f4":"Tony","f3":17.1,"f5":null}`}},
		// f5 added in schema-1: the old file is null there.
		{"parquet/append_with_bitmap_alter_table", "f5 = 100", 1, []string{
			`{"f1":10,"f4":"Bob","f3":23.1,"f5":100}`,
			`{"f1":30,"f4":"Alice","f3":21.1,"f5":100}`}},
	}
	for _, c := range cases {
		t.Run(c.table+" "+c.where, func(t *testing.T) {
			e, err := expr.Parse(c.where)
			if err != nil {
				t.Fatal(err)
			}
			var st reader.ScanStats
			got := scanTableRows(t, paimonCpp(t, c.table), reader.TableOptions{Filter: e, Stats: &st})
			if strings.Join(got, "\n") != strings.Join(c.rows, "\n") {
				t.Errorf("rows:\n got %s\nwant %s", strings.Join(got, "\n"), strings.Join(c.rows, "\n"))
			}
			if n := st.Counts().FilesSkippedStats; n != c.skipped {
				t.Errorf("files skipped by statistics: %d, want %d", n, c.skipped)
			}
			if n := st.Counts().FilesSkipped; n < c.skipped {
				t.Errorf("files skipped: %d, fewer than %d", n, c.skipped)
			}
		})
	}
}

// TestPaimonKeyStatsMergedSections: on the generated LSM tree of
// writeLSMTable (one section of four overlapping files, key renamed k→id
// and widened INT→BIGINT), key statistics drop files from the merge when
// the filter's key conditions rule out all their keys; value statistics
// never drop a file of a merged section — v = 'a' would otherwise skip the
// level-1 file (v "b") and the level-0 file (v x/null) and return keys 2
// and 5 with the v their older rows had.
func TestPaimonKeyStatsMergedSections(t *testing.T) {
	dir := writeLSMTable(t, nil, false)
	cases := []struct {
		where   string
		skipped int64
		rows    []string
	}{
		{"id = 7", 3, []string{`{"id":7,"v":"d","n":70}`}},
		{"id <= 2", 2, []string{`{"id":1,"v":"a","n":1}`, `{"id":2,"v":"b","n":null}`}},
		{"id = 7 or v = 'zzz'", 0, []string{`{"id":7,"v":"d","n":70}`}},
		{"v = 'a'", 0, []string{`{"id":1,"v":"a","n":1}`, `{"id":3,"v":"a","n":3}`}},
		{"n = 50", 0, []string{`{"id":5,"v":null,"n":50}`}},
	}
	for _, c := range cases {
		t.Run(c.where, func(t *testing.T) {
			e, err := expr.Parse(c.where)
			if err != nil {
				t.Fatal(err)
			}
			var st reader.ScanStats
			got := scanTableRows(t, dir, reader.TableOptions{Filter: e, Stats: &st})
			if strings.Join(got, "\n") != strings.Join(c.rows, "\n") {
				t.Errorf("rows:\n got %s\nwant %s", strings.Join(got, "\n"), strings.Join(c.rows, "\n"))
			}
			if n := st.Counts().FilesSkippedStats; n != c.skipped {
				t.Errorf("files skipped by statistics: %d, want %d", n, c.skipped)
			}
		})
	}
}

// TestPaimonTruncatedStringStats: under the default stats mode
// truncate(16), a string upper bound of 16 characters may be a cut value
// and bounds nothing (a naive reader skips the file for s = the longer
// value); the lower bound, a prefix, still prunes. With
// metadata.stats-mode full the same bounds are exact.
func TestPaimonTruncatedStringStats(t *testing.T) {
	long := strings.Repeat("a", 16) + "Z"
	cut := strings.Repeat("a", 16)
	for _, mode := range []string{"", "full"} {
		root := t.TempDir()
		w := &paimonwrite.Writer{Dir: root, TimeMillis: 1}
		opts := map[string]string{"bucket": "-1"}
		if mode != "" {
			opts["metadata.stats-mode"] = mode
		}
		fields := []*schema.Field{{ID: 0, Name: "id", Type: schema.Int, Required: true}, {ID: 1, Name: "s", Type: schema.String}}
		if err := w.WriteSchema(schema.NewPaimonSchema(0, fields, nil, nil, opts)); err != nil {
			t.Fatal(err)
		}
		type row struct {
			ID int32  `parquet:"id,id(0)"`
			S  string `parquet:"s,id(1)"`
		}
		p, err := w.DataFilePath(0, "data-0.parquet")
		if err != nil {
			t.Fatal(err)
		}
		if err := parquet.WriteFile(p, []row{{1, long}}); err != nil {
			t.Fatal(err)
		}
		max := cut // what a writer truncating to 16 characters records
		if mode == "full" {
			max = long
		}
		vs := &paimonwrite.Stats{Min: paimonwrite.KeyRow(int32(1), cut), Max: paimonwrite.KeyRow(int32(1), max), NullCounts: []int64{0, 0}}
		if err := w.Commit(0, []paimonwrite.DataFile{{Name: "data-0.parquet", TotalBuckets: -1, RowCount: 1, ValueStats: vs}}); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			where   string
			skipped int64
			rows    int
		}{
			{"s = '" + long + "'", 0, 1},
			{"s > '" + cut + "'", 0, 1},
			{"s < 'a'", 1, 0},
			{"s = 'b'", map[string]int64{"": 0, "full": 1}[mode], 0},
		} {
			e, err := expr.Parse(c.where)
			if err != nil {
				t.Fatal(err)
			}
			var st reader.ScanStats
			got := scanTableRows(t, root, reader.TableOptions{Filter: e, Stats: &st})
			if len(got) != c.rows {
				t.Errorf("mode %q, %s: rows %v, want %d", mode, c.where, got, c.rows)
			}
			if n := st.Counts().FilesSkippedStats; n != c.skipped {
				t.Errorf("mode %q, %s: files skipped by statistics %d, want %d", mode, c.where, n, c.skipped)
			}
		}
	}
}

// TestPaimonValueStatsEvolved: a generated append table whose schema-0
// file records statistics of only x and s, in that order
// (_VALUE_STATS_COLS), and whose schema-1 renames s to t, widens id
// INT→BIGINT and adds u; the schema-1 file records all columns. Each
// filter's rows are exact; the naive readings the comments name would lose
// rows.
func TestPaimonValueStatsEvolved(t *testing.T) {
	root := t.TempDir()
	w := &paimonwrite.Writer{Dir: root, TimeMillis: 1}
	opts := map[string]string{"bucket": "-1"}
	s0 := []*schema.Field{{ID: 0, Name: "id", Type: schema.Int, Required: true}, {ID: 1, Name: "s", Type: schema.String}, {ID: 2, Name: "x", Type: schema.Int}}
	s1 := []*schema.Field{{ID: 0, Name: "id", Type: schema.Long, Required: true}, {ID: 1, Name: "t", Type: schema.String}, {ID: 2, Name: "x", Type: schema.Int}, {ID: 3, Name: "u", Type: schema.Int}}
	for i, fs := range [][]*schema.Field{s0, s1} {
		if err := w.WriteSchema(schema.NewPaimonSchema(i, fs, nil, nil, opts)); err != nil {
			t.Fatal(err)
		}
	}
	type row0 struct {
		ID int32  `parquet:"id,id(0)"`
		S  string `parquet:"s,id(1)"`
		X  int32  `parquet:"x,id(2)"`
	}
	type row1 struct {
		ID int64  `parquet:"id,id(0)"`
		T  string `parquet:"t,id(1)"`
		X  int32  `parquet:"x,id(2)"`
		U  *int32 `parquet:"u,id(3),optional"`
	}
	five := int32(5)
	pa, err := w.DataFilePath(0, "data-a.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if err := parquet.WriteFile(pa, []row0{{1, "apple", 10}, {2, "banana", 20}}); err != nil {
		t.Fatal(err)
	}
	pb, err := w.DataFilePath(0, "data-b.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if err := parquet.WriteFile(pb, []row1{{7, "cherry", 70, &five}, {8, "date", 80, nil}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(0, []paimonwrite.DataFile{{Name: "data-a.parquet", TotalBuckets: -1, RowCount: 2, ValueStatsCols: []string{"x", "s"},
		ValueStats: &paimonwrite.Stats{Min: paimonwrite.KeyRow(int32(10), "apple"), Max: paimonwrite.KeyRow(int32(20), "banana"), NullCounts: []int64{0, 0}}}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(1, []paimonwrite.DataFile{{Name: "data-b.parquet", TotalBuckets: -1, RowCount: 2, SchemaID: 1,
		ValueStats: &paimonwrite.Stats{Min: paimonwrite.KeyRow(int64(7), "cherry", int32(70), int32(5)), Max: paimonwrite.KeyRow(int64(8), "date", int32(80), int32(5)), NullCounts: []int64{0, 0, 0, 1}}}}); err != nil {
		t.Fatal(err)
	}
	r1 := `{"id":1,"t":"apple","x":10,"u":null}`
	r2 := `{"id":2,"t":"banana","x":20,"u":null}`
	r7 := `{"id":7,"t":"cherry","x":70,"u":5}`
	r8 := `{"id":8,"t":"date","x":80,"u":null}`
	cases := []struct {
		where   string
		skipped int64
		rows    []string
	}{
		// Naive: by name, the old file lacks t (null) and is skipped.
		{"t = 'apple'", 1, []string{r1}},
		// Naive: positionally, the old file's first statistic (x, 10..20)
		// taken as id's bounds skips it; it records none for id.
		{"id < 5", 1, []string{r1, r2}},
		{"id > 7", 0, []string{r8}},
		{"x >= 20 and x <= 20", 1, []string{r2}},
		{"u IS NULL", 0, []string{r1, r2, r8}},
		{"u = 5", 1, []string{r7}},
		{"u IS NOT NULL", 1, []string{r7}},
		{"t IS NULL", 2, nil},
		{"t STARTS WITH 'ch'", 1, []string{r7}},
	}
	for _, c := range cases {
		t.Run(c.where, func(t *testing.T) {
			e, err := expr.Parse(c.where)
			if err != nil {
				t.Fatal(err)
			}
			var st reader.ScanStats
			got := scanTableRows(t, root, reader.TableOptions{Filter: e, Stats: &st})
			if strings.Join(got, "\n") != strings.Join(c.rows, "\n") {
				t.Errorf("rows:\n got %s\nwant %s", strings.Join(got, "\n"), strings.Join(c.rows, "\n"))
			}
			if n := st.Counts().FilesSkippedStats; n != c.skipped {
				t.Errorf("files skipped by statistics: %d, want %d", n, c.skipped)
			}
		})
	}
}
