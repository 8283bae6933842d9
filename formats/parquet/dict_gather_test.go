package parquet

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// TestGatherFixedWidths checks gatherFixed and scatterDict at every width
// they specialize (4, 8, 16) and one they do not (12) against byte copies,
// and that an index past the dictionary is an error.
func TestGatherFixedWidths(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, w := range []int{4, 8, 12, 16} {
		nd := 1 + rng.IntN(50)
		dict := make([]byte, nd*w)
		for i := range dict {
			dict[i] = byte(rng.Uint32())
		}
		idx := make([]int32, 200)
		for i := range idx {
			idx[i] = int32(rng.IntN(nd))
		}
		out := make([]byte, len(idx)*w)
		if err := gatherFixed(out, dict, w, idx); err != nil {
			t.Fatalf("width %d: %v", w, err)
		}
		for i, x := range idx {
			if !bytes.Equal(out[i*w:i*w+w], dict[int(x)*w:int(x)*w+w]) {
				t.Fatalf("width %d: value %d is %x, want %x", w, i, out[i*w:i*w+w], dict[int(x)*w:int(x)*w+w])
			}
		}
		bad := append([]int32{0}, int32(nd))
		if err := gatherFixed(make([]byte, 2*w), dict, w, bad); err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("width %d: index %d of %d: error %v", w, nd, nd, err)
		}
		if w == 12 {
			continue
		}
		// scatterDict: a level of 1 takes the next index, 0 is a null.
		d := make([]byte, 300)
		var sidx []int32
		for i := range d {
			if rng.IntN(4) != 0 {
				d[i] = 1
				sidx = append(sidx, int32(rng.IntN(nd)))
			}
		}
		sout := bytes.Repeat([]byte{0xee}, len(d)*w)
		if err := scatterDict(sout, dict, w, sidx, d, 1); err != nil {
			t.Fatalf("width %d: scatterDict: %v", w, err)
		}
		k := 0
		for i, x := range d {
			want := make([]byte, w)
			if x == 1 {
				want = dict[int(sidx[k])*w : int(sidx[k])*w+w]
				k++
			}
			if !bytes.Equal(sout[i*w:i*w+w], want) {
				t.Fatalf("width %d: scattered entry %d is %x, want %x", w, i, sout[i*w:i*w+w], want)
			}
		}
		if err := scatterDict(make([]byte, w), dict, w, []int32{int32(nd)}, []byte{1}, 1); err == nil {
			t.Errorf("width %d: scatterDict accepted index %d of %d", w, nd, nd)
		}
	}
}

// dictRow is a row of TestDictionaryPagesAgree's file: dictionary-encoded
// strings and decimals (decimal128 output), optional and required.
type dictRow struct {
	S   *string `parquet:"s,optional,dict,id(1)"`
	R   string  `parquet:"r,dict,id(2)"`
	Dec *int64  `parquet:"dec,optional,dict,decimal(2:18),id(3)"`
	D   float64 `parquet:"d,dict,id(4)"`
}

// TestDictionaryPagesAgree reads dictionary pages of strings of 0 to
// maxLen bytes (either side of gatherVar's block lengths: dictionaries of
// strings of at most 16 and at most 32 bytes are gathered as blocks, longer
// ones from the dictionary data; the longest last in the dictionary),
// decimals (16-byte gathers) and doubles, with nulls, and compares every
// value with pqarrow's, at several batch sizes.
func TestDictionaryPagesAgree(t *testing.T) {
	for _, maxLen := range []int{40, 33, 32, 17, 16, 15, 1, 0} {
		t.Run(fmt.Sprint(maxLen), func(t *testing.T) { testDictionaryPagesAgree(t, maxLen, false) })
	}
	for _, l := range []int{1, 3, 16, 17} {
		t.Run(fmt.Sprint("equal", l), func(t *testing.T) { testDictionaryPagesAgree(t, l, true) })
	}
}

