package reader_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/formats/puffin"
	"github.com/lakecat/lakecat/internal/icebergwrite"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
)

//go:generate go run ./testdata/deletes/gen testdata/deletes

const deletesDir = "testdata/deletes/"

// TestDeletesGenerated reads the generated tables of testdata/deletes
// (see its generator for what each holds) with deletes applied.
func TestDeletesGenerated(t *testing.T) {
	cases := []struct {
		name, table string
		opts        reader.TableOptions
		rows        []string // in scan order
	}{
		{
			// d1 (seq 1) loses 2 and 4 to e1 (seq 2, written as id int,
			// read as key long) and 1 to e2 (seq 3); d2 (seq 3) keeps 4,
			// older than it, and 7, of its own sequence number.
			name: "renamed and widened key, older and same-sequence deletes", table: "eq_evolved",
			rows: []string{`{"key":3,"name":"old3"}`, `{"key":5,"name":"old5"}`, `{"key":6,"name":"old6"}`, `{"key":4,"name":"new4"}`, `{"key":7,"name":"new7"}`},
		},
		{
			name: "key not selected", table: "eq_evolved", opts: reader.TableOptions{Columns: []string{"name"}},
			rows: []string{`{"name":"old3"}`, `{"name":"old5"}`, `{"name":"old6"}`, `{"name":"new4"}`, `{"name":"new7"}`},
		},
		{
			// The global delete (unpartitioned spec) removes id 1 in both
			// partitions; the region=a delete removes id 2 in a only.
			name: "global equality delete", table: "eq_global",
			rows: []string{`{"id":3,"region":"a"}`, `{"id":2,"region":"b"}`, `{"id":3,"region":"b"}`},
		},
		{
			// The DV (3, 5) replaces the older position delete file (1).
			name: "deletion vector replaces position deletes", table: "v3_dv", opts: reader.TableOptions{MetadataColumns: []string{"_pos"}},
			rows: []string{`{"id":0,"v":"v0","_pos":0}`, `{"id":1,"v":"v1","_pos":1}`, `{"id":2,"v":"v2","_pos":2}`, `{"id":4,"v":"v4","_pos":4}`,
				`{"id":6,"v":"v6","_pos":6}`, `{"id":7,"v":"v7","_pos":7}`, `{"id":8,"v":"v8","_pos":8}`, `{"id":9,"v":"v9","_pos":9}`},
		},
		{
			// null = null and NaN = NaN: (NaN, x), (null, y), (null, null)
			// are deleted; (NaN, w) and (2, null) differ in one key.
			name: "nulls and NaNs", table: "eq_nulls",
			rows: []string{`{"k":1,"s":"z","n":4}`, `{"k":"NaN","s":"w","n":5}`, `{"k":2,"s":null,"n":6}`},
		},
		{
			name: "nulls and NaNs, _deleted", table: "eq_nulls", opts: reader.TableOptions{Columns: []string{"n", "_deleted"}},
			rows: []string{`{"n":1,"_deleted":true}`, `{"n":2,"_deleted":true}`, `{"n":3,"_deleted":true}`, `{"n":4,"_deleted":false}`, `{"n":5,"_deleted":false}`, `{"n":6,"_deleted":false}`},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := tableRows(t, deletesDir+c.table, c.opts, true)
			if strings.Join(got, "\n") != strings.Join(c.rows, "\n") {
				t.Errorf("rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.rows, "\n"))
			}
		})
	}
}

// posRowGroupsDeleted mirrors the generator's posDeleted.
func posRowGroupsDeleted(i int64) bool {
	return i%7 == 3 || (i >= 995 && i <= 1004) || (i >= 1500 && i < 1600) || i == 2499 || i == 0
}

