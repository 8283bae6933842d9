package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// runCLI runs one command line and returns stdout, stderr and the exit code.
func runCLI(t *testing.T, args ...string) (string, string, exitCode) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &factory{Stdout: &out, Stderr: &errb})
	return out.String(), errb.String(), code
}

const demoTable = `order_shop_id | order_id | customer | price | amount        | note | channel
--------------+----------+----------+-------+---------------+------+--------
100           | 1        | alice    | 9.5   | 12.34         | NULL | web
NULL          | 2        | bob      | 20.25 | -0.50         | NULL | web
5000000000    | 3        | carol    | 1.5   | NULL          | gift | web
101           | 4        | NULL     | 3     | 999.99        | NULL | web
102           | 5        | dave     | 0.1   | 1234567890.12 | rush | app
NULL          | 6        | erin     | NULL  | 0.07          | NULL | NULL
(6 rows)
`

// TestCatDemo is the README's first command: the bundled table's three
// files, written under schemas 0, 1 and 2, read in schema 2. Old files get
// promoted price (float→double) and amount (decimal(9,2)→decimal(18,2)),
// the renamed customer column, a null note (schema 0) and the
// initial-default "web" for channel (schemas 0 and 1).
func TestCatDemo(t *testing.T) {
	out, errOut, code := runCLI(t, "cat")
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if out != demoTable {
		t.Errorf("stdout:\n%s\nwant\n%s", out, demoTable)
	}
}

func TestCatFilesWithSchema(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "orders")
	out, errOut, code := runCLI(t, "cat", "--format", "jsonl", "--limit", "3", "--columns", "order_id,amount,channel",
		"--schema", filepath.Join(dir, "metadata", "v1.metadata.json"),
		filepath.Join(dir, "data", "00000-orders-schema0.parquet"),
		filepath.Join(dir, "data", "00002-orders-schema2.parquet"))
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	want := `{"order_id":1,"amount":"12.34","channel":"web"}
{"order_id":2,"amount":"-0.50","channel":"web"}
{"order_id":5,"amount":"1234567890.12","channel":"app"}
`
	if out != want {
		t.Errorf("stdout:\n%s\nwant\n%s", out, want)
	}
}

