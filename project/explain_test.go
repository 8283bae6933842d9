package project

import (
	"encoding/json"
	"testing"

	"github.com/lakecat/lakecat/schema"
)

func TestExplainOrders(t *testing.T) {
	file, read := ordersSchemas()
	p := mustPlan(t, file, read, Options{FileName: "orders-0.parquet"})
	const wantText = `4 order_shop_id: long  ← order_shop_id (int), promoted from int
1 order_id: required long  ← order_id (long)
2 name: string  ← order_name (string), renamed from order_name
5 note: string  null-filled: not in the file
not read from the file:
  3 order_user_id: int
`
	if got := p.Explain().String(); got != wantText {
		t.Errorf("text:\n%s\nwant:\n%s", got, wantText)
	}
	const wantJSON = `{"file":"orders-0.parquet","rules":"iceberg","fields":[` +
		`{"id":4,"name":"order_shop_id","type":"long","action":"promote","file_path":"order_shop_id","file_type":"int","promoted_from":"int"},` +
		`{"id":1,"name":"order_id","type":"long","required":true,"action":"take","file_path":"order_id","file_type":"long"},` +
		`{"id":2,"name":"name","type":"string","action":"take","file_path":"order_name","file_type":"string","renamed_from":"order_name"},` +
		`{"id":5,"name":"note","type":"string","action":"null"}],` +
		`"dropped":[{"id":3,"path":"order_user_id","type":"int"}]}`
	b, err := json.Marshal(p.Explain())
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != wantJSON {
		t.Errorf("json:\n%s\nwant:\n%s", b, wantJSON)
	}
}

func TestExplainNested(t *testing.T) {
	file := sch(
		fld(1, "id", schema.Int),
		fld(2, "media", structOf(fld(3, "codec", schema.String), fld(7, "old", schema.Int))),
		fld(4, "tags", schema.NewList(5, structOf(fld(6, "a", schema.String)), false)),
	)
	read := sch(
		fld(1, "id", schema.Int),
		fld(2, "media", structOf(fld(3, "codec", schema.String),
			&schema.Field{ID: 8, Name: "fps", Type: schema.Double, InitialDefault: 25.0})),
		fld(4, "tags", schema.NewList(5, structOf(fld(9, "c", schema.String)), false)),
		req(10, "day", schema.Date),
	)
	p := mustPlan(t, file, read, Options{Constants: map[int]any{10: int32(19000)}})
	const want = `1 id: int  ← id (int)
2 media: struct<3:codec: string, 8:fps: double>  ← media (struct<3:codec: string, 7:old: int>)
  3 codec: string  ← media.codec (string)
  8 fps: double  defaulted to 25: not in the file
4 tags: list<struct<9:c: string>>  ← tags (list<struct<6:a: string>>)
  5 element: struct<9:c: string>  ← tags.element (struct<6:a: string>), nulls and lengths from tags.element.a
    9 c: string  null-filled: not in the file
10 day: required date  constant 2022-01-08
not read from the file:
  7 media.old: int
`
	if got := p.Explain().String(); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
}

// Dropped file columns are listed in file order, nested ones under their
// parent's position.
func TestExplainDroppedOrder(t *testing.T) {
	file := sch(fld(1, "a", schema.Int), fld(2, "s", structOf(fld(3, "x", schema.Int), fld(4, "y", schema.Int))), fld(5, "z", schema.Int))
	read := sch(fld(2, "s", structOf(fld(3, "x", schema.Int))))
	p := mustPlan(t, file, read, Options{})
	got := p.Explain().Dropped
	want := []Dropped{{1, "a", "int"}, {4, "s.y", "int"}, {5, "z", "int"}}
	if len(got) != len(want) {
		t.Fatalf("Dropped = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Dropped = %v, want %v", got, want)
		}
	}
}

func TestExplainNestedJSON(t *testing.T) {
	file := sch(fld(1, "s", structOf(fld(2, "a", schema.Int))))
	read := sch(fld(1, "s", structOf(fld(2, "b", schema.Long), fld(3, "c", schema.String))))
	p := mustPlan(t, file, read, Options{Rules: IcebergV3})
	b, err := json.Marshal(p.Explain())
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"rules":"iceberg-v3","fields":[{"id":1,"name":"s","type":"struct\u003c2:b: long, 3:c: string\u003e","action":"take",` +
		`"file_path":"s","file_type":"struct\u003c2:a: int\u003e","children":[` +
		`{"id":2,"name":"b","type":"long","action":"promote","file_path":"s.a","file_type":"int","renamed_from":"a","promoted_from":"int"},` +
		`{"id":3,"name":"c","type":"string","action":"null"}]}],"dropped":[]}`
	if string(b) != want {
		t.Errorf("json:\n%s\nwant:\n%s", b, want)
	}
}
