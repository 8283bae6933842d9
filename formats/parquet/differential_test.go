package parquet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// realParquetFiles lists every .parquet file under the real test data,
// relative to dir, sorted.
func realParquetFiles(t testing.TB, dir string) []string {
	var out []string
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !info.IsDir() && strings.HasSuffix(p, ".parquet") {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// readPQArrow reads every column of b with arrow-go's pqarrow and returns
// the canonical values per column.
func readPQArrow(b []byte, mem memory.Allocator) (cols [][]any, sc *arrow.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			cols, sc, err = nil, nil, fmt.Errorf("pqarrow panicked: %v", r)
		}
	}()
	pr, err := file.NewParquetReader(bytes.NewReader(b))
	if err != nil {
		return nil, nil, err
	}
	defer pr.Close()
	fr, err := pqarrow.NewFileReader(pr, pqarrow.ArrowReadProperties{BatchSize: 1 << 16}, mem)
	if err != nil {
		return nil, nil, err
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		return nil, nil, err
	}
	defer tbl.Release()
	cols = make([][]any, tbl.NumCols())
	for c := 0; c < int(tbl.NumCols()); c++ {
		for _, chunk := range tbl.Column(c).Data().Chunks() {
			for i := 0; i < chunk.Len(); i++ {
				cols[c] = append(cols[c], canon(chunk, i))
			}
		}
	}
	return cols, tbl.Schema(), nil
}

// differentialSkips lists the real files the differential test does not
// compare with pqarrow, and why. Each is covered by a pinned-value test or
// an error test instead.
var differentialSkips = map[string]string{
	// pqarrow cannot read these (see parquet-testing/EXPECTED.md); pinned in TestRealPinned.
	"parquet-testing/data/int96_from_spark.parquet":        "INT96 outside the nanosecond range: pqarrow overflows; pinned values",
	"parquet-testing/data/large_string_map.brotli.parquet": "2 GiB string column chunk: over the 32-bit offset cap; expect ErrUnsupported",
	// pqarrow reads the LIST-annotated repeated group "array" as a struct.
	"parquet-testing/data/old_list_structure.parquet": "legacy list of lists: pqarrow gives list<struct<array: list>>; pinned in TestOldListStructure",
}

// pqarrowCannotRead lists the real files arrow-go v18.8.0's pqarrow fails
// on, and where lakecat's values for them are checked instead.
var pqarrowCannotRead = map[string]string{
	"paimon-cpp/test/test_data/parquet/append_complex_data.db/append_complex_data/f1=10/bucket-0/data-35f2719c-ffae-4697-960e-af95a0b4bd51-1.parquet": "Paimon INT96 with nanoseconds outside the day; pinned in TestRealPinned",
	"paimon-cpp/test/test_data/parquet/append_complex_data.db/append_complex_data/f1=10/bucket-0/data-f8754699-0c43-4e53-be00-7e8af1754913-0.parquet": "Paimon INT96 with nanoseconds outside the day; pinned in TestRealPinned",
	"paimon-cpp/test/test_data/parquet/append_complex_data.db/append_complex_data/f1=20/bucket-0/data-ac0894ca-fc13-49c8-bb22-4556c8ee416c-0.parquet": "Paimon INT96 with nanoseconds outside the day; pinned in TestRealPinned",
	"parquet-testing/data/datapage_v2_empty_datapage.snappy.parquet":                                                                                  "empty Snappy v2 page: pqarrow fails on it; one null row pinned in TestRealPinned",
	"parquet-testing/data/hadoop_lz4_compressed.parquet":                                                                                              "LZ4 codec; lakecat refuses it too (TestRealRefused, a gap)",
	"parquet-testing/data/non_hadoop_lz4_compressed.parquet":                                                                                          "LZ4 codec; lakecat refuses it too (TestRealRefused, a gap)",
	"parquet-testing/data/incorrect_map_schema.parquet":                                                                                               "optional map key; pinned in TestRealPinned",
	"parquet-testing/data/unknown-logical-type.parquet":                                                                                               "unknown LogicalType (pqarrow panics); pinned in TestRealPinned",
}

