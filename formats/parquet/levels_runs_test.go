package parquet

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/parquet-go/parquet-go"
)

type runsRow struct {
	I *int32  `parquet:"i,optional,id(1)"`
	L *int64  `parquet:"l,optional,id(2)"`
	S *string `parquet:"s,optional,dict,id(3)"`
	B *string `parquet:"b,optional,id(4)"`
	D *int64  `parquet:"d,optional,decimal(2:18),id(5)"`
}

// TestValidityRuns reads flat optional columns whose pages alternate
// between stretches without nulls (whose validity bits are written only
// when a null follows them in the batch) and stretches with nulls, with
// batches that start and end inside either, with and without a skip set,
// and compares every value with pqarrow's.
func TestValidityRuns(t *testing.T) {
	rows := make([]runsRow, 20_000)
	for i := range rows {
		// Stretches of 1000 to 4999 rows, every other one with nulls at
		// every 7th row; a lone null at row 12345.
		stretch := (i / 5000) % 2
		null := stretch == 1 && i%7 == 3 || i == 12345
		if null {
			continue
		}
		r := &rows[i]
		i32, i64 := int32(i), int64(i)*3
		s, b := fmt.Sprint("w", i%9), fmt.Sprint("v-", i)
		r.I, r.L, r.S, r.B, r.D = &i32, &i64, &s, &b, &i64
	}
	b := writeRows(t, rows, pq.PageBufferSize(2048))
	want, _, err := readPQArrow(b, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	for _, batch := range []int{1, 100, 999, 4096, 20_000} {
		f := openBytes(t, b)
		got, err := readAll(f, newMem(t), batch)
		if err != nil {
			t.Fatalf("batch %d: %v", batch, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("batch %d: reads differ from pqarrow", batch)
		}
	}
	skip := roaring64.New()
	skip.AddRange(10, 4000)
	skip.AddRange(5003, 5004)
	skip.AddRange(9990, 15010)
	for _, batch := range []int{333, 4096} {
		f := openBytes(t, b)
		got, pos, err := readSkipping(f, newMem(t), batch, BatchOptions{}, skip)
		if err != nil {
			t.Fatalf("skip, batch %d: %v", batch, err)
		}
		for c := range got {
			for k, p := range pos {
				if !reflect.DeepEqual(got[c][k], want[c][p]) {
					t.Fatalf("skip, batch %d: column %d row %d: got %s, pqarrow %s", batch, c, p, show(got[c][k]), show(want[c][p]))
				}
			}
		}
	}
}