// TestPositionDeletesAcrossBatches: pos_rowgroups' 452 deleted positions
// (runs over the row-group boundary at 1000 and the batch boundaries of
// 256 rows, a whole batch 1536..1791 partly, the first and last row) are
// gone, read whole, in batches of 256 and 1000 rows, split per row group,
// and as JSON-encoded tasks; _pos is the file position of every survivor.
func TestPositionDeletesAcrossBatches(t *testing.T) {
	var want []string
	for i := int64(0); i < 2500; i++ {
		if !posRowGroupsDeleted(i) {
			want = append(want, fmt.Sprintf(`{"id":%d,"_pos":%d}`, i, i))
		}
	}
	if len(want) != 2048 {
		t.Fatalf("%d expected rows", len(want))
	}
	for _, o := range []reader.TableOptions{{}, {BatchRows: 256}, {BatchRows: 1000}, {BatchRows: 256, SplitBytes: 1}} {
		o.Columns = []string{"id", "_pos"}
		got := tableRows(t, deletesDir+"pos_rowgroups", o, true)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("batch rows %d, split %d: %d rows, want %d", o.BatchRows, o.SplitBytes, len(got), len(want))
		}
	}

	// Tasks travel: encode, decode, read with ReadTask.
	mem := testutil.CheckedAllocator(t)
	ctx := context.Background()
	tbl, err := reader.OpenTable(ctx, deletesDir+"pos_rowgroups", reader.TableOptions{Columns: []string{"id", "_pos"}, SplitBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := tbl.Tasks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 3 {
		t.Fatalf("%d tasks, want one per row group (3)", len(tasks))
	}
	var got []string
	for _, task := range tasks {
		b, err := json.Marshal(task)
		if err != nil {
			t.Fatal(err)
		}
		var back table.Task
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if len(back.Deletes) != 2 || back.Paths == nil {
			t.Fatalf("decoded task: %d deletes, paths %v", len(back.Deletes), back.Paths)
		}
		rr, err := reader.ReadTask(ctx, storage.OSFS{}, back, reader.TaskOptions{Allocator: mem, BatchRows: 300})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.Split(strings.TrimSuffix(testutil.ReaderJSON(t, rr), "\n"), "\n")...)
		rr.Release()
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tasks read: %d rows, want %d", len(got), len(want))
	}

	// _deleted keeps all 2500 rows, 452 flagged.
	rows := tableRows(t, deletesDir+"pos_rowgroups", reader.TableOptions{Columns: []string{"id", "_deleted"}, BatchRows: 256}, true)
	flagged := 0
	for i, r := range rows {
		d := posRowGroupsDeleted(int64(i))
		if r != fmt.Sprintf(`{"id":%d,"_deleted":%t}`, i, d) {
			t.Fatalf("row %d: %s", i, r)
		}
		if d {
			flagged++
		}
	}
	if len(rows) != 2500 || flagged != 452 {
		t.Errorf("%d rows, %d flagged; want 2500, 452", len(rows), flagged)
	}
}

// scanError opens the table at dir and reads it to the end, returning the
// first error.
func scanError(t *testing.T, dir string) error {
	t.Helper()
	mem := testutil.CheckedAllocator(t)
	ctx := context.Background()
	tbl, err := reader.OpenTable(ctx, dir, reader.TableOptions{Allocator: mem})
	if err != nil {
		return err
	}
	rr, err := tbl.Scan(ctx)
	if err != nil {
		return err
	}
	defer rr.Release()
	for rr.Next() {
	}
	return rr.Err()
}

