package main

import (
	"bytes"
	"fmt"

	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// floor holds the compressed sections of every page of a Parquet file,
// located once, so that floor/decompress times decompression alone: no
// page header parsing, no level or value decoding, one reused output
// buffer.
type floor struct {
	pages []floorPage
	dst   []byte
	zdec  *zstd.Decoder
}

type floorPage struct {
	codec format.CompressionCodec
	src   []byte
	size  int // uncompressed bytes of src
}

func newFloor(data []byte) (*floor, error) {
	f, err := pq.OpenFile(bytes.NewReader(data), int64(len(data)), pq.SkipPageIndex(true), pq.SkipBloomFilters(true))
	if err != nil {
		return nil, err
	}
	fl := &floor{}
	var proto thrift.CompactProtocol
	maxSize := 0
	for _, rg := range f.Metadata().RowGroups {
		for _, cc := range rg.Columns {
			md := cc.MetaData
			start := md.DataPageOffset
			if md.DictionaryPageOffset > 0 && md.DictionaryPageOffset < start {
				start = md.DictionaryPageOffset
			}
			end := start + md.TotalCompressedSize
			if start < 0 || end > int64(len(data)) {
				return nil, fmt.Errorf("column chunk [%d, %d) outside the file", start, end)
			}
			buf := data[start:end]
			for off := 0; off < len(buf); {
				r := bytes.NewReader(buf[off:])
				var h format.PageHeader
				if err := thrift.NewDecoder(proto.NewReader(r)).Decode(&h); err != nil {
					return nil, fmt.Errorf("page header: %w", err)
				}
				off += len(buf[off:]) - r.Len()
				body := buf[off : off+int(h.CompressedPageSize)]
				off += int(h.CompressedPageSize)
				size := int(h.UncompressedPageSize)
				if h.DataPageHeaderV2.Valid {
					// Levels are stored uncompressed ahead of the values.
					v2 := h.DataPageHeaderV2.V
					lv := int(v2.RepetitionLevelsByteLength + v2.DefinitionLevelsByteLength)
					body = body[lv:]
					size -= lv
					if v2.IsCompressed.Valid && !v2.IsCompressed.V {
						continue
					}
				}
				if md.Codec == format.Uncompressed {
					continue
				}
				fl.pages = append(fl.pages, floorPage{codec: md.Codec, src: body, size: size})
				maxSize = max(maxSize, size)
			}
		}
	}
	fl.dst = make([]byte, maxSize)
	fl.zdec, err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	return fl, nil
}

// decompress decompresses every page once.
func (fl *floor) decompress() error {
	for _, p := range fl.pages {
		var out []byte
		var err error
		switch p.codec {
		case format.Snappy:
			out, err = snappy.Decode(fl.dst, p.src)
		case format.Zstd:
			out, err = fl.zdec.DecodeAll(p.src, fl.dst[:0])
		default:
			return fmt.Errorf("codec %v not measured", p.codec)
		}
		if err != nil {
			return err
		}
		if len(out) != p.size {
			return fmt.Errorf("page decompressed to %d bytes, header says %d", len(out), p.size)
		}
	}
	return nil
}
