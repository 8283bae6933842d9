package parquet

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"strings"
	"testing"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"

	"github.com/lakecat/lakecat/internal/testutil"
)

// The opt* structs mirror the footer with every field optional, so that a
// test can drop a field parquet.thrift declares required (thrift omits an
// optional field it sets invalid) and encode the footer again.
type optColumnMeta struct {
	Type                  thrift.Null[int32] `thrift:"1,optional"`
	Encodings             []int32            `thrift:"2,optional"`
	PathInSchema          []string           `thrift:"3,optional"`
	Codec                 thrift.Null[int32] `thrift:"4,optional"`
	NumValues             thrift.Null[int64] `thrift:"5,optional"`
	TotalUncompressedSize thrift.Null[int64] `thrift:"6,optional"`
	TotalCompressedSize   thrift.Null[int64] `thrift:"7,optional"`
	DataPageOffset        thrift.Null[int64] `thrift:"9,optional"`
}

type optColumnChunk struct {
	FileOffset thrift.Null[int64] `thrift:"2,optional"`
	MetaData   *optColumnMeta     `thrift:"3,optional"`
}

type optRowGroup struct {
	Columns       []optColumnChunk   `thrift:"1,optional"`
	TotalByteSize thrift.Null[int64] `thrift:"2,optional"`
	NumRows       thrift.Null[int64] `thrift:"3,optional"`
}

type optFileMetaData struct {
	Version   thrift.Null[int32] `thrift:"1,optional"`
	Schema    []schemaElement    `thrift:"2,optional"`
	NumRows   thrift.Null[int64] `thrift:"3,optional"`
	RowGroups []optRowGroup      `thrift:"4,optional"`
}

// rewriteOptFooter decodes the footer of b into optFileMetaData, lets fn
// change it and returns the file with the re-encoded footer.
func rewriteOptFooter(t *testing.T, b []byte, fn func(m *optFileMetaData)) []byte {
	t.Helper()
	n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
	var m optFileMetaData
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), b[len(b)-8-n:len(b)-8], &m); err != nil {
		t.Fatal(err)
	}
	fn(&m)
	enc, err := thrift.Marshal(new(thrift.CompactProtocol), &m)
	if err != nil {
		t.Fatal(err)
	}
	out := append([]byte(nil), b[:len(b)-8-n]...)
	out = append(out, enc...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(enc)))
	return append(out, magic...)
}

