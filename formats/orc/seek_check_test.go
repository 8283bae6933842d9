package orc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestSeekDamagedPositionInStream: a row index position damaged to
// another place inside its stream, which a seek used, shifted the column
// and gave other values without an error. The decoder is now compared
// with the next row group's positions where the reader reaches that group
// by decoding, and with the stream's end at the end of the stripe: the
// shift is ErrCorrupt naming the file, stripe, column and stream.
// TestOrcFile.testSeek.orc is zlib-compressed (each stream of its first
// stripe one chunk), row groups of 1000 rows, 5000 rows in stripe 0.
func TestSeekDamagedPositionInStream(t *testing.T) {
	const name = "TestOrcFile.testSeek.orc"
	data, err := os.ReadFile(filepath.Join(realDir(t), "apache-orc", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(bytes.NewReader(data), int64(len(data)), WithFileName(name))
	if err != nil {
		t.Fatal(err)
	}
	// Columns: 1 boolean1 (DATA: chunk, offset, bytes into a run, bits), 4
	// int1 (DATA: chunk, offset, values into a run), 7 double1 (DATA:
	// chunk, offset).
	for _, c := range []struct {
		name      string
		skip      []RowRange
		col, g, i int
		delta     int64
		want      string
	}{
		// Skipping rows 0-1999 seeks to row group 2 and decodes the rest
		// of the stripe: the stripe's end tells.
		{"int1 run one value short", []RowRange{{0, 2000}}, 4, 2, 2, -1,
			"orc: TestOrcFile.testSeek.orc: stripe 0 at offset 3: column 4 (int1): at the stripe's end: orc: corrupt file: DATA stream: decoding the stripe's rows left values of its last run"},
		{"double1 one value early", []RowRange{{0, 2000}}, 7, 2, 1, -8,
			"orc: TestOrcFile.testSeek.orc: stripe 0 at offset 3: column 7 (double1): at the stripe's end: orc: corrupt file: DATA stream: decoding the stripe's rows ended at byte 39992, not at the stream's end, byte 40000"},
		{"boolean1 eight values early", []RowRange{{0, 2000}}, 1, 2, 2, -1,
			"orc: TestOrcFile.testSeek.orc: stripe 0 at offset 3: column 1 (boolean1): at the stripe's end: orc: corrupt file: DATA stream: decoding the stripe's rows ended at byte 627 inside a run, not at the stream's end, byte 628"},
		// Skipping row groups 0 and 2 seeks to group 1, decodes it and
		// reaches group 2 by decoding, where its positions tell.
		{"double1 at group 1, one value early", []RowRange{{0, 1000}, {2000, 3000}}, 7, 1, 1, -8,
			"orc: TestOrcFile.testSeek.orc: stripe 0 at offset 3: column 7 (double1): row index of row group 2: orc: corrupt file: DATA stream: decoding reached row group 2 at byte 15992; the row index puts it at byte 16000, 0 values into a run"},
		{"boolean1 at group 1, two bits late", []RowRange{{0, 1000}, {2000, 3000}}, 1, 1, 3, 2,
			"orc: TestOrcFile.testSeek.orc: stripe 0 at offset 3: column 1 (boolean1): row index of row group 2: orc: corrupt file: DATA stream: decoding reached row group 2 with 6 bits of a byte left; the row index puts it 0 bits into one"},
	} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		br, err := f.NewBatchReader(nil, BatchOptions{Allocator: mem, Skip: c.skip})
		if err != nil {
			t.Fatal(err)
		}
		if err := br.loadStripe(0); err != nil {
			t.Fatal(err)
		}
		br.stripe = 1
		p := br.index.pos[c.col][c.g]
		p[c.i] = uint64(int64(p[c.i]) + c.delta)
		for err == nil {
			var rec interface{ Release() }
			if rec, err = br.Next(context.Background()); err == nil {
				rec.Release()
			}
		}
		var ce *CorruptError
		if errors.Is(err, io.EOF) || !errors.Is(err, ErrCorrupt) || !errors.As(err, &ce) || ce.File != name || err.Error() != c.want {
			t.Errorf("%s: %v\nwant ErrCorrupt with %q", c.name, err, c.want)
		}
		br.Close()
		mem.AssertSize(t, 0)
	}
}

// TestSeekDamagedPositionUncompressed: the same on a generated
// uncompressed file (row groups of 100 rows; positions are byte offsets),
// for the double column d and the string column s (direct: its DATA
// bytes), each with a PRESENT stream: group 1's DATA offset moved by one
// value is told at group 2, which the reader reaches by decoding.
func TestSeekDamagedPositionUncompressed(t *testing.T) {
	const name = "gen.orc"
	data := genSeekFile(t, 2345, 100, true, compNone, 0, 0)
	f, err := Open(bytes.NewReader(data), int64(len(data)), WithFileName(name))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		col   int
		delta int64
		want  string
	}{
		{4, 8, "orc: gen.orc: stripe 0 at offset 3: column 4 (d): row index of row group 2: orc: corrupt file: DATA stream: decoding reached row group 2 at byte "},
		{5, 1, "orc: gen.orc: stripe 0 at offset 3: column 5 (s): row index of row group 2: orc: corrupt file: DATA stream: decoding reached row group 2 at byte "},
	} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		br, err := f.NewBatchReader(nil, BatchOptions{Allocator: mem, Skip: []RowRange{{0, 100}, {200, 300}}})
		if err != nil {
			t.Fatal(err)
		}
		if err := br.loadStripe(0); err != nil {
			t.Fatal(err)
		}
		br.stripe = 1
		p := br.index.pos[c.col][1]
		if len(p) != 3+1+2*(c.col-4) {
			t.Fatalf("column %d positions %v", c.col, p)
		}
		want := c.want + fmt.Sprint(int64(p[3])+c.delta+int64(br.index.pos[c.col][2][3]-p[3])) + "; the row index puts it at byte " + fmt.Sprint(br.index.pos[c.col][2][3]) + ", 0 values into a run"
		p[3] = uint64(int64(p[3]) + c.delta)
		for err == nil {
			var rec interface{ Release() }
			if rec, err = br.Next(context.Background()); err == nil {
				rec.Release()
			}
		}
		if !errors.Is(err, ErrCorrupt) || err.Error() != want {
			t.Errorf("column %d: %v\nwant %s", c.col, err, want)
		}
		br.Close()
		mem.AssertSize(t, 0)
	}
}
