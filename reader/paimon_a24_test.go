package reader_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
)

// Case A24 (apache/paimon PR #4513): Paimon column f#10
// ARRAY<MAP<INT, ARRAY<INT>>>. Files written before the fix carry a Parquet
// field_id on f only; files after it carry derived ids on the element, key
// and value groups (536870911 ± 1024·10 ± depth) that no schema-N holds.
// Both resolve through schema-N by structure and return the same values.
func TestCaseA24PaimonNestedIDs(t *testing.T) {
	ps, err := schema.ParsePaimonSchema([]byte(`{"version":3,"id":0,"fields":[
		{"id":0,"name":"id","type":"INT NOT NULL"},
		{"id":10,"name":"f","type":{"type":"ARRAY","element":{"type":"MAP","key":"INT NOT NULL","value":{"type":"ARRAY","element":"INT"}}}}],
		"highestFieldId":10,"partitionKeys":[],"primaryKeys":[],"options":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	writer := ps.Schema()
	id := func(n string) arrow.Metadata { return arrow.NewMetadata([]string{"PARQUET:field_id"}, []string{n}) }
	none := arrow.Metadata{}
	const rows = `[{"id":1,"f":[[{"key":1,"value":[1,2]},{"key":2,"value":null}],[]]},{"id":2,"f":null},{"id":3,"f":[null,[{"key":3,"value":[null]}]]}]`
	file := func(derived bool) []byte {
		el, key, val, inner := none, none, none, none
		if derived {
			el, key, val, inner = id("536881151"), id("536881150"), id("536881152"), id("536882176")
		}
		innerList := arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Int32, Nullable: true, Metadata: inner})
		m := arrow.MapOfWithMetadata(arrow.PrimitiveTypes.Int32, key, innerList, val)
		sc := arrow.NewSchema([]arrow.Field{
			{Name: "id", Type: arrow.PrimitiveTypes.Int32, Metadata: id("0")},
			{Name: "f", Type: arrow.ListOfField(arrow.Field{Name: "element", Type: m, Nullable: true, Metadata: el}), Nullable: true, Metadata: id("10")},
		}, nil)
		rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, sc, strings.NewReader(rows))
		if err != nil {
			t.Fatal(err)
		}
		defer rec.Release()
		var buf bytes.Buffer
		w, err := pqarrow.NewFileWriter(sc, &buf, parquet.NewWriterProperties(), pqarrow.NewArrowWriterProperties())
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	want := `{"id":1,"f":[[{"key":1,"value":[1,2]},{"key":2,"value":null}],[]]}
{"id":2,"f":null}
{"id":3,"f":[null,[{"key":3,"value":[null]}]]}
`
	for _, derived := range []bool{false, true} {
		b := file(derived)
		fs, _, err := reader.FileSchema(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		var ids []int
		schema.Walk(fs.Fields, func(_ []string, f *schema.Field) bool { ids = append(ids, f.ID); return true })
		wantIDs := "[0 10 -1 -1 -1 -1]"
		if derived {
			wantIDs = "[0 10 536881151 536881150 536881152 536882176]"
		}
		if got := fmt.Sprint(ids); got != wantIDs {
			t.Errorf("derived=%v: file ids %s, want %s", derived, got, wantIDs)
		}
		rr, err := reader.Open(context.Background(), bytes.NewReader(b), int64(len(b)), reader.Options{
			ReadSchema: writer, WriterSchema: writer, Rules: project.Paimon, Allocator: testutil.CheckedAllocator(t)})
		if err != nil {
			t.Fatalf("derived=%v: %v", derived, err)
		}
		got := testutil.ReaderJSON(t, rr)
		rr.Release()
		if got != want {
			t.Errorf("derived=%v:\n%s\nwant\n%s", derived, got, want)
		}
	}
}