func TestCatArrowStream(t *testing.T) {
	out, errOut, code := runCLI(t, "cat", "--format", "arrow")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r, err := ipc.NewReader(strings.NewReader(out), ipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	rows := 0
	for r.Next() {
		rows += int(r.RecordBatch().NumRows())
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if rows != 6 {
		t.Errorf("%d rows, want 6", rows)
	}
	if got := r.Schema().Field(4).Type.String(); got != "decimal(18, 2)" {
		t.Errorf("amount type %s", got)
	}
	if got := r.Schema().Field(0).Metadata.Values(); len(got) != 1 || got[0] != "4" {
		t.Errorf("order_shop_id field id metadata %v, want [4]", got)
	}
}

func TestSchemaVerb(t *testing.T) {
	out, _, code := runCLI(t, "schema", filepath.Join("..", "..", "testdata", "orders", "data", "00000-orders-schema0.parquet"))
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	want := `parquet file ../../testdata/orders/data/00000-orders-schema0.parquet
1 order_id: required long
2 order_name: optional string
3 order_user_id: optional int
4 order_shop_id: optional int
5 price: optional float
6 amount: optional decimal(9, 2)
`
	if out != want {
		t.Errorf("stdout:\n%s\nwant\n%s", out, want)
	}
}

func TestPlanVerb(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "orders")
	out, errOut, code := runCLI(t, "plan", "--schema", filepath.Join(dir, "metadata", "v1.metadata.json"),
		filepath.Join(dir, "data", "00000-orders-schema0.parquet"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := `4 order_shop_id: long  ← order_shop_id (int), promoted from int
1 order_id: required long  ← order_id (long)
2 customer: string  ← order_name (string), renamed from order_name
5 price: double  ← price (float), promoted from float
6 amount: decimal(18, 2)  ← amount (decimal(9, 2)), promoted from decimal(9, 2)
7 note: string  null-filled: not in the file
8 channel: string  defaulted to "web": not in the file
not read from the file:
  3 order_user_id: int
`
	if out != want {
		t.Errorf("stdout:\n%s\nwant\n%s", out, want)
	}
}

// TestErrors: every failure is one line on stderr, with the exit code of
// its error class (see exitcode_test.go; 1 for no class, 2 for usage).
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.parquet")
	os.WriteFile(empty, nil, 0o644)
	junk := filepath.Join(dir, "junk.dat")
	os.WriteFile(junk, []byte("this is not a data file at all"), 0o644)
	junkParquet := filepath.Join(dir, "junk.parquet") // the name says Parquet: a damaged one
	os.WriteFile(junkParquet, []byte("this is not a data file at all"), 0o644)
	badSchema := filepath.Join(dir, "bad.json")
	os.WriteFile(badSchema, []byte(`{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"x","required":false,"type":"varchar2"}]}`), 0o644)
	strAsLong := filepath.Join(dir, "long.json")
	os.WriteFile(strAsLong, []byte(`{"type":"struct","schema-id":0,"fields":[{"id":2,"name":"order_name","required":false,"type":"long"}]}`), 0o644)
	data := filepath.Join("..", "..", "testdata", "orders", "data", "00000-orders-schema0.parquet")
	truncated := filepath.Join(dir, "truncated.parquet")
	b, _ := os.ReadFile(data)
	os.WriteFile(truncated, b[:len(b)/2], 0o644)
	damaged := filepath.Join(dir, "damaged.dat") // its trailing PAR1 says Parquet
	os.WriteFile(damaged, append([]byte("PAQ1"), b[4:]...), 0o644)

	cases := []struct {
		args []string
		code exitCode
		msg  string
	}{
		{[]string{"cat", empty}, exitCorrupt, "unknown file format"},
		{[]string{"cat", junk}, exitUnsupported, "unknown file format"},
		{[]string{"cat", junkParquet}, exitCorrupt, `damaged magic bytes: parquet file by its name's extension .parquet, but its leading magic is "this", not "par1"`},
		{[]string{"cat", truncated}, exitCorrupt, "unknown file format"},
		{[]string{"cat", damaged}, exitCorrupt, `damaged.dat: reader: damaged magic bytes: parquet file by its trailing magic, but its leading magic is "paq1", not "par1"`},
		{[]string{"schema", damaged}, exitCorrupt, `damaged.dat: reader: damaged magic bytes: parquet file by its trailing magic`},
		{[]string{"plan", damaged}, exitCorrupt, `damaged.dat: reader: damaged magic bytes: parquet file by its trailing magic`},
		{[]string{"cat", filepath.Join(dir, "nope.parquet")}, exitNotFound, "no such file"},
		{[]string{"cat", "--schema", badSchema, data}, exitUnsupported, "varchar2"},
		{[]string{"cat", "--schema", strAsLong, data}, exitSchema, "incompatible"},
		{[]string{"cat", "--format", "xml"}, exitUsage, "unknown --format"},
		{[]string{"cat", "--limit", "x"}, exitUsage, "invalid argument"},
		{[]string{"cat", "--rules", "delta"}, exitUsage, "unknown --rules"},
		{[]string{"schema"}, exitUsage, "accepts 1 arg"},
		{[]string{"frobnicate"}, exitUsage, "unknown command"},
	}
	for _, c := range cases {
		out, errOut, code := runCLI(t, c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d (stderr %q)", c.args, code, c.code, errOut)
		}
		if strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "lakecat: ") {
			t.Errorf("%v: stderr %q is not one line", c.args, errOut)
		}
		if !strings.Contains(strings.ToLower(errOut), c.msg) {
			t.Errorf("%v: stderr %q does not say %q", c.args, errOut, c.msg)
		}
		if out != "" {
			t.Errorf("%v: stdout %q on error", c.args, out)
		}
	}
}

func TestArgvToOptions(t *testing.T) {
	var got *catOptions
	c := newCatCmd(&factory{}, func(o *catOptions) error { got = o; return nil })
	c.SetArgs([]string{"a.parquet", "b.orc", "--schema", "s.json", "--name-mapping", "m.json", "--file-schema", "w.json",
		"--rules", "paimon", "--columns", "a,b.c", "--limit", "5", "--format", "csv"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Paths, " ") != "a.parquet b.orc" || got.Schema.SchemaPath != "s.json" ||
		got.Schema.NameMappingPath != "m.json" || got.Schema.FileSchemaPath != "w.json" || got.Schema.Rules != "paimon" ||
		strings.Join(got.Columns, "|") != "a|b.c" || got.Limit != 5 || got.Format != "csv" {
		t.Errorf("options %+v", got)
	}
}

// TestFailedReadPrintsNothing: a read that fails prints no partial table,
// csv header or Arrow schema on stdout.
func TestFailedReadPrintsNothing(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "..", "testdata", "orders", "data", "00000-orders-schema0.parquet")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	read := filepath.Join(dir, "s.json")
	os.WriteFile(read, []byte(`{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"order_id","required":true,"type":"long"},{"id":9,"name":"region","required":true,"type":"string"}]}`), 0o644)
	bad := filepath.Join(dir, "bad.parquet")
	os.WriteFile(bad, b[:len(b)/2], 0o644)
	for _, format := range []string{"table", "csv", "jsonl", "arrow"} {
		for _, args := range [][]string{
			{"cat", "--format", format, "--schema", read, src},
			{"cat", "--format", format, src, bad},
		} {
			out, errOut, code := runCLI(t, args...)
			if code == exitOK || out != "" || strings.Count(errOut, "\n") != 1 {
				t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
			}
		}
	}
}

// TestFlagMisuse: flags that do not apply are refused, not ignored.
func TestFlagMisuse(t *testing.T) {
	table := filepath.Join("..", "..", "testdata", "orders")
	file := filepath.Join(table, "data", "00000-orders-schema0.parquet")
	for _, args := range [][]string{
		{"cat", table, "--schema-id", "3"},
		{"cat", table, "--branch", "b"},
		{"cat", table, "--snapshot-id", "1", "--as-of", "2020-01-01"},
		{"cat", table, "--rules", "paimon"},
		{"cat", file, "--raw"},
		{"cat", file, "--batch-rows", "-1"},
		{"cat", table, table},
	} {
		_, errOut, code := runCLI(t, args...)
		if code != exitUsage || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want a usage error", args, code, errOut)
		}
	}
}
