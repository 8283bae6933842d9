package reader_test

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
)

// tableRows reads the table at location through reader.OpenTable and
// returns its rows as JSON lines (package render), sorted unless keepOrder.
func tableRows(t *testing.T, location string, opts reader.TableOptions, keepOrder bool) []string {
	t.Helper()
	mem := testutil.CheckedAllocator(t)
	opts.Allocator = mem
	ctx := context.Background()
	tbl, err := reader.OpenTable(ctx, location, opts)
	if err != nil {
		t.Fatalf("OpenTable: %v", err)
	}
	rr, err := tbl.Scan(ctx)
	if err != nil {
		t.Fatalf("Scan: %v", err)
	}
	defer rr.Release()
	out := strings.Split(strings.TrimSuffix(testutil.ReaderJSON(t, rr), "\n"), "\n")
	if len(out) == 1 && out[0] == "" {
		out = nil
	}
	if !keepOrder {
		sort.Strings(out)
	}
	return out
}

type tableCase struct {
	name   string
	target string // under the real folder
	opts   reader.TableOptions
	// allow, under the real folder, is added to opts.AllowPaths: a table
	// whose metadata names files outside its own folder.
	allow string
	rows  []string // sorted JSON lines
	// check, when set, replaces the comparison with rows.
	check func(t *testing.T, rows []string)
}

func runTableCases(t *testing.T, cases []tableCase) {
	real := testutil.RealDir(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := tc.opts
			if tc.allow != "" {
				opts.AllowPaths = append(append([]string(nil), opts.AllowPaths...), real+"/"+tc.allow)
			}
			got := tableRows(t, real+"/"+tc.target, opts, false)
			if tc.check != nil {
				tc.check(t, got)
				return
			}
			if strings.Join(got, "\n") != strings.Join(tc.rows, "\n") {
				t.Errorf("rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.rows, "\n"))
			}
		})
	}
}

func i64(v int64) *int64 { return &v }

