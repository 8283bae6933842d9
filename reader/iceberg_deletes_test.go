package reader_test

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/reader"
)

// TestIcebergDeletesReal reads the real tables with delete files, deletes
// applied (the default).
func TestIcebergDeletesReal(t *testing.T) {
	const eqPos = impala + "hadoop_catalog/ice/iceberg_v2_delete_both_eq_and_pos"
	const orcPos = impala + "hadoop_catalog/ice/iceberg_v2_partitioned_position_deletes_orc"
	var even []string
	for id := 2; id <= 20; id += 2 {
		even = append(even, `{"id":`+itoa(id)+`}`)
	}
	runTableCases(t, []tableCase{
		{
			// EXPECTED.md: after the equality deletes, (1,a) (3,c).
			name: "equality_delete_extra_column", target: "duckdb-iceberg/data/persistent/equality_delete_extra_column/warehouse/ns/t/metadata/vfinal.metadata.json",
			rows: []string{`{"id":1,"val":"a"}`, `{"id":3,"val":"c"}`},
		},
		{
			// Impala's test: the rows with odd ids are deleted (the ORC
			// delete files name hdfs://localhost:20500/test-warehouse/…,
			// the manifests /test-warehouse/…: both resolve to the data
			// file).
			name: "iceberg_v2_partitioned_position_deletes_orc", target: orcPos, opts: reader.TableOptions{Columns: []string{"id"}},
			check: func(t *testing.T, rows []string) {
				sortByID(rows)
				if got, want := join(rows), join(even); got != want {
					t.Errorf("ids\n%s\nwant\n%s", got, want)
				}
			},
		},
		{
			// Impala's test: ordered by i, (2, str2_updated, 2023-12-13) and
			// (3, str3, 2023-12-23). The equality delete of snapshot 2 (keys
			// i, d) removes (2, str2) of the first file but not the second
			// file's rows of the same sequence number; Impala's position
			// delete removes (1, str1).
			name: "iceberg_v2_delete_both_eq_and_pos", target: eqPos,
			rows: []string{`{"i":2,"s":"str2_updated","d":"2023-12-13"}`, `{"i":3,"s":"str3","d":"2023-12-23"}`},
		},
		{
			// The key columns i and d are read for the equality delete
			// although not selected, then dropped.
			name: "iceberg_v2_delete_both_eq_and_pos columns s", target: eqPos, opts: reader.TableOptions{Columns: []string{"s"}},
			rows: []string{`{"s":"str2_updated"}`, `{"s":"str3"}`},
		},
		{
			// _deleted keeps the deleted rows, flagged; _pos is each row's
			// position in its file.
			name: "iceberg_v2_delete_both_eq_and_pos _deleted", target: eqPos, opts: reader.TableOptions{Columns: []string{"i", "s"}, MetadataColumns: []string{"_pos", "_deleted"}},
			rows: []string{
				`{"i":1,"s":"str1","_pos":0,"_deleted":true}`,
				`{"i":2,"s":"str2","_pos":1,"_deleted":true}`,
				`{"i":2,"s":"str2_updated","_pos":1,"_deleted":false}`,
				`{"i":3,"s":"str3","_pos":0,"_deleted":false}`,
			},
		},
		{
			name: "iceberg_v2_delete_both_eq_and_pos ignore deletes", target: eqPos, opts: reader.TableOptions{IgnoreDeletes: true},
			rows: []string{
				`{"i":1,"s":"str1","d":"2023-12-13"}`, `{"i":2,"s":"str2","d":"2023-12-13"}`,
				`{"i":2,"s":"str2_updated","d":"2023-12-13"}`, `{"i":3,"s":"str3","d":"2023-12-23"}`,
			},
		},
	})
}

func itoa(v int) string { return strconv.Itoa(v) }

func join(rows []string) string { return strings.Join(rows, " ") }

// sortByID sorts JSON rows that start with {"id":N by N.
func sortByID(rows []string) {
	id := func(r string) int {
		r = strings.TrimPrefix(r, `{"id":`)
		n, _ := strconv.Atoi(r[:strings.IndexAny(r, ",}")])
		return n
	}
	sort.Slice(rows, func(i, j int) bool { return id(rows[i]) < id(rows[j]) })
}
