package reader_test

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/table/iceberg"
)

func b64ToUUID(t *testing.T, s string) string {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b) != 16 {
		t.Fatalf("uuid %q: %v", s, err)
	}
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

const impala = "impala/testdata/data/iceberg_test/"

var complexTypesRows = []string{
	`{"id":1,"int_array":[1,2,3],"int_array_array":[[1,2],[3,4]],"int_map":{"k1":1,"k2":100},"int_map_array":[{"k1":1}],"nested_struct":{"a":1,"b":[1],"c":{"d":[[{"e":10,"f":"aaa"},{"e":-10,"f":"bbb"}],[{"e":11,"f":"c"}]]},"g":{"foo":{"h":{"i":[1.1]}}}}}`,
	`{"id":2,"int_array":[null,1,2,null,3,null],"int_array_array":[[null,1,2,null],[3,null,4],[],null],"int_map":{"k1":2,"k2":null},"int_map_array":[{"k1":1,"k3":null},null,{}],"nested_struct":{"a":null,"b":[null],"c":{"d":[[{"e":null,"f":null},{"e":10,"f":"aaa"},{"e":null,"f":null},{"e":-10,"f":"bbb"},{"e":null,"f":null}],[{"e":11,"f":"c"},null],[],null]},"g":{"g1":{"h":{"i":[2.2,null]}},"g2":{"h":{"i":[]}},"g3":null,"g4":{"h":{"i":null}},"g5":{"h":null}}}}`,
	`{"id":3,"int_array":[],"int_array_array":[null],"int_map":{},"int_map_array":[null,null],"nested_struct":{"a":null,"b":null,"c":{"d":[]},"g":{}}}`,
	`{"id":4,"int_array":null,"int_array_array":[],"int_map":{},"int_map_array":[],"nested_struct":{"a":null,"b":null,"c":{"d":null},"g":null}}`,
	`{"id":5,"int_array":null,"int_array_array":null,"int_map":{},"int_map_array":null,"nested_struct":{"a":null,"b":null,"c":null,"g":{"foo":{"h":{"i":[2.2,3.3]}}}}}`,
	`{"id":6,"int_array":null,"int_array_array":null,"int_map":null,"int_map_array":null,"nested_struct":null}`,
	`{"id":7,"int_array":null,"int_array_array":[null,[5,6]],"int_map":{"k1":null,"k3":null},"int_map_array":null,"nested_struct":{"a":7,"b":[2,3,null],"c":{"d":[[],[null],null]},"g":null}}`,
	`{"id":8,"int_array":[-1],"int_array_array":[[-1,-2],[]],"int_map":{"k1":-1},"int_map_array":[{},{"k1":1},{},{}],"nested_struct":{"a":-1,"b":[-1],"c":{"d":[[{"e":-1,"f":"nonnullable"}]]},"g":{}}}`,
}

