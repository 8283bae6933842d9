package parquet

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/lakecat/lakecat/schema"
)

// writeRows writes rows with parquet-go's generic writer.
func writeRows[T any](t testing.TB, rows []T, opts ...pq.WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := pq.NewGenericWriter[T](&buf, opts...)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rwFileMetaData is FileMetaData with this package's schema elements, so a
// test can rewrite a footer (rename nodes, set converted types, set field
// id 0) and encode it again.
type rwFileMetaData struct {
	Version          int32                `thrift:"1,required"`
	Schema           []schemaElement      `thrift:"2,required"`
	NumRows          int64                `thrift:"3,required"`
	RowGroups        []format.RowGroup    `thrift:"4,required"`
	KeyValueMetadata []format.KeyValue    `thrift:"5,optional"`
	CreatedBy        string               `thrift:"6,optional"`
	ColumnOrders     []format.ColumnOrder `thrift:"7,optional"`
}

// rewriteFooter decodes the footer of b, lets fn change its schema elements
// and returns the file with the re-encoded footer.
func rewriteFooter(t testing.TB, b []byte, fn func(els []schemaElement)) []byte {
	t.Helper()
	n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
	footer := b[len(b)-8-n : len(b)-8]
	var m rwFileMetaData
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), footer, &m); err != nil {
		t.Fatal(err)
	}
	fn(m.Schema)
	enc, err := thrift.Marshal(new(thrift.CompactProtocol), &m)
	if err != nil {
		t.Fatal(err)
	}
	out := append([]byte(nil), b[:len(b)-8-n]...)
	out = append(out, enc...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(enc)))
	return append(out, "PAR1"...)
}

func elementNamed(t testing.TB, els []schemaElement, name string) *schemaElement {
	for i := range els {
		if els[i].Name == name {
			return &els[i]
		}
	}
	t.Fatalf("no schema element %q", name)
	return nil
}

// readCanonical decodes every column of b in batches of batchRows rows with a
// checked allocator and returns the canonical values per column.
func readCanonical(t testing.TB, b []byte, batchRows int) [][]any {
	t.Helper()
	mem := newMem(t)
	f := openBytes(t, b)
	got, err := readAll(f, mem, batchRows)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return got
}

// ts is the canonical form of a timestamp of micros microseconds.
func ts(micros int64) string { return "ts:" + itoa(micros) + ".000" }

func itoa(v int64) string { return big10(v) }

func big10(v int64) string {
	return string(appendInt(nil, v))
}

func appendInt(b []byte, v int64) []byte {
	if v < 0 {
		b = append(b, '-')
		u := uint64(-v)
		return appendUint(b, u)
	}
	return appendUint(b, uint64(v))
}

func appendUint(b []byte, u uint64) []byte {
	var tmp [20]byte
	i := len(tmp)
	for {
		i--
		tmp[i] = byte('0' + u%10)
		u /= 10
		if u == 0 {
			break
		}
	}
	return append(b, tmp[i:]...)
}

type allTypesRow struct {
	B     bool             `parquet:"b"`
	I8    int8             `parquet:"i8,int(8)"`
	I16   int16            `parquet:"i16,int(16)"`
	I32   int32            `parquet:"i32"`
	U8    uint8            `parquet:"u8,uint(8)"`
	U16   uint16           `parquet:"u16,uint(16)"`
	U32   uint32           `parquet:"u32,uint(32)"`
	U64   uint64           `parquet:"u64,uint(64)"`
	I64   int64            `parquet:"i64"`
	Date  int32            `parquet:"date,date"`
	TMs   int32            `parquet:"tms,time(millisecond)"`
	TUs   int64            `parquet:"tus,time(microsecond)"`
	TNs   int64            `parquet:"tns,time(nanosecond)"`
	TsMs  int64            `parquet:"tsms,timestamp(millisecond)"`
	TsUs  int64            `parquet:"tsus,timestamp(microsecond:local)"`
	TsNs  int64            `parquet:"tsns,timestamp(nanosecond)"`
	TsNsL int64            `parquet:"tsnsl,timestamp(nanosecond:local)"`
	I96   deprecated.Int96 `parquet:"i96"`
	F     float32          `parquet:"f"`
	D     float64          `parquet:"d"`
	S     string           `parquet:"s"`
	E     string           `parquet:"e,enum"`
	J     string           `parquet:"j,json"`
	Bin   []byte           `parquet:"bin"`
	Fx    [5]byte          `parquet:"fx"`
	U     [16]byte         `parquet:"u,uuid"`
	D32   int32            `parquet:"d32,decimal(2:9)"`
	D64   int64            `parquet:"d64,decimal(3:18)"`
	DB    [9]byte          `parquet:"db,decimal(2:20)"`
	DF    [6]byte          `parquet:"df,decimal(10:13)"`
}

