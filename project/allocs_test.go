package project

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lakecat/lakecat/schema"
)

// Allocations per Apply depend on the fields, not on the rows: the same count
// for 1 Ki and 64 Ki rows, for every action of BenchmarkApply.
func TestAllocsIndependentOfRows(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for _, c := range applyCases() {
		p := mustPlan(t, c.file, c.read, Options{})
		mem := memory.NewGoAllocator()
		var counts []float64
		for _, rows := range []int{1 << 10, 1 << 16} {
			in := genBatch(mem, schema.ToArrowSchema(p.FileProjection()), rows, 1)
			counts = append(counts, testing.AllocsPerRun(20, func() {
				out, err := p.Apply(in, mem)
				if err != nil {
					t.Fatal(err)
				}
				out.Release()
			}))
			in.Release()
		}
		p.Release()
		if counts[0] != counts[1] {
			t.Errorf("%s: %v allocs for 1 Ki rows, %v for 64 Ki rows", c.name, counts[0], counts[1])
		}
		if counts[1] > 16 {
			t.Errorf("%s: %v allocs per batch, want at most 16", c.name, counts[1])
		}
		t.Logf("%s: %v allocs per batch", c.name, counts[1])
	}
}
