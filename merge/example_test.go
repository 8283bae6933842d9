package merge_test

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/merge"
)

type batches []arrow.RecordBatch

func (b *batches) Name() string { return "run" }
func (b *batches) Next() (arrow.RecordBatch, error) {
	if len(*b) == 0 {
		return nil, io.EOF
	}
	r := (*b)[0]
	*b = (*b)[1:]
	return r, nil
}
func (b *batches) Close() error { return nil }

// Two sorted runs of (k, _SEQUENCE_NUMBER, _VALUE_KIND, v): the newer run
// updates key 2 and deletes key 3; deduplicate keeps the newest record of
// each key and drops retracted keys.
func ExampleNewReader() {
	s := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int64},
		{Name: "_SEQUENCE_NUMBER", Type: arrow.PrimitiveTypes.Int64},
		{Name: "_VALUE_KIND", Type: arrow.PrimitiveTypes.Int8},
		{Name: "v", Type: arrow.BinaryTypes.String},
	}, nil)
	run := func(ks, seqs []int64, kinds []int8, vs []string) merge.Run {
		b := array.NewRecordBuilder(memory.DefaultAllocator, s)
		defer b.Release()
		b.Field(0).(*array.Int64Builder).AppendValues(ks, nil)
		b.Field(1).(*array.Int64Builder).AppendValues(seqs, nil)
		b.Field(2).(*array.Int8Builder).AppendValues(kinds, nil)
		b.Field(3).(*array.StringBuilder).AppendValues(vs, nil)
		return &batches{b.NewRecordBatch()}
	}
	old := run([]int64{1, 2, 3}, []int64{0, 1, 2}, []int8{merge.Insert, merge.Insert, merge.Insert}, []string{"a", "b", "c"})
	newer := run([]int64{2, 3}, []int64{3, 4}, []int8{merge.UpdateAfter, merge.Delete}, []string{"B", "c"})
	rr, err := merge.NewReader(s, []merge.Run{newer, old}, merge.Spec{Keys: []int{0}, SequenceNumber: 1, ValueKind: 2}, merge.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rr.Release()
	for rr.Next() {
		rec := rr.RecordBatch()
		fmt.Println(rec.Column(0), rec.Column(3))
	}
	// Output: [1 2] ["a" "B"]
}