func copyTable(t *testing.T, name string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dst, os.DirFS(deletesDir+name)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestCorruptDeleteFiles: each bad delete file is a *DeleteFileError
// naming it, of the class lakecat.ErrCorrupt (a dropped equality column:
// ErrUnsupported), never a panic or silently wrong rows.
func TestCorruptDeleteFiles(t *testing.T) {
	flipDV := func(off int64) func(t *testing.T, dir string) string {
		return func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "data/dv.puffin")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			b[off] ^= 0x40
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	newTable := func(t *testing.T, dir string, dels func(*icebergwrite.Table, icebergwrite.File) (icebergwrite.File, error)) string {
		tb := &icebergwrite.Table{Dir: dir, Location: "/warehouse/t", FormatVersion: 2, LastColumnID: 1,
			Schemas: []string{`{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": true, "type": "long"}]}`},
			Specs:   []icebergwrite.Spec{{ID: 0}}}
		type row struct {
			ID int64 `parquet:"id,id(1)"`
		}
		rows := make([]row, 10)
		for i := range rows {
			rows[i].ID = int64(i)
		}
		d, err := icebergwrite.WriteParquet(tb, "data/d.parquet", rows, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := tb.Commit(d); err != nil {
			t.Fatal(err)
		}
		del, err := dels(tb, d)
		if err != nil {
			t.Fatal(err)
		}
		if err := tb.Commit(del); err != nil {
			t.Fatal(err)
		}
		if err := tb.WriteMetadata(); err != nil {
			t.Fatal(err)
		}
		return filepath.Join(dir, "data/del.parquet")
	}
	cases := []struct {
		name  string
		class error
		setup func(t *testing.T) (dir, deleteFile string)
		want  string
	}{
		{"DV bad CRC", puffin.ErrCorrupt, func(t *testing.T) (string, string) {
			dir := copyTable(t, "v3_dv")
			return dir, flipDV(4+12)(t, dir) // a bitmap byte: the CRC no longer matches
		}, "corrupt deletion vector crc"},
		{"DV wrong magic", puffin.ErrCorrupt, func(t *testing.T) (string, string) {
			dir := copyTable(t, "v3_dv")
			return dir, flipDV(4+5)(t, dir)
		}, "corrupt deletion vector magic"},
		{"DV beyond the file", puffin.ErrCorrupt, func(t *testing.T) (string, string) {
			dir := copyTable(t, "v3_dv")
			p := filepath.Join(dir, "data/dv.puffin")
			if err := os.Truncate(p, 20); err != nil {
				t.Fatal(err)
			}
			return dir, p
		}, "does not fit in a file of 20 bytes"},
		{"position beyond the row count", reader.ErrCorruptDeleteFile, func(t *testing.T) (string, string) {
			dir := t.TempDir()
			return dir, newTable(t, dir, func(tb *icebergwrite.Table, d icebergwrite.File) (icebergwrite.File, error) {
				return icebergwrite.WritePositionDeletes(tb, "data/del.parquet", []icebergwrite.PositionDelete{{FilePath: d.Path, Pos: 3}, {FilePath: d.Path, Pos: 10}})
			})
		}, "position 10 is beyond the data file's 10 rows"},
		{"position deletes fewer than the record count", reader.ErrCorruptDeleteFile, func(t *testing.T) (string, string) {
			dir := t.TempDir()
			return dir, newTable(t, dir, func(tb *icebergwrite.Table, d icebergwrite.File) (icebergwrite.File, error) {
				f, err := icebergwrite.WritePositionDeletes(tb, "data/del.parquet", []icebergwrite.PositionDelete{{FilePath: d.Path, Pos: 3}, {FilePath: d.Path, Pos: 5}})
				f.Records = 3 // the manifest entry states 3, the file holds 2
				return f, err
			})
		}, "read 2 rows, the manifest entry states a record count of 3"},
		{"equality deletes more than the record count", reader.ErrCorruptDeleteFile, func(t *testing.T) (string, string) {
			dir := t.TempDir()
			return dir, newTable(t, dir, func(tb *icebergwrite.Table, d icebergwrite.File) (icebergwrite.File, error) {
				type key struct {
					ID int64 `parquet:"id,id(1)"`
				}
				f, err := icebergwrite.WriteParquet(tb, "data/del.parquet", []key{{1}, {2}}, 0)
				f.Content, f.EqualityIDs, f.Records = icebergwrite.EqualityDeletes, []int{1}, 1
				return f, err
			})
		}, "read 2 rows, the manifest entry states a record count of 1"},
		{"no file_path", lakecat.ErrMissingRequiredField, func(t *testing.T) (string, string) {
			dir := t.TempDir()
			return dir, newTable(t, dir, func(tb *icebergwrite.Table, d icebergwrite.File) (icebergwrite.File, error) {
				type posOnly struct {
					Pos int64 `parquet:"pos,id(2147483545)"`
				}
				f, err := icebergwrite.WriteParquet(tb, "data/del.parquet", []posOnly{{1}}, 0)
				f.Content = icebergwrite.PositionDeletes
				return f, err
			})
		}, "2147483546"},
		{"dropped equality column", reader.ErrEqualityField, func(t *testing.T) (string, string) {
			dir := t.TempDir()
			return dir, newTable(t, dir, func(tb *icebergwrite.Table, d icebergwrite.File) (icebergwrite.File, error) {
				type gone struct {
					X int64 `parquet:"x,id(9)"`
				}
				f, err := icebergwrite.WriteParquet(tb, "data/del.parquet", []gone{{1}}, 0)
				f.Content, f.EqualityIDs = icebergwrite.EqualityDeletes, []int{9}
				return f, err
			})
		}, "equality field id 9"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, delFile := c.setup(t)
			err := scanError(t, dir)
			var de *reader.DeleteFileError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v, want a *DeleteFileError", err)
			}
			if de.DeleteFile != filepath.ToSlash(delFile) || !strings.Contains(err.Error(), filepath.ToSlash(delFile)) {
				t.Errorf("delete file %q, want %q (err %v)", de.DeleteFile, delFile, err)
			}
			if !errors.Is(err, c.class) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want %v and %q", err, c.class, c.want)
			}
			wantClass := lakecat.ErrCorrupt
			if c.class == reader.ErrEqualityField {
				wantClass = lakecat.ErrUnsupported
			}
			if !errors.Is(err, wantClass) {
				t.Errorf("err = %v, not of class %v", err, wantClass)
			}
		})
	}
}

