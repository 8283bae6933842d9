package parquet

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/compress/gzip"
	"github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/parquet-go/parquet-go/compress/uncompressed"
	"github.com/parquet-go/parquet-go/compress/zstd"
	"github.com/parquet-go/parquet-go/encoding/thrift"
)

// countingReader is an io.ReaderAt that records the byte ranges read.
type countingReader struct {
	r      *bytes.Reader
	mu     sync.Mutex
	ranges [][2]int64 // [off, end)
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.mu.Lock()
	c.ranges = append(c.ranges, [2]int64{off, off + int64(n)})
	c.mu.Unlock()
	return n, err
}

// touches returns the first range read that overlaps [off, end).
func (c *countingReader) touches(off, end int64) ([2]int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.ranges {
		if r[0] < end && off < r[1] {
			return r, true
		}
	}
	return [2]int64{}, false
}

type seekRow struct {
	K  int64    `parquet:"k"`
	V  *int32   `parquet:"v,optional"`
	D  string   `parquet:"d,dict"`
	S  *string  `parquet:"s,optional"`
	Xs []int32  `parquet:"xs,list"`
	F  *float64 `parquet:"f,optional"`
}

// seekFile writes 6,000 rows (k = row) in row groups of 2,000 and pages of
// a few hundred bytes, with parquet-go's page index, under codec: v null
// for every third row and for rows 2,500..3,199 (whole null pages), d
// dictionary-encoded, s plain with nulls, xs a list of 0..3 values.
func seekFile(t *testing.T, codec compress.Codec) []byte {
	t.Helper()
	rows := make([]seekRow, 6000)
	for r := range rows {
		row := seekRow{K: int64(r), D: fmt.Sprintf("d%02d", r%37)}
		if r%3 != 0 && (r < 2500 || r >= 3200) {
			v := int32(r)
			row.V = &v
		}
		if r%5 != 0 {
			s := fmt.Sprintf("s%05d", r)
			row.S = &s
		}
		for k := 0; k < r%4; k++ {
			row.Xs = append(row.Xs, int32(r*10+k))
		}
		if r%7 != 0 {
			f := float64(r) / 4
			row.F = &f
		}
		rows[r] = row
	}
	return writeRows(t, rows, pq.MaxRowsPerRowGroup(2000), pq.PageBufferSize(512), pq.Compression(codec))
}

// rangesSkip returns the skip set of a file of n rows that keeps only the
// rows of keep ([from, to) pairs).
func rangesSkip(n int64, keep ...int64) *roaring64.Bitmap {
	bm := roaring64.New()
	bm.AddRange(0, uint64(n))
	for i := 0; i+1 < len(keep); i += 2 {
		bm.RemoveRange(uint64(keep[i]), uint64(keep[i+1]))
	}
	return bm
}

// skippedPages returns the pages of every column chunk of f that skip
// covers whole, with their byte ranges and sizes summed.
func skippedPages(t *testing.T, f *File, skip *roaring64.Bitmap) (ranges [][2]int64, bytes int64) {
	t.Helper()
	for rg := range f.meta.RowGroups {
		first := f.rowGroupStart(rg)
		rows := f.meta.RowGroups[rg].NumRows
		for col := range f.leaves {
			locs, err := f.offsetIndexAt(rg, col)
			if err != nil || locs == nil {
				t.Fatalf("row group %d column %d: no offset index (%v)", rg, col, err)
			}
			for i, pl := range locs {
				end := rows
				if i+1 < len(locs) {
					end = locs[i+1].FirstRowIndex
				}
				if skipCount(skip, first+pl.FirstRowIndex, first+end) == end-pl.FirstRowIndex {
					ranges = append(ranges, [2]int64{pl.Offset, pl.Offset + int64(pl.CompressedPageSize)})
					bytes += int64(pl.CompressedPageSize)
				}
			}
		}
	}
	return ranges, bytes
}

