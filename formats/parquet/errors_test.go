package parquet

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/parquet-go/parquet-go"
)

// smallFile returns a small generated file with flat and nested columns.
func smallFile(t testing.TB) []byte {
	return smallFileWith(t, pq.PageBufferSize(64))
}

func smallFileWith(t testing.TB, opts ...pq.WriterOption) []byte {
	root := pq.Group{
		"id":   pq.Leaf(pq.Int64Type),
		"name": pq.Optional(pq.String()),
		"tags": pq.Optional(pq.Map(pq.String(), pq.Optional(pq.List(pq.Optional(pq.String()))))),
	}
	// Columns: id, name, tags.key, tags.value.list.element.
	var rows []pq.Row
	for i := 0; i < 40; i++ {
		r := pq.Row{lv(pq.Int64Value(int64(i)), 0, 0, 0)}
		if i%3 == 0 {
			r = append(r, null(0, 0, 1))
		} else {
			r = append(r, lv(str("n"+itoa(int64(i))), 0, 1, 1))
		}
		switch i % 4 {
		case 0:
			r = append(r, lv(str("a"), 0, 2, 2), lv(str("x"), 0, 5, 3), lv(str("y"), 2, 5, 3))
		case 1:
			r = append(r, null(0, 1, 2), null(0, 1, 3))
		case 2:
			r = append(r, null(0, 0, 2), null(0, 0, 3))
		case 3:
			r = append(r, lv(str("b"), 0, 2, 2), lv(str("c"), 1, 2, 2), null(0, 3, 3), null(1, 2, 3))
		}
		rows = append(rows, r)
	}
	return writeSchemaRows(t, root, rows, opts...)
}

func TestOpenBadInput(t *testing.T) {
	good := smallFile(t)
	footerLen := binary.LittleEndian.Uint32(good[len(good)-8:])
	cases := map[string]struct {
		b    []byte
		want error
	}{
		"empty":         {nil, ErrCorrupt},
		"short":         {[]byte("PAR1PAR1"), ErrCorrupt},
		"wrong magic":   {append([]byte("ORC\x00"), good[4:]...), ErrCorrupt},
		"wrong tail":    {append(append([]byte(nil), good[:len(good)-4]...), "PAR2"...), ErrCorrupt},
		"truncated":     {good[:len(good)/2], ErrCorrupt},
		"truncated-1":   {good[:len(good)-1], ErrCorrupt},
		"encrypted":     {append(append([]byte(nil), good[:len(good)-4]...), "PARE"...), ErrUnsupported},
		"footer length": {binary.LittleEndian.AppendUint32(append([]byte(nil), good[:len(good)-8]...), 1<<30), ErrCorrupt},
		"footer garbage": {func() []byte {
			b := append([]byte(nil), good...)
			for i := len(b) - 8 - int(footerLen); i < len(b)-8; i++ {
				b[i] = 0xff
			}
			return b
		}(), ErrCorrupt},
		"text file": {[]byte("id,name\n1,a\n2,b\n3,c\n"), ErrCorrupt},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Open(bytes.NewReader(c.b), int64(len(c.b)), WithName("x.parquet"))
			if !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
			if !strings.HasPrefix(err.Error(), "parquet: ") || !strings.Contains(err.Error(), "x.parquet") {
				t.Errorf("message %q: want the package prefix and the file name", err)
			}
			var ce *CorruptError
			if c.want == ErrCorrupt && !errors.As(err, &ce) {
				t.Errorf("%T is not a *CorruptError", err)
			}
		})
	}
}

// TestCorruptSchemaCaps: footers whose schema counts break the caps or the
// tree are refused before anything is built from them.
func TestCorruptSchemaCaps(t *testing.T) {
	good := smallFile(t)
	cases := map[string]func(els []schemaElement){
		"children past the end": func(els []schemaElement) { els[0].NumChildren.Set(1000) },
		"negative children":     func(els []schemaElement) { els[0].NumChildren.Set(-1) },
		"elements left over":    func(els []schemaElement) { els[0].NumChildren.Set(1) },
		// Found by fuzzing: a nested group whose descendants run past the
		// last element while its own count fits.
		"descendants past the end": func(els []schemaElement) { elementNamed(t, els, "key_value").NumChildren.Set(4) },
		// Found by fuzzing: sibling names must be unique for name matching.
		"duplicate names": func(els []schemaElement) { elementNamed(t, els, "name").Name = "id" },
		"primitive root": func(els []schemaElement) {
			els[0].NumChildren.Reset()
			els[0].Type.Set(els[1].Type.V)
		},
	}
	for name, fn := range cases {
		t.Run(name, func(t *testing.T) {
			b := rewriteFooter(t, good, fn)
			if _, err := Open(bytes.NewReader(b), int64(len(b))); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("got %v, want ErrCorrupt", err)
			}
		})
	}
}

