package parquet

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/parquet-go/parquet-go/bloom/xxhash"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/lakecat/lakecat/schema"
)

// BloomFilter is the split block bloom filter of one column chunk
// (Parquet format, BloomFilter.md): blocks of eight 32-bit words, probed
// with the xxHash64 (seed 0) of a value's plain encoding. Ask it with
// [BloomFilter.MayContain]; it is safe for concurrent use.
type BloomFilter struct {
	bitset []byte // a positive multiple of bloomBlockBytes
	conv   *converter
	t      schema.PrimitiveType
	width  int // FIXED_LEN_BYTE_ARRAY length of the column
}

// bloomBlockBytes is the size of one block of a split block bloom filter
// (BloomFilter.md, "Technical Approach": 256 bits).
const bloomBlockBytes = 32

// bloomSalt are the eight odd constants that pick one bit in each word of
// a block (BloomFilter.md, "Technical Approach").
var bloomSalt = [8]uint32{0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31}

// checkHash reports whether the bits of hash h are all set: the block is
// chosen by the upper 32 bits, the bits within it by the lower 32.
func (b *BloomFilter) checkHash(h uint64) bool {
	n := uint64(len(b.bitset) / bloomBlockBytes)
	i := ((h >> 32) * n) >> 32
	blk := b.bitset[i*bloomBlockBytes:]
	_ = blk[bloomBlockBytes-1]
	x := uint32(h)
	for i, s := range bloomSalt {
		w := binary.LittleEndian.Uint32(blk[4*i:])
		if w&(1<<((x*s)>>27)) == 0 {
			return false
		}
	}
	return true
}

// BloomFilterOf returns the bloom filter of the leaf column leaf (a field
// of [File.Schema] outside lists and maps) in row group rowGroup. It reads
// the filter's header and bitset in one ranged read when the column chunk
// states bloom_filter_length, else the header (at most 64 bytes) and then
// the bitset. It returns nil and no error when the chunk has no filter, the
// leaf is not such a column, the filter uses an algorithm, hash or
// compression other than split block, xxHash and uncompressed (the only
// ones the format defines today), or its bitset is above 128 MiB.
//
// Errors: a header that does not decode, a bitset size that is not a
// positive multiple of 32 bytes, or a filter that does not fit in the file
// or in its stated length give a [*CorruptError] (matching [ErrCorrupt])
// naming the file and the offset; a failed read names the file too.
func (f *File) BloomFilterOf(rowGroup int, leaf *schema.Field) (*BloomFilter, error) {
	f.stats.once.Do(f.buildStatsIndex)
	col, ok := f.stats.byField[leaf]
	if !ok || rowGroup < 0 || rowGroup >= len(f.meta.RowGroups) || col >= len(f.meta.RowGroups[rowGroup].Columns) {
		return nil, nil
	}
	md := &f.meta.RowGroups[rowGroup].Columns[col].MetaData
	if !md.BloomFilterOffset.Valid {
		return nil, nil
	}
	off := md.BloomFilterOffset.V
	if off < 4 || off >= f.size-8 {
		return nil, corruptf(f.name, off, "bloom filter", "offset %d outside the file of %d bytes (column %s, row group %d)", off, f.size, f.leaves[col].path, rowGroup)
	}
	var buf []byte
	stated := md.BloomFilterLength.Valid
	if stated {
		n := int64(md.BloomFilterLength.V)
		if n <= 0 || n > f.size-8-off {
			return nil, corruptf(f.name, off, "bloom filter", "length %d does not fit in the file of %d bytes (column %s, row group %d)", n, f.size, f.leaves[col].path, rowGroup)
		}
		if n > maxBloomFilterBytes+maxBloomHeaderBytes {
			return nil, nil
		}
		buf = make([]byte, n)
	} else {
		buf = make([]byte, min(int64(maxBloomHeaderBytes), f.size-8-off))
	}
	if err := readFull(f.r, buf, off); err != nil {
		return nil, readErr(f.name, off, "bloom filter", err)
	}
	h, hn, err := decodeBloomHeader(buf)
	if err != nil {
		return nil, corruptf(f.name, off, "bloom filter", "header: %v (column %s, row group %d)", err, f.leaves[col].path, rowGroup)
	}
	nb := int64(h.NumBytes)
	if nb <= 0 || nb%bloomBlockBytes != 0 {
		return nil, corruptf(f.name, off, "bloom filter", "bitset of %d bytes is not a positive multiple of %d (column %s, row group %d)", nb, bloomBlockBytes, f.leaves[col].path, rowGroup)
	}
	end := off + int64(hn) + nb
	if end > f.size-8 || (stated && int64(hn)+nb > int64(len(buf))) {
		return nil, corruptf(f.name, off, "bloom filter", "bitset of %d bytes does not fit (column %s, row group %d)", nb, f.leaves[col].path, rowGroup)
	}
	if _, ok := h.Algorithm.Value.(*format.SplitBlockAlgorithm); !ok {
		return nil, nil
	}
	if _, ok := h.Hash.Value.(*format.XxHash); !ok {
		return nil, nil
	}
	if _, ok := h.Compression.Value.(*format.BloomFilterUncompressed); !ok {
		return nil, nil
	}
	if nb > maxBloomFilterBytes {
		return nil, nil
	}
	var bits []byte
	if stated {
		bits = buf[hn : int64(hn)+nb]
	} else {
		bits = make([]byte, nb)
		if err := readFull(f.r, bits, off+int64(hn)); err != nil {
			return nil, readErr(f.name, off+int64(hn), "bloom filter", err)
		}
	}
	ln := f.leaves[col]
	pt, conv := leafType(ln)
	width := 0
	if ln.el.TypeLength.Valid {
		width = int(ln.el.TypeLength.V)
	}
	return &BloomFilter{bitset: bits, conv: conv, t: pt, width: width}, nil
}