// TestSeekSkippedPages: with a skip set, the pages all of whose rows it
// holds are not read (no byte of them, counted by a ReaderAt that records
// its reads) and the rows left are those of the read without seeking, in
// every column (flat with nulls, dictionary and plain strings, a list,
// whole null pages), under four codecs, in small and large batches; the
// pages and bytes not read are counted exactly.
func TestSeekSkippedPages(t *testing.T) {
	codecs := map[string]compress.Codec{"uncompressed": &uncompressed.Codec{}, "snappy": &snappy.Codec{}, "zstd": &zstd.Codec{}, "gzip": &gzip.Codec{}}
	const n = 6000
	skips := map[string]*roaring64.Bitmap{
		"one range":          rangesSkip(n, 1000, 1100),
		"ranges in 3 groups": rangesSkip(n, 10, 20, 2990, 3010, 5990, 6000),
		"group 2 only":       rangesSkip(n, 2000, 4000),
		"first and last":     rangesSkip(n, 0, 1, 5999, 6000),
		"null pages of v":    rangesSkip(n, 0, 2500, 3200, 6000),
	}
	for cname, codec := range codecs {
		data := seekFile(t, codec)
		for sname, skip := range skips {
			for _, batch := range []int{7, 1000} {
				t.Run(fmt.Sprintf("%s/%s/%d", cname, sname, batch), func(t *testing.T) {
					mem := newMem(t)
					defer mem.AssertSize(t, 0)
					seekOff = true
					plain, err := Open(bytes.NewReader(data), int64(len(data)))
					if err != nil {
						t.Fatal(err)
					}
					want, wantRows, err := readSkipping(plain, mem, batch, BatchOptions{}, skip)
					seekOff = false
					if err != nil {
						t.Fatal(err)
					}
					cr := &countingReader{r: bytes.NewReader(data)}
					f, err := Open(cr, int64(len(data)))
					if err != nil {
						t.Fatal(err)
					}
					br, err := f.NewBatchReader(f.Schema(), BatchOptions{BatchRows: batch, Allocator: mem, Skip: skip})
					if err != nil {
						t.Fatal(err)
					}
					got, rows := drain(t, br)
					sc := br.Seeked()
					br.Close()
					if !slices.Equal(rows, wantRows) {
						t.Fatalf("rows %v\nwant %v", rows, wantRows)
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("values differ from the read without seeking")
					}
					ranges, size := skippedPages(t, f, skip)
					if len(ranges) == 0 {
						t.Fatal("the skip set covers no page")
					}
					for _, r := range ranges {
						if hit, ok := cr.touches(r[0], r[1]); ok {
							t.Fatalf("skipped page [%d, %d) read by [%d, %d)", r[0], r[1], hit[0], hit[1])
						}
					}
					if sc.Pages != int64(len(ranges)) || sc.Bytes != size {
						t.Errorf("Seeked %+v; want %d pages, %d bytes", sc, len(ranges), size)
					}
					if ps, err := f.PagesSkipped(f.Schema(), BatchOptions{Skip: skip, Allocator: mem}); err != nil || ps != sc {
						t.Errorf("PagesSkipped %+v, %v; want %+v", ps, err, sc)
					}
				})
			}
		}
	}
}

// drain reads br to the end and returns the canonical values per column
// and the file row of each row.
func drain(t *testing.T, br *BatchReader) ([][]any, []int64) {
	t.Helper()
	cols := make([][]any, len(br.Schema().Fields()))
	var rows []int64
	for {
		rec, err := br.Next(t.Context())
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			t.Fatal(err)
		}
		for _, r := range br.LastRows() {
			for p := r.Start; p < r.End; p++ {
				rows = append(rows, p)
			}
		}
		for c := 0; c < int(rec.NumCols()); c++ {
			for i := 0; i < int(rec.NumRows()); i++ {
				cols[c] = append(cols[c], canon(rec.Column(c), i))
			}
		}
		rec.Release()
	}
	return cols, rows
}

// TestSeekRealFiles: every real Parquet file with an offset index reads
// alike with and without seeking under several skip sets (values and file
// rows), and some pages of some files are not read.
func TestSeekRealFiles(t *testing.T) {
	dir := realDir(t)
	files, seeked, pages := 0, 0, int64(0)
	for _, rel := range realParquetFiles(t, dir) {
		if _, skip := differentialSkips[rel]; skip {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > 8<<20 {
			continue
		}
		f, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil || !hasOffsetIndex(f) {
			continue
		}
		files++
		n := f.NumRows()
		for sname, skip := range map[string]*roaring64.Bitmap{
			"a tenth": rangesSkip(n, n/3, n/3+n/10), "ends": rangesSkip(n, 0, 3, n-3, n), "runs": skipPatterns(n)["runs"],
		} {
			mem := newMem(t)
			seekOff = true
			want, wantRows, err := readSkipping(f, mem, 100, BatchOptions{}, skip)
			seekOff = false
			if err != nil {
				t.Logf("%s: unreadable: %v", rel, err)
				break
			}
			br, err := f.NewBatchReader(f.Schema(), BatchOptions{BatchRows: 100, Allocator: mem, Skip: skip})
			if err != nil {
				t.Fatal(err)
			}
			got, rows := drain(t, br)
			sc := br.Seeked()
			br.Close()
			mem.AssertSize(t, 0)
			if !slices.Equal(rows, wantRows) || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s %s: the read with seeking differs", rel, sname)
			}
			if sc.Pages > 0 {
				seeked++
				pages += sc.Pages
			}
		}
	}
	t.Logf("%d files with an offset index, %d reads with pages not read (%d pages)", files, seeked, pages)
	if seeked == 0 {
		t.Fatal("no real file had a page skipped")
	}
}

// hasOffsetIndex reports whether some column chunk of f has an offset
// index.
func hasOffsetIndex(f *File) bool {
	for _, rg := range f.meta.RowGroups {
		for _, cc := range rg.Columns {
			if cc.OffsetIndexOffset.Valid {
				return true
			}
		}
	}
	return false
}