// differentialErrors lists the real files lakecat refuses, with the error
// class; pqarrow is not compared for them.
var differentialErrors = map[string]error{
	// parquet-go verifies page CRCs; pqarrow does not by default.
	"parquet-testing/data/datapage_v1-corrupt-checksum.parquet":           ErrCorrupt,
	"parquet-testing/data/rle-dict-uncompressed-corrupt-checksum.parquet": ErrCorrupt,
	// A dictionary page whose header is malformed (kept by parquet-testing
	// as a bad example); pqarrow tolerates it, parquet-go does not.
	"parquet-testing/data/nation.dict-malformed.parquet": ErrCorrupt,
}

// hasInt96 reports whether top-level column c of f has an INT96 leaf.
func hasInt96(f *File, c int) bool {
	found := false
	var walk func(ln *lnode)
	walk = func(ln *lnode) {
		if ln.conv != nil && ln.conv.op == opInt96 {
			found = true
		}
		for _, ch := range ln.children {
			walk(ch)
		}
	}
	walk(f.lroot.children[c])
	return found
}

func TestDifferentialPQArrow(t *testing.T) {
	dir := realDir(t)
	files := realParquetFiles(t, dir)
	if len(files) < 100 {
		t.Fatalf("found only %d real parquet files", len(files))
	}
	compared, direct := 0, 0
	for _, rel := range files {
		t.Run(rel, func(t *testing.T) {
			if why, ok := differentialSkips[rel]; ok {
				t.Skip(why)
			}
			b, err := os.ReadFile(filepath.Join(dir, rel))
			if err != nil {
				t.Fatal(err)
			}
			mem := newMem(t)
			// pqarrow leaks a little in its delta decoders, so it gets its
			// own unchecked allocator.
			want, _, perr := readPQArrow(b, memory.NewGoAllocator())
			f, err := Open(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				t.Fatalf("Open: %v (pqarrow: %v)", err, perr)
			}
			before := directPages.Load()
			got, err := readAll(f, mem, 1000)
			if directPages.Load() > before {
				direct++
			}
			if wantErr, ok := differentialErrors[rel]; ok {
				if !errors.Is(err, wantErr) {
					t.Fatalf("got error %v, want %v", err, wantErr)
				}
				return
			}
			if perr != nil {
				why, ok := pqarrowCannotRead[rel]
				if !ok {
					t.Fatalf("pqarrow cannot read it (%v) and it is not listed in pqarrowCannotRead (lakecat: %v)", perr, err)
				}
				t.Skipf("pqarrow cannot read it: %s (pqarrow: %v)", why, perr)
			}
			if err != nil {
				t.Fatalf("lakecat: %v", err)
			}
			if len(got) != len(want) {
				t.Fatalf("%d columns, pqarrow %d", len(got), len(want))
			}
			for c := range got {
				name := f.Schema().Fields[c].Name
				if len(got[c]) != len(want[c]) {
					t.Fatalf("column %s: %d rows, pqarrow %d", name, len(got[c]), len(want[c]))
				}
				int96 := hasInt96(f, c)
				bad := 0
				for i := range got[c] {
					if int96 {
						got[c][i], want[c][i] = floorTS(got[c][i]), floorTS(want[c][i])
					}
					if !reflect.DeepEqual(got[c][i], want[c][i]) {
						if bad < 3 {
							t.Errorf("column %s row %d: got %s, pqarrow %s", name, i, show(got[c][i]), show(want[c][i]))
						}
						bad++
					}
				}
				if bad > 0 {
					t.Errorf("column %s: %d rows differ", name, bad)
				}
			}
			compared++
		})
	}
	t.Logf("compared %d of %d files; %d read pages on the direct path", compared, len(files), direct)
	// The direct page path (page_direct.go) decodes the flat columns of
	// most real files; parquet-go's page reader the rest.
	if direct < len(files)/2 {
		t.Errorf("only %d of %d files read a page on the direct path", direct, len(files))
	}
}

func show(v any) string {
	s := fmt.Sprintf("%#v", v)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
