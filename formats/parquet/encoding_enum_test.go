package parquet

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	pq "github.com/parquet-go/parquet-go"
)

// pageEncodingAt returns the offset in b of the encoding field of the page
// header at off (a data page v1 or v2, or a dictionary page): a one-byte
// zigzag varint in the files used here. The walk reads the thrift compact
// fields the headers put before it (i32s and the nested header struct).
func pageEncodingAt(t *testing.T, b []byte, off int64) int {
	t.Helper()
	pos := int(off)
	varint := func() {
		for b[pos]&0x80 != 0 {
			pos++
		}
		pos++
	}
	id := 0
	for {
		h := b[pos]
		pos++
		id += int(h >> 4)
		switch h & 0x0f {
		case tcI32:
			varint()
		case tcStruct:
			encField := map[int]int{5: 2, 7: 2, 8: 4}[id]
			if encField == 0 {
				t.Fatalf("page header field %d: a struct", id)
			}
			sub := 0
			for {
				h := b[pos]
				sub += int(h >> 4)
				if h&0x0f != tcI32 {
					t.Fatalf("page header field %d.%d: type %d", id, sub, h&0x0f)
				}
				pos++
				if sub == encField {
					if b[pos]&0x80 != 0 {
						t.Fatalf("encoding varint of two bytes")
					}
					return pos
				}
				varint()
			}
		default:
			t.Fatalf("page header field %d: type %d", id, h&0x0f)
		}
	}
}

// TestPageEncodingEnum: a data or dictionary page header whose encoding is
// no value parquet.thrift's Encoding defines (0 to 9) is corrupt (it was
// refused as unsupported, exit 4), naming the file, the column and the
// value; GROUP_VAR_INT (1), defined but deprecated and never written, stays
// unsupported.
func TestPageEncodingEnum(t *testing.T) {
	dir := filepath.Join(realDir(t), "parquet-testing", "data")
	for _, c := range []struct {
		file string
		dict bool  // the dictionary page's header, else the first data page's
		enc  int32 // the encoding written
		want error
		msg  string
	}{
		{"alltypes_plain.parquet", false, 50, ErrCorrupt, "encoding 50, which the Parquet format does not define"},
		{"alltypes_plain.parquet", false, -3, ErrCorrupt, "encoding -3, which the Parquet format does not define"},
		{"alltypes_dictionary.parquet", true, 10, ErrCorrupt, "dictionary page encoding 10, which the Parquet format does not define"},
		{"datapage_v2.snappy.parquet", false, 63, ErrCorrupt, "encoding 63, which the Parquet format does not define"},
		{"alltypes_plain.parquet", false, 1, ErrUnsupported, ""},
	} {
		b, err := os.ReadFile(filepath.Join(dir, c.file))
		if err != nil {
			t.Fatal(err)
		}
		pf, err := pq.OpenFile(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		md := pf.Metadata().RowGroups[0].Columns[0].MetaData
		off := md.DataPageOffset
		if c.dict {
			if md.DictionaryPageOffset == 0 {
				t.Fatalf("%s: no dictionary page", c.file)
			}
			off = md.DictionaryPageOffset
		}
		at := pageEncodingAt(t, b, off)
		b[at] = byte(uint32(c.enc<<1) ^ uint32(c.enc>>31)) // zigzag
		err = readFirst(t, b)
		var ce *CorruptError
		if !errors.Is(err, c.want) || (c.want == ErrCorrupt) != errors.As(err, &ce) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: encoding %d: %v, want %v with %q", c.file, c.enc, err, c.want, c.msg)
			continue
		}
		if ce != nil && (ce.File != "hostile.parquet" || !strings.Contains(ce.Section, md.PathInSchema[0]) || ce.Offset <= 0) {
			t.Errorf("%s: %#v names no file, column or offset", c.file, ce)
		}
	}
}