// TestIcebergTablesDuckDB reads every table of
// duckdb-iceberg/EXPECTED.md through reader.OpenTable; the rows are those
// stated there, rendered as JSON (timestamps in UTC) and sorted.
func TestIcebergTablesDuckDB(t *testing.T) {
	p := "duckdb-iceberg/data/persistent/"
	runTableCases(t, []tableCase{
		{
			// Schema 1 added ids 2..15 with initial-defaults of every type;
			// the two rows of the schema-0 file take them. EXPECTED.md's
			// Europe/Amsterdam renderings are the same instants in UTC
			// (16:30:45+02 = 14:30:45Z, 01:00:00.012345+01 = 00:00:00.012345Z).
			name: "add_columns_with_defaults", target: p + "add_columns_with_defaults/default.db/add_columns_with_defaults",
			// col_uuid: the default f79c3e09-677c-4bbd-a479-3f349cb785e7.
			rows: []string{
				`{"col1":"click","col_boolean":true,"col_integer":342342,"col_long":-9223372036854775808,"col_float":0.34234,"col_double":0.342343242342342,"col_decimal":"12345.00","col_date":"2003-10-20","col_time":"00:00:00.012345","col_timestamp":"1970-01-01T00:00:00.012345","col_timestamptz":"1970-01-01T00:00:00.012345Z","col_string":"HELLO","col_uuid":"95w+CWd8S72keT80nLeF5w==","col_fixed":"AQID/wM=","col_binary":"AQI="}`,
				`{"col1":"purchase","col_boolean":true,"col_integer":342342,"col_long":-9223372036854775808,"col_float":0.34234,"col_double":0.342343242342342,"col_decimal":"12345.00","col_date":"2003-10-20","col_time":"00:00:00.012345","col_timestamp":"1970-01-01T00:00:00.012345","col_timestamptz":"1970-01-01T00:00:00.012345Z","col_string":"HELLO","col_uuid":"95w+CWd8S72keT80nLeF5w==","col_fixed":"AQID/wM=","col_binary":"AQI="}`,
				// col_uuid 020d4fc7-acd6-45ac-b216-7873f4038e1f
				`{"col1":"test","col_boolean":false,"col_integer":453243,"col_long":328725092345834,"col_float":23.34342,"col_double":23.343424523423433,"col_decimal":"3423434.23","col_date":"0011-03-05","col_time":"12:06:45.000000","col_timestamp":"0011-03-05T12:06:45.000000","col_timestamptz":"2023-05-15T14:30:45.000000Z","col_string":"World","col_uuid":"Ag1Px6zWRayyFnhz9AOOHw==","col_fixed":"gACAAIA=","col_binary":"gACA"}`,
			},
		},
		{
			// The data file has no field ids; the table's name mapping
			// (nested for the map, list and struct) assigns them. It was
			// added from outside the table folder (warehouse/example), so
			// the read allows that folder (TestConfinedRealTable: refused
			// without).
			name: "column_mapping", target: p + "column_mapping/warehouse/default.db/my_table",
			allow: p + "column_mapping/warehouse/example",
			rows: []string{
				`{"id":1,"name":"Alice","age":25,"attributes":{"height":"5.5","weight":"130"},"scores":[85,90],"profile":{"email":"alice@example.com","verified":true}}`,
				`{"id":2,"name":"Bob","age":30,"attributes":{"height":"6.0","weight":"180"},"scores":[78,82,88],"profile":{"email":"bob@example.com","verified":false}}`,
				`{"id":3,"name":"Charlie","age":35,"attributes":{"height":"5.8","weight":"160"},"scores":[92],"profile":{"email":"charlie@example.com","verified":true}}`,
			},
		},
		{
			name: "case_sensitive_names", target: p + "case_sensitive_names/default.db/case_sensitive_names",
			rows: []string{`{"user_id":1,"uSeR_Id":"user_1"}`, `{"user_id":2,"uSeR_Id":"user_2"}`, `{"user_id":3,"uSeR_Id":"user_3"}`},
		},
		{
			name: "iceberg_v1_repro", target: p + "iceberg_v1_repro/repro/merch_v1/metadata/00003-8d01e4aa-d143-49c9-898e-b5e477577b70.metadata.json",
			rows: []string{`{"id":2,"league":"nba","ats_qty":20}`, `{"id":3,"league":"mlb","ats_qty":30}`, `{"id":4,"league":"nhl","ats_qty":40}`, `{"id":6,"league":"nba","ats_qty":60}`},
		},
		{
			name: "iceberg_v1_repro v3 upgraded", target: p + "iceberg_v1_repro/repro/merch_v1/metadata/00004-v3-upgraded-v1-null-counts.metadata.json",
			rows: []string{`{"id":2,"league":"nba","ats_qty":20}`, `{"id":3,"league":"mlb","ats_qty":30}`, `{"id":4,"league":"nhl","ats_qty":40}`, `{"id":6,"league":"nba","ats_qty":60}`},
		},
		{
			name: "map_stats", target: p + "map_stats/default.db/map_stats/metadata/00002-0e059d4b-e5e8-41af-a763-76cbf3a3d0bc.metadata.json",
			rows: []string{
				`{"timestamp":"2026-01-01T00:00:00.000000Z","input":"hello","output":"world","metadata":{"key":"value1"}}`,
				`{"timestamp":"2026-01-02T00:00:00.000000Z","input":"hello","output":"world","metadata":{"key":"value1"}}`,
			},
		},
		{
			name: "null_stats", target: p + "null_stats/default/test_nulls/metadata/00003-9d6a621e-8a72-4190-a880-f6ca02e32b86.metadata.json",
			rows: []string{
				`{"id":1,"name":"a","ts":"2024-03-01T13:33:20.000000Z","flag":true}`,
				`{"id":2,"name":"b","ts":"2024-03-02T17:20:00.000000Z","flag":false}`,
				`{"id":3,"name":"c","ts":"2024-03-03T21:06:40.000000Z","flag":true}`,
				`{"id":4,"name":"d","ts":"2024-03-05T00:53:20.000000Z","flag":null}`,
				`{"id":5,"name":"e","ts":"2024-03-06T04:40:00.000000Z","flag":null}`,
				`{"id":6,"name":"f","ts":"2024-03-07T08:26:40.000000Z","flag":true}`,
				`{"id":7,"name":"g","ts":"2024-03-08T12:13:20.000000Z","flag":null}`,
				`{"id":8,"name":"h","ts":"2024-03-09T16:00:00.000000Z","flag":null}`,
				`{"id":9,"name":"i","ts":"2024-03-10T19:46:40.000000Z","flag":null}`,
			},
		},
		{
			name: "uuid", target: p + "uuid",
			check: func(t *testing.T, rows []string) {
				want := []string{"8dc314d8-3fd4-4b3a-8bf5-c008f363c2e4", "a217c09f-06fa-4e91-8315-ff44753c4a54",
					"abd6f939-9b99-4e1d-9cda-0dc8ce60a161", "e6218567-354b-4a9c-8cd7-3d4b6a2470f8",
					"f9f28465-51cf-45f1-8985-e01d9a82253c", "1571effb-facd-42a3-90e9-0af522e9b6c2",
					"160a53fe-3d8b-443d-bd36-ad66287f585a", "37afa09a-f496-48a8-89a9-61ea7ccd85d5",
					"3ef257b8-e9c6-4c53-9c22-973729e1043f", "7fae299c-cf05-4777-9b42-57a52e1415ed"}
				got := uuidColumn(t, rows, "uuid")
				sort.Strings(want)
				if strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("uuids\n%v\nwant\n%v", got, want)
				}
			},
		},
		{
			// partition_col (id 1) is not in the files: its values come
			// from the identity partition in the manifest.
			name: "partition_decimal_integer", target: p + "partition_decimal_integer",
			rows: []string{
				`{"partition_col":"1.2300","user_id":67890,"event_type":"purchase"}`,
				`{"partition_col":"1234.5432","user_id":111213,"event_type":"delete"}`,
				`{"partition_col":"42.5630","user_id":12345,"event_type":"click"}`,
			},
		},
		{
			// Read with IgnoreDeletes: the data file's 3 rows, deletes not
			// applied (EXPECTED.md: before deletes, 3 rows).
			name: "equality_delete_extra_column ignore deletes", target: p + "equality_delete_extra_column/warehouse/ns/t/metadata/vfinal.metadata.json",
			opts: reader.TableOptions{IgnoreDeletes: true},
			rows: []string{`{"id":1,"val":"a"}`, `{"id":2,"val":"b"}`, `{"id":3,"val":"c"}`},
		},
	})
}

