package avro_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/big"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/hamba/avro/v2/ocf"

	"github.com/lakecat/lakecat/formats/avro"
)

// BenchmarkDecode decodes 100,000 records (every column of the test
// schema; deflate blocks of 4,096 records) per iteration.
func BenchmarkDecode(b *testing.B) {
	rs := make([]row, 100_000)
	name := "customer"
	for i := range rs {
		rs[i] = row{ID: int64(i), Name: &name, Flag: i%2 == 0, F: float32(i), Day: int32(i % 1000), TS: int64(i) * 1000,
			Amount: big.NewRat(int64(i), 100), Bin: []byte{1, 2, 3}, Tags: []*int32{ptr[int32](1), nil},
			Props: map[string]int64{"k": int64(i)}, Kind: "A", Loc: &loc{City: "Paris"}}
	}
	data := writeAvro(b, ocf.Deflate, rs, 4096)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	mem := memory.NewGoAllocator()
	for b.Loop() {
		f, err := avro.Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			b.Fatal(err)
		}
		br, err := f.NewBatchReader(f.Schema(), avro.BatchOptions{Allocator: mem})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			rec, err := br.Next(context.Background())
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n += int(rec.NumRows())
			rec.Release()
		}
		br.Close()
		if n != len(rs) {
			b.Fatalf("%d rows", n)
		}
	}
}
