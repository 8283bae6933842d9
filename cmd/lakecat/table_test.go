package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/table"
)

const impalaDir = "impala/testdata/data/iceberg_test/"

// TestCatTableFlags: --columns with metadata columns, --snapshot-id, and
// --path-map with --no-rebase on an Impala table.
func TestCatTableFlags(t *testing.T) {
	real := testutil.RealDir(t)
	tbl := real + "/" + impalaDir + "iceberg_v3/iceberg_v3_default_value_avro"
	out, errOut, code := runCLI(t, "cat", tbl, "--format", "csv", "--columns", "i,_pos,_spec_id", "--workers", "1")
	if code != exitOK || errOut != "" || out != "i,_pos,_spec_id\n2,0,0\n1,0,0\n" {
		t.Errorf("cat --columns: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	out, errOut, code = runCLI(t, "cat", tbl, "--format", "csv", "--snapshot-id", "2819462914350205316")
	if code != exitOK || errOut != "" || out != "i\n1\n" {
		t.Errorf("cat --snapshot-id: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	// Re-rooting off: the hdfs:// paths lie outside the table's folder
	// (refused, exit 7), until --path-map rewrites them into it.
	_, errOut, code = runCLI(t, "cat", tbl, "--no-rebase")
	if code != exitPermission || !strings.Contains(errOut, "hdfs://localhost:20500/test-warehouse/iceberg_v3_default_value_avro/metadata/snap-") ||
		!strings.Contains(errOut, "outside the table location") {
		t.Errorf("cat --no-rebase: code %d, stderr %q", code, errOut)
	}
	out, errOut, code = runCLI(t, "cat", tbl, "--no-rebase", "--format", "csv",
		"--path-map", "hdfs://localhost:20500/test-warehouse/iceberg_v3_default_value_avro/="+tbl+"/")
	if code != exitOK || errOut != "" || out != "i,j\n2,2\n1,-1\n" {
		t.Errorf("cat --path-map: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	// DuckDB's column_mapping table names a data file outside its folder:
	// refused (exit 7, naming the file and the rule) until --allow-path
	// names that folder.
	cm := real + "/duckdb-iceberg/data/persistent/column_mapping/warehouse"
	_, errOut, code = runCLI(t, "cat", cm+"/default.db/my_table", "--columns", "id")
	if code != exitPermission || !strings.Contains(errOut, cm+"/example/mock_data.parquet: outside the table location and every allowed prefix") {
		t.Errorf("cat outside: code %d, stderr %q", code, errOut)
	}
	out, errOut, code = runCLI(t, "cat", cm+"/default.db/my_table", "--columns", "id", "--format", "csv", "--allow-path", "/nowhere", "--allow-path", cm+"/example")
	if code != exitOK || strings.Contains(errOut, "error") || out != "id\n1\n2\n3\n" {
		t.Errorf("cat --allow-path: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	if _, errOut, code = runCLI(t, "cat", cm+"/default.db/my_table", "--allow-path", ""); code != exitUsage || !strings.Contains(errOut, "--allow-path") {
		t.Errorf("cat --allow-path '': code %d, stderr %q", code, errOut)
	}
	// A snapshot with delete files is read with the deletes applied, or
	// as stored with a warning.
	eq := real + "/duckdb-iceberg/data/persistent/equality_delete_extra_column/warehouse/ns/t/metadata/vfinal.metadata.json"
	out, errOut, code = runCLI(t, "cat", eq, "--format", "csv")
	if code != exitOK || errOut != "" || out != "id,val\n1,a\n3,c\n" {
		t.Errorf("cat deletes: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	out, errOut, code = runCLI(t, "cat", eq, "--ignore-deletes", "--format", "csv")
	if code != exitOK || !strings.Contains(errOut, "lakecat: warning: ignoring the delete files of snapshot 9876543210123456789 (1 equality deletes)") || out != "id,val\n1,a\n2,b\n3,c\n" {
		t.Errorf("cat --ignore-deletes: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
}

// TestCatS3 runs `lakecat cat s3://…` against an in-process S3 fake, the
// driver options in the URL's query.
func TestCatS3(t *testing.T) {
	real := testutil.RealDir(t)
	q, fsys := s3Fake(t)
	dir := real + "/" + impalaDir + "iceberg_v3/test_default_part"
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		return fsys.WriteAll(context.Background(), "s3://lake/wh/t/"+filepath.ToSlash(rel)+q, b)
	})
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "cat", "s3://lake/wh/t"+q, "--format", "csv")
	if code != exitOK || errOut != "" || out != "i,j\n5,\n4,10\n3,5\n1,-1\n2,-1\n" {
		t.Errorf("cat s3: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
}

func TestProgressLine(t *testing.T) {
	start := time.Unix(1000, 0)
	got := formatProgress(reader.ScanProgress{FilesDone: 3, FilesTotal: 200, Rows: 150000, FileBytes: 20e6, Started: start}, start.Add(2*time.Second))
	if got != "\rlakecat: 3/200 files, 150000 rows, 10.0 MB/s\x1b[K" {
		t.Errorf("%q", got)
	}
	// Not a terminal: no progress callback at all.
	if progressLine(&strings.Builder{}) != nil {
		t.Error("progress on a non-terminal writer")
	}
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if progressLine(f) != nil {
		t.Error("progress on a regular file")
	}
}

// TestCatDemoTable: the bundled demo folder is a real Iceberg table (one
// snapshot per data file, manifests in Avro), read as a table it gives the
// same rows as `lakecat cat` on the embedded demo; its second snapshot is
// read with schema 1.
func TestCatDemoTable(t *testing.T) {
	dir := filepath.Join(testutil.RepoRoot(t), "testdata", "orders")
	out, errOut, code := runCLI(t, "cat", dir)
	if code != exitOK || errOut != "" || out != demoTable {
		t.Errorf("cat %s: code %d, stderr %q, stdout:\n%s", dir, code, errOut, out)
	}
	out, errOut, code = runCLI(t, "cat", dir, "--snapshot-id", "6431527130592519002", "--format", "csv")
	want := "order_id,customer,order_user_id,order_shop_id,price,amount,note\n1,alice,10,100,9.5,12.34,\n2,bob,11,,20.25,-0.50,\n3,carol,12,5000000000,1.5,,gift\n4,,13,101,3,999.99,\n"
	if code != exitOK || errOut != "" || out != want {
		t.Errorf("cat --snapshot-id: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	out, errOut, code = runCLI(t, "cat", dir, "--as-of", "2026-01-01T00:00:30Z", "--format", "csv", "--columns", "order_id,_file")
	want = "order_id,_file\n1,orders/data/00000-orders-schema0.parquet\n2,orders/data/00000-orders-schema0.parquet\n"
	if code != exitOK || errOut != "" || out != want {
		t.Errorf("cat --as-of: code %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
}

// TestFilesDeleteColumns: the DELETES and DELETED cells of `lakecat
// files` for the generated tables' data files.
func TestFilesDeleteColumns(t *testing.T) {
	root := filepath.Join("..", "..", "reader", "testdata", "deletes")
	cases := []struct {
		table            string
		deletes, deleted string
	}{
		{"v3_dv", "deletion-vector 2 (DIR/data/dv.puffin)", "2"},
		{"eq_nulls", "equality-deletes 3 (DIR/data/eq.parquet)", "?"},
		{"pos_rowgroups", "position-deletes 452 (DIR/data/pos-1.parquet); position-deletes 1 (DIR/data/pos-2.parquet)", "?"},
	}
	for _, c := range cases {
		dir := filepath.ToSlash(filepath.Join(root, c.table))
		tbl, err := reader.OpenTable(context.Background(), dir, reader.TableOptions{})
		if err != nil {
			t.Fatal(err)
		}
		deletes, deleted := deleteColumns(tbl.Files[0].Deletes)
		if want := strings.ReplaceAll(c.deletes, "DIR", dir); deletes != want || deleted != c.deleted {
			t.Errorf("%s: %q %q, want %q %q", c.table, deletes, deleted, want, c.deleted)
		}
	}
	if d, n := deleteColumns(nil); d != "-" || n != "0" {
		t.Errorf("no deletes: %q %q", d, n)
	}
}

// TestPlanTableDeletes: `lakecat plan TABLE` explains each data file and
// says how many rows its deletes remove when the metadata tells.
func TestPlanTableDeletes(t *testing.T) {
	dir := filepath.ToSlash(filepath.Join("..", "..", "reader", "testdata", "deletes", "v3_dv"))
	out, errOut, code := runCLI(t, "plan", dir)
	want := "file " + dir + "/data/d.parquet\n1 id: required long  ← id (long)\n2 v: string  ← v (string)\n" +
		"deletes: deletion-vector 2 (" + dir + "/data/dv.puffin)\nthe deletes remove 2 of 10 rows\n\n"
	if code != exitOK || errOut != "" || out != want {
		t.Errorf("plan: code %d, stderr %q, stdout:\n%s\nwant\n%s", code, errOut, out, want)
	}
}

// TestPlanPaimonDeletionVector: `lakecat plan` of a Paimon table counts
// the rows a deletion vector removes from its cardinality in the index
// manifest, and names the reason when the count is unknown.
func TestPlanPaimonDeletionVector(t *testing.T) {
	dir := filepath.ToSlash(testutil.RealDir(t, "paimon-cpp", "test", "test_data", "parquet", "pk_table_with_alter_table.db", "pk_table_with_alter_table"))
	out, errOut, code := runCLI(t, "plan", dir)
	want := "deletes: paimon-deletion-vector 3 (" + dir + "/index/index-c93829f3-1a72-4d88-8401-70663ce46426-1)\n" +
		"the deletes remove 3 of 7 rows\n"
	if code != exitOK || errOut != "" || strings.Count(out, "deletes: ") != 1 || !strings.Contains(out, want) {
		t.Errorf("plan: code %d, stderr %q, stdout:\n%s\nwant it to hold\n%s", code, errOut, out, want)
	}
	cases := []struct {
		deletes []table.DeleteFile
		want    string
	}{
		{[]table.DeleteFile{{Content: table.PaimonDeletionVector, RecordCount: -1, ReferencedDataFile: "d"}},
			"deletion vectors whose cardinality the metadata does not record"},
		{[]table.DeleteFile{{Content: table.EqualityDeletes, RecordCount: 2}, {Content: table.PositionDeletes, RecordCount: 1}},
			"equality deletes and shared position delete files"},
	}
	for _, c := range cases {
		if _, known := (table.Task{Deletes: c.deletes}).DeletedRows(); known {
			t.Errorf("%v: DeletedRows known", c.deletes)
		}
		if got := unknownDeletesReason(c.deletes); got != c.want {
			t.Errorf("%v: %q, want %q", c.deletes, got, c.want)
		}
	}
}

// TestSchemaIcebergTable: `lakecat schema` of an Iceberg table lifts the
// refusals for listing (a Paimon raw read among them) without tripping the
// check that Paimon-only options are not set on other formats.
func TestSchemaIcebergTable(t *testing.T) {
	dir := filepath.Join(testutil.RepoRoot(t), "testdata", "orders")
	out, errOut, code := runCLI(t, "schema", dir)
	if code != exitOK || errOut != "" || !strings.HasPrefix(out, "iceberg table "+dir+", 3 live data files\nread schema (schema 2)\n") {
		t.Errorf("schema %s: code %d, stderr %q, stdout:\n%s", dir, code, errOut, out)
	}
}

// TestFilesJSONDeletes: files --format json lists a data file's delete
// files and the rows they delete (null when only reading them tells).
func TestFilesJSONDeletes(t *testing.T) {
	root := filepath.ToSlash(filepath.Join("..", "..", "reader", "testdata", "deletes"))
	out, errOut, code := runCLI(t, "files", root+"/v3_dv", "--format", "json")
	want := `{"path":"` + root + `/v3_dv/data/d.parquet","format":"PARQUET","rows":10,"partition":"","schema-id":null,"lacks":[],"older-type":[],` +
		`"deletes":[{"kind":"deletion-vector","path":"` + root + `/v3_dv/data/dv.puffin","record-count":2}],"deleted-rows":2}` + "\n"
	if code != exitOK || errOut != "" || out != want {
		t.Errorf("files v3_dv: code %d, stderr %q, stdout:\n%s\nwant\n%s", code, errOut, out, want)
	}
	out, _, code = runCLI(t, "files", root+"/eq_nulls", "--format", "json")
	if code != exitOK || !strings.Contains(out, `"record-count":3}],"deleted-rows":null}`) {
		t.Errorf("files eq_nulls: code %d, stdout:\n%s", code, out)
	}
}

// TestCatPositionDeletesPathMap: an Impala table's position deletes store
// file_path as hdfs://localhost:20500/test-warehouse/…, its manifests
// /test-warehouse/…; however --path-map spells the new side (relative,
// "./"-relative, absolute, with re-rooting off), both sides resolve to the
// same file and the deletes apply.
func TestCatPositionDeletesPathMap(t *testing.T) {
	real := testutil.RealDir(t)
	t.Chdir(real)
	const ice = "impala/testdata/data/iceberg_test"
	tbl := ice + "/hadoop_catalog/ice/iceberg_v2_partitioned_position_deletes_orc"
	want, errOut, code := runCLI(t, "cat", tbl, "--format", "csv", "--workers", "1")
	if code != exitOK || errOut != "" || strings.Count(want, "\n") != 11 {
		t.Fatalf("cat: code %d, stderr %q, stdout:\n%s", code, errOut, want)
	}
	abs, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--path-map", "/test-warehouse/iceberg_test=" + ice},
		{"--path-map", "/test-warehouse/iceberg_test=./" + ice},
		{"--path-map", "/test-warehouse/iceberg_test=" + abs + "/" + ice},
		{"--no-rebase", "--path-map", "/test-warehouse/iceberg_test/hadoop_catalog/ice/iceberg_v2_partitioned_position_deletes_orc=" + tbl},
		{"--no-rebase", "--path-map", "/test-warehouse/iceberg_test/hadoop_catalog/ice/iceberg_v2_partitioned_position_deletes_orc=" + abs + "/" + tbl},
	} {
		out, errOut, code := runCLI(t, append([]string{"cat", tbl, "--format", "csv", "--workers", "1"}, args...)...)
		if code != exitOK || errOut != "" || out != want {
			t.Errorf("cat %q: code %d, stderr %q, stdout:\n%s\nwant:\n%s", args, code, errOut, out, want)
		}
	}
	both := ice + "/hadoop_catalog/ice/iceberg_v2_delete_both_eq_and_pos"
	want, _, _ = runCLI(t, "cat", both, "--format", "csv", "--workers", "1")
	if strings.Count(want, "\n") != 3 {
		t.Fatalf("cat %s: want 2 rows, got:\n%s", both, want)
	}
	out, errOut, code := runCLI(t, "cat", both, "--format", "csv", "--workers", "1", "--path-map", "/test-warehouse/iceberg_test="+abs+"/"+ice)
	if code != exitOK || errOut != "" || out != want {
		t.Errorf("cat --path-map absolute %s: code %d, stderr %q, stdout:\n%s\nwant:\n%s", both, code, errOut, out, want)
	}
}

// TestCatGarbageFileOfItsFormat: a data file or an equality delete file
// overwritten with random bytes, whose manifest names it PARQUET, is
// corrupt (exit 3, reader.ErrNotItsFormat), not of an unknown format
// (exit 4).
func TestCatGarbageFileOfItsFormat(t *testing.T) {
	garbage := []byte("\xdc8\xd8\x84 not a Parquet file at all")
	orders := filepath.Join(t.TempDir(), "orders")
	copyTree(t, filepath.Join("..", "..", "testdata", "orders"), orders)
	if err := os.WriteFile(filepath.Join(orders, "data", "00001-orders-schema1.parquet"), garbage, 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runCLI(t, "cat", orders)
	if code != exitCorrupt || !strings.Contains(errOut, "00001-orders-schema1.parquet: reader: file is not in the format its table names: the table names its format PARQUET") {
		t.Errorf("garbage data file: code %d, stderr %q", code, errOut)
	}
	tbl, err := reader.OpenTable(context.Background(), orders, reader.TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rr, err := tbl.Scan(context.Background())
	if err == nil {
		for rr.Next() {
		}
		err = rr.Err()
		rr.Release()
	}
	if !errors.Is(err, reader.ErrNotItsFormat) || !errors.Is(err, lakecat.ErrCorrupt) || errors.Is(err, reader.ErrUnknownFormat) {
		t.Errorf("garbage data file: %v", err)
	}

	eq := filepath.Join(t.TempDir(), "eq")
	copyTree(t, filepath.Join(testutil.RealDir(t), "duckdb-iceberg/data/persistent/equality_delete_extra_column"), eq)
	del, err := filepath.Glob(filepath.Join(eq, "warehouse/ns/t/data/val_bucket=0/eq-delete-*.parquet"))
	if err != nil || len(del) != 1 {
		t.Fatalf("eq-delete files %v: %v", del, err)
	}
	if err := os.WriteFile(del[0], garbage, 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = runCLI(t, "cat", filepath.Join(eq, "warehouse/ns/t/metadata/vfinal.metadata.json"))
	if code != exitCorrupt || !strings.Contains(errOut, "equality deletes of ") || !strings.Contains(errOut, filepath.Base(del[0])+": reader: file is not in the format its table names") {
		t.Errorf("garbage equality delete file: code %d, stderr %q", code, errOut)
	}
}

// TestCatGarbageFileInMergeSection: a garbage data file inside a Paimon
// merge section (its manifest names it PARQUET) is corrupt for cat, files
// and plan alike (exit 3, reader.ErrNotItsFormat), not of an unknown
// format (exit 4).
func TestCatGarbageFileInMergeSection(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "paimon_orders")
	copyTree(t, filepath.Join("..", "..", "testdata", "paimon_orders"), dir)
	if err := os.WriteFile(filepath.Join(dir, "bucket-3", "data-00000000-0000-0000-0000-000000000013-0.parquet"), []byte("\xdc8\xd8\x84 not a Parquet file at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, verb := range []string{"cat", "files", "plan"} {
		_, errOut, code := runCLI(t, verb, dir)
		if code != exitCorrupt || !strings.Contains(errOut, "data-00000000-0000-0000-0000-000000000013-0.parquet: reader: file is not in the format its table names") {
			t.Errorf("%s: code %d, stderr %q", verb, code, errOut)
		}
	}
}

// TestDeleteColumnsUnknownCount: a delete file whose record count the
// metadata does not state (a Paimon deletion vector without cardinality:
// -1) shows "?" in files' text and no record-count in its JSON, never -1.
func TestDeleteColumnsUnknownCount(t *testing.T) {
	deletes, deleted := deleteColumns([]table.DeleteFile{{Content: table.PaimonDeletionVector, Path: "index/dv-1", RecordCount: -1}})
	if deletes != "paimon-deletion-vector ? (index/dv-1)" || deleted != "?" {
		t.Errorf("deleteColumns: %q, %q", deletes, deleted)
	}
}