// TestCorruptFooterMissingRequired drops, one at a time, each field of the
// footer that parquet.thrift declares required, and checks that Open refuses
// the file as ErrCorrupt naming it instead of reading zeros.
func TestCorruptFooterMissingRequired(t *testing.T) {
	type row struct {
		A int64 `parquet:"a"`
	}
	good := writeRows(t, []row{{1}, {2}, {3}}, pq.Compression(&pq.Snappy))
	cases := []struct {
		name string
		drop func(m *optFileMetaData)
	}{
		{"FileMetaData.version", func(m *optFileMetaData) { m.Version = thrift.Null[int32]{} }},
		{"FileMetaData.schema", func(m *optFileMetaData) { m.Schema = nil }},
		{"FileMetaData.num_rows", func(m *optFileMetaData) {
			m.NumRows = thrift.Null[int64]{}
			m.RowGroups[0].NumRows = thrift.Null[int64]{}
		}},
		{"FileMetaData.row_groups", func(m *optFileMetaData) { m.RowGroups = nil }},
		{"RowGroup.columns", func(m *optFileMetaData) { m.RowGroups[0].Columns = nil }},
		{"RowGroup.total_byte_size", func(m *optFileMetaData) { m.RowGroups[0].TotalByteSize = thrift.Null[int64]{} }},
		{"RowGroup.num_rows", func(m *optFileMetaData) { m.RowGroups[0].NumRows = thrift.Null[int64]{} }},
		{"ColumnChunk.file_offset", func(m *optFileMetaData) { m.RowGroups[0].Columns[0].FileOffset = thrift.Null[int64]{} }},
		{"ColumnMetaData.type", func(m *optFileMetaData) { m.RowGroups[0].Columns[0].MetaData.Type = thrift.Null[int32]{} }},
		{"ColumnMetaData.encodings", func(m *optFileMetaData) { m.RowGroups[0].Columns[0].MetaData.Encodings = nil }},
		{"ColumnMetaData.path_in_schema", func(m *optFileMetaData) { m.RowGroups[0].Columns[0].MetaData.PathInSchema = nil }},
		{"ColumnMetaData.codec", func(m *optFileMetaData) { m.RowGroups[0].Columns[0].MetaData.Codec = thrift.Null[int32]{} }},
		{"ColumnMetaData.num_values", func(m *optFileMetaData) { m.RowGroups[0].Columns[0].MetaData.NumValues = thrift.Null[int64]{} }},
		{"ColumnMetaData.total_uncompressed_size", func(m *optFileMetaData) {
			m.RowGroups[0].Columns[0].MetaData.TotalUncompressedSize = thrift.Null[int64]{}
		}},
		{"ColumnMetaData.total_compressed_size", func(m *optFileMetaData) {
			m.RowGroups[0].Columns[0].MetaData.TotalCompressedSize = thrift.Null[int64]{}
		}},
		{"ColumnMetaData.data_page_offset", func(m *optFileMetaData) { m.RowGroups[0].Columns[0].MetaData.DataPageOffset = thrift.Null[int64]{} }},
	}
	// The re-encoded footer with nothing dropped still opens: the cases
	// below fail for the dropped field alone.
	same := rewriteOptFooter(t, good, func(*optFileMetaData) {})
	if f := openBytes(t, same); f.NumRows() != 3 {
		t.Fatalf("re-encoded footer: %d rows, want 3", f.NumRows())
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := rewriteOptFooter(t, good, c.drop)
			_, err := Open(bytes.NewReader(b), int64(len(b)), WithName("x.parquet"))
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "x.parquet") {
				t.Fatalf("Open: %v, want ErrCorrupt naming x.parquet", err)
			}
		})
	}
}

// TestCorruptFooterRowCountMismatch: row groups whose num_rows do not sum to
// FileMetaData.num_rows mark a corrupt footer; a file-level 0 is a writer
// quirk and is accepted (see Open).
func TestCorruptFooterRowCountMismatch(t *testing.T) {
	type row struct {
		A int64 `parquet:"a"`
	}
	good := writeRows(t, []row{{1}, {2}, {3}})
	b := rewriteOptFooter(t, good, func(m *optFileMetaData) { m.NumRows = thrift.New[int64](5) })
	_, err := Open(bytes.NewReader(b), int64(len(b)), WithName("x.parquet"))
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "row groups hold 3 rows, FileMetaData.num_rows says 5") {
		t.Fatalf("Open: %v, want ErrCorrupt for 3 rows against 5", err)
	}
}

// TestCorruptFooterFlippedByte is the fresh-user trial's file: DuckDB's
// add_columns_with_defaults data file with byte 216 (a field header in the
// first row group) set to 0x56, which hid RowGroup.total_byte_size and
// read as 0 rows (the table then showed 1 row of 3).
func TestCorruptFooterFlippedByte(t *testing.T) {
	p := testutil.RealDir(t, "duckdb-iceberg/data/persistent/add_columns_with_defaults/default.db/add_columns_with_defaults/data/00000-0-0bb8c58e-4fbc-483f-af6d-0e2f896179a2.parquet")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if f := openBytes(t, b); f.NumRows() != 2 {
		t.Fatalf("intact file: %d rows, want 2", f.NumRows())
	}
	b[216] = 0x56
	_, err = Open(bytes.NewReader(b), int64(len(b)), WithName("acd.parquet"))
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "acd.parquet") || !strings.Contains(err.Error(), "missing required field") {
		t.Fatalf("Open: %v, want ErrCorrupt naming acd.parquet and the missing field", err)
	}
}
