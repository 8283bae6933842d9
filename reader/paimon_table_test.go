package reader_test

import (
	"context"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/table/paimon"
)

// scanTableRows opens the table at dir, scans it with a checked allocator and
// returns its rows as JSON lines (as `lakecat cat --format jsonl` without
// render hints prints them), sorted.
func scanTableRows(t *testing.T, dir string, opts reader.TableOptions) []string {
	t.Helper()
	opts.Allocator = testutil.CheckedAllocator(t)
	tbl, err := reader.OpenTable(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	rr, err := tbl.Scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	out := strings.TrimSpace(testutil.ReaderJSON(t, rr))
	if out == "" {
		return nil
	}
	lines := strings.Split(out, "\n")
	sort.Strings(lines)
	return lines
}

func paimonCpp(t *testing.T, table string) string {
	t.Helper()
	name := table[strings.IndexByte(table, '/')+1:]
	return filepath.Join(testutil.RealDir(t, "paimon-cpp", "test", "test_data"), table+".db", name)
}

func rowsOf(s string) []string {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	var out []string
	for _, l := range strings.Split(s, "\n") {
		out = append(out, strings.TrimSpace(l))
	}
	sort.Strings(out)
	return out
}

// TestPaimonCppAppendTables scans every paimon-cpp append table the Paimon
// tables issue lists, whole, through the manifests: each data file resolved
// through the schema-N of its manifest schemaId and aligned by field id to
// the read schema. Rows are compared sorted.
func TestPaimonCppAppendTables(t *testing.T) {
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Skipf("no time zone database: %v", err)
	}
	_ = shanghai
	cases := []struct {
		table string
		opts  reader.TableOptions
		want  string
	}{
		// README "Recall with schema-1" and paimon-cpp/EXPECTED.md: drop a, c; rename b→c, d→a; move k; add d, e (old files: d, e null).
		{"parquet/append_table_with_alter_table", reader.TableOptions{}, `
			{"key0":0,"key1":1,"k":16,"c":13,"d":null,"a":15,"e":null}
			{"key0":0,"key1":1,"k":26,"c":23,"d":null,"a":25,"e":null}
			{"key0":0,"key1":1,"k":36,"c":33,"d":null,"a":35,"e":null}
			{"key0":0,"key1":1,"k":66,"c":63,"d":517,"a":65,"e":618}
			{"key0":0,"key1":1,"k":76,"c":73,"d":527,"a":75,"e":628}
			{"key0":0,"key1":1,"k":86,"c":83,"d":537,"a":85,"e":638}
			{"key0":1,"key1":1,"k":106,"c":103,"d":557,"a":105,"e":658}
			{"key0":1,"key1":1,"k":46,"c":43,"d":null,"a":45,"e":null}
			{"key0":1,"key1":1,"k":56,"c":53,"d":null,"a":55,"e":null}
			{"key0":1,"key1":1,"k":96,"c":93,"d":547,"a":95,"e":648}
		`},
		// README "Recall with schema-1" and paimon-cpp/EXPECTED.md: drop a, c; rename b→c, d→a; move k; add d, e (old files: d, e null).
		{"orc/append_table_with_alter_table", reader.TableOptions{}, `
			{"key0":0,"key1":1,"k":16,"c":13,"d":null,"a":15,"e":null}
			{"key0":0,"key1":1,"k":26,"c":23,"d":null,"a":25,"e":null}
			{"key0":0,"key1":1,"k":36,"c":33,"d":null,"a":35,"e":null}
			{"key0":0,"key1":1,"k":66,"c":63,"d":517,"a":65,"e":618}
			{"key0":0,"key1":1,"k":76,"c":73,"d":527,"a":75,"e":628}
			{"key0":0,"key1":1,"k":86,"c":83,"d":537,"a":85,"e":638}
			{"key0":1,"key1":1,"k":106,"c":103,"d":557,"a":105,"e":658}
			{"key0":1,"key1":1,"k":46,"c":43,"d":null,"a":45,"e":null}
			{"key0":1,"key1":1,"k":56,"c":53,"d":null,"a":55,"e":null}
			{"key0":1,"key1":1,"k":96,"c":93,"d":547,"a":95,"e":648}
		`},
		// the same table written with ORC paimon.id attributes; same rows.
		{"orc/append_table_with_alter_table_build_in_fieldid", reader.TableOptions{}, `
			{"key0":0,"key1":1,"k":16,"c":13,"d":null,"a":15,"e":null}
			{"key0":0,"key1":1,"k":26,"c":23,"d":null,"a":25,"e":null}
			{"key0":0,"key1":1,"k":36,"c":33,"d":null,"a":35,"e":null}
			{"key0":0,"key1":1,"k":66,"c":63,"d":517,"a":65,"e":618}
			{"key0":0,"key1":1,"k":76,"c":73,"d":527,"a":75,"e":628}
			{"key0":0,"key1":1,"k":86,"c":83,"d":537,"a":85,"e":638}
			{"key0":1,"key1":1,"k":106,"c":103,"d":557,"a":105,"e":658}
			{"key0":1,"key1":1,"k":46,"c":43,"d":null,"a":45,"e":null}
			{"key0":1,"key1":1,"k":56,"c":53,"d":null,"a":55,"e":null}
			{"key0":1,"key1":1,"k":96,"c":93,"d":547,"a":95,"e":648}
		`},
		// --schema-id 0: schema-0 columns by id (a and c dropped later: null in new files; b and d are the renamed c and a).
		{"parquet/append_table_with_alter_table", reader.TableOptions{FormatOptions: paimon.Options{SchemaID: ptr(int64(0))}}, `
			{"key0":0,"key1":1,"a":12,"b":13,"c":14,"d":15,"k":16}
			{"key0":0,"key1":1,"a":22,"b":23,"c":24,"d":25,"k":26}
			{"key0":0,"key1":1,"a":32,"b":33,"c":34,"d":35,"k":36}
			{"key0":0,"key1":1,"a":null,"b":63,"c":null,"d":65,"k":66}
			{"key0":0,"key1":1,"a":null,"b":73,"c":null,"d":75,"k":76}
			{"key0":0,"key1":1,"a":null,"b":83,"c":null,"d":85,"k":86}
			{"key0":1,"key1":1,"a":42,"b":43,"c":44,"d":45,"k":46}
			{"key0":1,"key1":1,"a":52,"b":53,"c":54,"d":55,"k":56}
			{"key0":1,"key1":1,"a":null,"b":103,"c":null,"d":105,"k":106}
			{"key0":1,"key1":1,"a":null,"b":93,"c":null,"d":95,"k":96}
		`},
		// EXPECTED.md (derived): f1 INT→BIGINT, f0 renamed f4, f2 dropped, f5 added (null in old rows).
		{"orc/append_with_bitmap_alter_table", reader.TableOptions{}, `
			{"f1":10,"f4":"Alice","f3":11.1,"f5":null}
			{"f1":10,"f4":"Bob","f3":12.1,"f5":null}
			{"f1":10,"f4":"Bob","f3":16.1,"f5":null}
			{"f1":10,"f4":"Bob","f3":23.1,"f5":100}
			{"f1":10,"f4":"Emily","f3":13.1,"f5":null}
			{"f1":10,"f4":"Tony","f3":14.1,"f5":null}
			{"f1":20,"f4":"Alice","f3":18.1,"f5":null}
			{"f1":20,"f4":"Emily","f3":22.1,"f5":101}
			{"f1":20,"f4":"Lucy","f3":15.1,"f5":null}
			{"f1":20,"f4":"Tony","f3":17.1,"f5":null}
			{"f1":30,"f4":"Alice","f3":21.1,"f5":100}
			{"f1":30,"f4":"David","f3":24.1,"f5":null}
		`},
		// EXPECTED.md (derived): f1 INT→BIGINT, f0 renamed f4, f2 dropped, f5 added (null in old rows).
		{"parquet/append_with_bitmap_alter_table", reader.TableOptions{}, `
			{"f1":10,"f4":"Alice","f3":11.1,"f5":null}
			{"f1":10,"f4":"Bob","f3":12.1,"f5":null}
			{"f1":10,"f4":"Bob","f3":16.1,"f5":null}
			{"f1":10,"f4":"Bob","f3":23.1,"f5":100}
			{"f1":10,"f4":"Emily","f3":13.1,"f5":null}
			{"f1":10,"f4":"Tony","f3":14.1,"f5":null}
			{"f1":20,"f4":"Alice","f3":18.1,"f5":null}
			{"f1":20,"f4":"Emily","f3":22.1,"f5":101}
			{"f1":20,"f4":"Lucy","f3":15.1,"f5":null}
			{"f1":20,"f4":"Tony","f3":17.1,"f5":null}
			{"f1":30,"f4":"Alice","f3":21.1,"f5":100}
			{"f1":30,"f4":"David","f3":24.1,"f5":null}
		`},
		// README: 11 rows over snapshots 1–5 (Paimon 0.9; Parquet without field ids, resolved through schema-0).
		{"orc/append_09", reader.TableOptions{}, `
			{"f0":"Alex","f1":10,"f2":0,"f3":16.1}
			{"f0":"Alice","f1":10,"f2":1,"f3":11.1}
			{"f0":"Bob","f1":10,"f2":0,"f3":12.1}
			{"f0":"Bob","f1":10,"f2":0,"f3":12.1}
			{"f0":"David","f1":10,"f2":0,"f3":17.1}
			{"f0":"Emily","f1":10,"f2":0,"f3":13.1}
			{"f0":"Emily","f1":10,"f2":0,"f3":15.1}
			{"f0":"Lily","f1":10,"f2":0,"f3":17.1}
			{"f0":"Lucy","f1":20,"f2":1,"f3":14.1}
			{"f0":"Paul","f1":20,"f2":1,"f3":null}
			{"f0":"Tony","f1":10,"f2":0,"f3":14.1}
		`},
		// README: 11 rows over snapshots 1–5 (Paimon 0.9; Parquet without field ids, resolved through schema-0).
		{"parquet/append_09", reader.TableOptions{}, `
			{"f0":"Alex","f1":10,"f2":0,"f3":16.1}
			{"f0":"Alice","f1":10,"f2":1,"f3":11.1}
			{"f0":"Bob","f1":10,"f2":0,"f3":12.1}
			{"f0":"Bob","f1":10,"f2":0,"f3":12.1}
			{"f0":"David","f1":10,"f2":0,"f3":17.1}
			{"f0":"Emily","f1":10,"f2":0,"f3":13.1}
			{"f0":"Emily","f1":10,"f2":0,"f3":15.1}
			{"f0":"Lily","f1":10,"f2":0,"f3":17.1}
			{"f0":"Lucy","f1":20,"f2":1,"f3":14.1}
			{"f0":"Paul","f1":20,"f2":1,"f3":null}
			{"f0":"Tony","f1":10,"f2":0,"f3":14.1}
		`},
		// README: the 5 rows of snapshot 1.
		{"parquet/append_10", reader.TableOptions{}, `
			{"f0":"Alice","f1":10,"f2":1,"f3":11.1}
			{"f0":"Bob","f1":10,"f2":0,"f3":12.1}
			{"f0":"Emily","f1":10,"f2":0,"f3":13.1}
			{"f0":"Lucy","f1":20,"f2":1,"f3":14.1}
			{"f0":"Tony","f1":10,"f2":0,"f3":14.1}
		`},
		// README rows (f3 days → dates, TIMESTAMP(9) with every nanosecond, decimal(23,5), binary as base64).
		{"orc/append_complex_data", reader.TableOptions{}, `
			{"f1":10,"f2":1,"f3":"1970-01-01","f4":"2008-12-28T00:00:00.000123456","f5":null,"f6":"ZGFk"}
			{"f1":10,"f2":1,"f3":"1970-04-11","f4":"2008-12-28T00:00:00.000123450","f5":"-123.45000","f6":"ZWF0"}
			{"f1":10,"f2":1,"f3":"1973-05-19","f4":"2033-05-18T03:33:20.000000000","f5":"123456789987654321.45678","f6":"YWRk"}
			{"f1":10,"f2":1,"f3":"2024-07-05","f4":"2033-05-18T03:33:20.000001001","f5":"12.30000","f6":"Y2F0"}
			{"f1":10,"f2":1,"f3":"2024-10-10","f4":"2024-10-10T10:10:10.100100100","f5":"1728551410100.10010","f6":null}
			{"f1":10,"f2":1,"f3":null,"f4":"1899-01-01T00:59:20.001001001","f5":"0.00000","f6":"ZmF0"}
			{"f1":20,"f2":0,"f3":"1969-09-23","f4":null,"f5":"0.00000","f6":"Z2V0"}
			{"f1":20,"f2":1,"f3":"1966-08-16","f4":"1899-01-01T00:59:20.001001001","f5":"-123456789987654321.45678","f6":"YmFk"}
		`},
		// README rows (f3 days → dates, TIMESTAMP(9) with every nanosecond, decimal(23,5), binary as base64).
		{"parquet/append_complex_data", reader.TableOptions{}, `
			{"f1":10,"f2":1,"f3":"1970-01-01","f4":"2008-12-28T00:00:00.000123456","f5":null,"f6":"ZGFk"}
			{"f1":10,"f2":1,"f3":"1970-04-11","f4":"2008-12-28T00:00:00.000123450","f5":"-123.45000","f6":"ZWF0"}
			{"f1":10,"f2":1,"f3":"1973-05-19","f4":"2033-05-18T03:33:20.000000000","f5":"123456789987654321.45678","f6":"YWRk"}
			{"f1":10,"f2":1,"f3":"2024-07-05","f4":"2033-05-18T03:33:20.000001001","f5":"12.30000","f6":"Y2F0"}
			{"f1":10,"f2":1,"f3":"2024-10-10","f4":"2024-10-10T10:10:10.100100100","f5":"1728551410100.10010","f6":null}
			{"f1":10,"f2":1,"f3":null,"f4":"1899-01-01T00:59:20.001001001","f5":"0.00000","f6":"ZmF0"}
			{"f1":20,"f2":0,"f3":"1969-09-23","f4":null,"f5":"0.00000","f6":"Z2V0"}
			{"f1":20,"f2":1,"f3":"1966-08-16","f4":"1899-01-01T00:59:20.001001001","f5":"-123456789987654321.45678","f6":"YmFk"}
		`},
		// README: map<tinyint,smallint>, array<float>, struct, timestamp(9), date, decimal(2,2); map keys and list elements have no ids in schema-0.
		{"orc/append_complex_build_in_fieldid", reader.TableOptions{}, `
			{"f1":[{"key":0,"value":0}],"f2":[0.1,0.2],"f3":{"f0":true,"f1":2},"f4":"1970-01-01T00:02:03.123123000","f5":"1976-09-22","f6":"0.22"}
			{"f1":[{"key":1,"value":64},{"key":2,"value":32}],"f2":[2.2,3.2],"f3":{"f0":true,"f1":2},"f4":"1970-01-01T00:00:00.000000000","f5":"1970-01-25","f6":null}
			{"f1":[{"key":127,"value":32767},{"key":-128,"value":-32768}],"f2":[1.1,1.2],"f3":{"f0":false,"f1":2222},"f4":"1970-01-01T00:02:03.123123000","f5":"1970-09-03","f6":"0.12"}
		`},
		// README: map<tinyint,smallint>, array<float>, struct, timestamp(9), date, decimal(2,2); map keys and list elements have no ids in schema-0.
		{"parquet/append_complex_build_in_fieldid", reader.TableOptions{}, `
			{"f1":[{"key":0,"value":0}],"f2":[0.1,0.2],"f3":{"f0":true,"f1":2},"f4":"1970-01-01T00:02:03.123123000","f5":"1976-09-22","f6":"0.22"}
			{"f1":[{"key":1,"value":64},{"key":2,"value":32}],"f2":[2.2,3.2],"f3":{"f0":true,"f1":2},"f4":"1970-01-01T00:00:00.000000000","f5":"1970-01-25","f6":null}
			{"f1":[{"key":127,"value":32767},{"key":-128,"value":-32768}],"f2":[1.1,1.2],"f3":{"f0":false,"f1":2222},"f4":"1970-01-01T00:02:03.123123000","f5":"1970-09-03","f6":"0.12"}
		`},
		// README rows of snapshots 1 and 2 (map keyed by array<float>).
		{"parquet/parquet_append_table", reader.TableOptions{}, `
			{"f1":false,"f2":32,"f3":302,"f4":300002,"f5":3000000002,"f6":3.2,"f7":300.000000002,"f8":"s32","f9":"YTMy","f10":[{"key":[5.12,5.22],"value":{"f0":false,"f1":62}}],"f11":"1970-01-01T00:00:00.000072000","f12":"1970-03-24","f13":"0.92"}
			{"f1":false,"f2":34,"f3":304,"f4":300004,"f5":3000000004,"f6":3.4,"f7":300.000000004,"f8":"s34","f9":"YTM0","f10":[{"key":[5.141,5.241],"value":{"f0":false,"f1":641}},{"key":[5.14,5.24],"value":{"f0":false,"f1":64}}],"f11":"1970-01-01T00:00:00.000074000","f12":"1970-03-26","f13":"0.94"}
			{"f1":false,"f2":36,"f3":306,"f4":300006,"f5":3000000006,"f6":3.6,"f7":300.000000006,"f8":"s36","f9":"YTM2","f10":[{"key":[5.16,5.26],"value":null}],"f11":"1970-01-01T00:00:00.000076000","f12":"1970-03-28","f13":"0.96"}
			{"f1":false,"f2":38,"f3":308,"f4":300008,"f5":3000000008,"f6":3.8,"f7":300.000000008,"f8":"s38","f9":"YTM4","f10":[{"key":[5.18,5.28],"value":{"f0":false,"f1":68}}],"f11":"1970-01-01T00:00:00.000078000","f12":"1970-03-30","f13":"0.98"}
			{"f1":true,"f2":31,"f3":null,"f4":300001,"f5":3000000001,"f6":3.1,"f7":300.000000001,"f8":"s31","f9":"YTMx","f10":[{"key":[5.11,5.21],"value":{"f0":true,"f1":61}}],"f11":"1970-01-01T00:00:00.000071000","f12":"1970-03-23","f13":"0.91"}
			{"f1":true,"f2":33,"f3":303,"f4":300003,"f5":3000000003,"f6":3.3,"f7":300.000000003,"f8":"s33","f9":"YTMz","f10":null,"f11":"1970-01-01T00:00:00.000073000","f12":"1970-03-25","f13":"0.93"}
			{"f1":true,"f2":35,"f3":305,"f4":300005,"f5":3000000005,"f6":3.5,"f7":300.000000005,"f8":"s35","f9":"YTM1","f10":[{"key":[5.15,5.25],"value":{"f0":true,"f1":65}}],"f11":"1970-01-01T00:00:00.000075000","f12":"1970-03-27","f13":"0.95"}
			{"f1":true,"f2":37,"f3":307,"f4":300007,"f5":3000000007,"f6":3.7,"f7":300.000000007,"f8":"s37","f9":"YTM3","f10":[{"key":[5.17,5.27,5.37],"value":{"f0":true,"f1":67}}],"f11":"1970-01-01T00:00:00.000077000","f12":"1970-03-29","f13":"0.97"}
			{"f1":true,"f2":39,"f3":309,"f4":300009,"f5":3000000009,"f6":3.9,"f7":300.000000009,"f8":"s39","f9":"YTM5","f10":[{"key":[5.19,5.29],"value":{"f0":true,"f1":69}}],"f11":"1970-01-01T00:00:00.000079000","f12":"1970-03-31","f13":"0.99"}
		`},
		// schema/ only (never written): an empty table in schema-0.
		{"orc/append_table_with_nested_type", reader.TableOptions{}, `
		`},
		// README rows (Timestamp(millis, nanos)); the ORC Java file needs the pre-ORC-763 correction on the writer instant.
		{"orc/append_with_multiple_ts_precision_and_timezone", reader.TableOptions{}, `
			{"ts_sec":"1970-01-01T00:00:01.000000","ts_milli":"1970-01-01T00:00:00.001000","ts_micro":"1970-01-01T00:00:00.000001","ts_nano":"1970-01-01T00:00:00.000000001","ts_tz_sec":"1970-01-01T00:00:02.000000Z","ts_tz_milli":"1970-01-01T00:00:00.002000Z","ts_tz_micro":"1970-01-01T00:00:00.000002Z","ts_tz_nano":"1970-01-01T00:00:00.000000002Z"}
			{"ts_sec":"1970-01-01T00:00:03.000000","ts_milli":"1970-01-01T00:00:00.003000","ts_micro":null,"ts_nano":"1970-01-01T00:00:00.000000003","ts_tz_sec":"1970-01-01T00:00:04.000000Z","ts_tz_milli":"1970-01-01T00:00:00.004000Z","ts_tz_micro":"1970-01-01T00:00:00.000004Z","ts_tz_nano":"1970-01-01T00:00:00.000000004Z"}
			{"ts_sec":"1970-01-01T00:00:05.000000","ts_milli":"1970-01-01T00:00:00.005000","ts_micro":null,"ts_nano":null,"ts_tz_sec":"1970-01-01T00:00:06.000000Z","ts_tz_milli":null,"ts_tz_micro":"1970-01-01T00:00:00.000006Z","ts_tz_nano":null}
		`},
		// README rows (Timestamp(millis, nanos)); the ORC Java file needs the pre-ORC-763 correction on the writer instant.
		{"parquet/append_with_multiple_ts_precision_and_timezone", reader.TableOptions{}, `
			{"ts_sec":"1970-01-01T00:00:01.000000","ts_milli":"1970-01-01T00:00:00.001000","ts_micro":"1970-01-01T00:00:00.000001","ts_nano":"1970-01-01T00:00:00.000000001","ts_tz_sec":"1970-01-01T00:00:02.000000Z","ts_tz_milli":"1970-01-01T00:00:00.002000Z","ts_tz_micro":"1970-01-01T00:00:00.000002Z","ts_tz_nano":"1970-01-01T00:00:00.000000002Z"}
			{"ts_sec":"1970-01-01T00:00:03.000000","ts_milli":"1970-01-01T00:00:00.003000","ts_micro":null,"ts_nano":"1970-01-01T00:00:00.000000003","ts_tz_sec":"1970-01-01T00:00:04.000000Z","ts_tz_milli":"1970-01-01T00:00:00.004000Z","ts_tz_micro":"1970-01-01T00:00:00.000004Z","ts_tz_nano":"1970-01-01T00:00:00.000000004Z"}
			{"ts_sec":"1970-01-01T00:00:05.000000","ts_milli":"1970-01-01T00:00:00.005000","ts_micro":null,"ts_nano":null,"ts_tz_sec":"1970-01-01T00:00:06.000000Z","ts_tz_milli":null,"ts_tz_micro":"1970-01-01T00:00:00.000006Z","ts_tz_nano":null}
		`},
		// paimon-cpp TestCastTimestampType under Asia/Shanghai (EXPECTED.md): TIMESTAMP→INT -28799…, →DATE, →STRING, →LTZ(9) 1969-12-31 16:00:00.000000001; LTZ→INT 2…, →STRING 08:00:00.000002, →TIMESTAMP(9) 08:00:00.000000002; INT→TIMESTAMP(0) 08:00:00, →LTZ(6) 00:00:00.
		{"orc/append_with_cast_timestamp", reader.TableOptions{FormatOptions: paimon.Options{TimeZone: shanghai}}, `
			{"ts_sec":-28795,"ts_milli":"1970-01-01","ts_micro":null,"ts_nano":null,"ts_tz_sec":6,"ts_tz_milli":null,"ts_tz_micro":"1970-01-01 08:00:00.000006","ts_tz_nano":null,"int_ts_sec":"1970-01-01T07:59:59.000000","int_ts_tz_micro":"1969-12-31T23:59:59.000000Z"}
			{"ts_sec":-28797,"ts_milli":"1970-01-01","ts_micro":null,"ts_nano":"1969-12-31T16:00:00.000000003Z","ts_tz_sec":4,"ts_tz_milli":"1970-01-01","ts_tz_micro":"1970-01-01 08:00:00.000004","ts_tz_nano":"1970-01-01T08:00:00.000000004","int_ts_sec":"1970-01-01T08:00:01.000000","int_ts_tz_micro":"1970-01-01T00:00:01.000000Z"}
			{"ts_sec":-28799,"ts_milli":"1970-01-01","ts_micro":"1970-01-01 00:00:00.000001","ts_nano":"1969-12-31T16:00:00.000000001Z","ts_tz_sec":2,"ts_tz_milli":"1970-01-01","ts_tz_micro":"1970-01-01 08:00:00.000002","ts_tz_nano":"1970-01-01T08:00:00.000000002","int_ts_sec":"1970-01-01T08:00:00.000000","int_ts_tz_micro":"1970-01-01T00:00:00.000000Z"}
		`},
		// the same under Asia/Shanghai (INT96 TIMESTAMP(9) and LTZ(9) columns).
		{"parquet/append_with_cast_timestamp", reader.TableOptions{FormatOptions: paimon.Options{TimeZone: shanghai}}, `
			{"ts_sec":-28795,"ts_milli":"1970-01-01","ts_micro":null,"ts_nano":null,"ts_tz_sec":6,"ts_tz_milli":null,"ts_tz_micro":"1970-01-01 08:00:00.000006","ts_tz_nano":null,"int_ts_sec":"1970-01-01T07:59:59.000000","int_ts_tz_micro":"1969-12-31T23:59:59.000000Z"}
			{"ts_sec":-28797,"ts_milli":"1970-01-01","ts_micro":null,"ts_nano":"1969-12-31T16:00:00.000000003Z","ts_tz_sec":4,"ts_tz_milli":"1970-01-01","ts_tz_micro":"1970-01-01 08:00:00.000004","ts_tz_nano":"1970-01-01T08:00:00.000000004","int_ts_sec":"1970-01-01T08:00:01.000000","int_ts_tz_micro":"1970-01-01T00:00:01.000000Z"}
			{"ts_sec":-28799,"ts_milli":"1970-01-01","ts_micro":"1970-01-01 00:00:00.000001","ts_nano":"1969-12-31T16:00:00.000000001Z","ts_tz_sec":2,"ts_tz_milli":"1970-01-01","ts_tz_micro":"1970-01-01 08:00:00.000002","ts_tz_nano":"1970-01-01T08:00:00.000000002","int_ts_sec":"1970-01-01T08:00:00.000000","int_ts_tz_micro":"1970-01-01T00:00:00.000000Z"}
		`},
		// UTC (the default session zone): wall clock and instant are the same number.
		{"orc/append_with_cast_timestamp", reader.TableOptions{}, `
			{"ts_sec":1,"ts_milli":"1970-01-01","ts_micro":"1970-01-01 00:00:00.000001","ts_nano":"1970-01-01T00:00:00.000000001Z","ts_tz_sec":2,"ts_tz_milli":"1970-01-01","ts_tz_micro":"1970-01-01 00:00:00.000002","ts_tz_nano":"1970-01-01T00:00:00.000000002","int_ts_sec":"1970-01-01T00:00:00.000000","int_ts_tz_micro":"1970-01-01T00:00:00.000000Z"}
			{"ts_sec":3,"ts_milli":"1970-01-01","ts_micro":null,"ts_nano":"1970-01-01T00:00:00.000000003Z","ts_tz_sec":4,"ts_tz_milli":"1970-01-01","ts_tz_micro":"1970-01-01 00:00:00.000004","ts_tz_nano":"1970-01-01T00:00:00.000000004","int_ts_sec":"1970-01-01T00:00:01.000000","int_ts_tz_micro":"1970-01-01T00:00:01.000000Z"}
			{"ts_sec":5,"ts_milli":"1970-01-01","ts_micro":null,"ts_nano":null,"ts_tz_sec":6,"ts_tz_milli":null,"ts_tz_micro":"1970-01-01 00:00:00.000006","ts_tz_nano":null,"int_ts_sec":"1969-12-31T23:59:59.000000","int_ts_tz_micro":"1969-12-31T23:59:59.000000Z"}
		`},
		// main with scan.fallback-branch=rt: main's 20240725 rows, rt's 20240726 rows (one file per bucket, no retract rows).
		{"orc/append_table_with_rt_branch", reader.TableOptions{}, `
			{"dt":"20240725","name":"apple","amount":5}
			{"dt":"20240725","name":"banana","amount":7}
			{"dt":"20240726","name":"cherry","amount":3}
			{"dt":"20240726","name":"pear","amount":6}
		`},
		// --snapshot-id 1: README snapshot-1, the first five rows (Paimon 0.9 Parquet, no field ids).
		{"parquet/append_09", reader.TableOptions{SnapshotID: ptr(int64(1))}, `
			{"f0":"Alice","f1":10,"f2":1,"f3":11.1}
			{"f0":"Bob","f1":10,"f2":0,"f3":12.1}
			{"f0":"Emily","f1":10,"f2":0,"f3":13.1}
			{"f0":"Lucy","f1":20,"f2":1,"f3":14.1}
			{"f0":"Tony","f1":10,"f2":0,"f3":14.1}
		`},
		// README steps: main partition 1 (110; 120, 1200) and, through the fallback branch test, partition 2.
		{"parquet/append_table_with_append_pt_branch", reader.TableOptions{}, `
			{"pt":1,"value":110,"value2":null}
			{"pt":1,"value":120,"value2":1200}
			{"pt":2,"value":210,"value2":null}
			{"pt":2,"value":220,"value2":2200}
		`},
		// --branch test: the branch alone (partition 2).
		{"parquet/append_table_with_append_pt_branch", reader.TableOptions{FormatOptions: paimon.Options{Branch: "test"}}, `
			{"pt":2,"value":210,"value2":null}
			{"pt":2,"value":220,"value2":2200}
		`},
	}
	for _, tc := range cases {
		name := tc.table
		po, _ := tc.opts.FormatOptions.(paimon.Options)
		if po.Branch != "" {
			name += "@" + po.Branch
		}
		if po.SchemaID != nil {
			name += "#schema0"
		}
		if tc.opts.SnapshotID != nil {
			name += "#snapshot1"
		}
		if po.TimeZone != nil {
			name += "@" + po.TimeZone.String()
		}
		t.Run(name, func(t *testing.T) {
			got := scanTableRows(t, paimonCpp(t, tc.table), tc.opts)
			if want := rowsOf(tc.want); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestPaimonCppPrimaryKeyRawWarns: raw mode reads a primary-key table
// unmerged with a warning; its deletion vectors are applied (raw is
// unmerged, not undeleted) unless IgnoreDeletes, which warns too.
func TestPaimonCppPrimaryKeyRawWarns(t *testing.T) {
	dir := paimonCpp(t, "parquet/pk_table_with_alter_table")
	raw := "reading primary-key table " + dir + " unmerged (raw): every stored row of every live file, with _KEY_*, _SEQUENCE_NUMBER and _VALUE_KIND; rows a merge would replace or delete are returned"
	ignored := "ignoring delete files: paimon: table has deletion vectors: 1 deletion-vector index files cover 1 data files; deleted rows are returned"
	for _, tc := range []struct {
		opts reader.TableOptions
		want []string
	}{
		{reader.TableOptions{FormatOptions: paimon.Options{Raw: true}}, []string{raw}},
		{reader.TableOptions{IgnoreDeletes: true, FormatOptions: paimon.Options{Raw: true}}, []string{raw, ignored}},
		{reader.TableOptions{}, nil},
	} {
		var got []string
		tc.opts.Warn = func(msg string) { got = append(got, msg) }
		if _, err := reader.OpenTable(context.Background(), dir, tc.opts); err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("raw %v, ignore-deletes %v: warnings\n%q\nwant\n%q", tc.opts.FormatOptions.(paimon.Options).Raw, tc.opts.IgnoreDeletes, got, tc.want)
		}
	}
}

// TestPaimonCppPrimaryKeyRaw reads the paimon-cpp primary-key tables with
// Raw: every stored row of every live file, with the system columns in
// front (_KEY_<pk> for the primary keys outside the partition, id 1073741823
// + the key's field id; _SEQUENCE_NUMBER 2147483646; _VALUE_KIND
// 2147483645), aligned by id to the latest schema. Rows sorted.
func TestPaimonCppPrimaryKeyRaw(t *testing.T) {
	cases := []struct {
		table string
		opts  reader.TableOptions
		ids   string // the first read fields as name=id
		want  string
	}{
		// README: 8 inserts (snapshot 1), then DELETE 1000 and 1002, UPDATE_AFTER 1001, UPDATE_BEFORE 1003 (snapshot 2): _VALUE_KIND 0 insert, 1 update-before, 2 update-after, 3 delete. Key shopId (id 0) only: dt and hr are partition keys.
		{"orc/pk_table_nested_type", reader.TableOptions{FormatOptions: paimon.Options{Raw: true}}, "_KEY_shopId=1073741823 _SEQUENCE_NUMBER=2147483646 _VALUE_KIND=2147483645 shopId=0", `
			{"_KEY_shopId":1000,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"shopId":1000,"dt":"2025-04-14","hr":10,"col0":0,"col1":{"f0":"str-0","f1":0,"f2":[0,null,1]},"col2":[{"key":0,"value":0},{"key":100,"value":100}]}
			{"_KEY_shopId":1000,"_SEQUENCE_NUMBER":5,"_VALUE_KIND":3,"shopId":1000,"dt":"2025-04-14","hr":10,"col0":0,"col1":{"f0":"str-0","f1":0,"f2":[0,null,1]},"col2":[{"key":0,"value":0},{"key":100,"value":100}]}
			{"_KEY_shopId":1001,"_SEQUENCE_NUMBER":1,"_VALUE_KIND":0,"shopId":1001,"dt":"2025-04-14","hr":10,"col0":10,"col1":{"f0":"str-1","f1":100,"f2":[1,null,2]},"col2":[{"key":1,"value":1},{"key":101,"value":101}]}
			{"_KEY_shopId":1001,"_SEQUENCE_NUMBER":6,"_VALUE_KIND":2,"shopId":1001,"dt":"2025-04-14","hr":10,"col0":10,"col1":{"f0":"str-1","f1":100,"f2":[1,null,2]},"col2":[{"key":1,"value":1},{"key":101,"value":101}]}
			{"_KEY_shopId":1002,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"shopId":1002,"dt":"2025-04-14","hr":10,"col0":20,"col1":{"f0":"str-2","f1":200,"f2":[2,null,3]},"col2":[{"key":2,"value":2},{"key":102,"value":102}]}
			{"_KEY_shopId":1002,"_SEQUENCE_NUMBER":3,"_VALUE_KIND":3,"shopId":1002,"dt":"2025-04-14","hr":10,"col0":20,"col1":{"f0":"str-2","f1":200,"f2":[2,null,3]},"col2":[{"key":2,"value":2},{"key":102,"value":102}]}
			{"_KEY_shopId":1003,"_SEQUENCE_NUMBER":2,"_VALUE_KIND":0,"shopId":1003,"dt":"2025-04-14","hr":10,"col0":30,"col1":{"f0":"str-3","f1":300,"f2":[3,null,4]},"col2":[{"key":3,"value":3},{"key":103,"value":103}]}
			{"_KEY_shopId":1003,"_SEQUENCE_NUMBER":7,"_VALUE_KIND":1,"shopId":1003,"dt":"2025-04-14","hr":10,"col0":30,"col1":{"f0":"str-3","f1":300,"f2":[3,null,4]},"col2":[{"key":3,"value":3},{"key":103,"value":103}]}
			{"_KEY_shopId":1004,"_SEQUENCE_NUMBER":3,"_VALUE_KIND":0,"shopId":1004,"dt":"2025-04-14","hr":10,"col0":40,"col1":{"f0":"str-4","f1":400,"f2":[4,null,5]},"col2":[{"key":4,"value":4},{"key":104,"value":104}]}
			{"_KEY_shopId":1005,"_SEQUENCE_NUMBER":1,"_VALUE_KIND":0,"shopId":1005,"dt":"2025-04-14","hr":10,"col0":50,"col1":{"f0":"str-5","f1":500,"f2":[5,null,6]},"col2":[{"key":5,"value":5},{"key":105,"value":105}]}
			{"_KEY_shopId":1006,"_SEQUENCE_NUMBER":2,"_VALUE_KIND":0,"shopId":1006,"dt":"2025-04-14","hr":10,"col0":60,"col1":{"f0":"str-6","f1":600,"f2":[6,null,7]},"col2":[{"key":6,"value":6},{"key":106,"value":106}]}
			{"_KEY_shopId":1007,"_SEQUENCE_NUMBER":4,"_VALUE_KIND":0,"shopId":1007,"dt":"2025-04-14","hr":10,"col0":70,"col1":{"f0":"str-7","f1":700,"f2":[7,null,8]},"col2":[{"key":7,"value":7},{"key":107,"value":107}]}
		`},
		// the same table in Parquet.
		{"parquet/pk_table_nested_type", reader.TableOptions{FormatOptions: paimon.Options{Raw: true}}, "_KEY_shopId=1073741823 _SEQUENCE_NUMBER=2147483646 _VALUE_KIND=2147483645 shopId=0", `
			{"_KEY_shopId":1000,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"shopId":1000,"dt":"2025-04-14","hr":10,"col0":0,"col1":{"f0":"str-0","f1":0,"f2":[0,null,1]},"col2":[{"key":0,"value":0},{"key":100,"value":100}]}
			{"_KEY_shopId":1000,"_SEQUENCE_NUMBER":5,"_VALUE_KIND":3,"shopId":1000,"dt":"2025-04-14","hr":10,"col0":0,"col1":{"f0":"str-0","f1":0,"f2":[0,null,1]},"col2":[{"key":0,"value":0},{"key":100,"value":100}]}
			{"_KEY_shopId":1001,"_SEQUENCE_NUMBER":1,"_VALUE_KIND":0,"shopId":1001,"dt":"2025-04-14","hr":10,"col0":10,"col1":{"f0":"str-1","f1":100,"f2":[1,null,2]},"col2":[{"key":1,"value":1},{"key":101,"value":101}]}
			{"_KEY_shopId":1001,"_SEQUENCE_NUMBER":6,"_VALUE_KIND":2,"shopId":1001,"dt":"2025-04-14","hr":10,"col0":10,"col1":{"f0":"str-1","f1":100,"f2":[1,null,2]},"col2":[{"key":1,"value":1},{"key":101,"value":101}]}
			{"_KEY_shopId":1002,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"shopId":1002,"dt":"2025-04-14","hr":10,"col0":20,"col1":{"f0":"str-2","f1":200,"f2":[2,null,3]},"col2":[{"key":2,"value":2},{"key":102,"value":102}]}
			{"_KEY_shopId":1002,"_SEQUENCE_NUMBER":3,"_VALUE_KIND":3,"shopId":1002,"dt":"2025-04-14","hr":10,"col0":20,"col1":{"f0":"str-2","f1":200,"f2":[2,null,3]},"col2":[{"key":2,"value":2},{"key":102,"value":102}]}
			{"_KEY_shopId":1003,"_SEQUENCE_NUMBER":2,"_VALUE_KIND":0,"shopId":1003,"dt":"2025-04-14","hr":10,"col0":30,"col1":{"f0":"str-3","f1":300,"f2":[3,null,4]},"col2":[{"key":3,"value":3},{"key":103,"value":103}]}
			{"_KEY_shopId":1003,"_SEQUENCE_NUMBER":7,"_VALUE_KIND":1,"shopId":1003,"dt":"2025-04-14","hr":10,"col0":30,"col1":{"f0":"str-3","f1":300,"f2":[3,null,4]},"col2":[{"key":3,"value":3},{"key":103,"value":103}]}
			{"_KEY_shopId":1004,"_SEQUENCE_NUMBER":3,"_VALUE_KIND":0,"shopId":1004,"dt":"2025-04-14","hr":10,"col0":40,"col1":{"f0":"str-4","f1":400,"f2":[4,null,5]},"col2":[{"key":4,"value":4},{"key":104,"value":104}]}
			{"_KEY_shopId":1005,"_SEQUENCE_NUMBER":1,"_VALUE_KIND":0,"shopId":1005,"dt":"2025-04-14","hr":10,"col0":50,"col1":{"f0":"str-5","f1":500,"f2":[5,null,6]},"col2":[{"key":5,"value":5},{"key":105,"value":105}]}
			{"_KEY_shopId":1006,"_SEQUENCE_NUMBER":2,"_VALUE_KIND":0,"shopId":1006,"dt":"2025-04-14","hr":10,"col0":60,"col1":{"f0":"str-6","f1":600,"f2":[6,null,7]},"col2":[{"key":6,"value":6},{"key":106,"value":106}]}
			{"_KEY_shopId":1007,"_SEQUENCE_NUMBER":4,"_VALUE_KIND":0,"shopId":1007,"dt":"2025-04-14","hr":10,"col0":70,"col1":{"f0":"str-7","f1":700,"f2":[7,null,8]},"col2":[{"key":7,"value":7},{"key":107,"value":107}]}
		`},
		// README: the stored rows before the deletion vectors (Tony and Lily still there), Alice's and Alex's update-after rows, Paul; old files aligned to schema-1 by id (key2 renamed key_2: _KEY_key2 of old files is _KEY_key_2, id 1073741823+2).
		{"orc/pk_table_with_alter_table", reader.TableOptions{IgnoreDeletes: true, FormatOptions: paimon.Options{Raw: true}}, "_KEY_key_2=1073741825 _SEQUENCE_NUMBER=2147483646 _VALUE_KIND=2147483645 key1=1", `
			{"_KEY_key_2":12,"_SEQUENCE_NUMBER":2,"_VALUE_KIND":2,"key1":1,"k":"Alice","key_2":12,"c":94,"d":null,"a":96,"key0":0,"e":null}
			{"_KEY_key_2":2,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"key1":1,"k":"Two roads diverged in a wood, and I took the one less traveled by, And that has made all the difference.","key_2":2,"c":4,"d":null,"a":6,"key0":0,"e":null}
			{"_KEY_key_2":22,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"key1":1,"k":"Bob","key_2":22,"c":24,"d":null,"a":26,"key0":1,"e":null}
			{"_KEY_key_2":32,"_SEQUENCE_NUMBER":1,"_VALUE_KIND":0,"key1":1,"k":"Emily","key_2":32,"c":34,"d":null,"a":36,"key0":1,"e":null}
			{"_KEY_key_2":42,"_SEQUENCE_NUMBER":2,"_VALUE_KIND":0,"key1":1,"k":"Tony","key_2":42,"c":44,"d":null,"a":46,"key0":1,"e":null}
			{"_KEY_key_2":502,"_SEQUENCE_NUMBER":3,"_VALUE_KIND":0,"key1":1,"k":"Paul","key_2":502,"c":504,"d":508,"a":506,"key0":0,"e":509}
			{"_KEY_key_2":52,"_SEQUENCE_NUMBER":3,"_VALUE_KIND":0,"key1":1,"k":"Alex","key_2":52,"c":54,"d":null,"a":56,"key0":1,"e":null}
			{"_KEY_key_2":52,"_SEQUENCE_NUMBER":7,"_VALUE_KIND":2,"key1":1,"k":"Alex","key_2":52,"c":514,"d":518,"a":516,"key0":1,"e":519}
			{"_KEY_key_2":62,"_SEQUENCE_NUMBER":4,"_VALUE_KIND":0,"key1":1,"k":"David","key_2":62,"c":64,"d":null,"a":66,"key0":1,"e":null}
			{"_KEY_key_2":72,"_SEQUENCE_NUMBER":5,"_VALUE_KIND":0,"key1":1,"k":"Whether I shall turn out to be the hero of my own life.","key_2":72,"c":74,"d":null,"a":76,"key0":1,"e":null}
			{"_KEY_key_2":82,"_SEQUENCE_NUMBER":6,"_VALUE_KIND":0,"key1":1,"k":"Lily","key_2":82,"c":84,"d":null,"a":86,"key0":1,"e":null}
		`},
		// the same table in Parquet.
		{"parquet/pk_table_with_alter_table", reader.TableOptions{IgnoreDeletes: true, FormatOptions: paimon.Options{Raw: true}}, "_KEY_key_2=1073741825 _SEQUENCE_NUMBER=2147483646 _VALUE_KIND=2147483645 key1=1", `
			{"_KEY_key_2":12,"_SEQUENCE_NUMBER":2,"_VALUE_KIND":2,"key1":1,"k":"Alice","key_2":12,"c":94,"d":null,"a":96,"key0":0,"e":null}
			{"_KEY_key_2":2,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"key1":1,"k":"Two roads diverged in a wood, and I took the one less traveled by, And that has made all the difference.","key_2":2,"c":4,"d":null,"a":6,"key0":0,"e":null}
			{"_KEY_key_2":22,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"key1":1,"k":"Bob","key_2":22,"c":24,"d":null,"a":26,"key0":1,"e":null}
			{"_KEY_key_2":32,"_SEQUENCE_NUMBER":1,"_VALUE_KIND":0,"key1":1,"k":"Emily","key_2":32,"c":34,"d":null,"a":36,"key0":1,"e":null}
			{"_KEY_key_2":42,"_SEQUENCE_NUMBER":2,"_VALUE_KIND":0,"key1":1,"k":"Tony","key_2":42,"c":44,"d":null,"a":46,"key0":1,"e":null}
			{"_KEY_key_2":502,"_SEQUENCE_NUMBER":3,"_VALUE_KIND":0,"key1":1,"k":"Paul","key_2":502,"c":504,"d":508,"a":506,"key0":0,"e":509}
			{"_KEY_key_2":52,"_SEQUENCE_NUMBER":3,"_VALUE_KIND":0,"key1":1,"k":"Alex","key_2":52,"c":54,"d":null,"a":56,"key0":1,"e":null}
			{"_KEY_key_2":52,"_SEQUENCE_NUMBER":7,"_VALUE_KIND":2,"key1":1,"k":"Alex","key_2":52,"c":514,"d":518,"a":516,"key0":1,"e":519}
			{"_KEY_key_2":62,"_SEQUENCE_NUMBER":4,"_VALUE_KIND":0,"key1":1,"k":"David","key_2":62,"c":64,"d":null,"a":66,"key0":1,"e":null}
			{"_KEY_key_2":72,"_SEQUENCE_NUMBER":5,"_VALUE_KIND":0,"key1":1,"k":"Whether I shall turn out to be the hero of my own life.","key_2":72,"c":74,"d":null,"a":76,"key0":1,"e":null}
			{"_KEY_key_2":82,"_SEQUENCE_NUMBER":6,"_VALUE_KIND":0,"key1":1,"k":"Lily","key_2":82,"c":84,"d":null,"a":86,"key0":1,"e":null}
		`},
		// Raw with the deletion vectors applied: the stored rows Tony, Lily
		// and Alex's first version are deleted (level ≥ 1 files in
		// deletion-vector mode), the rest as stored.
		{"orc/pk_table_with_alter_table", reader.TableOptions{FormatOptions: paimon.Options{Raw: true}}, "_KEY_key_2=1073741825 _SEQUENCE_NUMBER=2147483646 _VALUE_KIND=2147483645 key1=1", `
			{"_KEY_key_2":12,"_SEQUENCE_NUMBER":2,"_VALUE_KIND":2,"key1":1,"k":"Alice","key_2":12,"c":94,"d":null,"a":96,"key0":0,"e":null}
			{"_KEY_key_2":2,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"key1":1,"k":"Two roads diverged in a wood, and I took the one less traveled by, And that has made all the difference.","key_2":2,"c":4,"d":null,"a":6,"key0":0,"e":null}
			{"_KEY_key_2":22,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"key1":1,"k":"Bob","key_2":22,"c":24,"d":null,"a":26,"key0":1,"e":null}
			{"_KEY_key_2":32,"_SEQUENCE_NUMBER":1,"_VALUE_KIND":0,"key1":1,"k":"Emily","key_2":32,"c":34,"d":null,"a":36,"key0":1,"e":null}
			{"_KEY_key_2":502,"_SEQUENCE_NUMBER":3,"_VALUE_KIND":0,"key1":1,"k":"Paul","key_2":502,"c":504,"d":508,"a":506,"key0":0,"e":509}
			{"_KEY_key_2":52,"_SEQUENCE_NUMBER":7,"_VALUE_KIND":2,"key1":1,"k":"Alex","key_2":52,"c":514,"d":518,"a":516,"key0":1,"e":519}
			{"_KEY_key_2":62,"_SEQUENCE_NUMBER":4,"_VALUE_KIND":0,"key1":1,"k":"David","key_2":62,"c":64,"d":null,"a":66,"key0":1,"e":null}
			{"_KEY_key_2":72,"_SEQUENCE_NUMBER":5,"_VALUE_KIND":0,"key1":1,"k":"Whether I shall turn out to be the hero of my own life.","key_2":72,"c":74,"d":null,"a":76,"key0":1,"e":null}
		`},
		{"parquet/pk_table_with_alter_table", reader.TableOptions{FormatOptions: paimon.Options{Raw: true}}, "_KEY_key_2=1073741825 _SEQUENCE_NUMBER=2147483646 _VALUE_KIND=2147483645 key1=1", `
			{"_KEY_key_2":12,"_SEQUENCE_NUMBER":2,"_VALUE_KIND":2,"key1":1,"k":"Alice","key_2":12,"c":94,"d":null,"a":96,"key0":0,"e":null}
			{"_KEY_key_2":2,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"key1":1,"k":"Two roads diverged in a wood, and I took the one less traveled by, And that has made all the difference.","key_2":2,"c":4,"d":null,"a":6,"key0":0,"e":null}
			{"_KEY_key_2":22,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"key1":1,"k":"Bob","key_2":22,"c":24,"d":null,"a":26,"key0":1,"e":null}
			{"_KEY_key_2":32,"_SEQUENCE_NUMBER":1,"_VALUE_KIND":0,"key1":1,"k":"Emily","key_2":32,"c":34,"d":null,"a":36,"key0":1,"e":null}
			{"_KEY_key_2":502,"_SEQUENCE_NUMBER":3,"_VALUE_KIND":0,"key1":1,"k":"Paul","key_2":502,"c":504,"d":508,"a":506,"key0":0,"e":509}
			{"_KEY_key_2":52,"_SEQUENCE_NUMBER":7,"_VALUE_KIND":2,"key1":1,"k":"Alex","key_2":52,"c":514,"d":518,"a":516,"key0":1,"e":519}
			{"_KEY_key_2":62,"_SEQUENCE_NUMBER":4,"_VALUE_KIND":0,"key1":1,"k":"David","key_2":62,"c":64,"d":null,"a":66,"key0":1,"e":null}
			{"_KEY_key_2":72,"_SEQUENCE_NUMBER":5,"_VALUE_KIND":0,"key1":1,"k":"Whether I shall turn out to be the hero of my own life.","key_2":72,"c":74,"d":null,"a":76,"key0":1,"e":null}
		`},
		// README: every stored row of snapshots 1–3 in schema-4 (k0↔k1 renamed, s0↔s1 renamed with STRING→BYTES, v0 DOUBLE→INT truncating 11.1→11, v1 BOOLEAN→STRING, v2 added); the merge would keep the highest sequence number per key.
		{"orc/pk_table_with_mor", reader.TableOptions{FormatOptions: paimon.Options{Raw: true}}, "_KEY_k1=1073741823 _KEY_k0=1073741824 _SEQUENCE_NUMBER=2147483646 _VALUE_KIND=2147483645 k1=0", `
			{"_KEY_k1":0,"_KEY_k0":0,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"k1":0,"k0":0,"p0":0,"p1":0,"s1":"apple","s0":"c2Vl","v0":10,"v1":"true","v2":null}
			{"_KEY_k1":0,"_KEY_k0":0,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"k1":0,"k0":0,"p0":1,"p1":0,"s1":"elephant","s0":"aGk=","v0":20,"v1":"true","v2":null}
			{"_KEY_k1":0,"_KEY_k0":0,"_SEQUENCE_NUMBER":1,"_VALUE_KIND":0,"k1":0,"k0":0,"p0":1,"p1":0,"s1":"elephant","s0":"aGk=","v0":120,"v1":"false","v2":null}
			{"_KEY_k1":0,"_KEY_k0":0,"_SEQUENCE_NUMBER":4,"_VALUE_KIND":0,"k1":0,"k0":0,"p0":0,"p1":0,"s1":"apple","s0":"c2Vl","v0":110,"v1":"false","v2":null}
			{"_KEY_k1":0,"_KEY_k0":1,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"k1":0,"k0":1,"p0":0,"p1":1,"s1":"mouse","s0":"eW91","v0":30,"v1":"false","v2":null}
			{"_KEY_k1":0,"_KEY_k0":1,"_SEQUENCE_NUMBER":1,"_VALUE_KIND":0,"k1":0,"k0":1,"p0":0,"p1":0,"s1":"banana","s0":"eW91","v0":11,"v1":"false","v2":null}
			{"_KEY_k1":0,"_KEY_k0":1,"_SEQUENCE_NUMBER":1,"_VALUE_KIND":0,"k1":0,"k0":1,"p0":0,"p1":1,"s1":"zoo","s0":"eW91","v0":130,"v1":"false","v2":null}
			{"_KEY_k1":0,"_KEY_k0":1,"_SEQUENCE_NUMBER":5,"_VALUE_KIND":0,"k1":0,"k0":1,"p0":0,"p1":0,"s1":"abandon","s0":"bmV3X3lvdQ==","v0":111,"v1":"true","v2":null}
			{"_KEY_k1":1,"_KEY_k0":0,"_SEQUENCE_NUMBER":2,"_VALUE_KIND":0,"k1":1,"k0":0,"p0":0,"p1":0,"s1":"car","s0":"bGF0ZXI=","v0":12,"v1":"true","v2":null}
			{"_KEY_k1":1,"_KEY_k0":0,"_SEQUENCE_NUMBER":6,"_VALUE_KIND":0,"k1":1,"k0":0,"p0":0,"p1":0,"s1":"car","s0":"YWdhaW4=","v0":112,"v1":"true","v2":null}
			{"_KEY_k1":1,"_KEY_k0":1,"_SEQUENCE_NUMBER":3,"_VALUE_KIND":0,"k1":1,"k0":1,"p0":0,"p1":0,"s1":"driver","s0":"IQ==","v0":13,"v1":"false","v2":null}
			{"_KEY_k1":1,"_KEY_k0":2,"_SEQUENCE_NUMBER":7,"_VALUE_KIND":0,"k1":1,"k0":2,"p0":0,"p1":0,"s1":"driver","s0":"IQ==","v0":13,"v1":"false","v2":null}
			{"_KEY_k1":100,"_KEY_k0":200,"_SEQUENCE_NUMBER":8,"_VALUE_KIND":0,"k1":100,"k0":200,"p0":0,"p1":0,"s1":"max","s0":"bnVtYmVy","v0":140,"v1":"false","v2":null}
		`},
		// --branch rt --raw: the rt branch is a primary-key table (dt, name; dt partitions): apple 4, peach 10, cherry 3, pear 6 as written.
		{"orc/append_table_with_rt_branch", reader.TableOptions{FormatOptions: paimon.Options{Branch: "rt", Raw: true}}, "_KEY_name=1073741824 _SEQUENCE_NUMBER=2147483646 _VALUE_KIND=2147483645 dt=0", `
			{"_KEY_name":"apple","_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"dt":"20240725","name":"apple","amount":4}
			{"_KEY_name":"cherry","_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"dt":"20240726","name":"cherry","amount":3}
			{"_KEY_name":"peach","_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"dt":"20240725","name":"peach","amount":10}
			{"_KEY_name":"pear","_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"dt":"20240726","name":"pear","amount":6}
		`},
	}
	for _, tc := range cases {
		t.Run(tc.table+"@"+tc.opts.FormatOptions.(paimon.Options).Branch, func(t *testing.T) {
			dir := paimonCpp(t, tc.table)
			tbl, err := reader.OpenTable(context.Background(), dir, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, f := range tbl.ReadSchema.Fields[:len(strings.Fields(tc.ids))] {
				ids = append(ids, f.Name+"="+strconv.Itoa(f.ID))
			}
			if got := strings.Join(ids, " "); got != tc.ids {
				t.Errorf("read fields %s, want %s", got, tc.ids)
			}
			got := scanTableRows(t, dir, tc.opts)
			if want := rowsOf(tc.want); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}
