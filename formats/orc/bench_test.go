package orc

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// arrowBytes returns the total buffer bytes of a record batch.
func arrowBytes(rec arrow.RecordBatch) int64 {
	var n int64
	var walk func(d arrow.ArrayData)
	walk = func(d arrow.ArrayData) {
		for _, b := range d.Buffers() {
			if b != nil {
				n += int64(b.Len())
			}
		}
		for _, c := range d.Children() {
			walk(c)
		}
	}
	for _, c := range rec.Columns() {
		walk(c.Data())
	}
	return n
}

// decodeFile decodes every column of an in-memory ORC file and returns
// rows and Arrow bytes.
func decodeFile(b testing.TB, data []byte, mem memory.Allocator) (rows, size int64) {
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		b.Fatal(err)
	}
	br, err := f.NewBatchReader(nil, BatchOptions{Allocator: mem})
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	for {
		rec, err := br.Next(context.Background())
		if err == io.EOF {
			return rows, size
		}
		if err != nil {
			b.Fatal(err)
		}
		rows += rec.NumRows()
		size += arrowBytes(rec)
		rec.Release()
	}
}

func benchORC(b *testing.B, data []byte) {
	mem := memory.NewGoAllocator()
	rows, size := decodeFile(b, data, mem)
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		decodeFile(b, data, mem)
	}
	b.ReportMetric(float64(rows)*float64(b.N)/time.Since(start).Seconds(), "rows/s")
}

// BenchmarkDecodeDemo12 decodes apache/orc's demo-12-zlib.orc (1,920,800
// rows, 9 columns, ZLIB). MB/s is of decoded Arrow data.
func BenchmarkDecodeDemo12(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(examplesDir(b), "demo-12-zlib.orc"))
	if err != nil {
		b.Fatal(err)
	}
	benchORC(b, data)
}

const genRows = 1 << 20

// generated returns the columns of the generated benchmark file: id long,
// qty int, price double, name string (direct), city string (dictionary),
// opt long (every 10th null), ts timestamp.
func generated(rows int) (ids, qty, opt []int64, present []int, price []float64, names, cities []string, secs []int64) {
	r := rand.New(rand.NewPCG(1, 2))
	pool := []string{"Amsterdam", "Berlin", "Cairo", "Delhi", "Edinburgh", "Florence", "Geneva", "Hanoi"}
	for i := range rows {
		ids = append(ids, int64(i))
		qty = append(qty, int64(r.IntN(1000)))
		price = append(price, float64(r.IntN(100000))/100)
		names = append(names, fmt.Sprintf("name-%08d", r.IntN(1<<30)))
		cities = append(cities, pool[r.IntN(len(pool))])
		if i%10 == 0 {
			present = append(present, 0)
		} else {
			present = append(present, 1)
			opt = append(opt, r.Int64N(1<<40))
		}
		secs = append(secs, 1_600_000_000+int64(i))
	}
	return
}

func generatedORC(b testing.TB, rows int) []byte {
	ids, qty, opt, present, price, names, cities, secs := generated(rows)
	var nameBytes []byte
	var nameLens, cityIdx []int64
	for _, s := range names {
		nameBytes = append(nameBytes, s...)
		nameLens = append(nameLens, int64(len(s)))
	}
	pool := map[string]int64{}
	var dict []byte
	var dictLens []int64
	for _, c := range cities {
		ix, ok := pool[c]
		if !ok {
			ix = int64(len(pool))
			pool[c] = ix
			dict = append(dict, c...)
			dictLens = append(dictLens, int64(len(c)))
		}
		cityIdx = append(cityIdx, ix)
	}
	ts := make([]int64, len(secs))
	for i, s := range secs {
		ts[i] = s - orcEpoch
	}
	fx := &fxFile{comp: compZstd, block: 256 << 10, rows: uint64(rows), tz: "UTC",
		types: []fxType{{kind: kStruct, sub: []uint32{1, 2, 3, 4, 5, 6, 7},
			names: []string{"id", "qty", "price", "name", "city", "opt", "ts"}},
			{kind: kLong}, {kind: kInt}, {kind: kDouble}, {kind: kString}, {kind: kString}, {kind: kLong}, {kind: kTimestamp}},
		enc:  []uint64{encDirect, encDirectV2, encDirectV2, encDirect, encDirectV2, encDictionaryV2, encDirectV2, encDirectV2},
		dict: map[int]uint64{5: uint64(len(dictLens))},
		streams: []fxStream{
			{1, sData, encV2(true, ids...)},
			{2, sData, encV2(true, qty...)},
			{3, sData, encDoubles(price...)},
			{4, sData, nameBytes},
			{4, sLength, encV2(false, nameLens...)},
			{5, sData, encV2(false, cityIdx...)},
			{5, sLength, encV2(false, dictLens...)},
			{5, sDictionaryData, dict},
			{6, sPresent, encBools(present...)},
			{6, sData, encV2(true, opt...)},
			{7, sData, encV2(true, ts...)},
			{7, sSecondary, encV2(false, make([]int64, rows)...)},
		}}
	return fx.bytes(b)
}

// BenchmarkDecodeGenerated decodes a generated 7-column file of 1,048,576
// rows (ZSTD; RLE v2, direct and dictionary strings, a nullable column).
func BenchmarkDecodeGenerated(b *testing.B) {
	benchORC(b, generatedORC(b, genRows))
}

// TestBatchAllocs bounds the allocations of one Next + Release on the
// generated 7-column file once the reader is warm: buffers come from the
// reader's pool and the decoders' scratch is reused, so what remains is
// Arrow's per-array bookkeeping (array data, buffer headers, the record).
func TestBatchAllocs(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	data := generatedORC(t, 1<<17)
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	br, err := f.NewBatchReader(nil, BatchOptions{Allocator: mem, BatchRows: 1024})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	next := func() {
		rec, err := br.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	for range 4 {
		next()
	}
	const limit = 70
	if a := testing.AllocsPerRun(100, next); a > limit {
		t.Errorf("%.0f allocations per batch of 7 columns, limit %d", a, limit)
	} else {
		t.Logf("%.0f allocations per batch of 7 columns", a)
	}
}
