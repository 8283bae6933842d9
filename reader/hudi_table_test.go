package reader_test

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pqparquet "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/parquet-go/parquet-go"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/table/hudi"
)

// unzipHudi extracts a hudi-rs sample table zip (read in place from the
// shared real test data) into a temporary folder, leaving out macOS
// "__MACOSX" entries, and returns the table folder.
func unzipHudi(t *testing.T, rel, table string) string {
	t.Helper()
	zp := filepath.Join(testutil.RealDir(t, "hudi-rs", "crates", "test", "data", "sample_table"), rel)
	zr, err := zip.OpenReader(zp)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	dst := t.TempDir()
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "__MACOSX") || f.FileInfo().IsDir() {
			continue
		}
		p := filepath.Join(dst, filepath.FromSlash(f.Name))
		if !strings.HasPrefix(p, dst+string(filepath.Separator)) {
			t.Fatalf("zip entry %q escapes the folder", f.Name)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dst, table)
}

// hudiRows are the latest snapshot of hudi-rs's sample tables as their SQL
// scripts state it (hudi-rs/EXPECTED.md): ids 1–3 inserted, then id 1
// upserted (isActive false) and id 4 inserted. Sorted as strings.
const hudiRows = `
{"id":1,"name":"Alice","isActive":false,"byteField":1,"shortField":300,"intField":15000,"longField":1234567890,"floatField":1,"doubleField":3.14159,"decimalField":"12345.67890","dateField":"2023-04-01","timestampField":"2023-04-01T12:01:00.000000Z","binaryField":"YmluYXJ5IGRhdGE=","arrayField":[{"arr_struct_f1":"red","arr_struct_f2":100},{"arr_struct_f1":"blue","arr_struct_f2":200},{"arr_struct_f1":"green","arr_struct_f2":300}],"mapField":{"key1":{"map_field_value_struct_f1":123.456,"map_field_value_struct_f2":true},"key2":{"map_field_value_struct_f1":789.012,"map_field_value_struct_f2":false}},"structField":{"field1":"Alice","field2":30,"child_struct":{"child_field1":123.456,"child_field2":true}}}
{"id":2,"name":"Bob","isActive":false,"byteField":0,"shortField":100,"intField":25000,"longField":9876543210,"floatField":2,"doubleField":2.71828,"decimalField":"67890.12345","dateField":"2023-04-02","timestampField":"2023-04-02T13:02:00.000000Z","binaryField":"bW9yZSBiaW5hcnkgZGF0YQ==","arrayField":[{"arr_struct_f1":"yellow","arr_struct_f2":400},{"arr_struct_f1":"purple","arr_struct_f2":500}],"mapField":{"key3":{"map_field_value_struct_f1":234.567,"map_field_value_struct_f2":true},"key4":{"map_field_value_struct_f1":567.89,"map_field_value_struct_f2":false}},"structField":{"field1":"Bob","field2":40,"child_struct":{"child_field1":789.012,"child_field2":false}}}
{"id":3,"name":"Carol","isActive":true,"byteField":1,"shortField":200,"intField":35000,"longField":1928374650,"floatField":3,"doubleField":1.41421,"decimalField":"11111.22222","dateField":"2023-04-03","timestampField":"2023-04-03T14:03:00.000000Z","binaryField":"ZXZlbiBtb3JlIGJpbmFyeSBkYXRh","arrayField":[{"arr_struct_f1":"black","arr_struct_f2":600},{"arr_struct_f1":"white","arr_struct_f2":700},{"arr_struct_f1":"pink","arr_struct_f2":800}],"mapField":{"key5":{"map_field_value_struct_f1":345.678,"map_field_value_struct_f2":true},"key6":{"map_field_value_struct_f1":654.321,"map_field_value_struct_f2":false}},"structField":{"field1":"Carol","field2":25,"child_struct":{"child_field1":456.789,"child_field2":true}}}
{"id":4,"name":"Diana","isActive":true,"byteField":1,"shortField":500,"intField":45000,"longField":987654321,"floatField":4,"doubleField":2.468,"decimalField":"65432.12345","dateField":"2023-04-04","timestampField":"2023-04-04T15:04:00.000000Z","binaryField":"bmV3IGJpbmFyeSBkYXRh","arrayField":[{"arr_struct_f1":"orange","arr_struct_f2":900},{"arr_struct_f1":"gray","arr_struct_f2":1000}],"mapField":{"key7":{"map_field_value_struct_f1":456.789,"map_field_value_struct_f2":true},"key8":{"map_field_value_struct_f1":123.456,"map_field_value_struct_f2":false}},"structField":{"field1":"Diana","field2":50,"child_struct":{"child_field1":987.654,"child_field2":true}}}
`

