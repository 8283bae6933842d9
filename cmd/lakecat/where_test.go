package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
)

func TestCatWhere(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		// the bundled demo files
		{[]string{"cat", "--where", "channel = 'web' and price > 2", "--format", "jsonl"},
			`{"order_shop_id":100,"order_id":1,"customer":"alice","price":9.5,"amount":"12.34","note":null,"channel":"web"}
{"order_shop_id":null,"order_id":2,"customer":"bob","price":20.25,"amount":"-0.50","note":null,"channel":"web"}
{"order_shop_id":101,"order_id":4,"customer":null,"price":3,"amount":"999.99","note":null,"channel":"web"}
`},
		// a table, filtering on a column not printed
		{[]string{"cat", "../../testdata/orders", "--where", "channel = 'app' or price < 2", "--columns", "order_id", "--format", "jsonl"},
			`{"order_id":3}
{"order_id":5}
`},
		{[]string{"cat", "../../testdata/orders", "--where", "note is null and not order_shop_id > 100", "--columns", "order_id,note", "--format", "jsonl"},
			`{"order_id":1,"note":null}
`},
	} {
		out, errOut, code := runCLI(t, c.args...)
		if code != exitOK || out != c.want {
			t.Errorf("%v: exit %d, stderr %s\nstdout:\n%s\nwant:\n%s", c.args, code, errOut, out, c.want)
		}
	}
}

func TestWhereErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code exitCode
		msg  []string
	}{
		{[]string{"cat", "--where", "channel = 'web' and"}, exitUsage, []string{"--where", "character 20", "expected a column"}},
		{[]string{"cat", "../../testdata/orders", "--where", "customer > 5"}, exitUsage, []string{"customer > 5", "field customer", "string"}},
		{[]string{"cat", "../../testdata/orders", "--where", "nope = 1"}, exitNotFound, []string{`unknown column "nope"`}},
		{[]string{"files", "../../testdata/orders", "--where", "price >"}, exitUsage, []string{"--where", "character 8"}},
		{[]string{"plan", "../../testdata/orders", "--where", "price = 'x'"}, exitUsage, []string{"price = 'x'", "field price"}},
	} {
		out, errOut, code := runCLI(t, c.args...)
		if code != c.code || out != "" {
			t.Errorf("%v: exit %d (want %d), stdout %q, stderr %s", c.args, code, c.code, out, errOut)
		}
		for _, m := range c.msg {
			if !strings.Contains(errOut, m) {
				t.Errorf("%v: stderr %q lacks %q", c.args, errOut, m)
			}
		}
	}
}

func TestFilesAndPlanWhere(t *testing.T) {
	out, errOut, code := runCLI(t, "files", "../../testdata/orders", "--where", "channel = 'app'")
	if code != exitOK || strings.Count(out, "\n") != 2 || !strings.Contains(out, "00002-orders-schema2.parquet") {
		t.Errorf("files --where: exit %d, %s\n%s", code, errOut, out)
	}
	out, errOut, code = runCLI(t, "plan", "../../testdata/orders", "--where", "channel = 'app'")
	want := []string{
		"00000-orders-schema0.parquet  skip  0/1         442            columns the file lacks",
		"00001-orders-schema1.parquet  skip  0/1         530            columns the file lacks",
		"00002-orders-schema2.parquet  yes   1/1         0              -",
		"files: 1 read, 2 skipped; row groups: 1 of 3 kept; bytes skipped: 972",
	}
	for _, w := range want {
		if code != exitOK || !strings.Contains(out, w) {
			t.Errorf("plan --where: exit %d, %s: lacks %q in\n%s", code, errOut, w, out)
		}
	}
}

// TestPlanWherePaimonStats: on paimon-cpp's evolved append table, plan
// --where says which files the manifests' value statistics skip (a = 35:
// a is field 5, d in the files of schema-0) and counts them; files
// --where lists only the file that may match.
func TestPlanWherePaimonStats(t *testing.T) {
	dir := filepath.Join(testutil.RealDir(t), "paimon-cpp/test/test_data/parquet/append_table_with_alter_table.db/append_table_with_alter_table")
	out, errOut, code := runCLI(t, "plan", dir, "--where", "a = 35")
	if code != exitOK || strings.Count(out, "value statistics\n") != 3 || !strings.Contains(out, "files skipped by Paimon manifest statistics: 3\n") ||
		!strings.HasSuffix(out, "files: 1 read, 3 skipped; row groups: 1 of 1 kept; bytes skipped: 4589\n") {
		t.Errorf("plan --where: exit %d, %s\n%s", code, errOut, out)
	}
	out, errOut, code = runCLI(t, "files", dir, "--where", "a = 35")
	if code != exitOK || strings.Count(out, "\n") != 2 || !strings.Contains(out, "data-512651de-64b5-4a10-8068-65403aaccdb8-0.parquet") {
		t.Errorf("files --where: exit %d, %s\n%s", code, errOut, out)
	}
}

