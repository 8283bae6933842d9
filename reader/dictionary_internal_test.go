package reader

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestEncodeDictionarySliced encodes string and binary arrays with nulls,
// whole and as slices (an array offset), and checks the dictionary, the
// indices and the validity exactly.
func TestEncodeDictionarySliced(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	vals := []string{"b", "a", "", "b", "x", "a", "c"}
	valid := []bool{true, true, false, true, true, true, true}
	for _, typ := range []arrow.DataType{arrow.BinaryTypes.String, arrow.BinaryTypes.Binary} {
		b := array.NewBuilder(mem, typ)
		for i, v := range vals {
			switch {
			case !valid[i]:
				b.AppendNull()
			case typ.ID() == arrow.STRING:
				b.(*array.StringBuilder).Append(v)
			default:
				b.(*array.BinaryBuilder).Append([]byte(v))
			}
		}
		whole := b.NewArray()
		b.Release()
		dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: typ}
		for _, tc := range []struct {
			from, to int
			dict     string
			indices  string
		}{
			{0, 7, `["b" "a" "x" "c"]`, `[0 1 (null) 0 2 1 3]`},
			{2, 6, `["b" "x" "a"]`, `[(null) 0 1 2]`},
			{3, 4, `["b"]`, `[0]`},
			{2, 3, `[]`, `[(null)]`},
		} {
			in := array.NewSlice(whole, int64(tc.from), int64(tc.to))
			got, err := encodeDictionary(mem, dt, in)
			if err != nil {
				t.Fatal(err)
			}
			d := got.(*array.Dictionary)
			dict, indices := d.Dictionary().String(), d.Indices().String()
			if !arrow.TypeEqual(d.DataType(), dt) || indices != tc.indices || d.Len() != tc.to-tc.from || d.NullN() != in.NullN() {
				t.Errorf("%s [%d:%d]: type %s, dictionary %s, indices %s, nulls %d", typ, tc.from, tc.to, d.DataType(), dict, indices, d.NullN())
			}
			// (Binary prints its values as bytes; the loop below checks them.)
			if typ.ID() == arrow.STRING && dict != tc.dict {
				t.Errorf("%s [%d:%d]: dictionary %s, want %s", typ, tc.from, tc.to, dict, tc.dict)
			}
			for i := 0; i < in.Len(); i++ {
				if in.IsNull(i) != d.IsNull(i) || (in.IsValid(i) && in.ValueStr(i) != d.Dictionary().ValueStr(d.GetValueIndex(i))) {
					t.Errorf("%s [%d:%d] row %d differs", typ, tc.from, tc.to, i)
				}
			}
			got.Release()
			in.Release()
		}
		whole.Release()
	}
}