// damageOffsetIndex returns a copy of data whose offset index of column
// col in row group 0 has its page locations changed by edit, re-encoded
// in place (edit must keep the encoding's length).
func damageOffsetIndex(t *testing.T, data []byte, col int, edit func(locs []pageLocation)) []byte {
	t.Helper()
	out := damageOffsetIndexOf(data, col, edit)
	if out == nil {
		t.Fatal("the offset index could not be changed in place")
	}
	return out
}

// damageOffsetIndexOf is damageOffsetIndex, nil when it fails.
func damageOffsetIndexOf(data []byte, col int, edit func(locs []pageLocation)) []byte {
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil
	}
	cc := f.meta.RowGroups[0].Columns[col]
	off, n := cc.OffsetIndexOffset.V, int64(cc.OffsetIndexLength.V)
	var oi offsetIndex
	if err := decodeThrift(data[off:off+n], &oi); err != nil {
		return nil
	}
	edit(oi.PageLocations)
	b, err := thrift.Marshal(new(thrift.CompactProtocol), &oi)
	if err != nil || int64(len(b)) != n {
		return nil
	}
	out := slices.Clone(data)
	copy(out[off:], b)
	return out
}

// TestSeekCorruptOffsetIndex: a page location outside its column chunk,
// or overlapping the page before it, first rows that do not go up from
// 0, or a page read that holds other rows than its location says, is
// ErrCorrupt naming the file when the reader seeks; without a skip set
// the offset index is not read.
func TestSeekCorruptOffsetIndex(t *testing.T) {
	data := seekFile(t, &snappy.Codec{})
	for name, edit := range map[string]func([]pageLocation){
		"overlapping":           func(l []pageLocation) { l[2].Offset = l[1].Offset + 1 },
		"outside the chunk":     func(l []pageLocation) { l[len(l)-1].CompressedPageSize += 100 },
		"before the chunk":      func(l []pageLocation) { l[0].Offset -= 2 },
		"past the next page":    func(l []pageLocation) { l[1].CompressedPageSize += 3 },
		"rows not going up":     func(l []pageLocation) { l[3].FirstRowIndex = l[2].FirstRowIndex },
		"first row not at zero": func(l []pageLocation) { l[0].FirstRowIndex = 1 },
		// Rows 100..109 lie in page 1, read, which the index now says
		// holds one row more than it does.
		"rows shifted": func(l []pageLocation) { l[2].FirstRowIndex++ },
	} {
		bad := damageOffsetIndex(t, data, 0, edit)
		f, err := Open(bytes.NewReader(bad), int64(len(bad)), WithName("bad.parquet"))
		if err != nil {
			t.Fatal(err)
		}
		mem := newMem(t)
		_, _, err = readSkipping(f, mem, 100, BatchOptions{}, rangesSkip(6000, 100, 110))
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "bad.parquet") || !strings.Contains(err.Error(), "offset index") {
			t.Errorf("%s: %v; want ErrCorrupt naming bad.parquet and the offset index", name, err)
		}
		if _, err := readAll(f, mem, 1000); err != nil {
			t.Errorf("%s: without a skip set: %v", name, err)
		}
		mem.AssertSize(t, 0)
	}
}

// smallSeekFile is seekFile's shape in 600 rows, row groups of 200 and
// pages of 128 bytes: a fuzz seed.
func smallSeekFile(t testing.TB) []byte {
	rows := make([]seekRow, 600)
	for r := range rows {
		row := seekRow{K: int64(r), D: fmt.Sprintf("d%d", r%5)}
		if r%3 != 0 {
			v := int32(r)
			row.V = &v
		}
		for k := 0; k < r%3; k++ {
			row.Xs = append(row.Xs, int32(r+k))
		}
		rows[r] = row
	}
	return writeRows(t, rows, pq.MaxRowsPerRowGroup(200), pq.PageBufferSize(128), pq.Compression(&snappy.Codec{}))
}

// FuzzSeekOffsetIndex reads arbitrary bytes as a Parquet file with a skip
// set that rules out whole pages, so that every offset index is
// consulted, and counts the pages skipped: no panic, no leak, only typed
// errors. Seeds: a file with offset indexes of several pages per chunk,
// and copies with a page location overlapping the page before it and
// outside its chunk.
func FuzzSeekOffsetIndex(f *testing.F) {
	good := smallSeekFile(f)
	f.Add(good)
	for _, edit := range []func([]pageLocation){
		func(l []pageLocation) { l[1].Offset-- },
		func(l []pageLocation) { l[len(l)-1].CompressedPageSize++ },
	} {
		if b := damageOffsetIndexOf(good, 0, edit); b != nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		fl, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		if fl.NumRows() > 2048 {
			return
		}
		skip := rangesSkip(fl.NumRows(), 3, 5, 250, 260)
		if _, err := fl.PagesSkipped(fl.Schema(), BatchOptions{Skip: skip, Allocator: mem}); err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
			t.Fatalf("PagesSkipped: untyped error: %v", err)
		}
		_, _, err = readSkipping(fl, mem, 7, BatchOptions{}, skip)
		if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) && !strings.Contains(err.Error(), "is skipped but read") {
			t.Fatalf("untyped error: %v", err)
		}
	})
}