// decodeBloomHeader decodes the BloomFilterHeader (parquet.thrift) at the
// start of b and returns it with its length in bytes.
func decodeBloomHeader(b []byte) (h format.BloomFilterHeader, n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("thrift decoder: %v", r)
		}
	}()
	n, err = checkCompact(b, maxThriftDepth, maxPageHeaderDecodedBytes)
	if err != nil {
		return h, 0, err
	}
	var proto thrift.CompactProtocol
	if err := thrift.NewDecoder(proto.NewReader(bytes.NewReader(b[:n]))).Decode(&h); err != nil {
		return h, 0, err
	}
	if h.Algorithm.Value == nil || h.Hash.Value == nil || h.Compression.Value == nil {
		return h, 0, errors.New("algorithm, hash or compression missing")
	}
	return h, n, nil
}

// MayContain reports whether the column chunk may hold the value v, given
// in the Go form of the leaf's type ([schema.Field]) as the column's values
// decode; false means no value of the chunk equals v. It answers true
// (may) when v has no single plain form in the file: a float or double
// NaN or zero (-0 and +0 compare equal but hash apart), a decimal stored
// as BYTE_ARRAY (writers choose its length), INT96, nanoseconds read as
// microseconds, booleans, or a v of another Go type. It answers false for
// a v no value of the column converts to: outside the range of an
// unsigned or narrow column, or a microsecond value that is not a whole
// millisecond for a column of milliseconds.
func (b *BloomFilter) MayContain(v any) bool {
	var scratch [16]byte
	key, ok, absent := b.plain(v, scratch[:0])
	if absent {
		return false
	}
	if !ok {
		return true
	}
	return b.checkHash(xxhash.Sum64(key))
}