func TestCatWhereNoRow(t *testing.T) {
	out, errOut, code := runCLI(t, "cat", "../../testdata/orders", "--where", "channel = 'none'", "--columns", "order_id", "--format", "csv")
	if code != exitOK || out != "order_id\n" {
		t.Errorf("exit %d, %s, stdout %q", code, errOut, out)
	}
}

// TestPlanWhereCountsAsCatStats: plan --where and cat --stats count the
// files read and skipped, the row groups and the bytes skipped alike:
// files ruled out by their footer (columns they lack, row group
// statistics) are skipped in both, and so are the files of the Iceberg
// manifests the partition summaries rule out (Impala's bucket[16] table).
func TestPlanWhereCountsAsCatStats(t *testing.T) {
	impala := "iceberg_column_case_sensitivity_issue"
	for _, c := range []struct{ table, where, want string }{
		{"../../testdata/orders", "channel = 'app'", "files 1 read, 2 skipped; row groups 1 of 3; bytes skipped 972"},
		{"../../testdata/orders", "order_id > 1000000", "files 0 read, 3 skipped; row groups 0 of 3; bytes skipped 1553"},
		{impala, "ID = '1'", "files 1 read, 1 skipped; row groups 1 of 1; bytes skipped 0"},
		{impala, "ID = '3'", "files 0 read, 2 skipped; row groups 0 of 0; bytes skipped 0"},
		// A Paimon primary-key table: the files of a merge section are
		// read whole, never pruned one by one (bucket-3's three files).
		{"../../testdata/paimon_orders", "order_shop_id IS NULL", "files 5 read, 9 skipped; row groups 5 of 14; bytes skipped 5301"},
		{"../../testdata/paimon_orders", "order_id = 4", "files 4 read, 10 skipped; row groups 4 of 14; bytes skipped 5851"},
		// Paimon manifest value statistics (paimon-cpp's evolved table).
		{"paimon-alter", "a = 35", "files 1 read, 3 skipped; row groups 1 of 1; bytes skipped 4589"},
		// A Hudi merge-on-read table: the file slice with a log file is
		// read (no row group pruned), the other base file skipped.
		{"hudi-mor", "id = 1", "files 1 read, 1 skipped; row groups 0 of 1; bytes skipped 1603"},
	} {
		dir := c.table
		switch dir {
		case impala:
			dir = filepath.Join(testutil.RealDir(t), "impala/testdata/data/iceberg_test", impala)
		case "hudi-mor":
			dir = hudiMOR(t)
		case "paimon-alter":
			dir = filepath.Join(testutil.RealDir(t), "paimon-cpp/test/test_data/parquet/append_table_with_alter_table.db/append_table_with_alter_table")
		}
		out, errOut, code := runCLI(t, "plan", dir, "--where", c.where)
		var read, skipped, kept, groups, bytes int
		line := out[strings.LastIndex(strings.TrimSuffix(out, "\n"), "\n")+1:]
		if _, err := fmt.Sscanf(line, "files: %d read, %d skipped; row groups: %d of %d kept; bytes skipped: %d", &read, &skipped, &kept, &groups, &bytes); code != exitOK || err != nil {
			t.Fatalf("plan %s --where %q: exit %d, %v, %s\n%s", dir, c.where, code, err, errOut, out)
		}
		plan := fmt.Sprintf("files %d read, %d skipped; row groups %d of %d; bytes skipped %d", read, skipped, kept, groups, bytes)
		_, errOut, code = runCLI(t, "cat", dir, "--where", c.where, "--stats")
		var cr, cs, rr, rs, cb int
		if _, err := fmt.Sscanf(strings.TrimSpace(errOut), "lakecat: filter: files %d read, %d skipped; row groups %d read, %d skipped; bytes skipped %d", &cr, &cs, &rr, &rs, &cb); code != exitOK || err != nil {
			t.Fatalf("cat %s --where %q --stats: exit %d, %v, %s", dir, c.where, code, err, errOut)
		}
		cat := fmt.Sprintf("files %d read, %d skipped; row groups %d of %d; bytes skipped %d", cr, cs, rr, rr+rs, cb)
		if plan != c.want || cat != c.want {
			t.Errorf("%s --where %q:\nplan %s\n cat %s\nwant %s", c.table, c.where, plan, cat, c.want)
		}
	}
}

