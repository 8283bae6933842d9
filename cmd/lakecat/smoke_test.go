package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/paimon"
)

// buildBinary builds the lakecat command into a temporary folder and returns
// its path.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "lakecat")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// smokeTable is one table of the smoke test with what its verbs need.
type smokeTable struct {
	name    string
	dir     string
	catArgs []string // flags a row read of the table needs (--raw, --ignore-logs)
	file    string   // one data file of the table, for plan
	plan    []string // plan's schema flags for that file
	evolve  bool     // evolve applies (filesystem Iceberg or Paimon)
}

// TestSmokeEveryVerb runs the built binary: every verb (cat, schema, files,
// plan, evolve --dry-run) on both bundled tables and on a real Iceberg,
// Paimon and Hudi table, cat in every output format; any non-zero exit or
// empty output fails. The Arrow IPC stream of `cat --format arrow` is read
// back with arrow-go's ipc.Reader and must have the schema the library
// gives the table's read schema (field ids, units and zones included).
func TestSmokeEveryVerb(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	repo := filepath.Join("..", "..")
	realDir := testutil.RealDir(t)
	iceDir := filepath.Join(realDir, "duckdb-iceberg", "data", "persistent", "add_columns_with_defaults", "default.db", "add_columns_with_defaults")
	pmDir := filepath.Join(realDir, "paimon-cpp", "test", "test_data", "parquet", "append_with_multiple_ts_precision_and_timezone.db", "append_with_multiple_ts_precision_and_timezone")
	firstFile := func(dir, ext string) string {
		var found string
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && found == "" && !d.IsDir() && strings.HasSuffix(p, ext) {
				found = p
			}
			return nil
		})
		if found == "" {
			t.Fatalf("no %s file under %s", ext, dir)
		}
		return found
	}
	orders := filepath.Join(repo, "testdata", "orders")
	paimon := filepath.Join(repo, "testdata", "paimon_orders")
	hudi := hudiMOR(t)
	iceMeta, _ := filepath.Glob(filepath.Join(iceDir, "metadata", "00003-*.metadata.json"))
	if len(iceMeta) != 1 {
		t.Fatalf("duckdb add_columns_with_defaults: %v", iceMeta)
	}
	tables := []smokeTable{
		{name: "orders", dir: orders, file: filepath.Join(orders, "data", "00000-orders-schema0.parquet"),
			plan: []string{"--schema", filepath.Join(orders, "metadata", "v1.metadata.json")}, evolve: true},
		{name: "paimon_orders", dir: paimon, catArgs: []string{"--raw"},
			file: filepath.Join(paimon, "bucket-0", "data-00000000-0000-0000-0000-000000000001-0.parquet"),
			plan: []string{"--schema", filepath.Join(paimon, "schema", "schema-2"), "--file-schema", filepath.Join(paimon, "schema", "schema-0"), "--rules", "paimon"}, evolve: true},
		{name: "real iceberg", dir: iceDir, file: firstFile(filepath.Join(iceDir, "data"), ".parquet"),
			plan: []string{"--schema", iceMeta[0]}, evolve: true},
		{name: "real paimon", dir: pmDir, file: firstFile(pmDir, ".parquet"),
			plan: []string{"--schema", filepath.Join(pmDir, "schema", "schema-0"), "--file-schema", filepath.Join(pmDir, "schema", "schema-0"), "--rules", "paimon"}, evolve: true},
		{name: "real hudi", dir: hudi, catArgs: []string{"--ignore-logs"}, file: firstFile(hudi, ".parquet")},
	}
	run := func(t *testing.T, args ...string) []byte {
		t.Helper()
		var out, errb bytes.Buffer
		cmd := exec.Command(bin, args...)
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Errorf("lakecat %s: %v\nstderr: %s", strings.Join(args, " "), err, errb.String())
			return nil
		}
		if out.Len() == 0 {
			t.Errorf("lakecat %s: no output", strings.Join(args, " "))
		}
		return out.Bytes()
	}
	for _, tb := range tables {
		t.Run(tb.name, func(t *testing.T) {
			for _, format := range []string{"table", "jsonl", "csv", "arrow"} {
				out := run(t, append([]string{"cat", tb.dir, "--format", format}, tb.catArgs...)...)
				if format == "arrow" && out != nil {
					checkIPCSchema(t, out, tb.dir, tb.catArgs)
				}
			}
			run(t, "schema", tb.dir)
			run(t, "files", tb.dir)
			run(t, "schema", tb.file)
			for _, format := range []string{"text", "json"} {
				run(t, append([]string{"plan", tb.file, "--format", format}, tb.plan...)...)
			}
			if tb.evolve {
				cp := filepath.Join(t.TempDir(), "table")
				copyTree(t, tb.dir, cp)
				run(t, "evolve", cp, "--add", "smoke_added string", "--dry-run")
			}
		})
	}
}

// checkIPCSchema reads an Arrow IPC stream with arrow-go's ipc.Reader and
// compares its schema with the library's Arrow form of the table's read
// schema: names, types (fingerprints, so timestamp zones count),
// nullability and field-id metadata at the top level and below.
func checkIPCSchema(t *testing.T, stream []byte, dir string, catArgs []string) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r, err := ipc.NewReader(bytes.NewReader(stream), ipc.WithAllocator(mem))
	if err != nil {
		t.Errorf("ipc.NewReader: %v", err)
		return
	}
	defer r.Release()
	rows := 0
	for r.Next() {
		rows += int(r.RecordBatch().NumRows())
	}
	if err := r.Err(); err != nil {
		t.Errorf("ipc stream: %v", err)
	}
	opts := reader.TableOptions{ListOnly: true}
	for _, a := range catArgs {
		if a == "--raw" {
			opts.FormatOptions = paimon.Options{Raw: true}
		}
	}
	tbl, err := reader.OpenTable(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := schema.ToArrowSchema(tbl.ReadSchema)
	if got := r.Schema(); !sameArrowFields(got.Fields(), want.Fields()) {
		t.Errorf("IPC schema:\n%s\nwant\n%s", got, want)
	}
	if rows == 0 {
		t.Errorf("IPC stream of %s: no rows", dir)
	}
}

func sameArrowFields(a, b []arrow.Field) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Nullable != b[i].Nullable || a[i].Type.Fingerprint() != b[i].Type.Fingerprint() ||
			schema.FieldIDOf(a[i]) != schema.FieldIDOf(b[i]) {
			return false
		}
		if !sameArrowFields(childFields(a[i].Type), childFields(b[i].Type)) {
			return false
		}
	}
	return true
}

func childFields(dt arrow.DataType) []arrow.Field {
	switch t := dt.(type) {
	case *arrow.StructType:
		return t.Fields()
	case *arrow.ListType:
		return []arrow.Field{t.ElemField()}
	case *arrow.MapType:
		return []arrow.Field{t.KeyField(), t.ItemField()}
	}
	return nil
}
