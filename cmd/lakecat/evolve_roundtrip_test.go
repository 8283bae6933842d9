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

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/iceberg"
)

// copyTree copies the regular files under src to dst.
func copyTree(t *testing.T, src, dst string) { testutil.CopyTree(t, src, dst, nil) }

// TestEvolveRoundTrip evolves a copy of the bundled table through six
// changes with `lakecat evolve`, writes a new data file under the new
// schema (arrow-go's Parquet writer, field ids from the schema), then reads
// the old files and the new one in the new schema: old files come back
// renamed, widened, with the deleted column gone and the added one null;
// the new file as written.
func TestEvolveRoundTrip(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("..", "..", "testdata", "orders"), dir)

	out, errOut, code := runCLI(t, "evolve", dir,
		"--add", "region string", "--rename", "customer=buyer", "--type", "amount=decimal(20, 2)",
		"--optional", "order_id", "--delete", "note", "--move", "buyer first")
	if code != exitOK {
		t.Fatalf("evolve: exit %d: %s", code, errOut)
	}
	wantDiff := `schema 2 → 3
~ 2 buyer: string  (renamed from customer, moved)
  4 order_shop_id: long
~ 1 order_id: long  (now optional)
  5 price: double
~ 6 amount: decimal(20, 2)  (type decimal(18, 2) → decimal(20, 2))
  8 channel: string
+ 9 region: string
- 7 note: string
`
	if !strings.HasPrefix(out, wantDiff) || !strings.HasSuffix(out, "v2.metadata.json (last-column-id 9)\n") {
		t.Fatalf("evolve output:\n%s\nwant prefix\n%s", out, wantDiff)
	}
	metadata := filepath.Join(dir, "metadata", "v2.metadata.json")
	data, err := os.ReadFile(metadata)
	if err != nil {
		t.Fatal(err)
	}
	md, err := iceberg.ParseMetadata(data)
	if err != nil {
		t.Fatal(err)
	}
	cur := md.CurrentSchema()
	if md.CurrentSchemaID != 3 || md.LastColumnID != 9 || len(cur.Fields) != 7 {
		t.Fatalf("current schema %d, last-column-id %d, %d fields", md.CurrentSchemaID, md.LastColumnID, len(cur.Fields))
	}

	// A new file written under schema 3.
	newFile := filepath.Join(dir, "data", "00003-orders-schema3.parquet")
	writeUnderSchema(t, cur, newFile, `[{"buyer":"zoe","order_shop_id":7,"order_id":7,"price":1.25,"amount":"5.00","channel":"kiosk","region":"eu"}]`)

	args := []string{"cat", "--format", "jsonl", "--schema", metadata}
	for _, f := range []string{"00000-orders-schema0.parquet", "00001-orders-schema1.parquet", "00002-orders-schema2.parquet", "00003-orders-schema3.parquet"} {
		args = append(args, filepath.Join(dir, "data", f))
	}
	out, errOut, code = runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("cat: exit %d: %s", code, errOut)
	}
	want := `{"buyer":"alice","order_shop_id":100,"order_id":1,"price":9.5,"amount":"12.34","channel":"web","region":null}
{"buyer":"bob","order_shop_id":null,"order_id":2,"price":20.25,"amount":"-0.50","channel":"web","region":null}
{"buyer":"carol","order_shop_id":5000000000,"order_id":3,"price":1.5,"amount":null,"channel":"web","region":null}
{"buyer":null,"order_shop_id":101,"order_id":4,"price":3,"amount":"999.99","channel":"web","region":null}
{"buyer":"dave","order_shop_id":102,"order_id":5,"price":0.1,"amount":"1234567890.12","channel":"app","region":null}
{"buyer":"erin","order_shop_id":null,"order_id":6,"price":null,"amount":"0.07","channel":null,"region":null}
{"buyer":"zoe","order_shop_id":7,"order_id":7,"price":1.25,"amount":"5.00","channel":"kiosk","region":"eu"}
`
	if out != want {
		t.Errorf("rows:\n%s\nwant\n%s", out, want)
	}
}

// writeUnderSchema writes JSON rows as a Parquet file whose columns carry
// the schema's field ids (arrow-go writes PARQUET:field_id metadata as
// Parquet field ids).
func writeUnderSchema(t *testing.T, s *schema.Schema, path, rowsJSON string) {
	t.Helper()
	mem := memory.NewGoAllocator()
	sc := schema.ToArrowSchema(s)
	rec, _, err := array.RecordFromJSON(mem, sc, strings.NewReader(rowsJSON))
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