// TestCatStatsORC: `cat FILE --where --stats` on real ORC files counts the
// stripes skipped by their statistics and the row groups skipped by the
// row index, after the Parquet figures, and no row groups for a file
// without a row index.
func TestCatStatsORC(t *testing.T) {
	dir := testutil.RealDir(t, "apache-orc", "examples")
	for _, c := range []struct{ file, where, out, stats string }{
		{"TestOrcFile.testPredicatePushdown.orc", "int1 = 300300", `{"int1":300300,"string1":"271a"}` + "\n",
			"lakecat: filter: files 1 read, 0 skipped; row groups 0 read, 0 skipped; bytes skipped 0; rows 1000 decoded, 1 kept; row groups skipped by bloom filters 0; stripes 1 read, 0 skipped; orc row groups 1 read, 3 skipped (0 by bloom filters); row index: 2500 rows skipped (0 decoded and dropped), 10642 bytes not decompressed\n"},
		{"TestOrcFile.testStripeLevelStats.orc", "int1 = 3 and string1 = 'three'", strings.Repeat(`{"int1":3,"string1":"three"}`+"\n", 1000),
			"lakecat: filter: files 1 read, 0 skipped; row groups 0 read, 0 skipped; bytes skipped 415; rows 1000 decoded, 1000 kept; row groups skipped by bloom filters 0; stripes 1 read, 2 skipped; orc row groups 1 read, 0 skipped (0 by bloom filters)\n"},
		// Written without a row index (rowIndexStride 0): no row group
		// figures ("orc row groups 0 read, 0 skipped" said nothing true).
		{"TestOrcFile.testWithoutIndex.orc", "int1 = -1152406585 and string1 = 'x'", "",
			"lakecat: filter: files 1 read, 0 skipped; row groups 0 read, 0 skipped; bytes skipped 0; rows 50000 decoded, 0 kept; row groups skipped by bloom filters 0; stripes 10 read, 0 skipped\n"},
	} {
		out, errOut, code := runCLI(t, "cat", filepath.Join(dir, c.file), "--where", c.where, "--stats", "--format", "jsonl")
		if code != exitOK || out != c.out || errOut != c.stats {
			t.Errorf("%s --where %q: exit %d\n%.300s\nstderr %s\nwant %s", c.file, c.where, code, out, errOut, c.stats)
		}
	}
}

// TestCatWhereBloom: cat --stats counts the row groups a bloom filter
// skipped (parquet-testing's file written by parquet-rs, one row group).
func TestCatWhereBloom(t *testing.T) {
	file := filepath.Join(testutil.RealDir(t), "parquet-testing", "data", "data_index_bloom_encoding_with_length.parquet")
	for _, c := range []struct{ where, out, stats string }{
		{"String in ('b', 'zzz')", "", "lakecat: filter: files 0 read, 1 skipped; row groups 0 read, 1 skipped; bytes skipped 199; rows 0 decoded, 0 kept; row groups skipped by bloom filters 1\n"},
		{"String in ('dog', 'zzz')", `{"String":"dog"}` + "\n", "lakecat: filter: files 1 read, 0 skipped; row groups 1 read, 0 skipped; bytes skipped 0; rows 14 decoded, 1 kept; row groups skipped by bloom filters 0\n"},
	} {
		out, errOut, code := runCLI(t, "cat", file, "--where", c.where, "--stats", "--format", "jsonl")
		if code != exitOK || out != c.out || errOut != c.stats {
			t.Errorf("--where %q: exit %d\nstdout %q\nstderr %q\nwant %q and %q", c.where, code, out, errOut, c.out, c.stats)
		}
	}
}

