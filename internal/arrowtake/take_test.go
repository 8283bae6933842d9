package arrowtake

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat"
)

// TestTakeAgreesWithCompute gathers every layout with random indices
// (nulls included), from whole arrays and from slices, and compares with
// arrow-go's take kernel.
func TestTakeAgreesWithCompute(t *testing.T) {
	cases := []struct {
		dt   arrow.DataType
		json string
	}{
		{arrow.Null, `[null, null, null]`},
		{arrow.FixedWidthTypes.Boolean, `[true, false, null, true, true, false, null, true, false]`},
		{arrow.PrimitiveTypes.Int8, `[1, -2, null, 4]`},
		{arrow.PrimitiveTypes.Int16, `[1, -2, null, 4, 5]`},
		{arrow.PrimitiveTypes.Int32, `[1, -2, null, 4, 5, 6]`},
		{arrow.PrimitiveTypes.Int64, `[1, -2, null, 4, 5, 6, 7]`},
		{arrow.PrimitiveTypes.Float32, `[1.5, null, -3]`},
		{arrow.PrimitiveTypes.Float64, `[1.5, null, -3, 1e300]`},
		{arrow.FixedWidthTypes.Float16, `[1.5, null, -3]`},
		{arrow.FixedWidthTypes.Date32, `[0, 19000, null]`},
		{arrow.FixedWidthTypes.Time64us, `[0, 1000, null]`},
		{&arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, `[0, 1000, null, 5]`},
		{&arrow.Decimal128Type{Precision: 20, Scale: 2}, `["1.25", null, "-99999999999.99"]`},
		{&arrow.FixedSizeBinaryType{ByteWidth: 3}, `["YWJj", null, "eHl6"]`},
		{arrow.BinaryTypes.String, `["a", "", null, "long string value", "é"]`},
		{arrow.BinaryTypes.Binary, `["YQ==", null, ""]`},
		{arrow.BinaryTypes.LargeString, `["a", null, "bcd"]`},
		{arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true}),
			`[{"a": 1, "b": "x"}, null, {"a": null, "b": "y"}, {"a": 4, "b": null}]`},
		{arrow.ListOf(arrow.PrimitiveTypes.Int64), `[[1, 2], [], null, [3, null, 5], [6]]`},
		{arrow.LargeListOf(arrow.BinaryTypes.String), `[["a"], null, ["b", "c"]]`},
		{arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int32), `[[1, 2], null, [3, null]]`},
		{arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), `[[{"key": "a", "value": 1}], null, [], [{"key": "b", "value": null}, {"key": "c", "value": 3}]]`},
		{arrow.ListOf(arrow.StructOf(arrow.Field{Name: "x", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true})), `[[{"x": [1]}, {"x": null}], null, [{"x": [2, 3]}]]`},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases {
		t.Run(c.dt.String(), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			whole, _, err := array.FromJSON(mem, c.dt, strings.NewReader(c.json))
			if err != nil {
				t.Fatal(err)
			}
			defer whole.Release()
			sliced := array.NewSlice(whole, 1, int64(whole.Len()))
			defer sliced.Release()
			for _, a := range []arrow.Array{whole, sliced} {
				for round := 0; round < 20; round++ {
					idx := make([]int64, rng.IntN(12))
					for i := range idx {
						idx[i] = int64(rng.IntN(a.Len()+1)) - 1
					}
					got, err := Take(mem, a, idx)
					if err != nil {
						t.Fatal(err)
					}
					want := computeTake(t, mem, a, idx)
					if !array.Equal(got, want) || got.NullN() != want.NullN() || !arrow.TypeEqual(got.DataType(), want.DataType()) {
						t.Errorf("take %v of %v:\n got %v\nwant %v", idx, a, got, want)
					}
					got.Release()
					want.Release()
				}
			}
		})
	}
}