// TestMissingDeleteFile: a delete file that is gone is a DeleteFileError
// naming it, of the not-found class (not corrupt).
func TestMissingDeleteFile(t *testing.T) {
	dir := copyTable(t, "v3_dv")
	p := filepath.Join(dir, "data/dv.puffin")
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	err := scanError(t, dir)
	var de *reader.DeleteFileError
	if !errors.As(err, &de) || de.DeleteFile != filepath.ToSlash(p) || lakecat.ClassOf(err) != lakecat.ErrNotFound {
		t.Fatalf("err = %v, want a not-found DeleteFileError naming %s", err, p)
	}
}

// TestDamagedRealORCPositionDeletes: a copy of Impala's table whose ORC
// position delete file has one bit flipped (in its stripe's data) no longer
// yields the 3 deletes its manifest entry states: the scan fails with
// ErrCorruptDeleteFile naming the file instead of bringing the deleted
// rows back.
func TestDamagedRealORCPositionDeletes(t *testing.T) {
	src := testutil.RealDir(t, "impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_v2_partitioned_position_deletes_orc")
	dir := filepath.Join(t.TempDir(), "t")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	if err := scanError(t, dir); err != nil {
		t.Fatalf("undamaged copy: %v", err)
	}
	del := filepath.Join(dir, "data/action=click/00000-0-delete-boroknagyz_20220830173925_010bf879-cf2f-4209-a70b-1a8309657106-job_16618645111571_0006-00002.orc")
	b, err := os.ReadFile(del)
	if err != nil {
		t.Fatal(err)
	}
	b[1165] ^= 2
	if err := os.WriteFile(del, b, 0o644); err != nil {
		t.Fatal(err)
	}
	err = scanError(t, dir)
	var de *reader.DeleteFileError
	if !errors.As(err, &de) || !errors.Is(err, reader.ErrCorruptDeleteFile) || !errors.Is(err, lakecat.ErrCorrupt) {
		t.Fatalf("err = %v, want a *DeleteFileError of ErrCorruptDeleteFile", err)
	}
	if de.DeleteFile != filepath.ToSlash(del) {
		t.Errorf("delete file %q, want %q", de.DeleteFile, del)
	}
}

// TestDamagedRealORCDictionaryDeletes: a copy of Impala's table whose
// action=view ORC position delete file has byte 398 flipped, in the LENGTH
// stream of file_path's dictionary, no longer brings back the 4 rows it
// deletes (the scan gave 14 rows, not 10): it fails with
// ErrCorruptDeleteFile naming the file.
func TestDamagedRealORCDictionaryDeletes(t *testing.T) {
	src := testutil.RealDir(t, "impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_v2_partitioned_position_deletes_orc")
	dir := filepath.Join(t.TempDir(), "t")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	del := filepath.Join(dir, "data/action=view/00000-0-delete-boroknagyz_20220830173925_010bf879-cf2f-4209-a70b-1a8309657106-job_16618645111571_0006-00001.orc")
	b, err := os.ReadFile(del)
	if err != nil {
		t.Fatal(err)
	}
	b[398] ^= 0xff
	if err := os.WriteFile(del, b, 0o644); err != nil {
		t.Fatal(err)
	}
	err = scanError(t, dir)
	var de *reader.DeleteFileError
	if !errors.As(err, &de) || !errors.Is(err, reader.ErrCorruptDeleteFile) || !errors.Is(err, lakecat.ErrCorrupt) {
		t.Fatalf("err = %v, want a *DeleteFileError of ErrCorruptDeleteFile", err)
	}
	if de.DeleteFile != filepath.ToSlash(del) {
		t.Errorf("delete file %q, want %q", de.DeleteFile, del)
	}
}