// TestCatWherePageIndex: cat --stats counts the pages and rows the Parquet
// page index skipped (parquet-testing's int32_with_null_pages.parquet,
// written by parquet-mr: 1,000 rows in 10 pages, one of them all null).
func TestCatWherePageIndex(t *testing.T) {
	file := filepath.Join(testutil.RealDir(t), "parquet-testing", "data", "int32_with_null_pages.parquet")
	out, errOut, code := runCLI(t, "cat", file, "--where", "int32_field is not null", "--stats", "--format", "jsonl")
	want := "lakecat: filter: files 1 read, 0 skipped; row groups 1 read, 0 skipped; bytes skipped 0; rows 900 decoded, 725 kept; row groups skipped by bloom filters 0; page index: 1 pages, 100 rows skipped, 31 bytes not read\n"
	if code != exitOK || strings.Count(out, "\n") != 725 || errOut != want {
		t.Errorf("exit %d, %d rows\nstderr %q\nwant 725 rows and %q", code, strings.Count(out, "\n"), errOut, want)
	}
}

// TestCatWhereFilesColumnNotPrinted: on FILE arguments, as on a table, the
// filter may use a column --columns leaves out: it is read, the rows are
// filtered, then it is dropped.
func TestCatWhereFilesColumnNotPrinted(t *testing.T) {
	orders := "../../testdata/orders"
	meta := filepath.Join(orders, "metadata", "v1.metadata.json")
	files, err := filepath.Glob(filepath.Join(orders, "data", "*.parquet"))
	if err != nil || len(files) != 3 {
		t.Fatalf("orders data files: %v %v", files, err)
	}
	orc := filepath.Join(testutil.RealDir(t, "apache-orc", "examples"), "over1k_bloom.orc")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"cat", files[0], "--schema", meta, "--where", "customer = 'bob'", "--columns", "order_id", "--format", "jsonl"},
			"{\"order_id\":2}\n"},
		{append(append([]string{"cat"}, files...), "--schema", meta, "--where", "customer = 'bob' or price < 2", "--columns", "order_id", "--format", "jsonl"),
			"{\"order_id\":2}\n{\"order_id\":3}\n{\"order_id\":5}\n"},
		{[]string{"cat", orc, "--where", "_col7 = 'bob davidson'", "--columns", "_col0", "--format", "jsonl"},
			"{\"_col0\":124}\n{\"_col0\":103}\n{\"_col0\":44}\n"},
		{[]string{"cat", orc, orc, "--where", "_col7 = 'bob davidson'", "--columns", "_col1,_col0", "--format", "csv"},
			"_col1,_col0\n336,124\n504,103\n390,44\n336,124\n504,103\n390,44\n"},
	} {
		out, errOut, code := runCLI(t, c.args...)
		if code != exitOK || out != c.want {
			t.Errorf("%v: exit %d, stderr %s\nstdout:\n%s\nwant:\n%s", c.args, code, errOut, out, c.want)
		}
	}
}

// TestCatWhereOutOfRange: a literal outside a tinyint's range is no error:
// _col0 < 300 holds for every non-null _col0 (2095 of the 2098 rows),
// _col0 > 300 for none; a string literal stays a usage error.
func TestCatWhereOutOfRange(t *testing.T) {
	orc := filepath.Join(testutil.RealDir(t, "apache-orc", "examples"), "over1k_bloom.orc")
	out, errOut, code := runCLI(t, "cat", orc, "--where", "_col0 < 300 and _col7 = 'bob davidson'", "--columns", "_col0", "--format", "csv")
	if want := "_col0\n124\n103\n44\n"; code != exitOK || out != want {
		t.Errorf("_col0 < 300: exit %d, stderr %s\nstdout:\n%s\nwant:\n%s", code, errOut, out, want)
	}
	out, errOut, code = runCLI(t, "cat", orc, "--where", "_col0 < 300", "--columns", "_col0", "--format", "csv")
	if n := strings.Count(out, "\n"); code != exitOK || n != 1+2095 || strings.Contains(out, "\n\n") {
		t.Errorf("_col0 < 300: exit %d, stderr %s, %d lines, want 2096 with no empty (null) cell", code, errOut, n)
	}
	out, errOut, code = runCLI(t, "cat", orc, "--where", "_col0 > 300 or _col0 = -300", "--columns", "_col0", "--format", "csv")
	if code != exitOK || out != "_col0\n" {
		t.Errorf("_col0 > 300: exit %d, stderr %s, stdout %q, want the header only", code, errOut, out)
	}
	out, errOut, code = runCLI(t, "cat", orc, "--where", "_col0 < '300'")
	if code != exitUsage || out != "" || !strings.Contains(errOut, "tinyint") {
		t.Errorf("_col0 < '300': exit %d (want %d), stdout %q, stderr %s", code, exitUsage, out, errOut)
	}
}

