package parquet

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"

	pq "github.com/parquet-go/parquet-go"

	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/lakecat/lakecat/schema"
)

// Parquet files start and end with this magic (File Format, "File layout");
// "PARE" marks a file with an encrypted footer.
const (
	magic          = "PAR1"
	magicEncrypted = "PARE"
)

// schemaElement mirrors format.SchemaElement (parquet.thrift) except that
// field_id is nullable, so that a present 0 (Paimon's first id) is told apart
// from an absent field id.
type schemaElement struct {
	Type           thrift.Null[format.Type]                `thrift:"1,optional"`
	TypeLength     thrift.Null[int32]                      `thrift:"2,optional"`
	RepetitionType thrift.Null[format.FieldRepetitionType] `thrift:"3,optional"`
	Name           string                                  `thrift:"4,optional"`
	NumChildren    thrift.Null[int32]                      `thrift:"5,optional"`
	ConvertedType  thrift.Null[deprecated.ConvertedType]   `thrift:"6,optional"`
	Scale          thrift.Null[int32]                      `thrift:"7,optional"`
	Precision      thrift.Null[int32]                      `thrift:"8,optional"`
	FieldID        thrift.Null[int32]                      `thrift:"9,optional"`
	LogicalType    thrift.Null[format.LogicalType]         `thrift:"10,optional"`
}

// rowGroupMeta is the part of a RowGroup this package reads itself. The
// fields parquet.thrift declares required are tagged required, so that the
// thrift decoder refuses a footer without them (a flipped byte can turn a
// field header into another field id) instead of reading zeros.
type rowGroupMeta struct {
	Columns             []columnChunk `thrift:"1,required"`
	TotalByteSize       int64         `thrift:"2,required"`
	NumRows             int64         `thrift:"3,required"`
	TotalCompressedSize int64         `thrift:"6,optional"`
}

// fileMetaData is the part of FileMetaData this package reads itself; the
// column chunk metadata is left to parquet-go when pages are read. Required
// fields are tagged as in parquet.thrift (see [rowGroupMeta]).
type fileMetaData struct {
	Version   int32           `thrift:"1,required"`
	Schema    []schemaElement `thrift:"2,required"`
	NumRows   int64           `thrift:"3,required"`
	RowGroups []rowGroupMeta  `thrift:"4,required"`
	CreatedBy string          `thrift:"6,optional"`
}

// Option configures [Open].
type Option func(*config)

type config struct {
	// limits caps sizes from the file ([WithLimits]).
	limits     Limits
	name       string
	int96Nanos bool
}

// WithName names the file in error messages (a path or URL).
func WithName(name string) Option { return func(c *config) { c.name = name } }

// WithInt96Nanos reports INT96 columns as timestamp_ns and decodes all their
// nanoseconds. Paimon writes TIMESTAMP(7) to TIMESTAMP(9) (and the local
// time zone kinds) as INT96; without this option INT96 is timestamp in
// microseconds (the Iceberg and Spark reading), which drops the last three
// digits. A value outside 1677-09-21…2262-04-11 then fails the batch with
// [ErrUnsupported].
func WithInt96Nanos() Option { return func(c *config) { c.int96Nanos = true } }

// File is an open Parquet file: its footer and schema. It is safe for
// concurrent use by several batch readers.
type File struct {
	r       io.ReaderAt
	size    int64
	name    string
	meta    fileMetaData
	root    *node
	schema  *schema.Schema
	leaves  []*node
	lroot   *lnode
	numRows int64
	// int96Nanos: INT96 is timestamp_ns ([WithInt96Nanos]).
	int96Nanos bool
	// limits are the size limits, defaults filled in.
	limits Limits

	stats statsIndex

	pqOnce sync.Once
	pqFile *pq.File
	pqErr  error
}

