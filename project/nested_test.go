package project

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lakecat/lakecat/schema"
)

// Inside a struct: add, drop, rename, reorder and promote at once.
func TestStructChildren(t *testing.T) {
	file := sch(fld(1, "s", structOf(fld(2, "a", schema.Int), fld(3, "b", schema.String), fld(4, "gone", schema.Double))))
	read := sch(fld(1, "s", structOf(fld(3, "bee", schema.String), fld(2, "a", schema.Long), fld(5, "new", schema.Int))))
	p := mustPlan(t, file, read, Options{})
	wantProj := sch(fld(1, "s", structOf(fld(2, "a", schema.Int), fld(3, "b", schema.String))))
	if !p.FileProjection().Equal(wantProj) {
		t.Fatalf("FileProjection = %s, want %s", p.FileProjection(), wantProj)
	}
	applyJSON(t, p, `[{"s":{"a":1,"b":"x"}},{"s":null},{"s":{"a":null,"b":null}}]`,
		`[{"s":{"bee":"x","a":1,"new":null}},{"s":null},{"s":{"bee":null,"a":null,"new":null}}]`)
}

// A rename inside a struct is zero copy: the child arrays are the file's.
func TestStructRenameZeroCopy(t *testing.T) {
	file := sch(fld(1, "s", structOf(fld(2, "a", schema.Int))))
	read := sch(fld(1, "s", structOf(fld(2, "renamed", schema.Int))))
	p := mustPlan(t, file, read, Options{})
	mem := checkedMem(t)
	in := fileBatch(t, mem, p, `[{"s":{"a":1}},{"s":{"a":2}}]`)
	defer in.Release()
	out, err := p.Apply(in, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	got := out.Column(0).Data().Children()[0].Buffers()[1]
	want := in.Column(0).Data().Children()[0].Buffers()[1]
	if got != want {
		t.Error("renamed struct child should share the file's values buffer")
	}
}

// An initial-default inside a struct fills only where the parent is present.
func TestStructChildDefault(t *testing.T) {
	file := sch(fld(1, "s", structOf(fld(2, "a", schema.Int))))
	read := sch(fld(1, "s", structOf(fld(2, "a", schema.Int),
		&schema.Field{ID: 3, Name: "d", Type: schema.Long, Required: true, InitialDefault: int64(7)})))
	p := mustPlan(t, file, read, Options{})
	applyJSON(t, p, `[{"s":{"a":1}},{"s":null},{"s":{"a":3}}]`,
		`[{"s":{"a":1,"d":7}},{"s":null},{"s":{"a":3,"d":7}}]`)
}

// A whole nested column missing is null of the read type; with a default, the
// default.
func TestNestedColumnMissing(t *testing.T) {
	file := sch(fld(1, "id", schema.Int))
	read := sch(fld(1, "id", schema.Int),
		fld(2, "s", structOf(fld(3, "x", schema.Int))),
		fld(4, "l", schema.NewList(5, schema.String, false)),
		fld(6, "m", schema.NewMap(7, schema.String, 8, schema.Double, false)),
		&schema.Field{ID: 9, Name: "sd", Type: structOf(fld(10, "y", schema.Int)), InitialDefault: map[int]any{10: int32(5)}},
		&schema.Field{ID: 11, Name: "ld", Type: schema.NewList(12, schema.Int, false), InitialDefault: []any{int32(1), int32(2)}},
	)
	p := mustPlan(t, file, read, Options{})
	applyJSON(t, p, `[{"id":1},{"id":2}]`,
		`[{"id":1,"s":null,"l":null,"m":null,"sd":{"y":5},"ld":[1,2]},{"id":2,"s":null,"l":null,"m":null,"sd":{"y":5},"ld":[1,2]}]`)
}

// A struct none of whose requested children are in the file keeps its nulls
// from the cheapest leaf (the int, not the string).
func TestStructLevelsOnly(t *testing.T) {
	file := sch(fld(1, "s", structOf(fld(2, "name", schema.String), fld(3, "n", schema.Int))))
	read := sch(fld(1, "s", structOf(fld(4, "c", schema.String))))
	p := mustPlan(t, file, read, Options{})
	wantProj := sch(fld(1, "s", structOf(fld(3, "n", schema.Int))))
	if !p.FileProjection().Equal(wantProj) {
		t.Fatalf("FileProjection = %s, want %s", p.FileProjection(), wantProj)
	}
	if got := p.Explain().Fields[0].LevelsFrom; got != "s.n" {
		t.Errorf("LevelsFrom = %q, want s.n", got)
	}
	applyJSON(t, p, `[{"s":{"n":1}},{"s":null}]`, `[{"s":{"c":null}},{"s":null}]`)
}

// list<int> → list<long>; map<string,float> → map<string,double>; list of
// structs with changes inside; map of structs with changes inside.
func TestListAndMapPromotion(t *testing.T) {
	file := sch(
		fld(1, "l", schema.NewList(2, schema.Int, false)),
		fld(3, "m", schema.NewMap(4, schema.String, 5, schema.Float, false)),
		fld(6, "ls", schema.NewList(7, structOf(fld(8, "a", schema.Int), fld(9, "b", schema.String)), false)),
		fld(10, "ms", schema.NewMap(11, schema.String, 12, structOf(fld(13, "x", schema.Float), fld(14, "y", schema.Int)), false)),
	)
	read := sch(
		fld(1, "l", schema.NewList(2, schema.Long, false)),
		fld(3, "m", schema.NewMap(4, schema.String, 5, schema.Double, false)),
		fld(6, "ls", schema.NewList(7, structOf(fld(9, "b2", schema.String), fld(8, "a", schema.Long), fld(15, "c", schema.Int)), false)),
		fld(10, "ms", schema.NewMap(11, schema.String, 12, structOf(fld(13, "x", schema.Double), fld(16, "z", schema.String)), false)),
	)
	p := mustPlan(t, file, read, Options{})
	applyJSON(t, p,
		`[{"l":[1,null,3],"m":[{"key":"k","value":1.5},{"key":"n","value":null}],
		   "ls":[{"a":1,"b":"x"},null,{"a":null,"b":"z"}],"ms":[{"key":"p","value":{"x":0.25,"y":1}},{"key":"q","value":null}]},
		  {"l":[],"m":[],"ls":[],"ms":[]},
		  {"l":null,"m":null,"ls":null,"ms":null}]`,
		`[{"l":[1,null,3],"m":[{"key":"k","value":1.5},{"key":"n","value":null}],
		   "ls":[{"b2":"x","a":1,"c":null},null,{"b2":"z","a":null,"c":null}],"ms":[{"key":"p","value":{"x":0.25,"z":null}},{"key":"q","value":null}]},
		  {"l":[],"m":[],"ls":[],"ms":[]},
		  {"l":null,"m":null,"ls":null,"ms":null}]`)
}

// A map key's type cannot change, even by a promotion.
func TestMapKeyChangeRefused(t *testing.T) {
	file := sch(fld(1, "m", schema.NewMap(2, schema.Int, 3, schema.String, false)))
	read := sch(fld(1, "m", schema.NewMap(2, schema.Long, 3, schema.String, false)))
	_, err := NewPlan(file, read, Options{FileName: "m.parquet"})
	const want = `project: file "m.parquet": field 2 (m.key): incompatible type: a map key's type cannot change: file type int, read type long`
	if !errors.Is(err, ErrIncompatibleType) || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

// Nested types matched by id, not by Arrow type equality: two structs with
// equal Arrow shapes but swapped ids are swapped back.
func TestNestedByIDNotPosition(t *testing.T) {
	file := sch(fld(1, "s", structOf(fld(2, "a", schema.Int), fld(3, "b", schema.Int))))
	read := sch(fld(1, "s", structOf(fld(3, "a", schema.Int), fld(2, "b", schema.Int))))
	p := mustPlan(t, file, read, Options{})
	applyJSON(t, p, `[{"s":{"a":1,"b":2}}]`, `[{"s":{"a":2,"b":1}}]`)
}

// A struct read from a primitive (or the reverse) is an incompatible type.
func TestShapeMismatch(t *testing.T) {
	_, err := NewPlan(sch(fld(1, "s", schema.String)), sch(fld(1, "s", structOf(fld(2, "a", schema.Int)))), Options{FileName: "f"})
	const want = `project: file "f": field 1 (s): incompatible type: file type string, read type struct<2:a: int>`
	if !errors.Is(err, ErrIncompatibleType) || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

// Constants replace file columns and fill missing ones (identity partitions).
func TestConstants(t *testing.T) {
	file := sch(fld(1, "id", schema.Int), fld(2, "region", schema.String))
	read := sch(fld(1, "id", schema.Int), fld(2, "region", schema.String), req(3, "day", schema.Date),
		fld(4, "amount", schema.Decimal(9, 2)), fld(5, "gone", schema.Int))
	p := mustPlan(t, file, read, Options{Constants: map[int]any{
		2: "eu", 3: int32(19000), 4: schema.DecimalValue{Lo: 12345}, 5: nil,
	}})
	wantProj := sch(fld(1, "id", schema.Int))
	if !p.FileProjection().Equal(wantProj) {
		t.Fatalf("FileProjection = %s, want %s", p.FileProjection(), wantProj)
	}
	applyJSON(t, p, `[{"id":1},{"id":2}]`,
		`[{"id":1,"region":"eu","day":"2022-01-08","amount":"123.45","gone":null},{"id":2,"region":"eu","day":"2022-01-08","amount":"123.45","gone":null}]`)

	_, err := NewPlan(file, read, Options{FileName: "c", Constants: map[int]any{3: "x"}})
	const want = `project: file "c": field 3 (day): invalid value: constant: want an integer, got string`
	if !errors.Is(err, ErrInvalidValue) || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

// Null and default arrays are cached per batch length and shared.
func TestFillCache(t *testing.T) {
	file, read := ordersSchemas()
	p := mustPlan(t, file, read, Options{})
	defer p.Release()
	mem := checkedMem(t)
	rows := `[{"order_id":1,"order_name":"a","order_shop_id":100}]`
	in := fileBatch(t, mem, p, rows)
	defer in.Release()
	a, err := p.Apply(in, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	b, err := p.Apply(in, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	if a.Column(3).Data() != b.Column(3).Data() {
		t.Error("the null column should be the same cached array for equal batch lengths")
	}
}

// A batch that does not match the file projection is refused.
func TestBatchLayout(t *testing.T) {
	file, read := ordersSchemas()
	p := mustPlan(t, file, read, Options{FileName: "o"})
	mem := checkedMem(t)
	in := recordJSON(t, mem, schema.ToArrowSchema(file), `[]`)
	defer in.Release()
	_, err := p.Apply(in, mem)
	const want = `project: file "o": record batch does not match the file projection: 4 columns, want 3`
	if !errors.Is(err, ErrBatchLayout) || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

// Unknown (v3) columns: nothing decoded, nulls of the read type.
func TestUnknownToAny(t *testing.T) {
	file := sch(fld(1, "id", schema.Int), fld(2, "u", schema.Unknown))
	read := sch(fld(1, "id", schema.Int), fld(2, "u", schema.Long))
	p := mustPlan(t, file, read, Options{Rules: IcebergV3})
	if len(p.FileProjection().Fields) != 1 {
		t.Fatalf("FileProjection = %s, want only id", p.FileProjection())
	}
	applyJSON(t, p, `[{"id":1}]`, `[{"id":1,"u":null}]`)
	if _, err := NewPlan(file, read, Options{Rules: IcebergV2}); !errors.Is(err, ErrIncompatibleType) {
		t.Errorf("v2 err = %v, want ErrIncompatibleType", err)
	}
}

// Apply is safe for concurrent use (run with -race): batches of different
// lengths race for the cached fill arrays.
func TestConcurrentApply(t *testing.T) {
	file, read := ordersSchemas()
	p := mustPlan(t, file, read, Options{})
	defer p.Release()
	mem := checkedMem(t)
	rows := []string{
		`[{"order_id":1,"order_name":"a","order_shop_id":100}]`,
		`[{"order_id":1,"order_name":"a","order_shop_id":100},{"order_id":2,"order_name":"b","order_shop_id":null}]`,
	}
	done := make(chan error)
	for g := 0; g < 8; g++ {
		go func(g int) {
			in := fileBatch(t, mem, p, rows[g%2])
			err := applyMany(p, in, mem)
			in.Release() // before the test's allocator check
			done <- err
		}(g)
	}
	for g := 0; g < 8; g++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

func applyMany(p *Plan, in arrow.RecordBatch, mem memory.Allocator) error {
	for i := 0; i < 50; i++ {
		out, err := p.Apply(in, mem)
		if err != nil {
			return err
		}
		ok := out.NumRows() == in.NumRows() && out.Column(3).NullN() == int(in.NumRows())
		out.Release()
		if !ok {
			return errors.New("wrong result")
		}
	}
	return nil
}

// Sliced input (arrays with an offset, as a reader splitting a batch would
// hand over): promotions, struct rebuilds and fills still line up.
func TestSlicedInput(t *testing.T) {
	file := sch(fld(1, "n", schema.Int), fld(2, "s", structOf(fld(3, "a", schema.Float))), fld(4, "l", schema.NewList(5, schema.Int, false)))
	read := sch(fld(2, "s", structOf(fld(3, "a", schema.Double), &schema.Field{ID: 6, Name: "d", Type: schema.String, InitialDefault: "x"})),
		fld(1, "n", schema.Long), fld(4, "l", schema.NewList(5, schema.Long, false)), fld(7, "z", schema.Int))
	p := mustPlan(t, file, read, Options{})
	defer p.Release()
	mem := checkedMem(t)
	full := fileBatch(t, mem, p, `[{"n":1,"s":{"a":0.5},"l":[1]},{"n":null,"s":null,"l":null},{"n":3,"s":{"a":null},"l":[2,3]},
		{"n":4,"s":{"a":4.5},"l":[]},{"n":null,"s":{"a":5.5},"l":[null]}]`)
	defer full.Release()
	in := full.NewSlice(1, 5)
	defer in.Release()
	got, err := p.Apply(in, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	want := recordJSON(t, mem, p.ArrowSchema(), `[{"s":null,"n":null,"l":null,"z":null},{"s":{"a":null,"d":"x"},"n":3,"l":[2,3],"z":null},
		{"s":{"a":4.5,"d":"x"},"n":4,"l":[],"z":null},{"s":{"a":5.5,"d":"x"},"n":null,"l":[null],"z":null}]`)
	defer want.Release()
	if !array.RecordApproxEqual(got, want) {
		t.Errorf("got %s\nwant %s", recString(got), recString(want))
	}
}

// A map whose value the file lacks (another value id) keeps its keys and
// fills the values with nulls; a list whose element id differs keeps its
// lengths and fills the elements.
func TestMapValueAndListElementMissing(t *testing.T) {
	file := sch(fld(1, "m", schema.NewMap(2, schema.String, 3, schema.Int, false)), fld(4, "l", schema.NewList(5, schema.Double, false)))
	read := sch(fld(1, "m", schema.NewMap(2, schema.String, 6, schema.String, false)), fld(4, "l", schema.NewList(7, schema.Int, false)))
	p := mustPlan(t, file, read, Options{})
	applyJSON(t, p, `[{"m":[{"key":"a","value":1},{"key":"b","value":null}],"l":[1.5,null]},{"m":null,"l":[]},{"m":[],"l":null}]`,
		`[{"m":[{"key":"a","value":null},{"key":"b","value":null}],"l":[null,null]},{"m":null,"l":[]},{"m":[],"l":null}]`)
	if got := p.Explain().String(); got != `1 m: map<string, string>  ← m (map<string, int>)
  2 key: required string  ← m.key (string)
  6 value: string  null-filled: not in the file
4 l: list<int>  ← l (list<double>), nulls and lengths from l.element
  7 element: int  null-filled: not in the file
` {
		t.Errorf("explain:\n%s", got)
	}
}

// A promoted column's values buffer is recycled once the caller releases the
// batch: the next batch reuses it, and Release gives it back.
func TestPromotionBufferReuse(t *testing.T) {
	p := mustPlan(t, sch(fld(1, "c", schema.Int)), sch(fld(1, "c", schema.Long)), Options{})
	mem := checkedMem(t)
	defer p.Release()
	in := fileBatch(t, mem, p, `[{"c":1},{"c":2},{"c":null}]`)
	defer in.Release()
	first, err := p.Apply(in, mem)
	if err != nil {
		t.Fatal(err)
	}
	addr := &first.Column(0).Data().Buffers()[1].Bytes()[0]
	first.Release()
	second, err := p.Apply(in, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Release()
	if &second.Column(0).Data().Buffers()[1].Bytes()[0] != addr {
		t.Error("the second batch should reuse the first batch's values buffer")
	}
	want := recordJSON(t, mem, p.ArrowSchema(), `[{"c":1},{"c":2},{"c":null}]`)
	defer want.Release()
	if !array.RecordEqual(second, want) {
		t.Errorf("got %s", recString(second))
	}
}