// TestCatFileTableFlagsNamed: a table flag given with FILE arguments is
// refused naming the flags given, and only those.
func TestCatFileTableFlagsNamed(t *testing.T) {
	file := filepath.Join("..", "..", "testdata", "orders", "data", "00000-orders-schema0.parquet")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--as-of", "2024-01-01"}, "lakecat: --as-of applies to a TABLE, not to data files\n"},
		{[]string{"--ignore-deletes", "--workers", "2", "--snapshot-id", "7", "--allow-path", "/x"},
			"lakecat: --snapshot-id, --allow-path, --ignore-deletes apply to a TABLE, not to data files\n"},
	} {
		out, errOut, code := runCLI(t, append([]string{"cat", file}, c.args...)...)
		if code != exitUsage || out != "" || errOut != c.want {
			t.Errorf("%v: exit %d (want %d), stdout %q, stderr %q, want %q", c.args, code, exitUsage, out, errOut, c.want)
		}
	}
}

// TestCatStatsPaimon: cat --stats names the files among those skipped
// that Paimon manifest statistics ruled out (paimon-cpp's evolved append
// tables: a renamed column, an INT→BIGINT column); a Paimon scan whose
// skips all come from elsewhere prints no such part.
func TestCatStatsPaimon(t *testing.T) {
	real := filepath.Join(testutil.RealDir(t), "paimon-cpp/test/test_data/parquet")
	for _, c := range []struct{ table, where, out, stats string }{
		{filepath.Join(real, "append_table_with_alter_table.db/append_table_with_alter_table"), "a = 35",
			`{"key0":0,"key1":1,"k":36,"c":33,"d":null,"a":35,"e":null}` + "\n",
			"lakecat: filter: files 1 read, 3 skipped; row groups 1 read, 0 skipped; bytes skipped 4589; rows 3 decoded, 1 kept; row groups skipped by bloom filters 0; paimon statistics: 3 files skipped\n"},
		{filepath.Join(real, "append_with_bitmap_alter_table.db/append_with_bitmap_alter_table"), "f1 > 25",
			`{"f1":30,"f4":"Alice","f3":21.1,"f5":100}` + "\n" + `{"f1":30,"f4":"David","f3":24.1,"f5":null}` + "\n",
			"lakecat: filter: files 1 read, 1 skipped; row groups 1 read, 0 skipped; bytes skipped 1116; rows 4 decoded, 2 kept; row groups skipped by bloom filters 0; paimon statistics: 1 files skipped\n"},
		// A merged read counts the rows its sorted runs decoded: order 4's
		// rows are decoded, then its delete retracts them.
		{"../../testdata/paimon_orders", "order_id = 4", "",
			"lakecat: filter: files 4 read, 10 skipped; row groups 4 read, 10 skipped; bytes skipped 5851; rows 4 decoded, 0 kept; row groups skipped by bloom filters 0\n"},
	} {
		out, errOut, code := runCLI(t, "cat", c.table, "--where", c.where, "--stats", "--format", "jsonl")
		if code != exitOK || out != c.out || errOut != c.stats {
			t.Errorf("%s --where %q: exit %d\nstdout %q\nstderr %q\nwant %q and %q", filepath.Base(c.table), c.where, code, out, errOut, c.out, c.stats)
		}
	}
}

