package parquet

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	pq "github.com/parquet-go/parquet-go"
	pqsnappy "github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/lakecat/lakecat/internal/hostile"
)

// The pages below belong to hostile.ParquetChunk's one optional INT64
// column "x" (maximum definition level 1).

func marshalHeader(t testing.TB, h *format.PageHeader) []byte {
	t.Helper()
	b, err := thrift.Marshal(new(thrift.CompactProtocol), h)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func compressPage(t testing.TB, codec format.CompressionCodec, b []byte) []byte {
	t.Helper()
	switch codec {
	case format.Snappy:
		return snappy.Encode(nil, b)
	case format.Zstd:
		e, err := zstd.NewWriter(nil)
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		return e.EncodeAll(b, nil)
	}
	return b
}

// v1Page returns a data page v1 of n entries: the levels behind their
// 4-byte length, then the values, compressed with codec.
func v1Page(t testing.TB, codec format.CompressionCodec, n int32, enc format.Encoding, levels, values []byte) []byte {
	raw := binary.LittleEndian.AppendUint32(nil, uint32(len(levels)))
	raw = append(append(raw, levels...), values...)
	payload := compressPage(t, codec, raw)
	h := format.PageHeader{Type: format.DataPage, UncompressedPageSize: int32(len(raw)), CompressedPageSize: int32(len(payload)),
		DataPageHeader: thrift.New(format.DataPageHeader{NumValues: n, Encoding: enc,
			DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE})}
	return append(marshalHeader(t, &h), payload...)
}

// v2Page returns a data page v2 of n entries, nulls of them null: the
// levels, then the values compressed with codec when compressed is set.
func v2Page(t testing.TB, codec format.CompressionCodec, n, nulls int32, enc format.Encoding, levels, values []byte, compressed bool) []byte {
	vb := values
	if compressed {
		vb = compressPage(t, codec, values)
	}
	h := format.PageHeader{Type: format.DataPageV2, UncompressedPageSize: int32(len(levels) + len(values)),
		CompressedPageSize: int32(len(levels) + len(vb)),
		DataPageHeaderV2: thrift.New(format.DataPageHeaderV2{NumValues: n, NumNulls: nulls, NumRows: n, Encoding: enc,
			DefinitionLevelsByteLength: int32(len(levels)), IsCompressed: thrift.New(compressed)})}
	return append(append(marshalHeader(t, &h), levels...), vb...)
}

func dictPage(t testing.TB, codec format.CompressionCodec, values ...int64) []byte {
	var raw []byte
	for _, v := range values {
		raw = binary.LittleEndian.AppendUint64(raw, uint64(v))
	}
	payload := compressPage(t, codec, raw)
	h := format.PageHeader{Type: format.DictionaryPage, UncompressedPageSize: int32(len(raw)), CompressedPageSize: int32(len(payload)),
		DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{NumValues: int32(len(values)), Encoding: format.Plain})}
	return append(marshalHeader(t, &h), payload...)
}

func int64s(vs ...int64) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	return b
}

// Levels of the ten entries 1 0 1 1 0 0 1 1 1 0 (six defined): two
// bit-packed groups of width 1.
var levels10 = []byte{2<<1 | 1, 0b11001101, 0b00000001}

// want10 is the column the pages with levels10 and the values 1..6 hold.
var want10 = []any{int64(1), nil, int64(2), int64(3), nil, nil, int64(4), int64(5), int64(6), nil}

