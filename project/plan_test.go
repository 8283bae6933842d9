package project

import (
	"errors"
	"testing"

	"github.com/lakecat/lakecat/schema"
)

// The orders example of issue 2: rename #2, move #4 first and widen it to
// long, drop #3, add optional #5.
func ordersSchemas() (file, read *schema.Schema) {
	file = sch(
		req(1, "order_id", schema.Long),
		fld(2, "order_name", schema.String),
		fld(3, "order_user_id", schema.Int),
		fld(4, "order_shop_id", schema.Int),
	)
	read = sch(
		fld(4, "order_shop_id", schema.Long),
		req(1, "order_id", schema.Long),
		fld(2, "name", schema.String),
		fld(5, "note", schema.String),
	)
	return file, read
}

func TestOrdersExample(t *testing.T) {
	file, read := ordersSchemas()
	p := mustPlan(t, file, read, Options{FileName: "orders-0.parquet"})
	wantProj := sch(req(1, "order_id", schema.Long), fld(2, "order_name", schema.String), fld(4, "order_shop_id", schema.Int))
	if !p.FileProjection().Equal(wantProj) {
		t.Fatalf("FileProjection = %s, want %s", p.FileProjection(), wantProj)
	}
	applyJSON(t, p,
		`[{"order_id":1,"order_name":"a","order_shop_id":100},
		  {"order_id":2,"order_name":null,"order_shop_id":null},
		  {"order_id":3,"order_name":"c","order_shop_id":300}]`,
		`[{"order_shop_id":100,"order_id":1,"name":"a","note":null},
		  {"order_shop_id":null,"order_id":2,"name":null,"note":null},
		  {"order_shop_id":300,"order_id":3,"name":"c","note":null}]`)
}

// A1: a column added later is null for the old file; the new file reads it.
func TestCaseA1(t *testing.T) {
	read := sch(fld(1, "a", schema.Int), fld(2, "b", schema.Int))
	old := mustPlan(t, sch(fld(1, "a", schema.Int)), read, Options{FileName: "f1"})
	applyJSON(t, old, `[{"a":1}]`, `[{"a":1,"b":null}]`)
	cur := mustPlan(t, sch(fld(1, "a", schema.Int), fld(2, "b", schema.Int)), read, Options{FileName: "f2"})
	applyJSON(t, cur, `[{"a":1,"b":2}]`, `[{"a":1,"b":2}]`)
	if !cur.passThrough {
		t.Error("identical schemas should pass through")
	}
}

// A2: a required field absent with no default fails before decoding; with an
// initial-default every row gets it; optional gives nulls.
func TestCaseA2(t *testing.T) {
	file := sch(req(1, "id", schema.Int))
	_, err := NewPlan(file, sch(req(1, "id", schema.Int), req(2, "missing_str", schema.String)), Options{FileName: "data/a2.parquet"})
	var fe *FieldError
	if !errors.As(err, &fe) || !errors.Is(err, ErrRequiredFieldMissing) {
		t.Fatalf("err = %v, want *FieldError matching ErrRequiredFieldMissing", err)
	}
	if fe.File != "data/a2.parquet" || fe.FieldID != 2 || fe.Path != "missing_str" || fe.FileType != nil || fe.ReadType != schema.String {
		t.Errorf("FieldError = %+v", fe)
	}
	const want = `project: file "data/a2.parquet": field 2 (missing_str): missing required field: read type string, not in the file and no initial-default`
	if err.Error() != want {
		t.Errorf("err = %q\nwant  %q", err, want)
	}

	withDefault := sch(req(1, "id", schema.Int), &schema.Field{ID: 2, Name: "missing_str", Type: schema.String, Required: true, InitialDefault: "n/a"})
	applyJSON(t, mustPlan(t, file, withDefault, Options{}), `[{"id":1},{"id":2}]`,
		`[{"id":1,"missing_str":"n/a"},{"id":2,"missing_str":"n/a"}]`)
	optional := sch(req(1, "id", schema.Int), fld(2, "missing_str", schema.String))
	applyJSON(t, mustPlan(t, file, optional, Options{}), `[{"id":1},{"id":2}]`,
		`[{"id":1,"missing_str":null},{"id":2,"missing_str":null}]`)
}

// A4: a rename follows the id.
func TestCaseA4(t *testing.T) {
	read := sch(fld(1, "animal", schema.String), fld(2, "number_of_legs", schema.Int))
	f1 := mustPlan(t, sch(fld(1, "animal", schema.String), fld(2, "n_legs", schema.Int)), read, Options{})
	applyJSON(t, f1, `[{"animal":"Flamingo","n_legs":2},{"animal":"Horse","n_legs":4}]`,
		`[{"animal":"Flamingo","number_of_legs":2},{"animal":"Horse","number_of_legs":4}]`)
	f2 := mustPlan(t, read, read, Options{})
	applyJSON(t, f2, `[{"animal":"Brittle stars","number_of_legs":5},{"animal":"Centipede","number_of_legs":100}]`,
		`[{"animal":"Brittle stars","number_of_legs":5},{"animal":"Centipede","number_of_legs":100}]`)
	// Matching by the current name would have found nothing in file 1.
	if f1.passThrough != true {
		t.Error("a pure rename should pass the columns through")
	}
}

