package orc

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/internal/realdata"
)

// FuzzOpen feeds whole files to Open and decodes every batch: no panic, and
// every error is typed. Seeds: the committed corpus in testdata/fuzz (test
// writer fixtures), the writer fixtures, and the small apache/orc examples
// read in place when present.
func FuzzOpen(f *testing.F) {
	for _, c := range []uint64{compNone, compZlib, compZstd, compSnappy, compLZ4} {
		f.Add(nestedFixture(c).bytes(f))
	}
	f.Add(genSeekFile(f, 250, 50, false, compNone, 0, 1))
	f.Add(genSeekFile(f, 250, 50, true, compZlib, 300, 2))
	if dir := realDirOrEmpty(); dir != "" {
		ex := filepath.Join(dir, "apache-orc", "examples")
		ents, _ := os.ReadDir(ex)
		for _, e := range ents {
			if info, err := e.Info(); err == nil && !e.IsDir() && info.Size() < 64<<10 {
				if b, err := os.ReadFile(filepath.Join(ex, e.Name())); err == nil {
					f.Add(b)
				}
			}
		}
	}
	valueCap = 1 << 16
	f.Fuzz(func(t *testing.T, b []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		err := fuzzDecode(b, mem)
		if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrTooLarge) {
			t.Fatalf("untyped error: %v", err)
		}
		mem.AssertSize(t, 0)
	})
}

func fuzzDecode(b []byte, mem memory.Allocator) error {
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return err
	}
	br, err := f.NewBatchReader(nil, BatchOptions{Allocator: mem, BatchRows: 100})
	if err != nil {
		return err
	}
	defer br.Close()
	if err := drain(br); err != nil || f.RowIndexStride() <= 0 {
		return err
	}
	// Again with every other row group skipped, seeking by the row index.
	var skip []RowRange
	for r := int64(0); r < f.NumRows() && len(skip) < 1000; r += 2 * f.RowIndexStride() {
		skip = append(skip, RowRange{Start: r, End: r + f.RowIndexStride()})
	}
	sr, err := f.NewBatchReader(nil, BatchOptions{Allocator: mem, BatchRows: 100, Skip: skip})
	if err != nil {
		return err
	}
	defer sr.Close()
	return drain(sr)
}

// drain reads at most 1000 batches of br.
func drain(br *BatchReader) error {
	for range 1000 {
		rec, err := br.Next(context.Background())
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		rec.Release()
	}
	return nil
}

// FuzzStreams feeds bytes to each stream decoder directly.
func FuzzStreams(f *testing.F) {
	f.Add(byte(0), uint16(10), []byte{0x0a, 0x27, 0x10})
	f.Add(byte(1), uint16(20), []byte{0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70, 0x28, 0x32, 0x3c, 0x46, 0x50,
		0x5a, 0x64, 0x6e, 0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8})
	f.Add(byte(2), uint16(10), []byte{0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46})
	f.Add(byte(3), uint16(105), []byte{0x61, 0x00, 0x07, 0xfb, 0x02, 0x03, 0x06, 0x07, 0x0b})
	f.Add(byte(4), uint16(102), []byte{0x61, 0x00, 0xfe, 0x44, 0x45})
	f.Add(byte(5), uint16(8), []byte{0xff, 0x80})
	f.Add(byte(6), uint16(3), []byte{0xf2, 0xc0, 0x01, 0x01, 0x02})
	f.Add(byte(7), uint16(40), []byte{0x78, 0x9c, 0x03, 0x00})
	f.Fuzz(func(t *testing.T, which byte, n uint16, b []byte) {
		switch which % 8 {
		case 0, 1, 2:
			d := &intRLEv2{b: b, signed: which%2 == 0}
			for range 4 {
				if _, err := d.next(nil, int(n)); err != nil {
					break
				}
			}
		case 3:
			d := &intRLEv1{b: b, signed: n%2 == 0}
			d.next(nil, int(n))
		case 4:
			var d byteRLE
			d.reset(b)
			d.next(nil, int(n))
		case 5:
			var d boolRLE
			d.reset(b)
			for range 3 {
				if _, err := d.next(nil, int(n%17)); err != nil {
					break
				}
			}
		case 6:
			p := 0
			for range n {
				var err error
				if _, _, p, err = readVarint128(b, p); err != nil {
					break
				}
			}
		case 7:
			for _, k := range []uint64{compZlib, compSnappy, compLZ4, compZstd, compLZO} {
				d, _ := newDecompressor(k, uint64(n)+1)
				d.decompress(nil, b, 1<<20)
			}
		}
	})
}

// realDirOrEmpty is realDir without a testing.TB: "" when absent.
func realDirOrEmpty() string { return realdata.Present() }

// TestWriteFuzzSeeds writes the writer fixtures as the committed seed
// corpus of FuzzOpen when ORC_WRITE_SEEDS is set.
func TestWriteFuzzSeeds(t *testing.T) {
	if os.Getenv("ORC_WRITE_SEEDS") == "" {
		t.Skip("set ORC_WRITE_SEEDS=1 to rewrite testdata/fuzz/FuzzOpen")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzOpen")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []uint64{compNone, compZlib, compZstd, compSnappy, compLZ4} {
		b := nestedFixture(c).bytes(t)
		var buf bytes.Buffer
		buf.WriteString("go test fuzz v1\n[]byte(")
		buf.WriteString(goQuote(b))
		buf.WriteString(")\n")
		if err := os.WriteFile(filepath.Join(dir, "fixture_"+compName(c)), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func goQuote(b []byte) string {
	var s bytes.Buffer
	s.WriteByte('"')
	for _, c := range b {
		s.WriteString("\\x")
		s.WriteByte("0123456789abcdef"[c>>4])
		s.WriteByte("0123456789abcdef"[c&15])
	}
	s.WriteByte('"')
	return s.String()
}