// TestFlippedBytes flips every byte of a small file in turn: Open and a full
// read must either succeed or fail with ErrCorrupt/ErrUnsupported, never
// panic or leak.
func TestFlippedBytes(t *testing.T) {
	good := smallFile(t)
	for i := range good {
		b := append([]byte(nil), good...)
		b[i] ^= 0xff
		f, err := Open(bytes.NewReader(b), int64(len(b)))
		if err == nil {
			_, err = readAll(f, newMem(t), 7)
		}
		if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
			t.Errorf("byte %d flipped: untyped error %v", i, err)
		}
	}
}

// TestTruncatedPrefixes opens every prefix of a small file.
func TestTruncatedPrefixes(t *testing.T) {
	good := smallFile(t)
	for n := 0; n < len(good); n++ {
		_, err := Open(bytes.NewReader(good[:n]), int64(n))
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("prefix of %d bytes: got %v, want ErrCorrupt", n, err)
		}
	}
}

// TestSmallFileMatchesPQArrow checks the fixture the corruption tests and
// the fuzz seeds start from.
func TestSmallFileMatchesPQArrow(t *testing.T) {
	b := smallFile(t)
	want, _, err := readPQArrow(b, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	pages, _ := countPages(t, b)
	if pages < 3 {
		t.Fatalf("%d pages: the fixture should span several", pages)
	}
	checkValues(t, b, want)
	if len(want[0]) != 40 || want[2][3] == nil {
		t.Fatalf("unexpected fixture values %s", show(want))
	}
}

// TestRowGroupBoundaries: batches cross row groups (7 rows each) and pages.
func TestRowGroupBoundaries(t *testing.T) {
	b := smallFileWith(t, pq.PageBufferSize(64), pq.MaxRowsPerRowGroup(7))
	if n := openBytes(t, b).NumRowGroups(); n != 6 {
		t.Fatalf("%d row groups, want 6", n)
	}
	want := readCanonical(t, smallFile(t), 0)
	for _, batch := range []int{1, 3, 7, 8, 40, 0} {
		if got := readCanonical(t, b, batch); !reflect.DeepEqual(got, want) {
			t.Fatalf("batch %d: values differ across row groups", batch)
		}
	}
}

// TestRowGroupRange: reading row groups [first, first+count) of a file of
// six row groups of 7 rows (the last one 5) gives exactly those rows; the
// ranges 0..1, 2..4 and 5 together give every row once; a range past the
// file is an error.
func TestRowGroupRange(t *testing.T) {
	b := smallFileWith(t, pq.PageBufferSize(64), pq.MaxRowsPerRowGroup(7))
	f := openBytes(t, b)
	all := readCanonical(t, smallFile(t), 0)
	var rows int64
	for i := 0; i < f.NumRowGroups(); i++ {
		rows += f.RowGroupRows(i)
		if f.RowGroupBytes(i) <= 0 {
			t.Errorf("row group %d: %d bytes", i, f.RowGroupBytes(i))
		}
	}
	if rows != 40 || f.RowGroupRows(5) != 5 {
		t.Fatalf("row group rows sum %d, last %d", rows, f.RowGroupRows(5))
	}
	mem := newMem(t)
	got := make([][]any, len(all))
	for _, r := range [][2]int{{0, 2}, {2, 3}, {5, 0}} {
		br, err := f.NewBatchReader(f.Schema(), BatchOptions{BatchRows: 3, Allocator: mem, FirstRowGroup: r[0], RowGroups: r[1]})
		if err != nil {
			t.Fatal(err)
		}
		for {
			rec, err := br.Next(context.Background())
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			for c := 0; c < int(rec.NumCols()); c++ {
				for i := 0; i < rec.Column(c).Len(); i++ {
					got[c] = append(got[c], canon(rec.Column(c), i))
				}
			}
			rec.Release()
		}
		br.Close()
	}
	if !reflect.DeepEqual(got, all) {
		t.Fatalf("row group ranges together differ from the whole file")
	}
	if _, err := f.NewBatchReader(f.Schema(), BatchOptions{FirstRowGroup: 5, RowGroups: 2}); err == nil {
		t.Fatal("range past the last row group accepted")
	}
}