// plain appends the plain encoding of v, the value the column's converter
// turns it into, to dst: ok false when that form is not known, absent
// true when no stored value converts to v.
func (b *BloomFilter) plain(v any, dst []byte) (key []byte, ok, absent bool) {
	if v == nil || b.conv == nil {
		return nil, false, false
	}
	le32 := func(x int32) ([]byte, bool, bool) {
		return binary.LittleEndian.AppendUint32(dst, uint32(x)), true, false
	}
	le64 := func(x int64) ([]byte, bool, bool) {
		return binary.LittleEndian.AppendUint64(dst, uint64(x)), true, false
	}
	int32In := func(x, lo, hi int64) ([]byte, bool, bool) {
		if x < lo || x > hi {
			return nil, false, true
		}
		return le32(int32(x))
	}
	switch b.conv.op {
	case opCopy:
		switch x := v.(type) {
		case int32:
			if b.t.K == schema.KindInt || b.t.K == schema.KindDate {
				return le32(x)
			}
		case int64:
			switch b.t.K {
			case schema.KindLong, schema.KindTime, schema.KindTimestamp, schema.KindTimestampTz, schema.KindTimestampNs, schema.KindTimestampTzNs:
				return le64(x)
			}
		case float32:
			if x != x || x == 0 || b.t.K != schema.KindFloat {
				return nil, false, false
			}
			return le32(int32(math.Float32bits(x)))
		case float64:
			if x != x || x == 0 || b.t.K != schema.KindDouble {
				return nil, false, false
			}
			return le64(int64(math.Float64bits(x)))
		}
	case opInt32To8:
		if x, ok := v.(int8); ok {
			return le32(int32(x))
		}
	case opInt32To16:
		if x, ok := v.(int16); ok {
			return le32(int32(x))
		}
	case opUint8To16:
		if x, ok := v.(int16); ok {
			return int32In(int64(x), 0, math.MaxUint8)
		}
	case opUint16To32:
		if x, ok := v.(int32); ok {
			return int32In(int64(x), 0, math.MaxUint16)
		}
	case opUint32To64:
		if x, ok := v.(int64); ok {
			if x < 0 || x > math.MaxUint32 {
				return nil, false, true
			}
			return le32(int32(uint32(x)))
		}
	case opInt32MillisTo64Micros:
		if x, ok := v.(int64); ok {
			if x%1000 != 0 {
				return nil, false, true
			}
			return int32In(x/1000, math.MinInt32, math.MaxInt32)
		}
	case opUint64:
		if x, ok := v.(int64); ok {
			if x < 0 {
				return nil, false, true
			}
			return le64(x)
		}
	case opMul1000:
		if x, ok := v.(int64); ok {
			if x%1000 != 0 {
				return nil, false, true
			}
			return le64(x / 1000)
		}
	case opDecInt32, opDecInt64, opDecFixed:
		d, ok := v.(schema.DecimalValue)
		if !ok {
			break
		}
		var full [16]byte
		binary.BigEndian.PutUint64(full[:8], uint64(d.Hi))
		binary.BigEndian.PutUint64(full[8:], d.Lo)
		n := 4
		switch b.conv.op {
		case opDecInt64:
			n = 8
		case opDecFixed:
			n = b.width
		}
		if n < 1 || n > 16 || !fitsSigned(full[:], n) {
			return nil, false, n >= 1 && n <= 16
		}
		switch b.conv.op {
		case opDecInt32:
			return le32(int32(binary.BigEndian.Uint32(full[12:])))
		case opDecInt64:
			return le64(int64(binary.BigEndian.Uint64(full[8:])))
		}
		return append(dst, full[16-n:]...), true, false
	case opFixed:
		switch x := v.(type) {
		case [16]byte:
			if b.width == 16 {
				return append(dst, x[:]...), true, false
			}
		case []byte:
			if len(x) != b.width {
				return nil, false, true
			}
			return x, true, false
		}
	case opBytes:
		switch x := v.(type) {
		case string:
			return []byte(x), true, false
		case []byte:
			return x, true, false
		}
	}
	return nil, false, false
}

// fitsSigned reports whether the 16-byte big-endian two's complement value
// full is the sign extension of its last n bytes.
func fitsSigned(full []byte, n int) bool {
	ext := byte(0)
	if full[16-n]&0x80 != 0 {
		ext = 0xff
	}
	for _, c := range full[:16-n] {
		if c != ext {
			return false
		}
	}
	return true
}
