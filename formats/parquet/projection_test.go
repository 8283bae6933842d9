package parquet

import (
	"bytes"
	"context"
	"errors"
	"io"
	"reflect"
	"testing"

	pq "github.com/parquet-go/parquet-go"

	"github.com/lakecat/lakecat/schema"
)

// TestOnlyProjectedColumnsDecoded destroys the pages of one column: a
// projection without it reads fine, the full schema fails with ErrCorrupt.
func TestOnlyProjectedColumnsDecoded(t *testing.T) {
	good := smallFile(t)
	pf, err := pq.OpenFile(bytes.NewReader(good), int64(len(good)))
	if err != nil {
		t.Fatal(err)
	}
	bad := append([]byte(nil), good...)
	for _, rg := range pf.Metadata().RowGroups {
		md := rg.Columns[1].MetaData // "name"
		start := md.DataPageOffset
		if md.DictionaryPageOffset != 0 {
			start = md.DictionaryPageOffset
		}
		for i := start; i < start+md.TotalCompressedSize; i++ {
			bad[i] = 0xee
		}
	}
	f := openBytes(t, bad)
	if _, err := readAll(f, newMem(t), 0); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("full read: got %v, want ErrCorrupt", err)
	}
	proj := f.Schema().Clone()
	proj.Fields = []*schema.Field{proj.Fields[0], proj.Fields[2]} // id, tags
	mem := newMem(t)
	br, err := f.NewBatchReader(proj, BatchOptions{BatchRows: 16, Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	if !br.Schema().Equal(schema.ToArrowSchema(proj)) {
		t.Fatalf("schema %v", br.Schema())
	}
	want := readCanonical(t, good, 0)
	var ids, tags []any
	for {
		rec, err := br.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			ids = append(ids, canon(rec.Column(0), i))
			tags = append(tags, canon(rec.Column(1), i))
		}
		rec.Release()
	}
	if !reflect.DeepEqual(ids, want[0]) || !reflect.DeepEqual(tags, want[2]) {
		t.Fatalf("projected values differ")
	}
}

// TestProjectionMatchesByName: proj fields are matched by name path; their
// ids (assigned by a name mapping, say) go to the Arrow schema unchanged.
func TestProjectionMatchesByName(t *testing.T) {
	b := smallFile(t)
	f := openBytes(t, b)
	proj := f.Schema().Clone()
	proj.Fields = proj.Fields[1:2] // name
	proj.Fields[0].ID = 42
	mem := newMem(t)
	br, err := f.NewBatchReader(proj, BatchOptions{Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	rec, err := br.Next(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	if id := schema.FieldIDOf(rec.Schema().Field(0)); id != 42 || rec.NumRows() != 40 || rec.NumCols() != 1 {
		t.Fatalf("id %d, %d rows, %d columns", id, rec.NumRows(), rec.NumCols())
	}
	if _, err := br.Next(t.Context()); !errors.Is(err, io.EOF) {
		t.Fatalf("second Next: %v, want io.EOF", err)
	}
	missing := schema.New(0, &schema.Field{ID: 1, Name: "nope", Type: schema.Int})
	if _, err := f.NewBatchReader(missing, BatchOptions{Allocator: mem}); err == nil {
		t.Fatal("a projection naming a missing column must fail")
	}
	wrong := f.Schema().Clone()
	wrong.Fields = wrong.Fields[1:2]
	wrong.Fields[0].Type = schema.Long
	if _, err := f.NewBatchReader(wrong, BatchOptions{Allocator: mem}); err == nil {
		t.Fatal("a projection with another type must fail")
	}
}

// TestContextCancelled: Next honours a cancelled context.
func TestContextCancelled(t *testing.T) {
	f := openBytes(t, smallFile(t))
	mem := newMem(t)
	br, err := f.NewBatchReader(f.Schema(), BatchOptions{Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := br.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}