// uuidColumn returns the column's fixed_size_binary(16) values (rendered
// as base64) as UUID strings, sorted.
func uuidColumn(t *testing.T, rows []string, col string) []string {
	t.Helper()
	var out []string
	for _, r := range rows {
		i := strings.Index(r, `"`+col+`":"`)
		if i < 0 {
			t.Fatalf("no %s in %s", col, r)
		}
		v := r[i+len(col)+4:]
		v = v[:strings.IndexByte(v, '"')]
		out = append(out, b64ToUUID(t, v))
	}
	sort.Strings(out)
	return out
}

// TestIcebergIgnoreDeletesWarns: IgnoreDeletes reads the rows as stored
// and warns, naming the count and kind of the delete files.
func TestIcebergIgnoreDeletesWarns(t *testing.T) {
	real := testutil.RealDir(t)
	var warned []string
	target := real + "/duckdb-iceberg/data/persistent/equality_delete_extra_column/warehouse/ns/t/metadata/vfinal.metadata.json"
	tbl, err := reader.OpenTable(context.Background(), target, reader.TableOptions{IgnoreDeletes: true, Warn: func(m string) { warned = append(warned, m) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(tbl.Files) != 1 || len(tbl.Files[0].Task.Deletes) != 0 || len(warned) != 1 || !strings.Contains(warned[0], "1 equality deletes") {
		t.Errorf("files %d, warnings %q", len(tbl.Files), warned)
	}
}
