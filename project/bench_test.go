package project

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/lakecat/lakecat/schema"
)

// genBatch builds a record batch of sc with rows rows, 10% nulls in every
// optional column, with builders (outside the timed loop).
func genBatch(mem memory.Allocator, sc *arrow.Schema, rows int, seed uint64) arrow.RecordBatch {
	r := rand.New(rand.NewPCG(seed, 1))
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	for i, f := range sc.Fields() {
		fill(b.Field(i), f, rows, r)
	}
	return b.NewRecordBatch()
}

func fill(fb array.Builder, f arrow.Field, rows int, r *rand.Rand) {
	fb.Reserve(rows)
	for j := 0; j < rows; j++ {
		if f.Nullable && r.IntN(10) == 0 {
			fb.AppendNull()
			continue
		}
		switch bb := fb.(type) {
		case *array.Int32Builder:
			bb.Append(r.Int32())
		case *array.Int64Builder:
			bb.Append(r.Int64())
		case *array.Float32Builder:
			bb.Append(r.Float32())
		case *array.Float64Builder:
			bb.Append(r.Float64())
		case *array.StringBuilder:
			bb.Append(fmt.Sprintf("s%d", r.IntN(1000)))
		case *array.Decimal128Builder:
			bb.Append(decimal128.FromI64(r.Int64N(1e9)))
		case *array.StructBuilder:
			bb.Append(true)
			st := f.Type.(*arrow.StructType)
			for k := 0; k < st.NumFields(); k++ {
				sub := st.Field(k)
				sub.Nullable = false
				fill(bb.FieldBuilder(k), sub, 1, r)
			}
		case *array.ListBuilder:
			bb.Append(true)
			n := r.IntN(4)
			el := f.Type.(*arrow.ListType).ElemField()
			el.Nullable = false
			fill(bb.ValueBuilder(), el, n, r)
		default:
			panic(fmt.Sprintf("fill: %T", fb))
		}
	}
}

type applyCase struct {
	name       string
	file, read *schema.Schema
}

func applyCases() []applyCase {
	base := sch(req(1, "a", schema.Long), fld(2, "b", schema.Int), fld(3, "c", schema.Double))
	return []applyCase{
		{"pass-through", base, base},
		{"rename", base, sch(req(1, "a2", schema.Long), fld(2, "b2", schema.Int), fld(3, "c2", schema.Double))},
		{"reorder", base, sch(fld(3, "c", schema.Double), req(1, "a", schema.Long), fld(2, "b", schema.Int))},
		{"null-fill", base, sch(req(1, "a", schema.Long), fld(2, "b", schema.Int), fld(3, "c", schema.Double), fld(4, "d", schema.String))},
		{"default-fill", base, sch(req(1, "a", schema.Long), fld(2, "b", schema.Int), fld(3, "c", schema.Double),
			&schema.Field{ID: 4, Name: "d", Type: schema.Long, InitialDefault: int64(7)})},
		{"int-to-long", sch(fld(1, "x", schema.Int)), sch(fld(1, "x", schema.Long))},
		{"float-to-double", sch(fld(1, "x", schema.Float)), sch(fld(1, "x", schema.Double))},
		{"decimal-widen", sch(fld(1, "x", schema.Decimal(9, 2))), sch(fld(1, "x", schema.Decimal(38, 2)))},
		{"struct-add-child", sch(fld(1, "s", structOf(req(2, "a", schema.Int), req(3, "b", schema.Long)))),
			sch(fld(1, "s", structOf(req(2, "a", schema.Int), req(3, "b", schema.Long), fld(4, "c", schema.String))))},
		{"list-element-promote", sch(fld(1, "l", schema.NewList(2, schema.Int, true))), sch(fld(1, "l", schema.NewList(2, schema.Long, true)))},
	}
}

// BenchmarkApply runs each action on batches of 1 Ki and 64 Ki rows; allocs/op
// must be the same at both sizes (they depend on the fields, not the rows).
func BenchmarkApply(b *testing.B) {
	for _, c := range applyCases() {
		for _, rows := range []int{1 << 10, 1 << 16} {
			b.Run(fmt.Sprintf("%s/rows=%d", c.name, rows), func(b *testing.B) {
				p, err := NewPlan(c.file, c.read, Options{})
				if err != nil {
					b.Fatal(err)
				}
				defer p.Release()
				mem := memory.NewGoAllocator()
				in := genBatch(mem, schema.ToArrowSchema(p.FileProjection()), rows, 1)
				defer in.Release()
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					out, err := p.Apply(in, mem)
					if err != nil {
						b.Fatal(err)
					}
					out.Release()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rows), "ns/row")
			})
		}
	}
}

// poolAllocator recycles freed buffers by size without zeroing them, as a
// service with a buffer pool would: it separates the cost of the conversion
// loops from the Go heap's allocation and GC cost.
type poolAllocator struct {
	mu   sync.Mutex
	free map[int][][]byte
}

func (a *poolAllocator) Allocate(size int) []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	if l := a.free[size]; len(l) > 0 {
		buf := l[len(l)-1]
		a.free[size] = l[:len(l)-1]
		return buf
	}
	return make([]byte, size)
}

func (a *poolAllocator) Reallocate(size int, b []byte) []byte {
	if cap(b) >= size {
		return b[:size]
	}
	nb := a.Allocate(size)
	copy(nb, b)
	a.Free(b)
	return nb
}

