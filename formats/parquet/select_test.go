package parquet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/parquet-go/parquet-go"
)

// readSkipping reads every column of f leaving out the rows of skip, and
// returns the canonical values per column and the file row of each value,
// checking that the batches' LastRows agree with their lengths and leave
// out exactly the skipped rows.
func readSkipping(f *File, mem memory.Allocator, batchRows int, opts BatchOptions, skip *roaring64.Bitmap) ([][]any, []int64, error) {
	opts.BatchRows, opts.Allocator, opts.Skip = batchRows, mem, skip
	br, err := f.NewBatchReader(f.Schema(), opts)
	if err != nil {
		return nil, nil, err
	}
	defer br.Close()
	cols := make([][]any, len(f.Schema().Fields))
	var rows []int64
	last := int64(-1)
	for {
		rec, err := br.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		n := int64(0)
		for _, r := range br.LastRows() {
			if r.Start <= last || r.End <= r.Start {
				rec.Release()
				return nil, nil, fmt.Errorf("LastRows %v after row %d", br.LastRows(), last)
			}
			for p := r.Start; p < r.End; p++ {
				if skip != nil && skip.Contains(uint64(p)) {
					rec.Release()
					return nil, nil, fmt.Errorf("row %d is skipped but read", p)
				}
				rows = append(rows, p)
			}
			n += r.End - r.Start
			last = r.End - 1
		}
		if n != rec.NumRows() || rec.NumRows() == 0 || rec.NumRows() > int64(batchRows) {
			rec.Release()
			return nil, nil, fmt.Errorf("batch of %d rows, LastRows %v", rec.NumRows(), br.LastRows())
		}
		for c := 0; c < int(rec.NumCols()); c++ {
			col := rec.Column(c)
			if v, ok := col.(interface{ ValidateFull() error }); ok {
				if err := v.ValidateFull(); err != nil {
					rec.Release()
					return nil, nil, fmt.Errorf("column %d invalid: %v", c, err)
				}
			}
			for i := 0; i < col.Len(); i++ {
				cols[c] = append(cols[c], canon(col, i))
			}
		}
		rec.Release()
	}
	return cols, rows, nil
}

// skipPatterns returns the skip sets of a file of n rows the tests read
// through: scattered single rows (about 10% and 50%), long runs, every row
// but the first and the last, every row, none.
func skipPatterns(n int64) map[string]*roaring64.Bitmap {
	hash := func(r int64) uint32 { return uint32(r) * 2654435761 >> 16 }
	pats := map[string]*roaring64.Bitmap{}
	add := func(name string, keep func(r int64) bool) {
		bm := roaring64.New()
		for r := int64(0); r < n; r++ {
			if !keep(r) {
				bm.Add(uint64(r))
			}
		}
		pats[name] = bm
	}
	add("pos10", func(r int64) bool { return hash(r)%10 != 0 })
	add("half", func(r int64) bool { return hash(r)%2 != 0 })
	add("runs", func(r int64) bool { return r%300 < 100 || r%300 >= 230 })
	add("ends", func(r int64) bool { return r == 0 || r == n-1 })
	add("all", func(r int64) bool { return false })
	add("mixed", func(r int64) bool { return (r/97)%3 == 0 || hash(r)%4 != 0 })
	pats["empty"] = roaring64.New()
	return pats
}

// checkSkipping compares the reads of b through every skip pattern with
// its whole read, value for value.
func checkSkipping(t *testing.T, b []byte) int {
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Skipf("Open: %v", err)
	}
	mem := newMem(t)
	defer mem.AssertSize(t, 0)
	want, err := readAll(f, mem, 1000)
	if err != nil {
		t.Skipf("unreadable: %v", err)
	}
	checked := 0
	for name, skip := range skipPatterns(f.NumRows()) {
		for _, batch := range []int{7, 1000} {
			got, rows, err := readSkipping(f, mem, batch, BatchOptions{}, skip)
			if err != nil {
				t.Fatalf("%s, batches of %d: %v", name, batch, err)
			}
			if wantRows := f.NumRows() - int64(skip.GetCardinality()); int64(len(rows)) != wantRows {
				t.Fatalf("%s, batches of %d: %d rows, want %d", name, batch, len(rows), wantRows)
			}
			for c := range got {
				if len(got[c]) != len(rows) {
					t.Fatalf("%s: column %d has %d values for %d rows", name, c, len(got[c]), len(rows))
				}
				for i, p := range rows {
					if !reflect.DeepEqual(got[c][i], want[c][p]) {
						t.Fatalf("%s, batches of %d: column %s row %d: got %s, want %s", name, batch,
							f.Schema().Fields[c].Name, p, show(got[c][i]), show(want[c][p]))
					}
				}
			}
			checked++
		}
	}
	return checked
}

