package orc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// bigStreamsFile is a file of rows rows: d double (every 7th null), f
// float (incompressible), s string (direct, lengths 0 to 40, every 5th
// null) and k int. The values are a function of the row number (see the
// test).
func bigStreamsFile(t testing.TB, comp uint64, block, rows int) []byte {
	var dbl, flt, str []byte
	var lens, ints []int64
	var dPresent, strPresent []int
	for i := range rows {
		if i%7 == 3 {
			dPresent = append(dPresent, 0)
		} else {
			dPresent = append(dPresent, 1)
			dbl = append(dbl, encDoubles(float64(i)*1.25-7)...)
		}
		var fb [4]byte
		putFloat32(fb[:], bigFloat(i))
		flt = append(flt, fb[:]...)
		if i%5 == 1 {
			strPresent = append(strPresent, 0)
		} else {
			strPresent = append(strPresent, 1)
			s := bigString(i)
			str = append(str, s...)
			lens = append(lens, int64(len(s)))
		}
		ints = append(ints, int64(i)*3-100)
	}
	fx := &fxFile{comp: comp, block: block, rows: uint64(rows), tz: "UTC",
		types: []fxType{{kind: kStruct, sub: []uint32{1, 2, 3, 4}, names: []string{"d", "f", "s", "k"}},
			{kind: kDouble}, {kind: kFloat}, {kind: kString}, {kind: kInt}},
		enc: []uint64{encDirect, encDirect, encDirect, encDirectV2, encDirectV2},
		streams: []fxStream{
			{1, sPresent, encBools(dPresent...)},
			{1, sData, dbl},
			{2, sData, flt},
			{3, sPresent, encBools(strPresent...)},
			{3, sData, str},
			{3, sLength, encV2(false, lens...)},
			{4, sData, encV2(true, ints...)},
		}}
	return fx.bytes(t)
}

func putFloat32(b []byte, f float32) {
	u := math.Float32bits(f)
	b[0], b[1], b[2], b[3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
}

// bigFloat is float i of the f column: scattered bits, which no codec
// compresses, so that its chunks are stored original.
func bigFloat(i int) float32 { return math.Float32frombits(uint32(i) * 2654435761) }

func bigString(i int) string {
	return fmt.Sprintf("%0*d", i%41, i)[:i%41]
}

// TestBigStreams reads streams in batches that do not line up with
// compression chunks, with and without compression, and checks every
// value: float and string bytes are decompressed straight into the Arrow
// buffers where a chunk fits (snappy, zstd, original chunks), through the
// window otherwise (lz4, a chunk's part past the batch).
func TestBigStreams(t *testing.T) {
	const rows = 150_000
	defer func(w int) { readWindow = w }(readWindow)
	for _, tc := range []struct {
		name   string
		comp   uint64
		block  int
		window int
	}{
		{"none", compNone, 0, 4 << 20}, {"zstd", compZstd, 100_000, 4 << 20}, {"snappy", compSnappy, 65_536, 4 << 20}, {"lz4", compLZ4, 30_000, 4 << 20},
		// Read windows smaller than a chunk and not a divisor of anything.
		{"none-window", compNone, 0, 1001}, {"zstd-window", compZstd, 100_000, 1001}, {"snappy-window", compSnappy, 65_536, 1001},
	} {
		t.Run(tc.name, func(t *testing.T) {
			readWindow = tc.window
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			data := bigStreamsFile(t, tc.comp, tc.block, rows)
			f, err := Open(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			br, err := f.NewBatchReader(nil, BatchOptions{Allocator: mem, BatchRows: 7001})
			if err != nil {
				t.Fatal(err)
			}
			defer br.Close()
			row := 0
			for {
				rec, err := br.Next(context.Background())
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				d := rec.Column(0).(*array.Float64)
				fl := rec.Column(1).(*array.Float32)
				s := rec.Column(2).(*array.String)
				k := rec.Column(3).(*array.Int32)
				for j := range int(rec.NumRows()) {
					i := row + j
					if d.IsNull(j) != (i%7 == 3) || (i%7 != 3 && d.Value(j) != float64(i)*1.25-7) {
						t.Fatalf("row %d: d = %v (null %v)", i, d.Value(j), d.IsNull(j))
					}
					if fl.IsNull(j) || math.Float32bits(fl.Value(j)) != math.Float32bits(bigFloat(i)) {
						t.Fatalf("row %d: f = %v", i, fl.Value(j))
					}
					if s.IsNull(j) != (i%5 == 1) || (i%5 != 1 && s.Value(j) != bigString(i)) {
						t.Fatalf("row %d: s = %q (null %v)", i, s.Value(j), s.IsNull(j))
					}
					if k.IsNull(j) || k.Value(j) != int32(i*3-100) {
						t.Fatalf("row %d: k = %d", i, k.Value(j))
					}
				}
				row += int(rec.NumRows())
				rec.Release()
			}
			if row != rows {
				t.Fatalf("%d rows, want %d", row, rows)
			}
		})
	}
}

// failingReaderAt fails every read that touches bytes [lo, hi).
type failingReaderAt struct {
	r      io.ReaderAt
	lo, hi int64
}

var errInjected = errors.New("injected read failure")

func (f failingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off < f.hi && off+int64(len(p)) > f.lo {
		return 0, errInjected
	}
	return f.r.ReadAt(p, off)
}

// TestStreamReadError checks that a read of stream bytes that fails while
// batches are decoded (streams are read window by window) is reported as
// the I/O error it is, not as a corrupt file.
func TestStreamReadError(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	data := bigStreamsFile(t, compNone, 0, 150_000)
	f, err := Open(bytes.NewReader(data), int64(len(data)), WithFileName("big.orc"))
	if err != nil {
		t.Fatal(err)
	}
	// Fail the reads of bytes 400 KB to 500 KB of the file: within the
	// double stream, after its first windows.
	f.r = failingReaderAt{bytes.NewReader(data), 400 << 10, 500 << 10}
	br, err := f.NewBatchReader(nil, BatchOptions{Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	for {
		rec, err := br.Next(context.Background())
		if err == nil {
			rec.Release()
			continue
		}
		if !errors.Is(err, errInjected) || errors.Is(err, ErrCorrupt) {
			t.Fatalf("error %v: want the read error, not ErrCorrupt", err)
		}
		if want := "orc: reading stripe 0: injected read failure (file big.orc)"; err.Error() != want {
			t.Fatalf("error %q, want %q", err, want)
		}
		return
	}
}