// TestHudiCopyOnWrite reads hudi-rs's v8 copy-on-write table: the latest
// base file of each file group (id 1's upsert replaced its first file),
// every column located by name through the writing commit's Avro schema
// (the files have no field ids). The rows equal the values the table's SQL
// script states (hudi-rs/EXPECTED.md).
func TestHudiCopyOnWrite(t *testing.T) {
	dir := unzipHudi(t, "cow/v8_nonpartitioned.zip", "v8_nonpartitioned")
	got := scanTableRows(t, dir, reader.TableOptions{})
	if want := rowsOf(hudiRows); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestHudiMergeOnRead: hudi-rs's v6 merge-on-read table keeps id 1's upsert
// in a Parquet data block of a log file. Read by default, the log is merged
// onto the base file: the rows equal those hudi-rs's SQL script states for
// the table (the same as the copy-on-write table's). With IgnoreLogs the
// base files alone are read (id 1 still isActive true, its value before the
// upsert) and Warn is told.
func TestHudiMergeOnRead(t *testing.T) {
	dir := unzipHudi(t, "mor/parquet/v6_nonpartitioned.zip", "v6_nonpartitioned")
	got := scanTableRows(t, dir, reader.TableOptions{})
	if want := rowsOf(hudiRows); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("merged rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var warnings []string
	got = scanTableRows(t, dir, reader.TableOptions{Warn: func(m string) { warnings = append(warnings, m) }, FormatOptions: hudi.Options{IgnoreLogs: true}})
	want := rowsOf(strings.Replace(hudiRows, `{"id":1,"name":"Alice","isActive":false`, `{"id":1,"name":"Alice","isActive":true`, 1))
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("base rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0], "reading base files only: hudi: merge-on-read log files: 1 log files") {
		t.Errorf("warnings %q", warnings)
	}
}

// writeHudiTable writes a copy-on-write Hudi table (table version 6 layout:
// instants in .hoodie/) whose commits each wrote one Parquet base file
// without field ids, as Spark writes them. files maps a base file name
// (<fileId>_<writeToken>_<instant>.parquet) to the rows to write; commits
// maps each instant to its Avro schema; history, when set, is the schema
// history .hoodie/.schema/<instant>.schemacommit.
func writeHudiTable(t *testing.T, commits map[string]string, history string, write func(dir string)) string {
	t.Helper()
	dir := t.TempDir()
	put := func(rel, data string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put(".hoodie/hoodie.properties", "hoodie.table.name=t\nhoodie.table.type=COPY_ON_WRITE\nhoodie.table.version=6\n")
	last := ""
	for instant, avro := range commits {
		q := strings.ReplaceAll(strings.ReplaceAll(avro, `\`, `\\`), `"`, `\"`)
		put(".hoodie/"+instant+".commit", `{"partitionToWriteStats":{"":[]},"extraMetadata":{"schema":"`+q+`"},"operationType":"UPSERT"}`)
		last = max(last, instant)
	}
	if history != "" {
		put(".hoodie/.schema/"+last+".schemacommit", history)
	}
	write(dir)
	return dir
}

func writeParquetFile[T any](t *testing.T, path string, rows []T) {
	t.Helper()
	if err := parquet.WriteFile(path, rows); err != nil {
		t.Fatal(err)
	}
}

// A column dropped and later re-added under the same name is a new column
// (Hudi schema on read gives it a new id): the old file's data under that
// name must not come back. Schema history: v1 id#0, note#1; v2 drops note;
// v3 re-adds note as id#2. The file of instant 1 holds note "old", the file
// of instant 3 note "new": reading with v3, the first reads null.
func TestHudiDroppedThenReAddedColumn(t *testing.T) {
	type rec struct {
		ID   int32   `parquet:"id"`
		Note *string `parquet:"note,optional"`
	}
	avro := `{"type":"record","name":"t_record","fields":[{"name":"id","type":"int"},{"name":"note","type":["null","string"],"default":null}]}`
	history := `{"schemas":[
{"max_column_id":1,"version-id":20240101000000001,"type":"record","fields":[
 {"id":0,"name":"id","optional":false,"type":"int"},{"id":1,"name":"note","optional":true,"type":"string"}]},
{"max_column_id":1,"version-id":20240101000000002,"type":"record","fields":[
 {"id":0,"name":"id","optional":false,"type":"int"}]},
{"max_column_id":2,"version-id":20240101000000003,"type":"record","fields":[
 {"id":0,"name":"id","optional":false,"type":"int"},{"id":2,"name":"note","optional":true,"type":"string"}]}]}`
	old, nw := "old", "new"
	dir := writeHudiTable(t, map[string]string{"20240101000000001": avro, "20240101000000003": avro}, history, func(dir string) {
		writeParquetFile(t, filepath.Join(dir, "g1_0-1-1_20240101000000001.parquet"), []rec{{1, &old}})
		writeParquetFile(t, filepath.Join(dir, "g2_0-1-1_20240101000000003.parquet"), []rec{{2, &nw}})
	})
	got := scanTableRows(t, dir, reader.TableOptions{})
	want := rowsOf(`
{"id":1,"note":null}
{"id":2,"note":"new"}`)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Case A6 (apache/hudi#7444) as a table: the first commit wrote userId as
// int (INT32 1, 2), the second widened it to long (INT64 3). Each base file
// is decoded with its own physical type and widened under Hudi's rules.
func TestHudiIntToLongAcrossFileGroups(t *testing.T) {
	type v1 struct {
		UserID int32 `parquet:"userId"`
	}
	type v2 struct {
		UserID int64 `parquet:"userId"`
	}
	dir := writeHudiTable(t, map[string]string{
		"20240101000000001": `{"type":"record","name":"t_record","fields":[{"name":"userId","type":"int"}]}`,
		"20240101000000002": `{"type":"record","name":"t_record","fields":[{"name":"userId","type":"long"}]}`,
	}, "", func(dir string) {
		writeParquetFile(t, filepath.Join(dir, "g1_0-1-1_20240101000000001.parquet"), []v1{{1}, {2}})
		writeParquetFile(t, filepath.Join(dir, "g2_0-1-1_20240101000000002.parquet"), []v2{{3}})
	})
	got := scanTableRows(t, dir, reader.TableOptions{})
	if want := rowsOf("{\"userId\":1}\n{\"userId\":2}\n{\"userId\":3}"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s", strings.Join(got, "\n"))
	}
	tbl, err := reader.OpenTable(context.Background(), dir, reader.TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if typ := tbl.ReadSchema.Fields[0].Type.String(); typ != "long" {
		t.Errorf("read type %s, want long", typ)
	}
}

// writeArrowParquet writes rows (JSON) of schema sc as a Parquet file
// without field ids (pqarrow; decimals as fixed_len_byte_array of the
// precision's minimal width).
func writeArrowParquet(t *testing.T, path string, sc *arrow.Schema, rows string) {
	t.Helper()
	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, sc, strings.NewReader(rows))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(sc, f, pqparquet.NewWriterProperties(), pqarrow.NewArrowWriterProperties())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// Case A7 (apache/hudi#6209) as a table: amount decimal(10,2), stored as
// fixed_len_byte_array(5), becomes decimal(20,4) (fixed_len_byte_array(9)).
// Hudi lets the scale grow while the integer digits are kept: the old file's
// 111.11 reads 111.1100 next to the new file's 222.2222.
func TestHudiDecimalWidening(t *testing.T) {
	avro := func(p, s, size int) string {
		return fmt.Sprintf(`{"type":"record","name":"t_record","fields":[{"name":"amount","type":{"type":"fixed","name":"fixed","size":%d,"logicalType":"decimal","precision":%d,"scale":%d}}]}`, size, p, s)
	}
	dir := writeHudiTable(t, map[string]string{
		"20240101000000001": avro(10, 2, 5),
		"20240101000000002": avro(20, 4, 9),
	}, "", func(dir string) {
		for _, f := range []struct {
			name  string
			p, s  int32
			value string
		}{{"g1_0-1-1_20240101000000001.parquet", 10, 2, `"111.11"`}, {"g2_0-1-1_20240101000000002.parquet", 20, 4, `"222.2222"`}} {
			sc := arrow.NewSchema([]arrow.Field{{Name: "amount", Type: &arrow.Decimal128Type{Precision: f.p, Scale: f.s}}}, nil)
			writeArrowParquet(t, filepath.Join(dir, f.name), sc, `[{"amount":`+f.value+`}]`)
		}
	})
	tbl, err := reader.OpenTable(context.Background(), dir, reader.TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if typ := tbl.ReadSchema.Fields[0].Type.String(); typ != "decimal(20, 4)" {
		t.Errorf("read type %s", typ)
	}
	got := scanTableRows(t, dir, reader.TableOptions{})
	if want := `{"amount":"111.1100"}` + "\n" + `{"amount":"222.2222"}`; strings.Join(got, "\n") != want {
		t.Errorf("rows:\n%s", strings.Join(got, "\n"))
	}
}

// TestHudiMergeOnReadFilePos: a row merged from a log record names its log
// file as _file and its index among the log file's records as _pos; it
// never claims the position of a base row (id 1's base row was at 2, Bob
// at 0). The base rows keep their positions in the base file.
func TestHudiMergeOnReadFilePos(t *testing.T) {
	dir := unzipHudi(t, "mor/parquet/v6_nonpartitioned.zip", "v6_nonpartitioned")
	got := scanTableRows(t, dir, reader.TableOptions{Columns: []string{"id", "isActive", "_file", "_pos"}})
	base := filepath.Join(dir, "d206069c-22c8-4532-b9ea-3cf4282342c4-0_0-13-23_20250117083125837.parquet")
	log := filepath.Join(dir, ".d206069c-22c8-4532-b9ea-3cf4282342c4-0_20250117083125837.log.1_0-33-43")
	other := filepath.Join(dir, "d5c0b12d-088d-48e8-9683-3f0c1eabcaf0-0_1-33-44_20250117083136333.parquet")
	row := func(id int, active bool, file string, pos int) string {
		return fmt.Sprintf(`{"id":%d,"isActive":%t,"_file":%q,"_pos":%d}`, id, active, file, pos)
	}
	want := []string{row(1, false, log, 0), row(2, false, base, 0), row(3, true, base, 1), row(4, true, other, 0)}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