// TestWhereOutOfRangeUnselected: a comparison with a literal beyond its
// column's type folds to a constant or IS NOT NULL when bound; a column it
// names that --columns leaves out is still read for it, so the rows are
// those of the same filter with the column selected (not an unknown
// column).
func TestWhereOutOfRangeUnselected(t *testing.T) {
	for _, c := range []struct {
		src, where, want string
	}{
		{"../../testdata/orders", "price = 1e400", ""},
		{"../../testdata/orders", "price != 1e400", "1,2,3,4,5,6"},
		{"../../testdata/orders", "price < 1e400", "1,2,3,4,5"},
		{"../../testdata/orders", "order_shop_id > 9223372036854775808", ""},
		{"../../testdata/orders", "order_shop_id < 9223372036854775808", "1,3,4,5"},
		{"../../testdata/orders", "order_shop_id in (9223372036854775808) or price < 2", "3,5"},
		{"../../testdata/orders/data/00002-orders-schema2.parquet", "price = 1e400", ""},
		{"../../testdata/orders/data/00002-orders-schema2.parquet", "not price >= -1e400", ""},
	} {
		ids := func(cols string) string {
			t.Helper()
			out, errOut, code := runCLI(t, "cat", c.src, "--columns", cols, "--where", c.where, "--format", "csv")
			if code != exitOK {
				t.Fatalf("%s --columns %s --where %q: exit %d, stderr %s", c.src, cols, c.where, code, errOut)
			}
			var got []string
			for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				if i > 0 {
					got = append(got, strings.SplitN(line, ",", 2)[0])
				}
			}
			return strings.Join(got, ",")
		}
		if got := ids("order_id"); got != c.want {
			t.Errorf("%s --where %q, price and order_shop_id left out: order ids %q, want %q", c.src, c.where, got, c.want)
		}
		if got := ids("order_id,price,order_shop_id"); got != c.want {
			t.Errorf("%s --where %q, price and order_shop_id selected: order ids %q, want %q", c.src, c.where, got, c.want)
		}
	}
}

// TestCatFilesStatsOnce: cat of several files opens each to check it, then
// scans them all; --stats counts each file once.
func TestCatFilesStatsOnce(t *testing.T) {
	f := "../../testdata/orders/data/00002-orders-schema2.parquet"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--where", "price > 1"},
			"lakecat: filter: files 0 read, 3 skipped; row groups 0 read, 3 skipped; bytes skipped 1743; rows 0 decoded, 0 kept; row groups skipped by bloom filters 0\n"},
		{[]string{"--where", "price < 1", "--schema", "../../testdata/orders/metadata/v1.metadata.json"},
			"lakecat: filter: files 3 read, 0 skipped; row groups 3 read, 0 skipped; bytes skipped 0; rows 6 decoded, 3 kept; row groups skipped by bloom filters 0\n"},
		{[]string{"--where", "price > 1", "--schema", "../../testdata/orders/metadata/v1.metadata.json", "--columns", "order_id"},
			"lakecat: filter: files 0 read, 3 skipped; row groups 0 read, 3 skipped; bytes skipped 1743; rows 0 decoded, 0 kept; row groups skipped by bloom filters 0\n"},
	} {
		args := append([]string{"cat", f, f, f, "--stats", "--format", "csv"}, c.args...)
		_, errOut, code := runCLI(t, args...)
		if code != exitOK || errOut != c.want {
			t.Errorf("%v: exit %d, stderr\n%s\nwant\n%s", c.args, code, errOut, c.want)
		}
	}
}

// TestPlanTableFormatJSON: plan of a TABLE is text only, --where or not
// (with --where it printed text, exit 0).
func TestPlanTableFormatJSON(t *testing.T) {
	const want = "lakecat: plan ../../testdata/orders: a table's plan is text only; --format json explains one FILE\n"
	for _, args := range [][]string{
		{"plan", "../../testdata/orders", "--format", "json"},
		{"plan", "../../testdata/orders", "--where", "price > 1", "--format", "json"},
	} {
		out, errOut, code := runCLI(t, args...)
		if code != exitUsage || out != "" || errOut != want {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want exit %d, stderr %q", args, code, out, errOut, exitUsage, want)
		}
	}
}

// TestFilesOfADataFile: files of a data file is no table (exit 6), as a
// folder holding none is, and says what files takes (it failed listing it
// as a folder: "not a directory", exit 1).
func TestFilesOfADataFile(t *testing.T) {
	const f = "../../testdata/orders/data/00002-orders-schema2.parquet"
	out, errOut, code := runCLI(t, "files", f)
	want := "lakecat: table: not an Iceberg, Paimon or Hudi table: " + f + " is a file; files takes a TABLE (a table's folder, metadata file or URL); cat, schema and plan also read data files\n"
	if code != exitNotFound || out != "" || errOut != want {
		t.Errorf("files %s: exit %d, stdout %q, stderr %q, want exit %d, stderr %q", f, code, out, errOut, exitNotFound, want)
	}
	if _, errOut, code := runCLI(t, "files", "../../testdata/orders/metadata/v1.metadata.json"); code != exitOK {
		t.Errorf("files of a metadata file: exit %d, stderr %s", code, errOut)
	}
}

