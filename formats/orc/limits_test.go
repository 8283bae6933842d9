package orc

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// tailOnly builds a file "ORC" + footer bytes + postscript (uncompressed).
func tailOnly(footer []byte, ps []byte) []byte {
	b := append([]byte(magic), footer...)
	b = append(b, ps...)
	return append(b, byte(len(ps)))
}

func psWith(fields ...[2]uint64) []byte {
	var ps []byte
	for _, f := range fields {
		ps = pbVarint(ps, 0+protowireNum(f[0]), f[1])
	}
	return pbBytes(ps, 8000, []byte(magic))
}

func openBytes(b []byte) error {
	_, err := Open(bytes.NewReader(b), int64(len(b)))
	return err
}

func decodeAll(t *testing.T, b []byte) error {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return err
	}
	br, err := f.NewBatchReader(nil, BatchOptions{Allocator: mem})
	if err != nil {
		return err
	}
	defer br.Close()
	for {
		rec, err := br.Next(context.Background())
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		rec.Release()
	}
}

func TestCorruptPostscriptLength(t *testing.T) {
	err := openBytes([]byte{'O', 'R', 'C', 0x00, 0xff})
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.Section != "postscript" || !errors.Is(err, ErrCorrupt) {
		t.Fatalf("got %v", err)
	}
}

func TestCorruptFooterLength(t *testing.T) {
	// A footer above maxFooterLen is refused before reading it.
	if err := openBytes(tailOnly(nil, psWith([2]uint64{1, 1 << 30}))); !errors.Is(err, ErrTooLarge) {
		t.Errorf("huge footer: %v", err)
	}
	// A footer longer than the file.
	if err := openBytes(tailOnly(nil, psWith([2]uint64{1, 100}))); !errors.Is(err, ErrCorrupt) {
		t.Errorf("footer beyond file: %v", err)
	}
}

func TestCorruptBlockSize(t *testing.T) {
	err := openBytes(tailOnly(nil, psWith([2]uint64{2, compZlib}, [2]uint64{3, maxBlockSize + 1})))
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("got %v", err)
	}
}

func TestUnsupportedCodec(t *testing.T) {
	err := openBytes(tailOnly(nil, psWith([2]uint64{2, 6})))
	if !errors.Is(err, ErrUnsupportedCodec) || !errors.Is(err, ErrUnsupported) || err.Error() != "orc: unsupported compression codec BROTLI" {
		t.Errorf("got %v", err)
	}
}

// TestCorruptCompressionKind: a postscript compression kind beyond the
// spec's CompressionKind values (BROTLI is the last, 6) is a damaged
// postscript, ErrCorrupt, not an unsupported codec.
func TestCorruptCompressionKind(t *testing.T) {
	err := openBytes(tailOnly(nil, psWith([2]uint64{2, 34})))
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.Section != "postscript" || !errors.Is(err, ErrCorrupt) || errors.Is(err, ErrUnsupported) {
		t.Fatalf("got %v, want a postscript *CorruptError", err)
	}
	if want := "compression kind 34, which the ORC spec does not define (0 to 6)"; !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}

func TestCorruptChunks(t *testing.T) {
	d, _ := newDecompressor(compZlib, 16)
	if _, err := d.decompress(nil, []byte{0x20, 0, 0, 1}, 1<<20); err == nil {
		t.Error("chunk longer than its stream: no error")
	}
	if _, err := d.decompress(nil, []byte{0x20, 0}, 1<<20); err == nil {
		t.Error("short chunk header: no error")
	}
	// A chunk inflating beyond the block size.
	fx := &fxFile{comp: compZlib, block: 1 << 10}
	big := fx.compress(t, make([]byte, 100))
	if _, err := d.decompress(nil, big, 1<<20); !errors.Is(err, ErrTooLarge) {
		t.Errorf("oversized chunk: %v", err)
	}
	// An original chunk beyond the stream cap.
	if _, err := d.decompress(nil, []byte{0x09, 0, 0, 1, 2, 3, 4}, 3); !errors.Is(err, ErrTooLarge) {
		t.Errorf("stream cap: %v", err)
	}
}

func TestCorruptDictionarySize(t *testing.T) {
	fx := nestedFixture(compNone)
	fx.dict[4] = 1 << 40
	if err := decodeAll(t, fx.bytes(t)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("got %v", err)
	}
}

func TestCorruptListLength(t *testing.T) {
	fx := nestedFixture(compNone)
	for i, s := range fx.streams {
		if s.col == 3 && s.kind == sLength {
			fx.streams[i].data = encV2(false, 1<<40, 0)
		}
	}
	if err := decodeAll(t, fx.bytes(t)); !errors.Is(err, ErrTooLarge) || !errors.Is(err, ErrCorrupt) {
		t.Errorf("got %v", err)
	}
}

func TestCorruptTypes(t *testing.T) {
	fx := nestedFixture(compNone)
	fx.types[3].sub = []uint32{2} // a list whose element precedes it
	if err := decodeAll(t, fx.bytes(t)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("got %v", err)
	}
}

func TestCorruptStreamBeyondStripe(t *testing.T) {
	b := nestedFixture(compNone).bytes(t)
	// Make the stripe claim more rows than its streams hold.
	fx := nestedFixture(compNone)
	fx.rows = 5
	if err := decodeAll(t, fx.bytes(t)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("rows beyond streams: %v", err)
	}
	// Flip every byte of the file in turn: no panic, and errors are typed.
	for i := range b {
		c := bytes.Clone(b)
		c[i] ^= 0xff
		err := decodeAll(t, c)
		if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrTooLarge) {
			t.Errorf("byte %d: untyped error %v", i, err)
		}
	}
}

func TestBatchRowsLimit(t *testing.T) {
	b := nestedFixture(compNone).bytes(t)
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{-1, maxBatchRows + 1} {
		if _, err := f.NewBatchReader(nil, BatchOptions{BatchRows: n}); err == nil {
			t.Errorf("BatchRows %d accepted", n)
		}
	}
}
