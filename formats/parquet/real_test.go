package parquet

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/schema"
)

func readReal(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(realDir(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRealPinned pins the values of real files pqarrow cannot read (or reads
// differently), from each source's EXPECTED.md or README.
func TestRealPinned(t *testing.T) {
	cases := []struct {
		file   string
		schema string
		want   [][]any
	}{{
		// parquet-testing/EXPECTED.md: INT96 outside the nanosecond range.
		file:   "parquet-testing/data/int96_from_spark.parquet",
		schema: "table {\n  a: timestamp\n}",
		want: [][]any{{ts(1704141296123456), ts(1704070800000000), ts(253402225200000000), ts(1735599600000000), nil,
			ts(9089380393200000000)}},
	}, {
		// parquet-testing/EXPECTED.md: a Snappy v2 data page of zero
		// compressed value bytes holds one null row; nothing to decompress.
		file:   "parquet-testing/data/datapage_v2_empty_datapage.snappy.parquet",
		schema: "table {\n  value: float\n}",
		want:   [][]any{{nil}},
	}, {
		// A LogicalType union member no reader knows: read by physical type.
		file:   "parquet-testing/data/unknown-logical-type.parquet",
		schema: "table {\n  column with known type: string\n  column with unknown type: binary\n}",
		want: [][]any{{"known string 1", "known string 2", "known string 3"},
			{"unknown string 1", "unknown string 2", "unknown string 3"}},
	}, {
		// Presto/Trino MAP with an optional key (EXPECTED.md); entries in file order.
		file:   "parquet-testing/data/incorrect_map_schema.parquet",
		schema: "table {\n  my_map: map<string, string>\n}",
		want:   [][]any{{[]any{[]any{"parent", "another"}, []any{"name", "report"}}}},
	}, {
		// Paimon TIMESTAMP(9) as INT96 (the table README's snapshot-2 rows
		// dad, eat, fat), nanoseconds floored to microseconds.
		file:   "paimon-cpp/test/test_data/parquet/append_complex_data.db/append_complex_data/f1=10/bucket-0/data-35f2719c-ffae-4697-960e-af95a0b4bd51-1.parquet",
		schema: "table {\n  0:f1: int\n  1:f2: int\n  2:f3: date\n  3:f4: timestamp\n  4:f5: decimal(23, 5)\n  5:f6: binary\n}",
		want: [][]any{{int64(10), int64(10), int64(10)}, {int64(1), int64(1), int64(1)}, {int64(0), int64(100), nil},
			{ts(1230422400000123), ts(1230422400000123), ts(-2240521239998999)},
			{nil, "dec:-123.45000", "dec:0.00000"}, {"dad", "eat", "fat"}},
	}, {
		// The README's snapshot-1/2/3 rows of partition f1=10 after the full
		// compaction: add, cat, dad, eat, fat and the snapshot-3 row.
		file:   "paimon-cpp/test/test_data/parquet/append_complex_data.db/append_complex_data/f1=10/bucket-0/data-f8754699-0c43-4e53-be00-7e8af1754913-0.parquet",
		schema: "table {\n  0:f1: int\n  1:f2: int\n  2:f3: date\n  3:f4: timestamp\n  4:f5: decimal(23, 5)\n  5:f6: binary\n}",
		want: [][]any{
			{int64(10), int64(10), int64(10), int64(10), int64(10), int64(10)},
			{int64(1), int64(1), int64(1), int64(1), int64(1), int64(1)},
			{int64(1234), int64(19909), int64(0), int64(100), nil, int64(20006)},
			{ts(2000000000000000), ts(2000000000000001), ts(1230422400000123), ts(1230422400000123), ts(-2240521239998999), ts(1728555010100100)},
			{"dec:123456789987654321.45678", "dec:12.30000", nil, "dec:-123.45000", "dec:0.00000", "dec:1728551410100.10010"},
			{"add", "cat", "dad", "eat", "fat", nil}},
	}, {
		// The README's snapshot-1 row "bad" (partition f1=20).
		file:   "paimon-cpp/test/test_data/parquet/append_complex_data.db/append_complex_data/f1=20/bucket-0/data-ac0894ca-fc13-49c8-bb22-4556c8ee416c-0.parquet",
		schema: "table {\n  0:f1: int\n  1:f2: int\n  2:f3: date\n  3:f4: timestamp\n  4:f5: decimal(23, 5)\n  5:f6: binary\n}",
		want: [][]any{{int64(20)}, {int64(1)}, {int64(-1234)}, {ts(-2240521239998999)},
			{"dec:-123456789987654321.45678"}, {"bad"}},
	}}
	for _, c := range cases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			b := readReal(t, c.file)
			f := openBytes(t, b)
			if got := f.Schema().String(); got != c.schema {
				t.Fatalf("schema\n%s\nwant\n%s", got, c.schema)
			}
			for _, batch := range []int{1, 0} {
				if got := readCanonical(t, b, batch); !reflect.DeepEqual(got, c.want) {
					t.Fatalf("batch %d:\n got %s\nwant %s", batch, show(got), show(c.want))
				}
			}
		})
	}
}

// TestRealRefused: real files this package refuses, each with its error
// class and no panic.
func TestRealRefused(t *testing.T) {
	cases := map[string]error{
		// parquet-go has no Hadoop LZ4 (codec 5) decoder: a documented gap.
		"parquet-testing/data/hadoop_lz4_compressed.parquet":     ErrUnsupported,
		"parquet-testing/data/non_hadoop_lz4_compressed.parquet": ErrUnsupported,
		// A column chunk of 2 GiB of strings, over maxColumnChunkBytes.
		"parquet-testing/data/large_string_map.brotli.parquet": ErrUnsupported,
		// Checksums parquet-go verifies.
		"parquet-testing/data/datapage_v1-corrupt-checksum.parquet":           ErrCorrupt,
		"parquet-testing/data/rle-dict-uncompressed-corrupt-checksum.parquet": ErrCorrupt,
	}
	for rel, wantErr := range cases {
		t.Run(filepath.Base(rel), func(t *testing.T) {
			b := readReal(t, rel)
			f := openBytes(t, b)
			_, err := readAll(f, newMem(t), 0)
			if !errors.Is(err, wantErr) {
				t.Fatalf("got %v, want %v", err, wantErr)
			}
			if !strings.HasPrefix(err.Error(), "parquet: ") {
				t.Errorf("message %q lacks the package prefix", err)
			}
		})
	}
}

// TestDifferentialHudiZips compares with pqarrow the Parquet base files
// inside the hudi-rs sample table archives (read from the zip in memory).
func TestDifferentialHudiZips(t *testing.T) {
	dir := realDir(t)
	zips, _ := filepath.Glob(filepath.Join(dir, "hudi-rs", "crates", "test", "data", "sample_table", "*", "*.zip"))
	more, _ := filepath.Glob(filepath.Join(dir, "hudi-rs", "crates", "test", "data", "sample_table", "*", "*", "*.zip"))
	zips = append(zips, more...)
	if len(zips) == 0 {
		t.Fatal("no hudi-rs zips found")
	}
	n := 0
	for _, z := range zips {
		zr, err := zip.OpenReader(z)
		if err != nil {
			t.Fatal(err)
		}
		for _, zf := range zr.File {
			if !strings.HasSuffix(zf.Name, ".parquet") {
				continue
			}
			rc, err := zf.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(filepath.Base(zf.Name), "._") {
				n++
			}
			t.Run(filepath.Base(z)+"/"+filepath.Base(zf.Name), func(t *testing.T) {
				if strings.HasPrefix(filepath.Base(zf.Name), "._") {
					// macOS AppleDouble metadata named like the Parquet
					// file: must be refused cleanly.
					if _, err := Open(bytes.NewReader(b), int64(len(b))); !errors.Is(err, ErrCorrupt) {
						t.Fatalf("AppleDouble file: got %v, want ErrCorrupt", err)
					}
					return
				}
				want, _, perr := readPQArrow(b, memory.NewGoAllocator())
				if perr != nil {
					t.Fatalf("pqarrow: %v", perr)
				}
				got := readCanonical(t, b, 3)
				f := openBytes(t, b)
				for c := range got {
					if hasInt96(f, c) {
						for i := range got[c] {
							got[c][i], want[c][i] = floorTS(got[c][i]), floorTS(want[c][i])
						}
					}
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("differs from pqarrow:\n got %s\nwant %s", show(got), show(want))
				}
			})
		}
		zr.Close()
	}
	if n == 0 {
		t.Fatal("no parquet files in the hudi-rs zips")
	}
	t.Logf("compared %d hudi base files", n)
}

// TestRealNestedIDs: Spark/Iceberg files carry ids on list elements and map
// keys and values, not on the repeated groups (impala/EXPECTED.md:
// iceberg_resolution_test phone element 8, favorites key 9 and value 10).
func TestRealNestedIDs(t *testing.T) {
	dir := realDir(t)
	m, _ := filepath.Glob(filepath.Join(dir, "impala/testdata/data/iceberg_test/hadoop_catalog/iceberg_resolution_test/functional_parquet/iceberg_resolution_test/data/*/*/*.parquet"))
	if len(m) != 20 {
		t.Fatalf("%d files, want 20", len(m))
	}
	for _, p := range m {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f := openBytes(t, b)
		got := map[string]int{}
		schema.Walk(f.Schema().Fields, func(path []string, fl *schema.Field) bool {
			got[strings.Join(path, ".")] = fl.ID
			return true
		})
		want := map[string]int{"id": 1, "user": 2, "action": 3, "event_time": 4, "phone": 5, "phone.element": 8,
			"favorites": 6, "favorites.key": 9, "favorites.value": 10, "current_address": 7,
			"current_address.street_address": 11, "current_address.street_address.street_number": 14,
			"current_address.street_address.street_name": 15, "current_address.street_address.street_type": 16,
			"current_address.country": 12, "current_address.postal_code": 13}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: ids %v, want %v", filepath.Base(p), got, want)
		}
	}
}