func readChunk(t *testing.T, chunk []byte, rows int32, codec format.CompressionCodec) ([]any, error) {
	t.Helper()
	b := hostile.ParquetChunk(hostile.Chunk{Bytes: chunk, NumValues: rows, Codec: codec, UncompressedSize: int64(len(chunk)) * 4})
	f, err := Open(bytes.NewReader(b), int64(len(b)), WithName("direct.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	cols, err := readAll(f, newMem(t), 4)
	if err != nil {
		return nil, err
	}
	return cols[0], nil
}

func TestDirectPages(t *testing.T) {
	// Twenty defined entries, one RLE run.
	rle20 := []byte{20 << 1, 1}
	vals20 := make([]int64, 20)
	want20 := make([]any, 20)
	for i := range vals20 {
		vals20[i] = int64(100 + i)
		want20[i] = int64(100 + i)
	}
	// Indices of the six defined entries of levels10, width 2: an RLE run
	// of two 2s, then a bit-packed group 1 0 1 1 (and four of padding).
	idx := []byte{2, 2 << 1, 2, 1<<1 | 1, 0b01010001, 0}
	wantDict := []any{int64(30), nil, int64(30), int64(20), nil, nil, int64(10), int64(20), int64(20), nil}
	cases := []struct {
		name  string
		codec format.CompressionCodec
		chunk func() []byte
		rows  int32
		want  []any
	}{
		{"v1-plain-bitpacked", format.Uncompressed, func() []byte {
			return v1Page(t, format.Uncompressed, 10, format.Plain, levels10, int64s(1, 2, 3, 4, 5, 6))
		}, 10, want10},
		{"v1-plain-rle-snappy", format.Snappy, func() []byte {
			return v1Page(t, format.Snappy, 20, format.Plain, rle20, int64s(vals20...))
		}, 20, want20},
		{"v1-plain-zstd-two-pages", format.Zstd, func() []byte {
			return append(v1Page(t, format.Zstd, 10, format.Plain, levels10, int64s(1, 2, 3, 4, 5, 6)),
				v1Page(t, format.Zstd, 20, format.Plain, rle20, int64s(vals20...))...)
		}, 30, append(append([]any{}, want10...), want20...)},
		{"v2-plain-uncompressed-values", format.Snappy, func() []byte {
			return v2Page(t, format.Snappy, 10, 4, format.Plain, levels10, int64s(1, 2, 3, 4, 5, 6), false)
		}, 10, want10},
		{"v2-plain-snappy", format.Snappy, func() []byte {
			return v2Page(t, format.Snappy, 10, 4, format.Plain, levels10, int64s(1, 2, 3, 4, 5, 6), true)
		}, 10, want10},
		{"v2-all-null-no-values", format.Snappy, func() []byte {
			return v2Page(t, format.Snappy, 5, 5, format.Plain, []byte{5 << 1, 0}, nil, true)
		}, 5, []any{nil, nil, nil, nil, nil}},
		{"v1-dictionary", format.Uncompressed, func() []byte {
			return append(dictPage(t, format.Uncompressed, 10, 20, 30),
				v1Page(t, format.Uncompressed, 10, format.RLEDictionary, levels10, idx)...)
		}, 10, wantDict},
		{"v2-dictionary-zstd", format.Zstd, func() []byte {
			return append(dictPage(t, format.Zstd, 10, 20, 30),
				v2Page(t, format.Zstd, 10, 4, format.RLEDictionary, levels10, idx, true)...)
		}, 10, wantDict},
		{"dictionary-width-0", format.Uncompressed, func() []byte {
			return append(dictPage(t, format.Uncompressed, 42),
				v1Page(t, format.Uncompressed, 3, format.PlainDictionary, []byte{3 << 1, 1}, []byte{0})...)
		}, 3, []any{int64(42), int64(42), int64(42)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := directPages.Load()
			got, err := readChunk(t, c.chunk(), c.rows, c.codec)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %v\nwant %v", got, c.want)
			}
			if directPages.Load() == before {
				t.Error("the direct page path was not taken")
			}
		})
	}
}

// TestCorruptDirectPages damages the levels, values and indices of pages
// the direct path decodes: each read fails with ErrCorrupt naming the
// file and the column.
func TestCorruptDirectPages(t *testing.T) {
	vals := int64s(1, 2, 3, 4, 5, 6)
	withCRC := func(p []byte, crc int32) []byte {
		// The page is its header then its payload: rebuild the header
		// with crc.
		var h format.PageHeader
		n, err := checkCompact(p, maxThriftDepth, maxPageHeaderDecodedBytes)
		if err != nil {
			t.Fatal(err)
		}
		if err := thrift.Unmarshal(new(thrift.CompactProtocol), p[:n], &h); err != nil {
			t.Fatal(err)
		}
		h.CRC = crc
		return append(marshalHeader(t, &h), p[n:]...)
	}
	good := v1Page(t, format.Uncompressed, 10, format.Plain, levels10, vals)
	cases := []struct {
		name  string
		codec format.CompressionCodec
		chunk []byte
		want  string
	}{
		{"levels-length-past-page", format.Uncompressed, func() []byte {
			raw := binary.LittleEndian.AppendUint32(nil, 1000)
			raw = append(append(raw, levels10...), vals...)
			h := format.PageHeader{Type: format.DataPage, UncompressedPageSize: int32(len(raw)), CompressedPageSize: int32(len(raw)),
				DataPageHeader: thrift.New(format.DataPageHeader{NumValues: 10, Encoding: format.Plain, DefinitionLevelEncoding: format.RLE})}
			return append(marshalHeader(t, &h), raw...)
		}(), "definition levels of 1000 bytes"},
		{"levels-bitpacked-past-end", format.Uncompressed, v1Page(t, format.Uncompressed, 10, format.Plain, []byte{9<<1 | 1, 0xff}, vals), "bit-packed run of 9 groups"},
		{"levels-too-few", format.Uncompressed, v1Page(t, format.Uncompressed, 10, format.Plain, []byte{4 << 1, 1}, vals), "4 of 10 levels"},
		{"level-too-wide", format.Uncompressed, v1Page(t, format.Uncompressed, 10, format.Plain, []byte{10 << 1, 2}, vals), "RLE level 2 wider than 1 bits"},
		{"plain-values-short", format.Uncompressed, v1Page(t, format.Uncompressed, 10, format.Plain, levels10, vals[:40]), "6 PLAIN values of 8 bytes in 40 bytes"},
		{"dictionary-page-missing", format.Uncompressed, v1Page(t, format.Uncompressed, 10, format.RLEDictionary, levels10, []byte{2, 6 << 1, 0}), "without a dictionary page"},
		{"index-width-33", format.Uncompressed, append(dictPage(t, format.Uncompressed, 1),
			v1Page(t, format.Uncompressed, 10, format.RLEDictionary, levels10, []byte{33, 6 << 1, 0})...), "bit width 33"},
		{"indices-short", format.Uncompressed, append(dictPage(t, format.Uncompressed, 1),
			v1Page(t, format.Uncompressed, 10, format.RLEDictionary, levels10, []byte{1, 3 << 1, 0})...), "3 of 6 indices"},
		{"index-out-of-range", format.Uncompressed, append(dictPage(t, format.Uncompressed, 1),
			v1Page(t, format.Uncompressed, 10, format.RLEDictionary, levels10, []byte{2, 6 << 1, 3})...), "dictionary index 3 out of range"},
		{"dictionary-short", format.Uncompressed, func() []byte {
			h := format.PageHeader{Type: format.DictionaryPage, UncompressedPageSize: 15, CompressedPageSize: 15,
				DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{NumValues: 2, Encoding: format.Plain})}
			return append(append(marshalHeader(t, &h), int64s(1, 2)[:15]...),
				v1Page(t, format.Uncompressed, 10, format.RLEDictionary, levels10, []byte{1, 6 << 1, 0})...)
		}(), "2 values of 8 bytes in 15 bytes"},
		{"snappy-garbage", format.Snappy, func() []byte {
			raw := []byte{10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
			h := format.PageHeader{Type: format.DataPage, UncompressedPageSize: 10, CompressedPageSize: int32(len(raw)),
				DataPageHeader: thrift.New(format.DataPageHeader{NumValues: 10, Encoding: format.Plain, DefinitionLevelEncoding: format.RLE})}
			return append(marshalHeader(t, &h), raw...)
		}(), "snappy"},
		{"v2-levels-past-page", format.Snappy, func() []byte {
			h := format.PageHeader{Type: format.DataPageV2, UncompressedPageSize: 4, CompressedPageSize: 4,
				DataPageHeaderV2: thrift.New(format.DataPageHeaderV2{NumValues: 10, NumRows: 10, Encoding: format.Plain,
					DefinitionLevelsByteLength: 3, RepetitionLevelsByteLength: 2})}
			return append(marshalHeader(t, &h), 0, 0, 0, 0)
		}(), "levels"},
		{"crc-mismatch", format.Uncompressed, withCRC(good, int32(crc32.ChecksumIEEE(good[len(good)-8:]))), "crc32 checksum mismatch"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := readChunk(t, c.chunk, 10, c.codec)
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v, want ErrCorrupt", err)
			}
			for _, s := range []string{"x in direct.parquet", c.want} {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
		})
	}
	// The good page with its right CRC reads.
	got, err := readChunk(t, withCRC(good, int32(crc32.ChecksumIEEE(good[len(good)-(4+len(levels10)+len(vals)):]))), 10, format.Uncompressed)
	if err != nil || !reflect.DeepEqual(got, want10) {
		t.Errorf("page with its CRC: %v, %v", got, err)
	}
}

