package parquet

import (
	"bytes"
	"fmt"
	"math/big"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"

	"github.com/lakecat/lakecat/schema"
)

// writeSchemaRows writes rows of explicit (value, repetition level,
// definition level, column) tuples under the schema root.
func writeSchemaRows(t testing.TB, root pq.Node, rows []pq.Row, opts ...pq.WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := pq.NewWriter(&buf, append([]pq.WriterOption{pq.NewSchema("t", root)}, opts...)...)
	for i := range rows {
		// One row per call, so that small page buffer sizes cut pages.
		if _, err := w.WriteRows(rows[i : i+1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func str(s string) pq.Value { return pq.ByteArrayValue([]byte(s)) }

func lv(v pq.Value, rep, def, col int) pq.Value { return v.Level(rep, def, col) }

func null(rep, def, col int) pq.Value { return pq.NullValue().Level(rep, def, col) }

// checkValues reads b with several batch sizes and compares with want,
// column by column; when pqarrow can read b too, its values must agree.
func checkValues(t *testing.T, b []byte, want [][]any) {
	t.Helper()
	for _, batch := range []int{1, 2, 3, 0} {
		got := readCanonical(t, b, batch)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("batch %d:\n got %s\nwant %s", batch, show(got), show(want))
		}
	}
	if pqv, _, err := readPQArrow(b, memory.NewGoAllocator()); err == nil {
		if !reflect.DeepEqual(pqv, want) {
			t.Errorf("pqarrow disagrees:\n pqarrow %s\n    want %s", show(pqv), show(want))
		}
	}
}

// TestCaseA10: list<struct<a, b>> with a two-element list, an empty list and
// a null list; also read through a projection whose element struct keeps
// none of the file's fields, which must keep the list lengths and nulls.
func TestCaseA10(t *testing.T) {
	root := pq.Group{"top_level": pq.Optional(pq.List(pq.Group{"a": pq.Optional(pq.String()), "b": pq.Optional(pq.String())}))}
	// Levels: top_level optional (1), list repeated (2), element required, a/b optional (3).
	rows := []pq.Row{
		{lv(str("x"), 0, 3, 0), lv(str("z"), 1, 3, 0), lv(str("y"), 0, 3, 1), null(1, 2, 1)},
		{null(0, 1, 0), null(0, 1, 1)},
		{null(0, 0, 0), null(0, 0, 1)},
	}
	b := writeSchemaRows(t, root, rows)
	checkValues(t, b, [][]any{{
		[]any{[]any{"x", "y"}, []any{"z", nil}},
		[]any{},
		nil,
	}})

	f := openBytes(t, b)
	proj := f.Schema().Clone()
	elem := proj.Fields[0].Type.(*schema.ListType).Element
	elem.Type = &schema.StructType{}
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
	var got []any
	for i := 0; i < int(rec.NumRows()); i++ {
		got = append(got, canon(rec.Column(0), i))
	}
	want := []any{[]any{[]any{}, []any{}}, []any{}, nil}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("empty-struct projection: got %s, want %s", show(got), show(want))
	}
}

// TestCaseA11: map<string, list<string>> with empty and null maps and lists.
func TestCaseA11(t *testing.T) {
	root := pq.Group{"tags": pq.Optional(pq.Map(pq.String(), pq.Optional(pq.List(pq.Optional(pq.String())))))}
	// key: tags (1), key_value (2); element: value (3), list (4), element (5).
	rows := []pq.Row{
		{lv(str("a"), 0, 2, 0), lv(str("x"), 0, 5, 1), lv(str("y"), 2, 5, 1)},
		{null(0, 1, 0), null(0, 1, 1)},
		{null(0, 0, 0), null(0, 0, 1)},
		{lv(str("b"), 0, 2, 0), null(0, 3, 1)},
		{lv(str("c"), 0, 2, 0), null(0, 2, 1)},
	}
	b := writeSchemaRows(t, root, rows)
	checkValues(t, b, [][]any{{
		[]any{[]any{"a", []any{"x", "y"}}},
		[]any{},
		nil,
		[]any{[]any{"b", []any{}}},
		[]any{[]any{"c", nil}},
	}})
}

// TestCaseA12: field ids come from the Parquet schema tree at every level:
// struct children, list elements, map keys and values; repeated groups
// without ids are normal.
func TestCaseA12(t *testing.T) {
	root := pq.Group{
		"uuid":   pq.FieldID(pq.Optional(pq.String()), 1),
		"source": pq.FieldID(pq.Optional(pq.Group{"type": pq.FieldID(pq.Optional(pq.String()), 5), "serviceId": pq.FieldID(pq.Optional(pq.String()), 6)}), 2),
		"subjects": pq.FieldID(pq.Optional(pq.List(pq.FieldID(pq.Optional(pq.Group{
			"name": pq.FieldID(pq.Optional(pq.String()), 8)}), 7))), 3),
		"props": pq.FieldID(pq.Optional(pq.Map(pq.FieldID(pq.String(), 10), pq.FieldID(pq.Optional(pq.String()), 11))), 4),
	}
	// Columns in order: props.key, props.value, source.serviceId, source.type,
	// subjects.element.name, uuid (parquet-go orders group fields by name).
	rows := []pq.Row{{
		lv(str("k"), 0, 2, 0), lv(str("v"), 0, 3, 1),
		lv(str("svc"), 0, 2, 2), lv(str("t"), 0, 2, 3),
		lv(str("n1"), 0, 4, 4), lv(str("n2"), 1, 4, 4),
		lv(str("u1"), 0, 1, 5),
	}}
	b := writeSchemaRows(t, root, rows)
	f := openBytes(t, b)
	want := "table {\n" +
		"  4:props: map<string, string>\n" +
		"  2:source: struct<6:serviceId: string, 5:type: string>\n" +
		"  3:subjects: list<struct<8:name: string>>\n" +
		"  1:uuid: string\n}"
	if got := f.Schema().String(); got != want {
		t.Fatalf("schema:\n%s\nwant\n%s", got, want)
	}
	ids := map[string]int{}
	schema.Walk(f.Schema().Fields, func(path []string, fl *schema.Field) bool {
		ids[fmt.Sprint(path)] = fl.ID
		return true
	})
	wantIDs := map[string]int{
		"[props]": 4, "[props key]": 10, "[props value]": 11,
		"[source]": 2, "[source serviceId]": 6, "[source type]": 5,
		"[subjects]": 3, "[subjects element]": 7, "[subjects element name]": 8, "[uuid]": 1,
	}
	if !reflect.DeepEqual(ids, wantIDs) {
		t.Fatalf("ids %v, want %v", ids, wantIDs)
	}
	checkValues(t, b, [][]any{
		{[]any{[]any{"k", "v"}}},
		{[]any{"svc", "t"}},
		{[]any{[]any{"n1"}, []any{"n2"}}},
		{"u1"},
	})
	// Field ids reach the Arrow schema at every level.
	mem := newMem(t)
	br, err := f.NewBatchReader(f.Schema(), BatchOptions{Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	lt := br.Schema().Field(2).Type.(*arrow.ListType)
	mt := br.Schema().Field(0).Type.(*arrow.MapType)
	got := []int{schema.FieldIDOf(br.Schema().Field(2)), schema.FieldIDOf(lt.ElemField()),
		schema.FieldIDOf(lt.Elem().(*arrow.StructType).Field(0)),
		schema.FieldIDOf(mt.KeyField()), schema.FieldIDOf(mt.ItemField())}
	if !reflect.DeepEqual(got, []int{3, 7, 8, 10, 11}) {
		t.Fatalf("arrow field ids %v, want [3 7 8 10 11]", got)
	}
}

// TestCaseA13: a MAP whose repeated group is named "map" and annotated
// MAP_KEY_VALUE (the legacy layout) reads like any map.
func TestCaseA13(t *testing.T) {
	root := pq.Group{"properties": pq.Optional(pq.Map(pq.String(), pq.Optional(pq.String())))}
	b := writeSchemaRows(t, root, []pq.Row{{lv(str("k"), 0, 2, 0), lv(str("v"), 0, 3, 1)}})
	b = rewriteFooter(t, b, func(els []schemaElement) {
		kv := elementNamed(t, els, "key_value")
		kv.Name = "map"
		kv.ConvertedType.Set(deprecated.MapKeyValue)
		p := elementNamed(t, els, "properties")
		p.LogicalType.Reset()
		p.ConvertedType.Set(deprecated.Map)
	})
	f := openBytes(t, b)
	if got := f.Schema().String(); got != "table {\n  properties: map<string, string>\n}" {
		t.Fatalf("schema %s", got)
	}
	checkValues(t, b, [][]any{{[]any{[]any{"k", "v"}}}})
}

// TestCaseA14 reads list<struct<a long>> written in every list layout of the
// LogicalTypes backward-compatibility rules; all give the same values.
func TestCaseA14(t *testing.T) {
	want := [][]any{{
		[]any{[]any{int64(1)}, []any{int64(2)}},
		[]any{[]any{int64(3)}},
	}}
	three := pq.Group{"a": pq.Optional(pq.List(pq.Group{"a": pq.Leaf(pq.Int64Type)}))}
	// Levels: a (1), list (2), element required, a required.
	threeRows := []pq.Row{
		{lv(pq.Int64Value(1), 0, 2, 0), lv(pq.Int64Value(2), 1, 2, 0)},
		{lv(pq.Int64Value(3), 0, 2, 0)},
	}
	std := writeSchemaRows(t, three, threeRows)
	twoLevel := func(repeatedName string) []byte {
		root := pq.Group{"a": pq.Optional(pq.Group{repeatedName: pq.Repeated(pq.Group{"a": pq.Leaf(pq.Int64Type)})})}
		b := writeSchemaRows(t, root, threeRows)
		return rewriteFooter(t, b, func(els []schemaElement) {
			els[1].ConvertedType.Set(deprecated.List)
		})
	}
	cases := map[string][]byte{
		"element": std,
		"item": rewriteFooter(t, std, func(els []schemaElement) {
			elementNamed(t, els, "element").Name = "item"
		}),
		"bag/array_element (Hive)": rewriteFooter(t, std, func(els []schemaElement) {
			elementNamed(t, els, "list").Name = "bag"
			elementNamed(t, els, "element").Name = "array_element"
		}),
		"2-level array":  twoLevel("array"),
		"2-level _tuple": twoLevel("a_tuple"),
		"repeated group without LIST": writeSchemaRows(t, pq.Group{"a": pq.Repeated(pq.Group{"a": pq.Leaf(pq.Int64Type)})}, []pq.Row{
			{lv(pq.Int64Value(1), 0, 1, 0), lv(pq.Int64Value(2), 1, 1, 0)},
			{lv(pq.Int64Value(3), 0, 1, 0)},
		}),
	}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) {
			f := openBytes(t, b)
			lt, ok := f.Schema().Fields[0].Type.(*schema.ListType)
			if !ok || lt.Element.Name != "element" || lt.Element.Type.String() != "struct<a: required long>" {
				t.Fatalf("schema %s", f.Schema())
			}
			checkValues(t, b, want)
		})
	}
	// A repeated primitive inside a LIST group is the element itself, and a
	// repeated primitive without LIST is a required list.
	prim := writeSchemaRows(t, pq.Group{"a": pq.Optional(pq.Group{"element": pq.Repeated(pq.Int(32))})}, []pq.Row{
		{lv(pq.Int32Value(1), 0, 2, 0), lv(pq.Int32Value(2), 1, 2, 0)},
		{null(0, 1, 0)},
		{null(0, 0, 0)},
	})
	prim = rewriteFooter(t, prim, func(els []schemaElement) { els[1].ConvertedType.Set(deprecated.List) })
	if fl := openBytes(t, prim).Schema().Fields[0]; fl.String() != "a: list<int>" || !fl.Type.(*schema.ListType).Element.Required {
		t.Fatalf("schema %s", fl)
	}
	checkValues(t, prim, [][]any{{[]any{int64(1), int64(2)}, []any{}, nil}})
	bare := writeSchemaRows(t, pq.Group{"x": pq.Repeated(pq.Int(32))}, []pq.Row{
		{lv(pq.Int32Value(7), 0, 1, 0), lv(pq.Int32Value(8), 1, 1, 0)},
		{null(0, 0, 0)},
	})
	if fl := openBytes(t, bare).Schema().Fields[0]; fl.String() != "x: required list<int>" || !fl.Type.(*schema.ListType).Element.Required {
		t.Fatalf("schema %s", fl)
	}
	checkValues(t, bare, [][]any{{[]any{int64(7), int64(8)}, []any{}}})
}

// TestFieldIDZero: a present field_id 0 (Paimon's first id) is a real id; an
// absent one is NoID.
func TestFieldIDZero(t *testing.T) {
	type row struct {
		A int32 `parquet:"a"`
		B int32 `parquet:"b"`
	}
	b := writeRows(t, []row{{1, 2}})
	b = rewriteFooter(t, b, func(els []schemaElement) {
		elementNamed(t, els, "a").FieldID.Set(0)
		elementNamed(t, els, "b").FieldID.Reset()
	})
	f := openBytes(t, b)
	if a, bb := f.Schema().Fields[0], f.Schema().Fields[1]; a.ID != 0 || bb.ID != schema.NoID {
		t.Fatalf("ids %d, %d; want 0 and NoID", a.ID, bb.ID)
	}
}

// TestCaseA18: INT96 timestamps, dictionary-encoded and plain, with nulls,
// across many pages and batch boundaries, come out as microseconds.
func TestCaseA18(t *testing.T) {
	vals := []int64{
		1_751_383_673_000_000, // 2025-07-01 15:27:53
		0,
		-12_219_292_800_000_000, // 1582-10-15
		253_402_300_799_999_999, // 9999-12-31 23:59:59.999999
		1_000_000_000_123_456,
	}
	for _, enc := range []string{"dict", "plain"} {
		t.Run(enc, func(t *testing.T) {
			leaf := pq.Leaf(pq.Int96Type)
			if enc == "dict" {
				leaf = pq.Encoded(leaf, &pq.RLEDictionary)
			}
			root := pq.Group{"createddate": pq.Optional(leaf)}
			var rows []pq.Row
			var want []any
			for i := 0; i < 3000; i++ {
				if i%7 == 3 {
					rows = append(rows, pq.Row{null(0, 0, 0)})
					want = append(want, nil)
					continue
				}
				v := vals[i%len(vals)]
				rows = append(rows, pq.Row{lv(pq.Int96Value(int96Of(v)), 0, 1, 0)})
				want = append(want, ts(v))
			}
			b := writeSchemaRows(t, root, rows, pq.PageBufferSize(512))
			pages, dict := countPages(t, b)
			if pages < 5 || dict != (enc == "dict") {
				t.Fatalf("%d pages, dictionary %v: fixture does not cover the case", pages, dict)
			}
			for _, batch := range []int{1, 7, 1000, 0} {
				got := readCanonical(t, b, batch)
				if !reflect.DeepEqual(got, [][]any{want}) {
					t.Fatalf("batch %d: values differ", batch)
				}
			}
		})
	}
}

// countPages reports the number of data pages of column 0 and whether any
// is dictionary-encoded.
func countPages(t testing.TB, b []byte) (int, bool) {
	pf, err := pq.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	n, dict := 0, false
	for _, rg := range pf.RowGroups() {
		pages := rg.ColumnChunks()[0].Pages()
		for {
			p, err := pages.ReadPage()
			if err != nil {
				break
			}
			n++
			dict = dict || p.Dictionary() != nil
			pq.Release(p)
		}
		pages.Close()
	}
	return n, dict
}

// decimalDigits is the largest precision whose values all fit in width
// bytes of two's complement (capped at 38).
func decimalDigits(width int) int {
	max := new(big.Int).Lsh(big.NewInt(1), uint(8*width-1))
	return min(len(max.String())-1, 38)
}

func twosComplement(v *big.Int, width int) []byte {
	m := new(big.Int).Lsh(big.NewInt(1), uint(8*width))
	u := new(big.Int).Mod(v, m)
	out := make([]byte, width)
	u.FillBytes(out)
	return out
}

// TestCaseA8: decimals stored as INT32, INT64 and FIXED_LEN_BYTE_ARRAY of
// every width 1–16, negative values included, decode to decimal128 with the
// unscaled values sign-extended.
func TestCaseA8(t *testing.T) {
	root := pq.Group{}
	var want [][]any
	var cols [][]pq.Value
	names := []string{}
	for w := 1; w <= 16; w++ {
		name := fmt.Sprintf("d%02d", w)
		p := decimalDigits(w)
		s := p / 2
		root[name] = pq.Optional(pq.Decimal(s, p, pq.FixedLenByteArrayType(w)))
		names = append(names, name)
		maxv := new(big.Int).Sub(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil), big.NewInt(1))
		vs := []*big.Int{maxv, new(big.Int).Neg(maxv), big.NewInt(-1), big.NewInt(1), nil}
		var col []pq.Value
		var wc []any
		for _, v := range vs {
			if v == nil {
				col = append(col, pq.NullValue())
				wc = append(wc, nil)
				continue
			}
			col = append(col, pq.FixedLenByteArrayValue(twosComplement(v, w)))
			wc = append(wc, "dec:"+decString(v, int32(s)))
		}
		cols = append(cols, col)
		want = append(want, wc)
	}
	root["i32"] = pq.Optional(pq.Decimal(2, 9, pq.Int32Type))
	root["i64"] = pq.Optional(pq.Decimal(10, 18, pq.Int64Type))
	cols = append(cols,
		[]pq.Value{pq.Int32Value(999999999), pq.Int32Value(-999999999), pq.Int32Value(-1), pq.Int32Value(1), pq.NullValue()},
		[]pq.Value{pq.Int64Value(999999999999999999), pq.Int64Value(-999999999999999999), pq.Int64Value(-1), pq.Int64Value(1), pq.NullValue()})
	want = append(want,
		[]any{"dec:9999999.99", "dec:-9999999.99", "dec:-0.01", "dec:0.01", nil},
		[]any{"dec:99999999.9999999999", "dec:-99999999.9999999999", "dec:-0.0000000001", "dec:0.0000000001", nil})
	rows := make([]pq.Row, 5)
	for r := range rows {
		for c := range cols {
			v := cols[c][r]
			def := 1
			if v.IsNull() {
				def = 0
			}
			rows[r] = append(rows[r], v.Level(0, def, c))
		}
	}
	b := writeSchemaRows(t, root, rows)
	f := openBytes(t, b)
	for i, fl := range f.Schema().Fields[:16] {
		p := decimalDigits(i + 1)
		if fl.Name != names[i] || !schema.Equal(fl.Type, schema.Decimal(p, p/2)) {
			t.Fatalf("field %d: %v", i, fl)
		}
	}
	checkValues(t, b, want)
}

