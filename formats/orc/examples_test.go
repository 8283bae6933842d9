package orc

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestExamplesWithoutGold pins the content of the apache/orc example files
// that ship without an expected output, as decoded here; the values were
// checked by hand against the files' origins (the decimal64 files hold the
// same kind of random decimals as the Java and C++ writer tests that made
// them; bad_bloom_filter_* are ORC-1024's five rows).
func TestExamplesWithoutGold(t *testing.T) {
	dir := examplesDir(t)
	cases := []struct {
		file   string
		schema string
		cols   map[string]string
	}{
		{"decimal64_v2.orc", "a: long, b: decimal(12, 0), c: decimal(20, 2), d: decimal(12, 2), e: decimal(2, 2)", map[string]string{
			"a": "[17292380420 17292380421 17292380421 17292380421 17292380421 17292380421 17292380421 17292380422 17292380422 17292380422]",
			"b": "[24 38 28 40 2 42 10 12 41 38]",
			"c": "[36164.16 63351.7 42673.96 76677.6 2096.48 45284.82 18572.9 14836.8 82152.52 47240.84]",
			"d": "[0.03 0.08 0.09 0.05 0.07 0.07 0.01 0.09 0.07 0.1]",
			"e": "[0.01 0.01 0.06 0.04 0.07 0.05 0.08 0.06 0.02 0]",
		}},
		{"decimal64_v2_cplusplus.orc", "a: long, b: decimal(10, 2), c: decimal(2, 2), d: decimal(2, 2), e: decimal(2, 2)", map[string]string{
			"b": "[164.16 328.32 656.64 1313.28 2626.56 5253.12 10506.24 21012.48 42024.96 84049.92]",
			"e": "[0.04 0.09 0.15 0.09 0.14 0.12 0.09 0.15 0.09 0.46]",
		}},
		{"bad_bloom_filter_1.6.0.orc", "id: long, name: string", map[string]string{
			"id": "[0 1 2 3 18000000000]", "name": `["Alice" "Bob" "a" "b" "Mike"]`}},
		{"bad_bloom_filter_1.6.11.orc", "id: long, name: string", map[string]string{
			"id": "[0 1 2 3 18000000000]", "name": `["Alice" "Bob" "a" "b" "Mike"]`}},
		{"orc_no_format.orc", "_col0: list<string>, _col1: map<int, string>, _col2: struct<name: string, score: int>", map[string]string{
			"_col0": `[["Java/C++/Linux,4306:Bob/4307:Jack,Bob/90"] ["C++/Python/Linux,4309:Sue/4310:Amy,Amy/100"] ["Java/PHP/JQuery,4311:Alex/4312:Zach,Zach/10"] ["Java/Java/Java,4313:Susan/4314:Jenny,Susan/20"] ["Java/C/Linux,4315:Rob/4316:Max,Max/30"]]`,
			"_col1": "[(null) (null) (null) (null) (null)]",
			"_col2": "{[(null) (null) (null) (null) (null)] [(null) (null) (null) (null) (null)]}",
		}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			f := openFile(t, filepath.Join(dir, c.file))
			s := f.Schema().String()
			s = strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(s, "table {\n  "), "\n}"), "\n  ", ", ")
			if s != c.schema {
				t.Errorf("schema %s, want %s", s, c.schema)
			}
			got := readColumns(t, f, f.Schema(), mem)
			for k, v := range c.cols {
				if got[k] != v {
					t.Errorf("%s: got %s, want %s", k, got[k], v)
				}
			}
		})
	}
}

// TestWithoutCompressionBlockSize reads a file whose postscript has no
// compressionBlockSize (256 KiB is assumed) and whose footer has no row
// count.
func TestWithoutCompressionBlockSize(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	f := openFile(t, filepath.Join(examplesDir(t), "TestOrcFile.testWithoutCompressionBlockSize.orc"))
	if f.tail.ps.hasBlockSize || f.tail.dec.blockSize != 256<<10 || f.Compression() != "SNAPPY" {
		t.Errorf("block size %v %d %s", f.tail.ps.hasBlockSize, f.tail.dec.blockSize, f.Compression())
	}
	got := readColumns(t, f, f.Schema(), mem)["_col0"]
	var want strings.Builder
	want.WriteString("[")
	for i := 1; i <= int(f.NumRows()); i++ {
		if i > 1 {
			want.WriteString(" ")
		}
		want.WriteString(strconv.Itoa(i))
	}
	want.WriteString("]")
	if f.NumRows() == 0 || got != want.String() {
		t.Errorf("rows %d: %s", f.NumRows(), got)
	}
}
