package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// writeRowGroups writes a Parquet file without field ids of 1000 rows (a
// int64 = row, b string = "r<row>") in 100-row row groups.
func writeRowGroups(t *testing.T, path string) {
	t.Helper()
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64},
		{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), sc)
	defer b.Release()
	for i := range 1000 {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("r%d", i))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	tbl := array.NewTableFromRecords(sc, []arrow.RecordBatch{rec})
	defer tbl.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := pqarrow.WriteTable(tbl, f, 100, nil, pqarrow.DefaultWriterProps()); err != nil {
		t.Fatal(err)
	}
}

// TestCatWorkers: --workers applies to data files. One file of ten row
// groups prints the same rows in the same order with 1 and 3 workers;
// several FILE arguments are read through one scan, in argument order; a
// file of another schema is still refused; --workers -1 is a usage error.
func TestCatWorkers(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "groups.parquet")
	writeRowGroups(t, file)
	var want strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&want, "%d,r%d\n", i, i)
	}
	body := want.String()
	for _, w := range []string{"1", "3"} {
		out, errOut, code := runCLI(t, "cat", file, "--format", "csv", "--workers", w, "--batch-rows", "30")
		if code != exitOK || errOut != "" || out != "a,b\n"+body {
			t.Errorf("--workers %s: exit %d, stderr %q, stdout %.60q…", w, code, errOut, out)
		}
	}
	out, errOut, code := runCLI(t, "cat", file, file, file, "--format", "csv", "--workers", "2")
	if code != exitOK || errOut != "" || out != "a,b\n"+body+body+body {
		t.Errorf("three files: exit %d, stderr %q, %d bytes of stdout", code, errOut, len(out))
	}
	out, errOut, code = runCLI(t, "cat", file, file, "--format", "csv", "--limit", "1001")
	if code != exitOK || out != "a,b\n"+body+"0,r0\n" {
		t.Errorf("two files, --limit 1001: exit %d, stderr %q, %d bytes of stdout", code, errOut, len(out))
	}
	other := filepath.Join(dir, "other.parquet")
	writeNoIDs(t, other)
	if _, errOut, code := runCLI(t, "cat", file, other, "--workers", "2"); code != exitUsage || !strings.Contains(errOut, "schema differs from") {
		t.Errorf("other schema: exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code := runCLI(t, "cat", file, "--workers", "-1"); code != exitUsage || !strings.Contains(errOut, "--workers must be ≥ 0") {
		t.Errorf("--workers -1: exit %d, stderr %q", code, errOut)
	}
}

// TestCatMemoryFiles: --memory applies to FILE arguments too (one file, and
// several read through one scan, whose budget it is, here a budget smaller
// than one batch); a bad size is a usage error and a table flag is still
// refused.
func TestCatMemoryFiles(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "groups.parquet")
	writeRowGroups(t, file)
	var want strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&want, "%d,r%d\n", i, i)
	}
	body := want.String()
	out, errOut, code := runCLI(t, "cat", file, "--format", "csv", "--memory", "64MiB")
	if code != exitOK || errOut != "" || out != "a,b\n"+body {
		t.Errorf("one file, --memory 64MiB: exit %d, stderr %q, %d bytes of stdout", code, errOut, len(out))
	}
	out, errOut, code = runCLI(t, "cat", file, file, "--format", "csv", "--memory", "1KiB", "--workers", "2", "--batch-rows", "50")
	if code != exitOK || errOut != "" || out != "a,b\n"+body+body {
		t.Errorf("two files, --memory 1KiB: exit %d, stderr %q, %d bytes of stdout", code, errOut, len(out))
	}
	if _, errOut, code := runCLI(t, "cat", file, "--memory", "6xx"); code != exitUsage || !strings.Contains(errOut, `--memory "6xx"`) {
		t.Errorf("--memory 6xx: exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code := runCLI(t, "cat", file, "--memory", "1MiB", "--raw"); code != exitUsage || errOut != "lakecat: --raw applies to a TABLE, not to data files\n" {
		t.Errorf("--raw: exit %d, stderr %q", code, errOut)
	}
}