// int96Of returns the INT96 encoding of microseconds since the epoch.
func int96Of(micros int64) deprecated.Int96 {
	day := floorDiv(micros, 86_400_000_000)
	nanos := (micros - day*86_400_000_000) * 1000
	var b [12]byte
	binary.LittleEndian.PutUint64(b[:8], uint64(nanos))
	binary.LittleEndian.PutUint32(b[8:], uint32(int32(day+julianEpochDay)))
	return deprecated.Int96{binary.LittleEndian.Uint32(b[0:4]), binary.LittleEndian.Uint32(b[4:8]), binary.LittleEndian.Uint32(b[8:12])}
}

func TestAllTypesGenerated(t *testing.T) {
	uuid := [16]byte{0x8d, 0xc3, 0x14, 0xd8, 0x3f, 0xd4, 0x4b, 0x3a, 0x8b, 0xf5, 0xc0, 0x08, 0xf3, 0x63, 0xc2, 0xe4}
	rows := []allTypesRow{{
		B: true, I8: -128, I16: -32768, I32: -2147483648, U8: 255, U16: 65535, U32: 4294967295, U64: 1 << 62,
		I64: -9223372036854775808, Date: -719162, TMs: 86_399_999, TUs: 86_399_999_999, TNs: 86_399_999_999_999,
		TsMs: -1, TsUs: 1_751_383_673_000_000, TsNs: -1, TsNsL: 1, I96: int96Of(-62135596800000000 + 1),
		F: 1.5, D: -2.25, S: "héllo", E: "RED", J: `{"a":1}`, Bin: []byte{0, 1, 255}, Fx: [5]byte{1, 2, 3, 4, 5}, U: uuid,
		D32: -123456789, D64: 999999999999999999, DB: [9]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00}, DF: [6]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
	}, {
		I96: int96Of(32503680000000000 + 123456), // 3000-01-01T00:00:00.123456
		DB:  [9]byte{0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, DF: [6]byte{0x01, 0x1f, 0x71, 0xfb, 0x04, 0xcb},
	}}
	b := writeRows(t, rows)
	f := openBytes(t, b)
	wantTypes := []schema.Type{
		schema.Boolean, schema.TinyInt, schema.SmallInt, schema.Int, schema.SmallInt, schema.Int, schema.Long, schema.Long,
		schema.Long, schema.Date, schema.Time, schema.Time, schema.Time, schema.TimestampTz, schema.Timestamp,
		schema.TimestampTzNs, schema.TimestampNs, schema.Timestamp, schema.Float, schema.Double, schema.String,
		schema.String, schema.String, schema.Binary, schema.Fixed(5), schema.UUID, schema.Decimal(9, 2),
		schema.Decimal(18, 3), schema.Decimal(20, 2), schema.Decimal(13, 10),
	}
	fields := f.Schema().Fields
	if len(fields) != len(wantTypes) {
		t.Fatalf("%d fields, want %d: %v", len(fields), len(wantTypes), f.Schema())
	}
	for i, fl := range fields {
		if !schema.Equal(fl.Type, wantTypes[i]) || !fl.Required || fl.ID != schema.NoID {
			t.Errorf("field %s: %v (required %v, id %d), want required %v without id", fl.Name, fl.Type, fl.Required, fl.ID, wantTypes[i])
		}
	}
	for _, batch := range []int{1, 2, 0} {
		got := readCanonical(t, b, batch)
		want := [][]any{
			{true, false}, {int64(-128), int64(0)}, {int64(-32768), int64(0)}, {int64(-2147483648), int64(0)},
			{int64(255), int64(0)}, {int64(65535), int64(0)}, {int64(4294967295), int64(0)}, {int64(1 << 62), int64(0)},
			{int64(-9223372036854775808), int64(0)}, {int64(-719162), int64(0)},
			{"time:86399999000", "time:0"}, {"time:86399999999", "time:0"}, {"time:86399999999", "time:0"},
			{ts(-1000), ts(0)}, {ts(1_751_383_673_000_000), ts(0)}, {"ts:-1.999", ts(0)}, {"ts:0.001", ts(0)},
			{ts(-62135596799999999), ts(32503680000123456)},
			{1.5, 0.0}, {-2.25, 0.0}, {"héllo", ""}, {"RED", ""}, {`{"a":1}`, ""}, {"\x00\x01\xff", ""},
			{"\x01\x02\x03\x04\x05", "\x00\x00\x00\x00\x00"}, {string(uuid[:]), string(make([]byte, 16))},
			{"dec:-1234567.89", "dec:0.00"}, {"dec:999999999999999.999", "dec:0.000"},
			{"dec:-2.56", "dec:184467440737095516.16"}, {"dec:-0.0000000001", "dec:123.4567890123"},
		}
		if !reflect.DeepEqual(got, want) {
			for i := range want {
				if i < len(got) && !reflect.DeepEqual(got[i], want[i]) {
					t.Errorf("batch %d column %s: got %#v, want %#v", batch, fields[i].Name, got[i], want[i])
				}
			}
		}
	}
}

