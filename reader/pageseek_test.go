package reader_test

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/formats/parquet"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
)

// rangeReader is an io.ReaderAt that records the byte ranges read.
type rangeReader struct {
	r      *bytes.Reader
	mu     sync.Mutex
	ranges [][2]int64
	bytes  int64
}

func (c *rangeReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.mu.Lock()
	c.ranges = append(c.ranges, [2]int64{off, off + int64(n)})
	c.bytes += int64(n)
	c.mu.Unlock()
	return n, err
}

func (c *rangeReader) overlaps(off, end int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.ranges {
		if r[0] < end && off < r[1] {
			return true
		}
	}
	return false
}

// TestPageSeekNotRead: reading pageFile (k int32 in the file, read as
// long) with a filter, the data pages of every column whose rows all lie
// outside the pages of k that may match are not read (no byte of them),
// PageIndexBytesSkipped is their size, and the rows and _pos are exact;
// sequentially and with 2 workers.
func TestPageSeekNotRead(t *testing.T) {
	data := pageFile(t)
	pf, err := parquet.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		where string
		rows  []int
	}{
		{"k >= 100 and k < 110", span(100, 110)},
		{"k = 7 or k = 777", []int{7, 777}},
		{"k > 990", span(991, 1000)},
	} {
		// The rows of the pages of k that may match.
		kept := func(row int64) bool {
			for _, r := range c.rows {
				rg := int64(r) / 500
				ps, _ := pf.PageIndexOf(int(rg), pf.Schema().Fields[0])
				for _, p := range ps {
					lo := rg*500 + p.FirstRow
					if int64(r) >= lo && int64(r) < lo+p.Rows && row >= lo && row < lo+p.Rows {
						return true
					}
				}
			}
			return false
		}
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/%d", c.where, workers), func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				e, err := expr.Parse(c.where)
				if err != nil {
					t.Fatal(err)
				}
				rr := &rangeReader{r: bytes.NewReader(data)}
				var st reader.ScanStats
				rd, err := reader.Open(context.Background(), rr, int64(len(data)), reader.Options{ReadSchema: pageEvolved(), Filter: e, Stats: &st, Allocator: mem, Workers: workers, BatchRows: 3})
				if err != nil {
					t.Fatal(err)
				}
				got := testutil.ReaderJSON(t, rd)
				rd.Release()
				if want := pageRows(c.rows...); got != want {
					t.Fatalf("rows\n%s\nwant\n%s", got, want)
				}
				var notRead, pages int64
				for rg := 0; rg < pf.NumRowGroups(); rg++ {
					if !anyKeptIn(kept, int64(rg)*500, int64(rg+1)*500) {
						continue // ruled out by its statistics: not counted here
					}
					for _, f := range pf.Schema().Fields {
						ps, err := pf.PageIndexOf(rg, f)
						if err != nil || len(ps) < 2 {
							t.Fatalf("row group %d %s: %d pages, %v", rg, f.Name, len(ps), err)
						}
						for _, p := range ps {
							lo := int64(rg)*500 + p.FirstRow
							if anyKeptIn(kept, lo, lo+p.Rows) {
								continue
							}
							if rr.overlaps(p.Offset, p.Offset+p.Bytes) {
								t.Errorf("row group %d %s: page of rows [%d, %d) at %d read", rg, f.Name, lo, lo+p.Rows, p.Offset)
							}
							notRead += p.Bytes
							pages++
						}
					}
				}
				cs := st.Counts()
				if cs.PageIndexBytesSkipped != notRead || notRead == 0 {
					t.Errorf("PageIndexBytesSkipped %d; want %d (%d pages)", cs.PageIndexBytesSkipped, notRead, pages)
				}
				t.Logf("%d of %d bytes read; %d pages, %d bytes not read by the page index, %d bytes of row groups skipped", rr.bytes, len(data), pages, notRead, cs.BytesSkippedRowGroups)
			})
		}
	}
}

func anyKeptIn(kept func(int64) bool, lo, hi int64) bool {
	for r := lo; r < hi; r++ {
		if kept(r) {
			return true
		}
	}
	return false
}