func impalaCases(opts reader.TableOptions) []tableCase {
	with := func(o reader.TableOptions, id int64) reader.TableOptions {
		o.SnapshotID = &id
		return o
	}
	v3 := []string{`{"i":1,"j":-1}`, `{"i":2,"j":2}`}
	migrated := []string{`{"int_col":0,"string_col":"A","double_col":0.5}`, `{"int_col":1,"string_col":"B","double_col":1.5}`, `{"int_col":2,"string_col":"C","double_col":2.5}`}
	return []tableCase{
		{name: "iceberg_v3_default_value", target: impala + "iceberg_v3/iceberg_v3_default_value", opts: opts, rows: v3},
		{name: "iceberg_v3_default_value_orc", target: impala + "iceberg_v3/iceberg_v3_default_value_orc", opts: opts, rows: v3},
		{name: "iceberg_v3_default_value_avro", target: impala + "iceberg_v3/iceberg_v3_default_value_avro", opts: opts, rows: v3},
		{name: "iceberg_v3_default_value first snapshot", target: impala + "iceberg_v3/iceberg_v3_default_value", opts: with(opts, 7752776210164022855), rows: []string{`{"i":1}`}},
		{name: "iceberg_v3_default_value_orc first snapshot", target: impala + "iceberg_v3/iceberg_v3_default_value_orc", opts: with(opts, 1536392834658079256), rows: []string{`{"i":1}`}},
		{name: "iceberg_v3_default_value_avro first snapshot", target: impala + "iceberg_v3/iceberg_v3_default_value_avro", opts: with(opts, 2819462914350205316), rows: []string{`{"i":1}`}},
		{
			// j: initial-default -1 for the unpartitioned files, the
			// identity partition value for the others (null included).
			name: "test_default_part", target: impala + "iceberg_v3/test_default_part", opts: opts,
			rows: []string{`{"i":1,"j":-1}`, `{"i":2,"j":-1}`, `{"i":3,"j":5}`, `{"i":4,"j":10}`, `{"i":5,"j":null}`},
		},
		{
			name: "iceberg_mixed_file_format_test", target: impala + "iceberg_mixed_file_format_test", opts: opts,
			rows: []string{`{"i":1,"s":"A","d":0.5}`, `{"i":2,"s":"B","d":1.5}`, `{"i":3,"s":"C","d":2.5}`, `{"i":4,"s":"D","d":3.5}`},
		},
		{name: "iceberg_migrated_alter_test", target: impala + "iceberg_migrated_alter_test", opts: opts, rows: migrated},
		{name: "iceberg_migrated_alter_test_orc", target: impala + "iceberg_migrated_alter_test_orc", opts: opts, rows: migrated},
		{
			name: "iceberg_resolution_test", target: impala + "hadoop_catalog/iceberg_resolution_test/functional_parquet/iceberg_resolution_test", opts: opts,
			check: func(t *testing.T, rows []string) {
				if len(rows) != 20 {
					t.Fatalf("%d rows, want 20", len(rows))
				}
				var id1 []string
				food := map[string]int{}
				for _, r := range rows {
					if strings.HasPrefix(r, `{"id":1,`) {
						id1 = append(id1, r)
					}
					for _, f := range []string{"beef", "chicken", "pumpkin"} {
						if strings.Contains(r, `"food":"`+f+`"`) {
							food[f]++
						}
					}
				}
				want := `{"id":1,"user":"Alex","action":"view","event_time":"2020-01-01T08:00:00.000000Z","phone":["1-212-100-1111","1-212-100-1112"],"favorites":{"sport":"swimming","food":"beef"},"current_address":{"street_address":{"street_number":100,"street_name":"Wall Street","street_type":"Street"},"country":"US","postal_code":"10005"}}`
				// EXPECTED.md states phone, favorites['sport'] and
				// current_address; user and event_time are pinned as read.
				if len(id1) != 1 || id1[0] != want {
					t.Errorf("id=1 rows %q\nwant %s", id1, want)
				}
				if food["beef"] != 10 || food["chicken"] != 4 || food["pumpkin"] != 6 {
					t.Errorf("favorites['food'] counts %v, want beef 10, chicken 4, pumpkin 6", food)
				}
			},
		},
		{name: "complextypestbl_iceberg_orc", target: impala + "hadoop_catalog/ice/complextypestbl_iceberg_orc", opts: opts, rows: complexTypesRows},
	}
}

// TestIcebergTablesImpala reads the Impala tables of impala/EXPECTED.md;
// their stored paths (/test-warehouse/…) are re-rooted at the opened folder.
func TestIcebergTablesImpala(t *testing.T) {
	runTableCases(t, impalaCases(reader.TableOptions{}))
}

// TestIcebergTablesImpalaPathMap reads the same tables with re-rooting off
// and --path-map /test-warehouse/=<local folder> instead.
func TestIcebergTablesImpalaPathMap(t *testing.T) {
	real := testutil.RealDir(t)
	dir := real + "/" + impala
	// The tables' locations: hdfs://localhost:20500/test-warehouse/<t>
	// (iceberg_v3), /test-warehouse/<t> (migrated, mixed) and
	// /test-warehouse/iceberg_test/… (hadoop_catalog).
	pm := iceberg.PathMap{{Old: "/test-warehouse/iceberg_test/", New: dir}}
	for _, t := range []string{"iceberg_v3_default_value", "iceberg_v3_default_value_orc", "iceberg_v3_default_value_avro", "test_default_part"} {
		pm = append(pm, iceberg.PathRule{Old: "hdfs://localhost:20500/test-warehouse/" + t + "/", New: dir + "iceberg_v3/" + t + "/"})
	}
	for _, t := range []string{"iceberg_migrated_alter_test", "iceberg_migrated_alter_test_orc", "iceberg_mixed_file_format_test"} {
		pm = append(pm, iceberg.PathRule{Old: "/test-warehouse/" + t + "/", New: dir + t + "/"})
	}
	runTableCases(t, impalaCases(reader.TableOptions{FormatOptions: iceberg.Options{NoRebase: true, PathMap: pm}}))
}