// A5: an INT32 column (annotated INT(32), INT(16) or INT(8): the decoder
// reports int, smallint or tinyint) read as long, under every rule.
func TestCaseA5(t *testing.T) {
	for _, rules := range []Rules{IcebergV2, IcebergV3, Hudi, Paimon} {
		for _, ft := range []schema.PrimitiveType{schema.Int, schema.SmallInt, schema.TinyInt} {
			for _, rt := range []schema.PrimitiveType{schema.Int, schema.Long} {
				if ft == rt {
					continue
				}
				p := mustPlan(t, sch(fld(1, "col", ft)), sch(fld(1, "col", rt)), Options{Rules: rules})
				applyJSON(t, p, `[{"col":1},{"col":2},{"col":3}]`, `[{"col":1},{"col":2},{"col":3}]`)
			}
		}
	}
}

// A7: decimal(10,2) → decimal(20,4) under Hudi gives 111.1100; under Iceberg
// it is refused; decimal(10,2) → decimal(20,2) reads 111.11 (zero copy).
func TestCaseA7(t *testing.T) {
	file := sch(fld(1, "amount", schema.Decimal(10, 2)))
	p := mustPlan(t, file, sch(fld(1, "amount", schema.Decimal(20, 4))), Options{Rules: Hudi})
	applyJSON(t, p, `[{"amount":"111.11"},{"amount":null},{"amount":"-0.01"}]`,
		`[{"amount":"111.1100"},{"amount":null},{"amount":"-0.0100"}]`)

	for _, rules := range []Rules{IcebergV2, IcebergV3} {
		_, err := NewPlan(file, sch(fld(1, "amount", schema.Decimal(20, 4))), Options{FileName: "a7.parquet", Rules: rules})
		const want = `project: file "a7.parquet": field 1 (amount): incompatible type: a decimal's scale cannot change: file type decimal(10, 2), read type decimal(20, 4)`
		if !errors.Is(err, ErrIncompatibleType) || err == nil || err.Error() != want {
			t.Errorf("%v: err = %v\nwant %s", rules, err, want)
		}
		p := mustPlan(t, file, sch(fld(1, "amount", schema.Decimal(20, 2))), Options{Rules: rules})
		if p.top[0].act != actRelabel {
			t.Errorf("decimal precision widening should be a relabel, got action %d", p.top[0].act)
		}
		applyJSON(t, p, `[{"amount":"111.11"}]`, `[{"amount":"111.11"}]`)
	}
}

// A8: decimal(13,10) read as decimal(28,10): same unscaled values (the
// physical width was the decoder's business), including negatives.
func TestCaseA8(t *testing.T) {
	p := mustPlan(t, sch(fld(1, "d", schema.Decimal(13, 10))), sch(fld(1, "d", schema.Decimal(28, 10))), Options{})
	applyJSON(t, p, `[{"d":"123.4567890123"},{"d":"-0.0000000001"},{"d":null}]`,
		`[{"d":"123.4567890123"},{"d":"-0.0000000001"},{"d":null}]`)
}

// A9: a struct field added later; the old file's struct null stays null.
func TestCaseA9(t *testing.T) {
	file := sch(fld(1, "id", schema.Int), fld(2, "media", structOf(fld(3, "codec", schema.String))))
	read := sch(fld(1, "id", schema.Int), fld(2, "media", structOf(fld(3, "codec", schema.String), fld(4, "color_transfer", schema.String))))
	p := mustPlan(t, file, read, Options{})
	applyJSON(t, p, `[{"id":1,"media":{"codec":"h264"}},{"id":2,"media":null}]`,
		`[{"id":1,"media":{"codec":"h264","color_transfer":null}},{"id":2,"media":null}]`)
}

// A10: none of the element struct's requested leaves exist: list lengths and
// list nulls come from one kept leaf.
func TestCaseA10(t *testing.T) {
	file := sch(fld(1, "top_level", schema.NewList(2, structOf(fld(3, "a", schema.String), fld(4, "b", schema.String)), false)))
	read := sch(fld(1, "top_level", schema.NewList(2, structOf(fld(5, "c", schema.String)), false)))
	p := mustPlan(t, file, read, Options{})
	wantProj := sch(fld(1, "top_level", schema.NewList(2, structOf(fld(3, "a", schema.String)), false)))
	if !p.FileProjection().Equal(wantProj) {
		t.Fatalf("FileProjection = %s, want %s", p.FileProjection(), wantProj)
	}
	applyJSON(t, p, `[{"top_level":[{"a":"x"},{"a":"z"}]},{"top_level":[]},{"top_level":null}]`,
		`[{"top_level":[{"c":null},{"c":null}]},{"top_level":[]},{"top_level":null}]`)
}