// testDictionaryPagesAgree is TestDictionaryPagesAgree for strings of 0
// to maxLen bytes, or, when equal is set, of strings of maxLen bytes only
// (gatherEqual for at most 16).
func testDictionaryPagesAgree(t *testing.T, maxLen int, equal bool) {
	rng := rand.New(rand.NewPCG(7, uint64(maxLen)))
	words := make([]string, maxLen+1)
	for i := range words {
		words[i] = strings.Repeat(string(rune('a'+i%26)), i)
		if equal {
			words[i] = fmt.Sprintf("%0*d", maxLen, i)[:maxLen]
		}
	}
	rows := make([]dictRow, 5000)
	for i := range rows {
		r := &rows[i]
		w := words[rng.IntN(len(words))]
		if i == len(rows)-1 {
			w = words[len(words)-1]
		}
		if rng.IntN(5) != 0 {
			r.S = &w
		}
		r.R = words[rng.IntN(len(words))]
		if rng.IntN(4) != 0 {
			v := int64(rng.IntN(30)) - 15
			r.Dec = &v
		}
		r.D = float64(rng.IntN(20)) / 4
	}
	b := writeRows(t, rows, pq.PageBufferSize(4096))
	pf, err := pq.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	for _, cc := range pf.Metadata().RowGroups[0].Columns {
		if !slices.Contains(cc.MetaData.Encoding, format.RLEDictionary) {
			t.Fatalf("column %v is not dictionary-encoded: %v", cc.MetaData.PathInSchema, cc.MetaData.Encoding)
		}
	}
	want, _, err := readPQArrow(b, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	for _, batch := range []int{1, 7, 1000, 5000} {
		mem := newMem(t)
		f, err := Open(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		got, err := readAll(f, mem, batch)
		if err != nil {
			t.Fatalf("batch %d: %v", batch, err)
		}
		if !reflect.DeepEqual(got, want) {
			for c := range got {
				for i := range got[c] {
					if !reflect.DeepEqual(got[c][i], want[c][i]) {
						t.Fatalf("batch %d: column %d row %d: got %s, pqarrow %s", batch, c, i, show(got[c][i]), show(want[c][i]))
					}
				}
			}
			t.Fatalf("batch %d: reads differ", batch)
		}
	}
}

// TestGatherShort gathers strings of a dictionary of short strings as
// blocks and checks the data, the offsets and that an index out of range
// is refused.
func TestGatherShort(t *testing.T) {
	for _, maxLen := range []int{0, 1, 16, 17, 32} {
		var data []byte
		offs := []int32{0}
		for i := 0; i <= maxLen; i++ {
			data = append(data, strings.Repeat(string(rune('A'+i%26)), i)...)
			offs = append(offs, int32(len(data)))
		}
		if got := maxLength(offs); got != maxLen {
			t.Fatalf("maxLength %d, want %d", got, maxLen)
		}
		short := shortValues(nil, data, offs)
		idx := []int32{int32(maxLen), 0, int32(maxLen / 2), int32(maxLen), 0}
		total, err := shortTotal(short, idx)
		if err != nil {
			t.Fatal(err)
		}
		var want []byte
		var wantOffs []int32
		for _, x := range idx {
			want = append(want, data[offs[x]:offs[x+1]]...)
			wantOffs = append(wantOffs, 100+int32(len(want)))
		}
		if total != len(want) {
			t.Fatalf("max %d: total %d, want %d", maxLen, total, len(want))
		}
		out := make([]byte, total+shortSlack)
		o := make([]int32, len(idx))
		gatherShort(out, o, short, idx, 100, maxLen > 16)
		if !bytes.Equal(out[:total], want) || !slices.Equal(o, wantOffs) {
			t.Fatalf("max %d: got %q %v, want %q %v", maxLen, out[:total], o, want, wantOffs)
		}
		if _, err := shortTotal(short, []int32{0, int32(maxLen) + 1}); err == nil {
			t.Fatalf("max %d: index %d out of range accepted", maxLen, maxLen+1)
		}
		if _, err := shortTotal(short, []int32{-1}); err == nil {
			t.Fatalf("max %d: index -1 accepted", maxLen)
		}
	}
	// Strings of one length: the offsets follow from it.
	data := []byte("AAABBBCCC")
	short := shortValues(nil, data, []int32{0, 3, 6, 9})
	out := make([]byte, 4*3+shortSlack)
	o := make([]int32, 4)
	if err := gatherEqual(out, o, short, []int32{2, 0, 0, 1}, 7, 3); err != nil {
		t.Fatal(err)
	}
	if string(out[:12]) != "CCCAAAAAABBB" || !slices.Equal(o, []int32{10, 13, 16, 19}) {
		t.Fatalf("gatherEqual: %q %v", out[:12], o)
	}
	for _, bad := range []int32{3, -1} {
		if err := gatherEqual(out, o, short, []int32{0, bad}, 0, 3); err == nil {
			t.Fatalf("gatherEqual: index %d accepted", bad)
		}
	}
	if maxLength([]int32{0, 5, 3}) != -1 {
		t.Fatal("decreasing offsets not seen")
	}
}

// TestDictionaryBatchAllocs bounds the heap allocations of one batch of
// dictionary-encoded columns in steady state (pages decoded, buffers
// grown): the batch's Arrow arrays and buffers and the page decoding, not
// one allocation per value.
func TestDictionaryBatchAllocs(t *testing.T) {
	rows := make([]dictRow, 60_000)
	words := []string{"alpha", "bravo", "charlie-delta-echo-foxtrot", ""}
	for i := range rows {
		r := &rows[i]
		if i%5 != 0 {
			r.S = &words[i%len(words)]
		}
		r.R = words[(i/3)%len(words)]
		if i%4 != 0 {
			v := int64(i % 17)
			r.Dec = &v
		}
		r.D = float64(i % 9)
	}
	b := writeRows(t, rows, pq.PageBufferSize(64<<10))
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	br, err := f.NewBatchReader(f.Schema(), BatchOptions{BatchRows: 1000, Allocator: memory.NewGoAllocator()})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	ctx := context.Background()
	next := func() {
		rec, err := br.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	for range 5 {
		next()
	}
	const limit = 60 // 4 columns; 33 when written
	if n := testing.AllocsPerRun(30, next); n > limit {
		t.Errorf("%.0f allocations per batch of 1000 rows, want at most %d", n, limit)
	} else {
		t.Logf("%.0f allocations per batch", n)
	}
}