// TestUint64Overflow: a UINT(64) value above 2^63-1 is refused, never wrapped.
func TestUint64Overflow(t *testing.T) {
	type row struct {
		U uint64 `parquet:"u,uint(64)"`
	}
	b := writeRows(t, []row{{1}, {1 << 63}})
	mem := newMem(t)
	_, err := readAll(openBytes(t, b), mem, 0)
	if !errors.Is(err, ErrUnsupported) {
		t.Fatalf("got %v, want ErrUnsupported", err)
	}
}

var _ = context.Background
var _ = io.EOF
var _ = arrow.Null
var _ = memory.DefaultAllocator

// TestLargePageHeader: page headers carrying multi-kilobyte statistics
// (min/max of long strings) are read through a growing window.
func TestLargePageHeader(t *testing.T) {
	type row struct {
		S string `parquet:"s"`
	}
	big := func(c byte) string { return string(bytes.Repeat([]byte{c}, 5000)) }
	b := writeRows(t, []row{{big('a')}, {big('z')}}, pq.DataPageStatistics(true))
	got := readCanonical(t, b, 0)
	if !reflect.DeepEqual(got, [][]any{{big('a'), big('z')}}) {
		t.Fatal("values differ")
	}
	pf, err := pq.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	meta := pf.Metadata().RowGroups[0].Columns[0].MetaData
	hdrBytes := meta.TotalCompressedSize - 2*5004
	if hdrBytes < 512 {
		t.Fatalf("page header of %d bytes does not exercise the window growth", hdrBytes)
	}
}

// TestConcurrentReaders reads one File from several goroutines at once
// (run with -race).
func TestConcurrentReaders(t *testing.T) {
	b := smallFile(t)
	f := openBytes(t, b)
	mem := newMem(t)
	want, err := readAll(f, mem, 3)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 4)
	for i := 0; i < 4; i++ {
		go func() {
			got, err := readAll(f, mem, 1+i)
			if err == nil && !reflect.DeepEqual(got, want) {
				err = errors.New("values differ")
			}
			errs <- err
		}()
	}
	for i := 0; i < 4; i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