// TestSkipRowsReal reads every real Parquet file through the skip patterns
// and compares with the whole read: flat and nested columns, dictionary
// and plain pages, v1 and v2 pages, every physical type.
func TestSkipRowsReal(t *testing.T) {
	dir := realDir(t)
	files := realParquetFiles(t, dir)
	compared := 0
	for _, rel := range files {
		if _, skip := differentialSkips[rel]; skip {
			continue
		}
		t.Run(rel, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, rel))
			if err != nil {
				t.Fatal(err)
			}
			if len(b) > 8<<20 {
				t.Skip("large file")
			}
			checkSkipping(t, b)
			compared++
		})
	}
	t.Logf("compared %d of %d files", compared, len(files))
	if compared < 100 {
		t.Fatalf("compared only %d files", compared)
	}
}

type skipRow struct {
	I   *int32            `parquet:"i,optional"`
	L   int64             `parquet:"l"`
	S   *string           `parquet:"s,optional"`
	D   *string           `parquet:"d,optional,dict"`
	B   *bool             `parquet:"b,optional"`
	F   *float64          `parquet:"f,optional"`
	Dec int64             `parquet:"dec,decimal(2:18)"`
	OD  *int64            `parquet:"od,optional,decimal(2:18)"`
	OD4 *int32            `parquet:"od4,optional,decimal(3:9)"`
	Xs  []int32           `parquet:"xs,list"`
	St  *skipStruct       `parquet:"st,optional"`
	M   map[string]string `parquet:"m"`
}

type skipStruct struct {
	A *int64 `parquet:"a,optional"`
	B string `parquet:"b"`
}

// TestSkipRowsGenerated reads a generated file of 5,000 rows in row groups
// of 1,024 and pages of 256 rows or less, with nulls, dictionary and plain
// strings, booleans, decimals (required, and optional INT32 and INT64), a
// list, a struct and a map, through the skip
// patterns, from the first row group and from the third.
func TestSkipRowsGenerated(t *testing.T) {
	var rows []skipRow
	for r := 0; r < 5000; r++ {
		row := skipRow{L: int64(r) * 7, Dec: int64(r) - 2500}
		if r%9 != 0 {
			v := int32(r)
			row.I = &v
		}
		if r%5 != 1 {
			s := fmt.Sprintf("s%d-%s", r, string(bytes.Repeat([]byte{'x'}, r%23)))
			row.S = &s
		}
		if r%7 != 2 {
			d := fmt.Sprintf("dict%d", r%13)
			row.D = &d
		}
		if r%4 != 3 {
			b := r%3 == 0
			row.B = &b
		}
		if r%11 != 4 {
			f := float64(r) / 3
			row.F = &f
		}
		if r%8 != 6 {
			od, od4 := int64(r)*-1e9, int32(r)-2000
			row.OD, row.OD4 = &od, &od4
		}
		for k := 0; k < r%4; k++ {
			row.Xs = append(row.Xs, int32(r*10+k))
		}
		if r%6 != 5 {
			st := &skipStruct{B: fmt.Sprint("b", r)}
			if r%2 == 0 {
				a := int64(-r)
				st.A = &a
			}
			row.St = st
		}
		if r%3 != 0 {
			row.M = map[string]string{fmt.Sprint("k", r): fmt.Sprint("v", r)}
		}
		rows = append(rows, row)
	}
	b := writeRows(t, rows, pq.MaxRowsPerRowGroup(1024), pq.PageBufferSize(1024))
	if n := checkSkipping(t, b); n != 14 {
		t.Fatalf("checked %d reads", n)
	}
	// Batches spanning at most 50 file rows: long stretches of skipped
	// rows are stepped over in batches of none.
	defer func(s int64) { maxSkipSpan = s }(maxSkipSpan)
	maxSkipSpan = 50
	if n := checkSkipping(t, b); n != 14 {
		t.Fatalf("checked %d reads", n)
	}
	// From the third row group on: positions stay file positions.
	f := openBytes(t, b)
	mem := newMem(t)
	defer mem.AssertSize(t, 0)
	want, err := readAll(f, mem, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for name, skip := range skipPatterns(f.NumRows()) {
		got, pos, err := readSkipping(f, mem, 100, BatchOptions{FirstRowGroup: 2, RowGroups: 2}, skip)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, p := range pos {
			if p < 2048 || p >= 4096 {
				t.Fatalf("%s: row %d outside row groups 2 and 3", name, p)
			}
		}
		wantN := int64(2048) - int64(skip.Rank(4095)-skip.Rank(2047))
		if int64(len(pos)) != wantN {
			t.Fatalf("%s: %d rows, want %d", name, len(pos), wantN)
		}
		for c := range got {
			for i, p := range pos {
				if !reflect.DeepEqual(got[c][i], want[c][p]) {
					t.Fatalf("%s: column %d row %d: got %s, want %s", name, c, p, show(got[c][i]), show(want[c][p]))
				}
			}
		}
	}
}
