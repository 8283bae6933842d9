package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// writeNoIDs writes a Parquet file of columns a (int64), b (string) and c
// (int32) without field ids, as plain writers do.
func writeNoIDs(t *testing.T, path string) {
	t.Helper()
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64},
		{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "c", Type: arrow.PrimitiveTypes.Int32},
	}, nil)
	rec, _, err := array.RecordFromJSON(memory.NewGoAllocator(), sc, strings.NewReader(`[{"a":1,"b":"x","c":10},{"a":2,"b":null,"c":20}]`))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	tbl := array.NewTableFromRecords(sc, []arrow.RecordBatch{rec})
	defer tbl.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := pqarrow.WriteTable(tbl, f, 1024, nil, pqarrow.DefaultWriterProps()); err != nil {
		t.Fatal(err)
	}
}

// TestColumnsOnFileWithoutIDs: --columns selects from a file without field
// ids, by name, in the order asked for (it was refused, though cat reads
// the file), and an unknown column lists the columns there are.
func TestColumnsOnFileWithoutIDs(t *testing.T) {
	file := filepath.Join(t.TempDir(), "plain.parquet")
	writeNoIDs(t, file)
	out, errOut, code := runCLI(t, "cat", file, "--columns", "c,a", "--format", "csv")
	if code != exitOK || errOut != "" || out != "c,a\n10,1\n20,2\n" {
		t.Errorf("--columns c,a: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	_, errOut, code = runCLI(t, "cat", file, "--columns", "a,d")
	if code != exitNotFound || !strings.Contains(errOut, `column not found: "d" (columns: a, b, c)`) {
		t.Errorf("--columns a,d: exit %d, stderr %q", code, errOut)
	}
}

// TestColumnsOrder: the output follows --columns, for data files read in a
// schema and for a table with metadata columns among them.
func TestColumnsOrder(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "orders")
	out, errOut, code := runCLI(t, "cat", "--format", "csv", "--limit", "2", "--columns", "channel,order_id",
		"--schema", filepath.Join(dir, "metadata", "v1.metadata.json"), filepath.Join(dir, "data", "00000-orders-schema0.parquet"))
	if code != exitOK || out != "channel,order_id\nweb,1\nweb,2\n" {
		t.Errorf("files: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	out, errOut, code = runCLI(t, "cat", dir, "--format", "csv", "--limit", "2", "--columns", "_pos,customer,_spec_id,order_id")
	if code != exitOK || out != "_pos,customer,_spec_id,order_id\n0,alice,0,1\n1,bob,0,2\n" {
		t.Errorf("table: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
}

// TestColumnsDuplicate: a column named twice in --columns is a usage error
// (exit 2) naming it, for data files and for a table, a metadata column
// included (a,a was read once, silently).
func TestColumnsDuplicate(t *testing.T) {
	file := filepath.Join(t.TempDir(), "plain.parquet")
	writeNoIDs(t, file)
	dir := filepath.Join("..", "..", "testdata", "orders")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"cat", file, "--columns", "a,a"}, "lakecat: schema: column selected twice: \"a\"\n"},
		{[]string{"cat", file, "--columns", "a,b", "--columns", "a"}, "lakecat: schema: column selected twice: \"a\"\n"},
		{[]string{"cat", dir, "--columns", "customer,order_id,customer"}, "lakecat: schema: column selected twice: \"customer\"\n"},
		{[]string{"cat", dir, "--columns", "_pos,order_id,_pos"}, "lakecat: schema: column selected twice: \"_pos\"\n"},
	} {
		out, errOut, code := runCLI(t, c.args...)
		if code != exitUsage || out != "" || errOut != c.want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", c.args, code, out, errOut, c.want)
		}
	}
}