func computeTake(t *testing.T, mem memory.Allocator, a arrow.Array, idx []int64) arrow.Array {
	t.Helper()
	b := array.NewInt64Builder(mem)
	defer b.Release()
	for _, j := range idx {
		if j < 0 {
			b.AppendNull()
		} else {
			b.Append(j)
		}
	}
	ind := b.NewArray()
	defer ind.Release()
	out, err := compute.TakeArray(compute.WithAllocator(context.Background(), mem), a, ind)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestIndices(t *testing.T) {
	keep := make([]byte, 20)
	want := []int64{0, 3, 63, 64, 70, 127, 128, 150}
	for _, i := range want {
		keep[i/8] |= 1 << (i % 8)
	}
	keep[19] = 0xff // past n: ignored
	got := Indices(keep, 151)
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

func TestFilterRecordBatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	sc := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	rec, _, err := array.RecordFromJSON(mem, sc, strings.NewReader(`[{"id": 1, "s": "a"}, {"id": 2, "s": null}, {"id": 3, "s": "c"}]`))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	out, err := FilterRecordBatch(mem, rec, []byte{0b101})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	if got, want := out.NumRows(), int64(2); got != want {
		t.Fatalf("rows %d, want %d", got, want)
	}
	if got := out.Column(0).(*array.Int64).Int64Values(); got[0] != 1 || got[1] != 3 {
		t.Errorf("ids %v, want [1 3]", got)
	}
	if got := out.Column(1).(*array.String); got.Value(0) != "a" || got.Value(1) != "c" {
		t.Errorf("s %v, want [a c]", got)
	}
}

func TestTakeUnsupported(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	eb := array.NewInt32Builder(mem)
	defer eb.Release()
	eb.Append(1)
	ends := eb.NewArray()
	defer ends.Release()
	vb := array.NewStringBuilder(mem)
	defer vb.Release()
	vb.Append("a")
	vals := vb.NewArray()
	defer vals.Release()
	a := array.NewRunEndEncodedArray(ends, vals, 1, 0)
	defer a.Release()
	_, err := Take(mem, a, []int64{0})
	if !errors.Is(err, ErrUnsupportedType) || !errors.Is(err, lakecat.ErrUnsupported) {
		t.Fatalf("err %v, want ErrUnsupportedType (class unsupported)", err)
	}
	if _, err := Take(mem, a, []int64{1}); err == nil {
		t.Fatal("index past the end: no error")
	}
}

// TestTakeDictionary takes rows of a dictionary array: the indices (and
// their nulls) are gathered, the dictionary is the same array.
func TestTakeDictionary(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	b := array.NewDictionaryBuilder(mem, dt)
	defer b.Release()
	db := b.(*array.BinaryDictionaryBuilder)
	for _, v := range []string{"a", "b", "", "a", "c"} {
		if v == "" {
			db.AppendNull()
		} else if err := db.AppendString(v); err != nil {
			t.Fatal(err)
		}
	}
	a := b.NewArray().(*array.Dictionary)
	defer a.Release()
	sl := array.NewSlice(a, 1, 5).(*array.Dictionary) // b, null, a, c
	defer sl.Release()
	out, err := Take(mem, sl, []int64{3, 1, -1, 0, 2})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	d := out.(*array.Dictionary)
	if !arrow.TypeEqual(d.DataType(), dt) || d.Dictionary().Data() != a.Dictionary().Data() {
		t.Fatalf("type %s, dictionary shared %v", d.DataType(), d.Dictionary().Data() == a.Dictionary().Data())
	}
	var got []string
	for i := 0; i < d.Len(); i++ {
		if d.IsNull(i) {
			got = append(got, "null")
			continue
		}
		got = append(got, d.Dictionary().(*array.String).Value(d.GetValueIndex(i)))
	}
	if want := []string{"c", "null", "null", "b", "a"}; !slices.Equal(got, want) || d.NullN() != 2 {
		t.Fatalf("got %v (%d nulls), want %v", got, d.NullN(), want)
	}
}