// A11: map<string, list<string>> with empty and null maps and lists passes
// through exactly.
func TestCaseA11(t *testing.T) {
	s := sch(fld(1, "tags", schema.NewMap(2, schema.String, 3, schema.NewList(4, schema.String, false), false)))
	p := mustPlan(t, s, s, Options{})
	rows := `[{"tags":[{"key":"a","value":["x","y"]}]},{"tags":[]},{"tags":null},{"tags":[{"key":"b","value":[]}]},{"tags":[{"key":"c","value":null}]}]`
	applyJSON(t, p, rows, rows)
	// The same with the value list promoted forces the rebuild path.
	f2 := sch(fld(1, "tags", schema.NewMap(2, schema.String, 3, schema.NewList(4, schema.Int, false), false)))
	r2 := sch(fld(1, "tags", schema.NewMap(2, schema.String, 3, schema.NewList(4, schema.Long, false), false)))
	p2 := mustPlan(t, f2, r2, Options{})
	rows2 := `[{"tags":[{"key":"a","value":[1,null]}]},{"tags":[]},{"tags":null},{"tags":[{"key":"b","value":[]}]},{"tags":[{"key":"c","value":null}]}]`
	applyJSON(t, p2, rows2, rows2)
}

// A21: fixed[16] read as uuid at any depth; other lengths refused.
func TestCaseA21(t *testing.T) {
	file := sch(
		req(1, "uuid", schema.Fixed(16)),
		fld(3, "struct1", structOf(fld(5, "c2", schema.Fixed(16)))),
		fld(4, "list", schema.NewList(6, structOf(fld(8, "c4", schema.Fixed(16))), false)),
	)
	read := sch(
		req(1, "uuid", schema.UUID),
		fld(3, "struct1", structOf(fld(5, "c2", schema.UUID))),
		fld(4, "list", schema.NewList(6, structOf(fld(8, "c4", schema.UUID)), false)),
	)
	p := mustPlan(t, file, read, Options{})
	const u1, u2 = `"AAECAwQFBgcICQoLDA0ODw=="`, `"/////////////////////w=="`
	rows := `[{"uuid":` + u1 + `,"struct1":{"c2":` + u2 + `},"list":[{"c4":` + u1 + `},{"c4":null}]}]`
	applyJSON(t, p, rows, rows)

	_, err := NewPlan(sch(req(1, "uuid", schema.Fixed(8))), sch(req(1, "uuid", schema.UUID)), Options{FileName: "u.parquet"})
	const want = `project: file "u.parquet": field 1 (uuid): incompatible type: a uuid is read only from fixed[16]: file type fixed[8], read type uuid`
	if err == nil || err.Error() != want || !errors.Is(err, ErrIncompatibleType) {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

// A25: Paimon ids start at 0; a column added later is null for the old file.
func TestCaseA25(t *testing.T) {
	read := sch(fld(0, "id", schema.Int), fld(1, "name", schema.String), fld(2, "amount", schema.Decimal(10, 2)))
	p := mustPlan(t, sch(fld(0, "id", schema.Int), fld(1, "name", schema.String)), read, Options{Rules: Paimon})
	applyJSON(t, p, `[{"id":1,"name":"a"}]`, `[{"id":1,"name":"a","amount":null}]`)
	p1 := mustPlan(t, read, read, Options{Rules: Paimon})
	applyJSON(t, p1, `[{"id":2,"name":"b","amount":"12.34"}]`, `[{"id":2,"name":"b","amount":"12.34"}]`)
}

// When no read field comes from the file, the cheapest column is still
// decoded for the row count.
func TestRowsFromCheapest(t *testing.T) {
	file := sch(fld(1, "s", schema.String), fld(2, "b", schema.Boolean), fld(3, "l", schema.Long))
	read := sch(fld(4, "x", schema.Int), &schema.Field{ID: 5, Name: "y", Type: schema.String, InitialDefault: "d"})
	p := mustPlan(t, file, read, Options{})
	if want := sch(fld(2, "b", schema.Boolean)); !p.FileProjection().Equal(want) {
		t.Fatalf("FileProjection = %s, want %s", p.FileProjection(), want)
	}
	const wantText = `4 x: int  null-filled: not in the file
5 y: string  defaulted to "d": not in the file
row count from b
not read from the file:
  1 s: string
  3 l: long
`
	if got := p.Explain().String(); got != wantText {
		t.Errorf("explain:\n%s\nwant:\n%s", got, wantText)
	}
	applyJSON(t, p, `[{"b":true},{"b":null}]`, `[{"x":null,"y":"d"},{"x":null,"y":"d"}]`)
}

func TestFloat16(t *testing.T) {
	p := mustPlan(t, sch(fld(1, "c", schema.Float16)), sch(fld(1, "c", schema.Double)), Options{})
	applyJSON(t, p, `[{"c":1.5},{"c":null},{"c":-0.25}]`, `[{"c":1.5},{"c":null},{"c":-0.25}]`)
}