// TestWhereMetadataAndAmbiguousColumns: a filter on a metadata column is a
// usage error saying so, whatever the command or --columns (it was an
// unknown column, exit 6); a column naming two fields case-insensitively
// (duckdb-iceberg's case_sensitive_names: user_id and uSeR_Id) is
// ambiguous, naming both.
func TestWhereMetadataAndAmbiguousColumns(t *testing.T) {
	const orders = "../../testdata/orders"
	const tbl = "lakecat: iceberg table " + orders + ": filter: table: metadata columns cannot be filtered on: "
	cs := testutil.RealDir(t, "duckdb-iceberg", "data", "persistent", "case_sensitive_names", "default.db", "case_sensitive_names")
	for _, c := range []struct {
		args []string
		code exitCode
		msg  string
	}{
		{[]string{"cat", orders, "--where", "_file='x'"}, exitUsage, tbl + `"_file" in _file = 'x'`},
		{[]string{"cat", orders, "--where", "_pos = 1 or price > 1"}, exitUsage, tbl + `"_pos" in _pos = 1`},
		{[]string{"cat", orders, "--columns", "order_id,_deleted", "--where", "not _deleted = true"}, exitUsage, tbl + `"_deleted" in _deleted = true`},
		{[]string{"files", orders, "--where", "_spec_id = 0"}, exitUsage, tbl + `"_spec_id" in _spec_id = 0`},
		{[]string{"cat", orders + "/data/00002-orders-schema2.parquet", "--where", "_pos = 1"}, exitUsage,
			"lakecat: " + orders + "/data/00002-orders-schema2.parquet: table: metadata columns cannot be filtered on: \"_pos\" in _pos = 1"},
		{[]string{"cat", cs, "--where", "USER_ID = 1"}, exitUsage,
			"lakecat: iceberg table " + cs + `: filter: expr: ambiguous column "USER_ID" in USER_ID = 1: it matches user_id and uSeR_Id case-insensitively; write one of them exactly`},
	} {
		out, errOut, code := runCLI(t, c.args...)
		if code != c.code || out != "" || !strings.Contains(errOut, c.msg+"\n") {
			t.Errorf("%v: exit %d (want %d), stdout %q, stderr\n%s\nwant a line\n%s", c.args, code, c.code, out, errOut, c.msg)
		}
	}
	out, errOut, code := runCLI(t, "cat", cs, "--where", "uSeR_Id = 'user_1'", "--format", "csv")
	if want := "user_id,uSeR_Id\n1,user_1\n"; code != exitOK || out != want {
		t.Errorf("exact name: exit %d, stderr %s, stdout %q, want %q", code, errOut, out, want)
	}
}

// TestWhereReadmeRules: the --where rules README states. amount is a
// decimal(18, 2): a number of magnitude 10^16 or more binds as an integer
// beyond its range does (it was a type error); NOT is pushed into the
// comparison, so NOT (note >= 'rush') drops the null notes; == and <>,
// quoted and case-insensitive names, -0.0.
func TestWhereReadmeRules(t *testing.T) {
	for _, c := range []struct{ where, want string }{
		{"amount = 1e16", ""},
		{"amount != 1e16", "1,2,3,4,5,6"},
		{"amount < 12345678901234567890", "1,2,4,5,6"},
		{"amount > -1e16 and amount < 1", "2,6"},
		{"NOT (note >= 'rush')", "3"},
		{"ORDER_ID == 1 or \"order_id\" <> 2 and `price` < 2", "1,3,5"},
		{"price > -0.0 and price <= 0.1", "5"},
	} {
		out, errOut, code := runCLI(t, "cat", "../../testdata/orders", "--columns", "order_id", "--where", c.where, "--format", "csv")
		got := strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(out, "order_id\n"), "\n"), "\n", ",")
		if code != exitOK || got != c.want {
			t.Errorf("--where %q: exit %d, stderr %s, order ids %q, want %q", c.where, code, errOut, got, c.want)
		}
	}
	_, errOut, code := runCLI(t, "cat", "../../testdata/orders", "--where", "amount = 1.234")
	if code != exitUsage || !strings.Contains(errOut, "literal 1.234 is not a decimal with at most 2 fraction digits fitting decimal(18, 2)") {
		t.Errorf("amount = 1.234: exit %d, stderr %s", code, errOut)
	}
}
