package reader

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/internal/recycle"
)

// TestFilterRuns: the run-copying filter gives what Arrow's filter kernel
// gives, on sliced arrays with nulls, for fixed-width and string columns.
func TestFilterRuns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ib := array.NewInt64Builder(mem)
	sb := array.NewStringBuilder(mem)
	for i := 0; i < 40; i++ {
		if i%5 == 2 {
			ib.AppendNull()
			sb.AppendNull()
			continue
		}
		ib.Append(int64(i * 3))
		sb.Append(string(rune('a'+i%26)) + "xyz"[:i%4])
	}
	ints, strs := ib.NewArray(), sb.NewArray()
	defer ints.Release()
	defer strs.Release()
	drop := make([]bool, 30)
	for i := range drop {
		drop[i] = i%7 == 0 || (i >= 10 && i < 14) || i == 29
	}
	kept := 0
	bb := array.NewBooleanBuilder(mem)
	for _, d := range drop {
		bb.Append(!d)
		if !d {
			kept++
		}
	}
	sel := bb.NewArray()
	defer sel.Release()
	runs := keptRuns(nil, drop)
	keep := make([]byte, 4)
	for i, d := range drop {
		if !d {
			keep[i/8] |= 1 << (i % 8)
		}
	}
	for _, a := range []arrow.Array{ints, strs} {
		s := array.NewSlice(a, 5, 35)
		got, ok := filterRuns(s, runs, keep, nil, kept, mem)
		if !ok {
			t.Fatalf("%s: not filtered", a.DataType())
		}
		want, err := compute.FilterArray(context.Background(), s, sel, *compute.DefaultFilterOptions())
		if err != nil {
			t.Fatal(err)
		}
		if !array.Equal(got, want) || got.NullN() != want.NullN() {
			t.Errorf("%s:\n got %v\nwant %v", a.DataType(), got, want)
		}
		got.Release()
		want.Release()
		s.Release()
	}
}

// TestCopyBits: copyBits gives what a bit-by-bit copy gives, for bit
// offsets 0-15, lengths 0-700 and kept densities from none to all (the
// word path, its squeezing and table branches, and the byte tail).
func TestCopyBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 3000; iter++ {
		n := rng.IntN(700)
		off := rng.IntN(16)
		src := make([]byte, (off+n+7)/8+rng.IntN(3))
		for i := range src {
			src[i] = byte(rng.Uint32())
		}
		density := []float64{0, 0.05, 0.1, 0.5, 0.9, 0.97, 1}[rng.IntN(7)]
		keep := make([]byte, (n+7)/8)
		kept := 0
		for i := 0; i < n; i++ {
			if rng.Float64() < 1-density {
				keep[i/8] |= 1 << (i % 8)
				kept++
			}
		}
		want := make([]byte, (kept+7)/8)
		wantSet, k := 0, 0
		for i := 0; i < n; i++ {
			if keep[i/8]&(1<<(i%8)) == 0 {
				continue
			}
			if b := off + i; src[b/8]&(1<<(b%8)) != 0 {
				want[k/8] |= 1 << (k % 8)
				wantSet++
			}
			k++
		}
		got := make([]byte, len(want))
		for i := range got {
			got[i] = 0xa5 // every byte must be written
		}
		set := copyBits(got, src, off, keep)
		if set != wantSet || string(got) != string(want) {
			t.Fatalf("n %d, off %d, density %v: set %d want %d\n got %x\nwant %x", n, off, density, set, wantSet, got, want)
		}
	}
}