// TestCaseA21: a bare FIXED_LEN_BYTE_ARRAY(16) is fixed[16] (the plan may
// read it as uuid), an annotated one is uuid, at any depth; the bytes are
// the same.
func TestCaseA21(t *testing.T) {
	u := []byte{0x8d, 0xc3, 0x14, 0xd8, 0x3f, 0xd4, 0x4b, 0x3a, 0x8b, 0xf5, 0xc0, 0x08, 0xf3, 0x63, 0xc2, 0xe4}
	root := pq.Group{
		"uuid":    pq.Leaf(pq.FixedLenByteArrayType(16)),
		"struct1": pq.Optional(pq.Group{"c2": pq.Optional(pq.UUID())}),
		"list":    pq.Optional(pq.List(pq.Group{"c4": pq.Optional(pq.Leaf(pq.FixedLenByteArrayType(16)))})),
	}
	// Columns: list.element.c4, struct1.c2, uuid.
	b := writeSchemaRows(t, root, []pq.Row{{
		lv(pq.FixedLenByteArrayValue(u), 0, 3, 0), lv(pq.FixedLenByteArrayValue(u), 0, 2, 1), lv(pq.FixedLenByteArrayValue(u), 0, 0, 2),
	}})
	f := openBytes(t, b)
	want := "table {\n  list: list<struct<c4: fixed[16]>>\n  struct1: struct<c2: uuid>\n  uuid: required fixed[16]\n}"
	if got := f.Schema().String(); got != want {
		t.Fatalf("schema\n%s\nwant\n%s", got, want)
	}
	s := string(u)
	checkValues(t, b, [][]any{{[]any{[]any{s}}}, {[]any{s}}, {s}})
}

var _ = format.Required
