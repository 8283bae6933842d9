package parquet

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/parquet-go/parquet-go/format"
)

// emptyV2Page is a DataPageV2 of a compressed column chunk whose values
// section holds no bytes: every entry is null (or an empty list), and the
// page is only its levels, which v2 stores uncompressed. There is nothing
// to decompress, but parquet-go hands the zero bytes to the codec anyway
// and Snappy refuses them ("s2: corrupt input"; parquet-testing's
// datapage_v2_empty_datapage.snappy.parquet, written by parquet-mr, is such
// a page). The leaf reader decodes these pages itself.
type emptyV2Page struct {
	ord         int   // data page ordinal within the column chunk
	levelsOff   int64 // file offset of the repetition levels, then the definition levels
	repLen      int32
	defLen      int32
	numValues   int32
	numNonNulls int32
}

// emptyV2 reports whether the page of header h in a chunk compressed with
// codec is an emptyV2Page.
func emptyV2(codec format.CompressionCodec, h *format.PageHeader) bool {
	if h.Type != format.DataPageV2 || !h.DataPageHeaderV2.Valid || codec == format.Uncompressed {
		return false
	}
	v2 := &h.DataPageHeaderV2.V
	if v2.IsCompressed.Valid && !v2.IsCompressed.V {
		return false // parquet-go does not decompress it
	}
	return int64(h.CompressedPageSize) == int64(v2.RepetitionLevelsByteLength)+int64(v2.DefinitionLevelsByteLength)
}

// setupEmptyV2 makes p the current page: its levels decoded, no values.
func (lr *leafReader) setupEmptyV2(p *emptyV2Page) error {
	lr.pos, lr.vpos = 0, 0
	lr.pageFull = false
	lr.def, lr.rep = nil, nil
	lr.idx, lr.raw, lr.offs = nil, nil, nil
	lr.dictPage = false
	if p.numNonNulls != 0 {
		return lr.corrupt("data page v2 %d has no values section but %d non-null values", p.ord, p.numNonNulls)
	}
	// One byte per decoded level: bounded like a chunk's decoded bytes.
	if p.numValues < 0 || int64(p.numValues) > lr.f.limits.ColumnChunkBytes {
		return lr.corrupt("data page v2 %d claims %d values", p.ord, p.numValues)
	}
	n := int(p.numValues)
	if cap(lr.emptyLevels) < int(p.repLen)+int(p.defLen) {
		lr.emptyLevels = make([]byte, int(p.repLen)+int(p.defLen))
	}
	src := lr.emptyLevels[:int(p.repLen)+int(p.defLen)]
	if err := readFull(lr.f.r, src, p.levelsOff); err != nil {
		return readErr(lr.f.name, p.levelsOff, "levels of "+lr.ln.phys.path, err)
	}
	var err error
	if lr.maxRep > 0 {
		if lr.emptyRep, err = decodeHybridLevels(lr.emptyRep[:0], src[:p.repLen], bits.Len8(lr.maxRep), n); err != nil {
			return lr.corrupt("repetition levels of data page v2 %d: %v", p.ord, err)
		}
		lr.rep = lr.emptyRep
	}
	if lr.maxDef == 0 {
		lr.nEntries = 0
		if n > 0 {
			return lr.corrupt("data page v2 %d of a required column has %d values and no values section", p.ord, n)
		}
		return nil
	}
	if lr.emptyDef, err = decodeHybridLevels(lr.emptyDef[:0], src[p.repLen:], bits.Len8(lr.maxDef), n); err != nil {
		return lr.corrupt("definition levels of data page v2 %d: %v", p.ord, err)
	}
	lr.def = lr.emptyDef
	lr.nEntries = n
	if bytes.IndexByte(lr.def, lr.maxDef) >= 0 {
		return lr.corrupt("levels of data page v2 %d define values, the page holds none", p.ord)
	}
	return nil
}

// decodeHybridLevels appends n levels of width bits (1..8) decoded from
// src, the RLE / bit-packed hybrid encoding without a length prefix (as
// data page v2 stores levels; Parquet format, Encodings.md "Run Length
// Encoding / Bit-Packing Hybrid"). Missing levels are an error; bytes after
// the n-th level are ignored (the last bit-packed group is padded).
func decodeHybridLevels(dst, src []byte, width, n int) ([]byte, error) {
	if width < 1 || width > 8 {
		return dst, fmt.Errorf("level bit width %d", width)
	}
	for len(dst) < n {
		hdr, k := binary.Uvarint(src)
		if k <= 0 {
			return dst, fmt.Errorf("%d of %d levels: bad run header", len(dst), n)
		}
		src = src[k:]
		if hdr&1 == 0 { // RLE run: count, then the value in ceil(width/8) = 1 byte
			count := hdr >> 1
			if len(src) < 1 {
				return dst, fmt.Errorf("%d of %d levels: RLE run without its value", len(dst), n)
			}
			v := src[0]
			src = src[1:]
			if v>>width != 0 {
				return dst, fmt.Errorf("RLE level %d wider than %d bits", v, width)
			}
			take := min(count, uint64(n-len(dst)))
			for range take {
				dst = append(dst, v)
			}
			continue
		}
		groups := hdr >> 1 // bit-packed: groups of 8 levels, width bytes each
		if groups > uint64(len(src)/width) {
			return dst, fmt.Errorf("%d of %d levels: bit-packed run of %d groups, %d bytes left", len(dst), n, groups, len(src))
		}
		packed := src[:int(groups)*width]
		src = src[len(packed):]
		for i := 0; i < int(groups)*8 && len(dst) < n; i++ {
			bit := i * width
			w := uint16(packed[bit>>3])
			if bit>>3+1 < len(packed) {
				w |= uint16(packed[bit>>3+1]) << 8
			}
			dst = append(dst, byte(w>>(bit&7))&(1<<width-1))
		}
	}
	return dst, nil
}