// Open reads the footer of the Parquet file of size bytes in r and returns the
// file. It reads only the last 8 bytes, the footer and the leading magic.
//
// Errors: a file shorter than 12 bytes, a wrong magic, a footer length that
// does not fit in the file, a footer whose thrift lengths do not fit in it
// or that nests deeper than 64, a footer without a field parquet.thrift
// declares required (FileMetaData, RowGroup, ColumnChunk, ColumnMetaData), a
// nonzero FileMetaData.num_rows other than the sum of the row groups'
// num_rows, or an undecodable footer or schema give an error matching
// [ErrCorrupt]; an encrypted footer, or one whose decoded
// size is estimated above 1 GiB, gives [ErrUnsupported].
func Open(r io.ReaderAt, size int64, opts ...Option) (*File, error) {
	var c config
	for _, o := range opts {
		o(&c)
	}
	r = markReader{r}
	f := &File{r: r, size: size, name: c.name, int96Nanos: c.int96Nanos, limits: c.limits.withDefaults()}
	if size < 12 {
		return nil, corruptf(c.name, 0, "file", "%d bytes is too short for a Parquet file (at least 12)", size)
	}
	var head [4]byte
	if err := readFull(r, head[:], 0); err != nil {
		return nil, readErr(c.name, 0, "magic", err)
	}
	var tail [8]byte
	if err := readFull(r, tail[:], size-8); err != nil {
		return nil, readErr(c.name, size-8, "magic", err)
	}
	switch {
	case string(tail[4:]) == magicEncrypted:
		return nil, unsupportedf("encrypted footer (magic PARE) in %s", displayName(c.name))
	case string(head[:]) != magic || string(tail[4:]) != magic:
		return nil, corruptf(c.name, 0, "magic", "not a Parquet file (magic %q…%q, want %q)", head[:], tail[4:], magic)
	}
	footerLen := int64(binary.LittleEndian.Uint32(tail[:4]))
	if footerLen > size-12 {
		return nil, corruptf(c.name, size-8, "footer", "footer length %d does not fit in a file of %d bytes", footerLen, size)
	}
	if footerLen > f.limits.FooterBytes {
		return nil, corruptf(c.name, size-8, "footer", "footer length %d above the limit of %d bytes", footerLen, f.limits.FooterBytes)
	}
	footerOff := size - 8 - footerLen
	buf := make([]byte, footerLen)
	if err := readFull(r, buf, footerOff); err != nil {
		return nil, readErr(c.name, footerOff, "footer", err)
	}
	// Every length in the footer is checked before a decoder allocates
	// from it; parquet-go decodes the same bytes again in pqFileOnce.
	if _, err := checkCompact(buf, maxThriftDepth, maxFooterDecodedBytes); err != nil {
		if errors.Is(err, errThriftTooLarge) {
			return nil, unsupportedf("%s: footer: %v", displayName(c.name), err)
		}
		return nil, corruptf(c.name, footerOff, "footer", "%v", err)
	}
	if err := decodeFooter(buf, &f.meta); err != nil {
		return nil, corruptf(c.name, footerOff, "footer", "%v", err)
	}
	// The row count is the sum over the row groups, and a file-level
	// num_rows that differs from it marks a corrupt footer, except 0: some
	// writers leave it 0 (parquet-testing's repeated_no_annotation).
	var rows int64
	for i, rg := range f.meta.RowGroups {
		if rg.NumRows < 0 || rows+rg.NumRows < rows {
			return nil, corruptf(c.name, footerOff, "footer", "row group %d has %d rows", i, rg.NumRows)
		}
		rows += rg.NumRows
	}
	if f.meta.NumRows != rows && f.meta.NumRows != 0 {
		return nil, corruptf(c.name, footerOff, "footer", "row groups hold %d rows, FileMetaData.num_rows says %d", rows, f.meta.NumRows)
	}
	f.numRows = rows
	if err := f.buildSchema(); err != nil {
		return nil, err
	}
	return f, nil
}

// decodeFooter decodes thrift compact bytes into m, turning a panic inside the
// thrift decoder into an error.
func decodeFooter(b []byte, m *fileMetaData) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("thrift decoder: %v", r)
		}
	}()
	return thrift.Unmarshal(new(thrift.CompactProtocol), b, m)
}

func readFull(r io.ReaderAt, b []byte, off int64) error {
	n, err := r.ReadAt(b, off)
	if n == len(b) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return err
}

func displayName(name string) string {
	if name == "" {
		return "file"
	}
	return name
}

// Schema returns the file schema: a tree with the file's field ids
// ([schema.NoID] where a node has none), list elements named "element" and
// map keys and values named "key" and "value". The caller must not modify it;
// use [schema.Schema.Clone] to derive a projection.
func (f *File) Schema() *schema.Schema { return f.schema }

// NumRows returns the number of rows in the file (rows, from the footer).
// It is the sum of the row groups' row counts.
func (f *File) NumRows() int64 { return f.numRows }

// NumRowGroups returns the number of row groups in the file.
func (f *File) NumRowGroups() int { return len(f.meta.RowGroups) }

// RowGroupRows returns the number of rows of row group i (0 ≤ i <
// [File.NumRowGroups]).
func (f *File) RowGroupRows(i int) int64 { return f.meta.RowGroups[i].NumRows }

// RowGroupBytes returns the size in bytes of row group i in the file: its
// total_compressed_size, or where a writer leaves that out, its
// total_byte_size (uncompressed).
func (f *File) RowGroupBytes(i int) int64 {
	if n := f.meta.RowGroups[i].TotalCompressedSize; n > 0 {
		return n
	}
	return f.meta.RowGroups[i].TotalByteSize
}

// CreatedBy returns the footer's created_by string (the writer), or "".
func (f *File) CreatedBy() string { return f.meta.CreatedBy }