// TestApplyPositionsMatchesKernel: applying position deletes to batches of
// the six lakebench types (runs short and long, nulls, a sliced batch)
// gives, column by column, what Arrow's filter kernel gives.
func TestApplyPositionsMatchesKernel(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	full := benchBatch(mem, 3000)
	defer full.Release()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		name   string
		lo, hi int64
		rate   float64
	}{{"a tenth", 0, 3000, 0.1}, {"sparse, sliced", 13, 2999, 0.01}, {"dense", 0, 3000, 0.7}} {
		rec := full.NewSlice(c.lo, c.hi)
		n := int(rec.NumRows())
		bm := roaring64.New()
		bb := array.NewBooleanBuilder(mem)
		for i := 0; i < n; i++ {
			d := rng.Float64() < c.rate
			if d {
				bm.Add(uint64(1000 + i))
			}
			bb.Append(!d)
		}
		sel := bb.NewArray()
		fd := &fileDeletes{positions: bm, keep: 6, deleted: -1}
		rec.Retain()
		got, err := fd.apply(context.Background(), rec, 1000, rec.Schema(), mem)
		if err != nil {
			t.Fatal(err)
		}
		for i, col := range rec.Columns() {
			want, err := compute.FilterArray(context.Background(), col, sel, *compute.DefaultFilterOptions())
			if err != nil {
				t.Fatal(err)
			}
			if g := got.Column(i); !array.Equal(g, want) || g.NullN() != want.NullN() {
				t.Errorf("%s: column %d (%s) differs from the filter kernel", c.name, i, col.DataType())
			}
			want.Release()
		}
		got.Release()
		sel.Release()
		rec.Release()
	}
}

// TestApplyPositionsBatchAfterBatch: one file's deletes applied to its
// batches in order (the position cursor resumes where the last batch
// ended), then again from the first batch (the cursor restarts), give
// what Arrow's filter kernel gives for every batch.
func TestApplyPositionsBatchAfterBatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const n, batch = 3000, 700
	full := benchBatch(mem, n)
	defer full.Release()
	rng := rand.New(rand.NewPCG(5, 6))
	bm := roaring64.New()
	drop := make([]bool, n)
	for i := range drop {
		// The head of the second batch and the tail of the third whole.
		drop[i] = rng.Float64() < 0.1 || i >= 700 && i < 720 || i >= 1390 && i < 1400
		if drop[i] {
			bm.Add(uint64(i))
		}
	}
	fd := &fileDeletes{positions: bm, keep: 6, deleted: -1}
	for pass := 0; pass < 2; pass++ {
		for lo := 0; lo < n; lo += batch {
			hi := min(lo+batch, n)
			rec := full.NewSlice(int64(lo), int64(hi))
			bb := array.NewBooleanBuilder(mem)
			for i := lo; i < hi; i++ {
				bb.Append(!drop[i])
			}
			sel := bb.NewArray()
			bb.Release()
			rec.Retain()
			got, err := fd.apply(context.Background(), rec, int64(lo), rec.Schema(), mem)
			if err != nil {
				t.Fatal(err)
			}
			for i, col := range rec.Columns() {
				want, err := compute.FilterArray(context.Background(), col, sel, *compute.DefaultFilterOptions())
				if err != nil {
					t.Fatal(err)
				}
				if g := got.Column(i); !array.Equal(g, want) || g.NullN() != want.NullN() {
					t.Errorf("pass %d, rows %d-%d: column %d (%s) differs from the filter kernel", pass, lo, hi, i, col.DataType())
				}
				want.Release()
			}
			got.Release()
			sel.Release()
			rec.Release()
		}
	}
}

// TestApplyPositionDeletesAllocs bounds the allocations of applying 10%
// position deletes to a batch of 64Ki rows of lakebench's six columns
// once warm: the survivors' buffers come from the pool (which keeps those
// of 4 KiB and more) and the scratch (positions, runs, bits) is reused, so
// what remains is Arrow's per-array bookkeeping.
func TestApplyPositionDeletesAllocs(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const n = 64 * 1024
	rec := benchBatch(mem, n)
	defer rec.Release()
	bm := roaring64.New()
	for r := 0; r < 4*n; r++ {
		if (uint32(r)*2654435761)>>16%10 == 0 {
			bm.Add(uint64(r))
		}
	}
	pool := recycle.New(mem, 4*3*6)
	defer pool.Close()
	fd := &fileDeletes{positions: bm, keep: 6, deleted: -1, pool: pool}
	first := int64(0)
	apply := func() {
		rec.Retain()
		out, err := fd.apply(context.Background(), rec, first%(4*n), rec.Schema(), mem)
		if err != nil {
			t.Fatal(err)
		}
		out.Release()
		first += n
	}
	for range 4 {
		apply()
	}
	const limit = 45
	if a := testing.AllocsPerRun(100, apply); a > limit {
		t.Errorf("%.0f allocations per batch of 6 columns, limit %d", a, limit)
	} else {
		t.Logf("%.0f allocations per batch of 6 columns", a)
	}
}