type directRow struct {
	I   *int32   `parquet:"i,optional"`
	L   *int64   `parquet:"l,optional"`
	F   *float32 `parquet:"f,optional"`
	D   float64  `parquet:"d"`
	Dec *int64   `parquet:"dec,optional,decimal(2:18)"`
}

// TestDirectBatchAllocs bounds the heap allocations of one batch of
// columns read on the direct page path in steady state (buffers grown):
// the batch's Arrow arrays and buffers, not one per page or value.
func TestDirectBatchAllocs(t *testing.T) {
	rows := make([]directRow, 60_000)
	for i := range rows {
		r := &rows[i]
		if i%10 != 3 {
			v, l, f, d := int32(i), int64(i)*7, float32(i)/2, int64(i%1000)
			r.I, r.L, r.F, r.Dec = &v, &l, &f, &d
		}
		r.D = float64(i)
	}
	b := writeRows(t, rows, pq.Compression(&pqsnappy.Codec{}), pq.PageBufferSize(16<<10))
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	br, err := f.NewBatchReader(f.Schema(), BatchOptions{BatchRows: 1000, Allocator: memory.NewGoAllocator()})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	next := func() {
		rec, err := br.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	before := directPages.Load()
	for range 5 {
		next()
	}
	if directPages.Load() == before {
		t.Fatal("the direct page path was not taken")
	}
	const limit = 60 // 5 columns; 34 when written
	if n := testing.AllocsPerRun(30, next); n > limit {
		t.Errorf("%.0f allocations per batch of 1000 rows, want at most %d", n, limit)
	} else {
		t.Logf("%.0f allocations per batch", n)
	}
}