func (a *poolAllocator) Free(b []byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.free == nil {
		a.free = make(map[int][][]byte)
	}
	a.free[len(b)] = append(a.free[len(b)], b)
}

// BenchmarkApplyPooled is BenchmarkApply at 64 Ki rows with buffers recycled
// by a pool: the ns/row of the conversion loops themselves.
func BenchmarkApplyPooled(b *testing.B) {
	for _, c := range applyCases() {
		const rows = 1 << 16
		b.Run(c.name, func(b *testing.B) {
			p, err := NewPlan(c.file, c.read, Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Release()
			mem := &poolAllocator{}
			in := genBatch(memory.NewGoAllocator(), schema.ToArrowSchema(p.FileProjection()), rows, 1)
			defer in.Release()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				out, err := p.Apply(in, mem)
				if err != nil {
					b.Fatal(err)
				}
				out.Release()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rows), "ns/row")
		})
	}
}

func BenchmarkNewPlan(b *testing.B) {
	file, read := ordersSchemas()
	nestedFile := sch(fld(1, "id", schema.Long),
		fld(2, "s", structOf(fld(3, "a", schema.Int), fld(4, "b", schema.String))),
		fld(5, "l", schema.NewList(6, structOf(fld(7, "x", schema.Float), fld(8, "y", schema.Int)), false)),
		fld(9, "m", schema.NewMap(10, schema.String, 11, schema.Int, false)))
	nestedRead := sch(fld(9, "m", schema.NewMap(10, schema.String, 11, schema.Long, false)),
		fld(2, "s", structOf(fld(4, "bee", schema.String), fld(3, "a", schema.Long), fld(12, "c", schema.Int))),
		fld(5, "l", schema.NewList(6, structOf(fld(8, "y", schema.Long), fld(13, "z", schema.String)), false)),
		fld(1, "id", schema.Long))
	for _, c := range []struct {
		name       string
		file, read *schema.Schema
	}{{"orders", file, read}, {"nested", nestedFile, nestedRead}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := NewPlan(c.file, c.read, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// alignSchemas is the issue-2 alignment workload on 6 columns: rename,
// reorder, one null fill and one int→long.
func alignSchemas() (file, read *schema.Schema) {
	file = sch(req(1, "id", schema.Long), fld(2, "name", schema.String), fld(3, "qty", schema.Int),
		fld(4, "price", schema.Double), fld(5, "shop", schema.Int), fld(6, "amount", schema.Decimal(12, 2)))
	read = sch(fld(5, "shop_id", schema.Long), req(1, "id", schema.Long), fld(2, "title", schema.String),
		fld(3, "qty", schema.Int), fld(4, "price", schema.Double), fld(6, "amount", schema.Decimal(12, 2)),
		fld(7, "note", schema.String))
	return file, read
}

const (
	alignRows  = 1 << 20
	alignBatch = 64 * 1024
)

// BenchmarkAlign1M aligns 1 Mi rows of 6 columns (10% nulls) in 64 Ki-row
// batches: rename + reorder + one null fill + one int→long; with the Go heap
// allocator, and with buffers recycled by a pool (as a reader with a buffer
// pool would run it).
func BenchmarkAlign1M(b *testing.B) {
	file, read := alignSchemas()
	p, err := NewPlan(file, read, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Release()
	gen := memory.NewGoAllocator()
	var batches []arrow.RecordBatch
	for i := 0; i < alignRows/alignBatch; i++ {
		batches = append(batches, genBatch(gen, schema.ToArrowSchema(p.FileProjection()), alignBatch, uint64(i)))
	}
	defer func() {
		for _, r := range batches {
			r.Release()
		}
	}()
	for _, alloc := range []struct {
		name string
		mem  memory.Allocator
	}{{"go", memory.NewGoAllocator()}, {"pool", &poolAllocator{}}} {
		b.Run("alloc="+alloc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, in := range batches {
					out, err := p.Apply(in, alloc.mem)
					if err != nil {
						b.Fatal(err)
					}
					out.Release()
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/alignRows, "ns/row")
		})
	}
}

// BenchmarkDecodePqarrow1M decodes the same 6 columns × 1 Mi rows from a
// Parquet file (written once with pqarrow, snappy) with pqarrow: the decode
// baseline the alignment is compared with. lakecat's own decoder is measured
// in formats/parquet.
func BenchmarkDecodePqarrow1M(b *testing.B) {
	fs, _ := alignSchemas()
	mem := memory.NewGoAllocator()
	sc := schema.ToArrowSchema(fs)
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(sc, &buf, parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(alignRows)), pqarrow.DefaultWriterProps())
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < alignRows/alignBatch; i++ {
		rec := genBatch(mem, sc, alignBatch, uint64(i))
		if err := w.WriteBuffered(rec); err != nil {
			b.Fatal(err)
		}
		rec.Release()
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rdr, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: alignBatch}, mem)
		if err != nil {
			b.Fatal(err)
		}
		rr, err := fr.GetRecordReader(context.Background(), nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		for rr.Next() {
		}
		if err := rr.Err(); err != nil {
			b.Fatal(err)
		}
		rr.Release()
		rdr.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/alignRows, "ns/row")
}
