package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// int64Batch returns a batch of one int64 column "n" holding vals.
func int64Batch(mem memory.Allocator, vals ...int64) arrow.RecordBatch {
	sc := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b := array.NewInt64Builder(mem)
	defer b.Release()
	b.AppendValues(vals, nil)
	col := b.NewArray()
	defer col.Release()
	return array.NewRecordBatch(sc, []arrow.Array{col}, int64(len(vals)))
}

// TestTableWriterStreams: the table format prints its header and the first
// tableWidthRows rows before the end of the input, then each later batch
// when written, widening a column for a wider cell.
func TestTableWriterStreams(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	vals := make([]int64, tableWidthRows)
	for i := range vals {
		vals[i] = int64(i % 10)
	}
	first := int64Batch(mem, vals...)
	defer first.Release()
	var out bytes.Buffer
	w := newTableWriter(&out, first.Schema(), nil)
	if err := w.Write(first); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	if len(lines) != tableWidthRows+3 || lines[0] != "n" || lines[1] != "-" || lines[2] != "0" || lines[tableWidthRows+1] != "9" {
		t.Fatalf("after the first batch: %d lines, head %q", len(lines), lines[:3])
	}
	second := int64Batch(mem, 123456, 7)
	defer second.Release()
	if err := w.Write(second); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out.String(), "\n9\n123456\n7\n") {
		t.Fatalf("second batch not printed when written: %q", out.String()[out.Len()-20:])
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out.String(), "\n7\n(1002 rows)\n") {
		t.Errorf("end: %q", out.String()[out.Len()-20:])
	}
}

// TestTableWriterRowCount: "(1 row)", "(0 rows)", and a header for an
// empty result.
func TestTableWriterRowCount(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, tc := range []struct {
		vals []int64
		want string
	}{
		{nil, "n\n-\n(0 rows)\n"},
		{[]int64{42}, "n\n--\n42\n(1 row)\n"},
		{[]int64{1, 2}, "n\n-\n1\n2\n(2 rows)\n"},
	} {
		rec := int64Batch(mem, tc.vals...)
		var out bytes.Buffer
		w := newTableWriter(&out, rec.Schema(), nil)
		if len(tc.vals) > 0 {
			if err := w.Write(rec); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		rec.Release()
		if out.String() != tc.want {
			t.Errorf("%v: %q, want %q", tc.vals, out.String(), tc.want)
		}
	}
}

// writeInt64Parquet writes rows 0..n-1 of one column "n" as an uncompressed
// Parquet file, one row group.
func writeInt64Parquet(t *testing.T, path string, n int) {
	t.Helper()
	mem := memory.NewGoAllocator()
	vals := make([]int64, n)
	for i := range vals {
		vals[i] = int64(i)
	}
	rec := int64Batch(mem, vals...)
	defer rec.Release()
	tbl := array.NewTableFromRecords(rec.Schema(), []arrow.RecordBatch{rec})
	defer tbl.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	props := parquet.NewWriterProperties(parquet.WithDictionaryDefault(false))
	if err := pqarrow.WriteTable(tbl, f, int64(n), props, pqarrow.DefaultWriterProps()); err != nil {
		t.Fatal(err)
	}
}

// TestCatTableStreams: `cat --format table` prints the rows of the first
// file before a later file fails: the output streams instead of waiting for
// the whole result (it held every row until the end, 2.29 GB for 12.7M
// rows).
func TestCatTableStreams(t *testing.T) {
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "a.parquet"), filepath.Join(dir, "b.parquet")
	writeInt64Parquet(t, good, 3000)
	writeInt64Parquet(t, bad, 3000)
	// Damage b's first page header (right after the leading "PAR1"); its
	// footer stays intact, so it opens and fails only when decoded.
	b, err := os.ReadFile(bad)
	if err != nil {
		t.Fatal(err)
	}
	copy(b[4:], bytes.Repeat([]byte{0xff}, 16))
	if err := os.WriteFile(bad, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "cat", "--batch-rows", "1000", good, bad)
	if code == exitOK || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "b.parquet") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	lines := strings.Split(out, "\n")
	if len(lines) < 3002 || lines[0] != "n" || lines[1] != "---" || lines[2] != "0" || lines[3001] != "2999" {
		t.Errorf("stdout: %d lines, starting %q; want the header and a.parquet's 3000 rows", len(lines), lines[:min(3, len(lines))])
	}
}

// TestCatTableMemoryBound: a table read has a 64 MiB scan budget unless
// --memory says otherwise (0: none), and cat sets the soft memory limit
// from it (the runtime's own without a budget); the 10M-row table printed
// as a table peaked at 1.09 GB RSS with no bound.
func TestCatTableMemoryBound(t *testing.T) {
	table := filepath.Join("..", "..", "testdata", "orders")
	for _, c := range []struct {
		args  []string
		limit int64
	}{
		{nil, 2*64<<20 + 32<<20},
		{[]string{"--memory", "16MiB"}, 2*16<<20 + 32<<20},
		{[]string{"--memory", "0"}, 0},
	} {
		var got int64
		var out, errb bytes.Buffer
		f := &factory{Stdout: &out, Stderr: &errb, SetMemoryLimit: func(n int64) int64 { got = n; return 0 }}
		t.Setenv("GOMEMLIMIT", "")
		code := run(append([]string{"cat", table, "--format", "csv"}, c.args...), f)
		if code != exitOK || got != c.limit {
			t.Errorf("%v: exit %d (stderr %q), memory limit %d, want %d", c.args, code, errb.String(), got, c.limit)
		}
	}
	var tf tableFlags
	o, err := tf.options(&factory{})
	if err != nil || o.MemoryBytes != 64<<20 {
		t.Errorf("default budget %d (%v), want 64 MiB", o.MemoryBytes, err)
	}
}
