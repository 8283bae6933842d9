package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
)

func paimonCppTable(t *testing.T, table string) string {
	t.Helper()
	name := table[strings.IndexByte(table, '/')+1:]
	return filepath.Join(testutil.RealDir(t, "paimon-cpp", "test", "test_data"), table+".db", name)
}

// TestCatPaimonFlags: a primary-key table read merged, and as stored with
// --raw, --branch, --schema-id, on paimon-cpp tables and the generated
// testdata/paimon_orders.
func TestCatPaimonFlags(t *testing.T) {
	pk := paimonCppTable(t, "orc/pk_table_nested_type")
	out, errOut, code := runCLI(t, "cat", pk, "--format", "csv", "--columns", "shopId,col0", "--workers", "1")
	if code != exitOK || errOut != "" || out != "shopId,col0\n1005,50\n1006,60\n1001,10\n1004,40\n1007,70\n" {
		t.Errorf("cat pk: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	out, errOut, code = runCLI(t, "cat", pk, "--raw", "--format", "csv", "--columns", "_KEY_shopId,_SEQUENCE_NUMBER,_VALUE_KIND,col0", "--workers", "1")
	want := `_KEY_shopId,_SEQUENCE_NUMBER,_VALUE_KIND,col0
1002,0,0,20
1005,1,0,50
1006,2,0,60
1000,0,0,0
1001,1,0,10
1003,2,0,30
1004,3,0,40
1007,4,0,70
1002,3,3,20
1000,5,3,0
1001,6,2,10
1003,7,1,30
`
	if code != exitOK || errOut != rawWarning(pk) || out != want {
		t.Errorf("cat --raw: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}

	pt := paimonCppTable(t, "parquet/append_table_with_append_pt_branch")
	out, errOut, code = runCLI(t, "cat", pt, "--branch", "test", "--format", "csv", "--workers", "1")
	if code != exitOK || errOut != "" || out != "pt,value,value2\n2,210,\n2,220,2200\n" {
		t.Errorf("cat --branch test: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	_, errOut, code = runCLI(t, "cat", pt, "--branch", "nope")
	if code != exitNotFound || !strings.Contains(errOut, `no branch "nope"`) {
		t.Errorf("cat --branch nope: code %d, stderr %q", code, errOut)
	}

	alter := paimonCppTable(t, "orc/append_table_with_alter_table")
	out, errOut, code = runCLI(t, "cat", alter, "--schema-id", "0", "--format", "csv", "--workers", "1")
	want = `key0,key1,a,b,c,d,k
0,1,12,13,14,15,16
0,1,22,23,24,25,26
0,1,32,33,34,35,36
1,1,42,43,44,45,46
1,1,52,53,54,55,56
0,1,,63,,65,66
0,1,,73,,75,76
0,1,,83,,85,86
1,1,,93,,95,96
1,1,,103,,105,106
`
	if code != exitOK || errOut != "" || out != want {
		t.Errorf("cat --schema-id 0: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	_, errOut, code = runCLI(t, "cat", alter, "--schema-id", "7")
	if code != exitNotFound || !strings.Contains(errOut, "schema 7") {
		t.Errorf("cat --schema-id 7: code %d, stderr %q", code, errOut)
	}

	orders := filepath.Join(testutil.RepoRoot(t), "testdata", "paimon_orders")
	out, errOut, code = runCLI(t, "cat", orders, "--raw", "--format", "csv", "--workers", "1", "--columns", "order_id,customer_name,quantity,note")
	want = `order_id,customer_name,quantity,note
5,erin,,
1,alice,,
2,bob,,
3,carol,,
4,dave,,
6,frank,2,
7,grace,,
8,heidi,5,
9,ivan,2147483647,
10,judy,3000000000,gift
11,,1,
12,mallory,,rush
3,carol,4,moved
4,dave,,
`
	if code != exitOK || errOut != rawWarning(orders) || out != want {
		t.Errorf("cat paimon_orders --raw: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
}

// TestCatHudiIgnoreLogs: hudi-rs's merge-on-read table is read merged by
// default (id 1's upsert, in a log file, applied: its base row is left out
// and the log's record follows the base file's rows); with --ignore-logs the
// base files are read and a warning is printed.
func TestCatHudiIgnoreLogs(t *testing.T) {
	tbl := hudiMOR(t)
	out, errOut, code := runCLI(t, "cat", tbl, "--columns", "id,name,isActive", "--format", "csv", "--workers", "1")
	if code != exitOK || errOut != "" || out != "id,name,isActive\n2,Bob,false\n3,Carol,true\n1,Alice,false\n4,Diana,true\n" {
		t.Errorf("cat mor: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	out, errOut, code = runCLI(t, "cat", tbl, "--ignore-logs", "--columns", "id,name,isActive", "--format", "csv", "--workers", "1")
	if code != exitOK || out != "id,name,isActive\n2,Bob,false\n3,Carol,true\n1,Alice,true\n4,Diana,true\n" ||
		errOut != "lakecat: warning: reading base files only: hudi: merge-on-read log files: 1 log files in 1 file groups hold changes not in the base files\n" {
		t.Errorf("cat --ignore-logs: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
}

// TestCatPaimonTimeZone: --time-zone is the session zone of Paimon's
// timestamp casts; paimon-cpp's append_with_cast_timestamp under
// Asia/Shanghai gives the values its C++ test asserts (TIMESTAMP(0) → INT
// -28799…, TIMESTAMP_LTZ(6) → STRING "1970-01-01 08:00:00.000002"…); UTC is
// the default.
func TestCatPaimonTimeZone(t *testing.T) {
	tbl := paimonCppTable(t, "orc/append_with_cast_timestamp")
	args := []string{"cat", tbl, "--format", "csv", "--workers", "1", "--columns", "ts_sec,ts_tz_micro"}
	out, errOut, code := runCLI(t, append(args, "--time-zone", "Asia/Shanghai")...)
	if code != exitOK || errOut != "" || out != "ts_sec,ts_tz_micro\n-28799,1970-01-01 08:00:00.000002\n-28797,1970-01-01 08:00:00.000004\n-28795,1970-01-01 08:00:00.000006\n" {
		t.Errorf("--time-zone Asia/Shanghai: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	out, errOut, code = runCLI(t, args...)
	if code != exitOK || errOut != "" || out != "ts_sec,ts_tz_micro\n1,1970-01-01 00:00:00.000002\n3,1970-01-01 00:00:00.000004\n5,1970-01-01 00:00:00.000006\n" {
		t.Errorf("UTC: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	_, errOut, code = runCLI(t, append(args, "--time-zone", "Mars/Olympus")...)
	if code != exitUsage || !strings.Contains(errOut, `--time-zone "Mars/Olympus"`) {
		t.Errorf("bad zone: code %d, stderr %q", code, errOut)
	}
}

// TestFilesHudiLogFiles: `lakecat files` lists a Hudi file slice's log
// files under its base file (FORMAT HUDI-LOG), and in JSON as "log-files".
func TestFilesHudiLogFiles(t *testing.T) {
	tbl := hudiMOR(t)
	out, errOut, code := runCLI(t, "files", tbl)
	base1 := tbl + "/d206069c-22c8-4532-b9ea-3cf4282342c4-0_0-13-23_20250117083125837.parquet"
	log1 := tbl + "/.d206069c-22c8-4532-b9ea-3cf4282342c4-0_20250117083125837.log.1_0-33-43"
	base2 := tbl + "/d5c0b12d-088d-48e8-9683-3f0c1eabcaf0-0_1-33-44_20250117083136333.parquet"
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != exitOK || errOut != "" || len(lines) != 4 || !strings.HasPrefix(lines[1], base1+"  PARQUET") ||
		strings.Join(strings.Fields(lines[2]), " ") != log1+" HUDI-LOG - - - - - - -" || !strings.HasPrefix(lines[3], base2+"  PARQUET") {
		t.Errorf("files: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	out, _, code = runCLI(t, "files", "--format", "json", tbl)
	if code != exitOK || !strings.Contains(out, `"log-files":["`+log1+`"]}`) || strings.Count(out, "log-files") != 1 {
		t.Errorf("files json: code %d, stdout:\n%s", code, out)
	}
}

// TestPlanHudiMerge: `lakecat plan TABLE` says which log files a Hudi file
// slice merges, how and by which ordering field.
func TestPlanHudiMerge(t *testing.T) {
	tbl := hudiMOR(t)
	out, errOut, code := runCLI(t, "plan", tbl)
	want := "merges 1 log files onto the base file by _hoodie_record_key (overwrite-latest, ordering longField): " + tbl + "/.d206069c-22c8-4532-b9ea-3cf4282342c4-0_20250117083125837.log.1_0-33-43\n"
	if code != exitOK || errOut != "" || strings.Count(out, "merges ") != 1 || !strings.Contains(out, want) {
		t.Errorf("plan: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
}

// rawWarning is the warning of cat --raw on the Paimon primary-key table
// dir.
func rawWarning(dir string) string {
	return "lakecat: warning: reading primary-key table " + dir + " unmerged (raw): every stored row of every live file, with _KEY_*, _SEQUENCE_NUMBER and _VALUE_KIND; rows a merge would replace or delete are returned\n"
}
