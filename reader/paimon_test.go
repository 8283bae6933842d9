package reader_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
)

func loadPaimonSchema(t *testing.T, table string, id int) *schema.Schema {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(table, "schema", fmt.Sprintf("schema-%d", id)))
	if err != nil {
		t.Fatal(err)
	}
	ps, err := schema.ParsePaimonSchema(data)
	if err != nil {
		t.Fatal(err)
	}
	return ps.Schema()
}

// TestPaimonAlterTableFileByFile reads each data file of paimon-cpp's
// append_table_with_alter_table (Parquet with field ids, ORC without any)
// through the schema it was written with, stated here by hand, aligned to
// the latest schema. Expected rows: the table's README ("Recall with
// schema-1") and paimon-cpp/EXPECTED.md, key0,key1,k,c,d,a,e.
func TestPaimonAlterTableFileByFile(t *testing.T) {
	base := testutil.RealDir(t, "paimon-cpp", "test", "test_data")
	want := []string{
		"0,1,16,13,null,15,null", "0,1,26,23,null,25,null", "0,1,36,33,null,35,null",
		"0,1,66,63,517,65,618", "0,1,76,73,527,75,628", "0,1,86,83,537,85,638",
		"1,1,46,43,null,45,null", "1,1,56,53,null,55,null",
		"1,1,96,93,547,95,648", "1,1,106,103,557,105,658",
	}
	tables := []struct {
		dir   string
		files map[string]int // data file name → schema id it was written with
	}{
		{"parquet/append_table_with_alter_table.db/append_table_with_alter_table", map[string]int{
			"data-512651de-64b5-4a10-8068-65403aaccdb8-0.parquet": 0,
			"data-9dfb749f-0509-4db2-ae7b-1e4448b32165-0.parquet": 0,
			"data-1aaec161-5365-426f-b33d-3cd99a3908f2-0.parquet": 1,
			"data-11b12094-192f-4ad8-92a8-ae8cba5e25ef-0.parquet": 1,
		}},
		{"orc/append_table_with_alter_table.db/append_table_with_alter_table", map[string]int{
			"data-2190cec3-ce87-4175-8d19-9268becf4440-0.orc": 0,
			"data-492ed5ab-4740-4e93-8a0a-79a6893b1770-0.orc": 0,
			"data-b34cd128-03e3-4e70-ba9c-5dec2183849c-0.orc": 1,
			"data-13824b84-8572-4a20-b712-c0475d1828b4-0.orc": 1,
		}},
		{"orc/append_table_with_alter_table_build_in_fieldid.db/append_table_with_alter_table_build_in_fieldid", map[string]int{
			"data-35e7027e-b12a-4ebf-ae15-4c0fe8d6a895-0.orc": 0,
			"data-ac270e04-7158-4c5e-b432-babe240911bf-0.orc": 1,
			"data-e3d1a6f0-c5ef-4ba4-bf52-dca99e8c919f-0.orc": 0,
			"data-eb59bfff-0979-4f01-9724-00d4a64be98e-0.orc": 1,
		}},
	}
	for _, tc := range tables {
		t.Run(strings.Split(tc.dir, "/")[0]+"/"+filepath.Base(tc.dir), func(t *testing.T) {
			table := filepath.Join(base, tc.dir)
			latest := loadPaimonSchema(t, table, 1)
			paths, _ := filepath.Glob(filepath.Join(table, "key0=*", "key1=*", "bucket-0", "data-*"))
			if len(paths) != 4 {
				t.Fatalf("%d data files, want 4", len(paths))
			}
			var rows []string
			for _, p := range paths {
				id, ok := tc.files[filepath.Base(p)]
				if !ok {
					t.Fatalf("unexpected data file %s", p)
				}
				mem := testutil.CheckedAllocator(t)
				rr, err := reader.OpenFile(context.Background(), p, reader.Options{
					ReadSchema: latest, WriterSchema: loadPaimonSchema(t, table, id),
					Rules: project.Paimon, Allocator: mem,
				})
				if err != nil {
					t.Fatal(err)
				}
				for _, line := range strings.Split(strings.TrimSpace(testutil.ReaderJSON(t, rr)), "\n") {
					rows = append(rows, jsonValues(line))
				}
				rr.Release()
			}
			sort.Slice(rows, func(i, j int) bool { return lessCSV(rows[i], rows[j]) })
			if got := strings.Join(rows, "\n"); got != strings.Join(want, "\n") {
				t.Errorf("rows:\n%s\nwant\n%s", got, strings.Join(want, "\n"))
			}
		})
	}
}

// jsonValues turns {"a":1,"b":null} into "1,null" (flat rows of numbers).
func jsonValues(line string) string {
	line = strings.Trim(line, "{}")
	var vals []string
	for _, kv := range strings.Split(line, ",") {
		vals = append(vals, kv[strings.IndexByte(kv, ':')+1:])
	}
	return strings.Join(vals, ",")
}

// lessCSV orders rows of integers numerically, column by column.
func lessCSV(a, b string) bool {
	as, bs := strings.Split(a, ","), strings.Split(b, ",")
	for i := range as {
		if as[i] == bs[i] {
			continue
		}
		if len(as[i]) != len(bs[i]) {
			return len(as[i]) < len(bs[i])
		}
		return as[i] < bs[i]
	}
	return false
}
