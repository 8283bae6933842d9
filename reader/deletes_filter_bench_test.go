package reader

import (
	"context"
	"fmt"
	"testing"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/internal/recycle"
)

// benchBatch is a batch of n rows of lakebench's six columns (int, long,
// float, double, string, decimal(18, 2)), a tenth of each null.
func benchBatch(mem memory.Allocator, n int) arrow.RecordBatch {
	ib, lb := array.NewInt32Builder(mem), array.NewInt64Builder(mem)
	fb, db := array.NewFloat32Builder(mem), array.NewFloat64Builder(mem)
	sb := array.NewStringBuilder(mem)
	decType := &arrow.Decimal128Type{Precision: 18, Scale: 2}
	cb := array.NewDecimal128Builder(mem, decType)
	for r := 0; r < n; r++ {
		h := uint32(r) * 2654435761
		if h%10 == 1 {
			ib.AppendNull()
			lb.AppendNull()
			fb.AppendNull()
			db.AppendNull()
			sb.AppendNull()
			cb.AppendNull()
			continue
		}
		ib.Append(int32(h))
		lb.Append(int64(h) << 7)
		fb.Append(float32(h))
		db.Append(float64(h) / 3)
		sb.Append(fmt.Sprintf("s%07d", h%10000000))
		cb.Append(decimal128.FromI64(int64(h)))
	}
	cols := []arrow.Array{ib.NewArray(), lb.NewArray(), fb.NewArray(), db.NewArray(), sb.NewArray(), cb.NewArray()}
	var fields []arrow.Field
	for i, c := range cols {
		fields = append(fields, arrow.Field{Name: fmt.Sprint("c", i), Type: c.DataType(), Nullable: true})
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	return rec
}

// BenchmarkApplyPositionDeletes: the cost of applying 10% position
// deletes (lakebench's table/deletes/pos10 positions) to batches of 64Ki
// rows, per row of the batch.
func BenchmarkApplyPositionDeletes(b *testing.B) {
	const n = 64 * 1024
	mem := memory.NewGoAllocator()
	rec := benchBatch(mem, n)
	defer rec.Release()
	bm := roaring64.New()
	for r := 0; r < n; r++ {
		if (uint32(r)*2654435761)>>16%10 == 0 {
			bm.Add(uint64(r))
		}
	}
	pool := recycle.New(mem, 4*3*6)
	defer pool.Close()
	fd := &fileDeletes{positions: bm, keep: 6, deleted: -1, pool: pool}
	ctx := context.Background()
	b.ReportAllocs()
	b.SetBytes(n)
	for b.Loop() {
		rec.Retain()
		out, err := fd.apply(ctx, rec, 0, rec.Schema(), mem)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
}
