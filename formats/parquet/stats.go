package parquet

import (
	"encoding/binary"
	"math"
	"sync"

	"github.com/parquet-go/parquet-go/encoding/thrift"

	"github.com/lakecat/lakecat/schema"
)

// columnChunk is the part of a ColumnChunk (parquet.thrift) the statistics
// come from, with its required file_offset (read only to be required).
type columnChunk struct {
	FileOffset int64          `thrift:"2,required"`
	MetaData   columnMetaData `thrift:"3,optional"`
	// The chunk's page index (PageIndex.md): where its offset index and
	// column index are, absent when the writer wrote none.
	OffsetIndexOffset thrift.Null[int64] `thrift:"4,optional"`
	OffsetIndexLength thrift.Null[int32] `thrift:"5,optional"`
	ColumnIndexOffset thrift.Null[int64] `thrift:"6,optional"`
	ColumnIndexLength thrift.Null[int32] `thrift:"7,optional"`
}

// columnMetaData is the part of ColumnMetaData the statistics come from,
// with the fields parquet.thrift declares required tagged required, so that
// the footer decode refuses a column chunk without them.
type columnMetaData struct {
	Type                  int32      `thrift:"1,required"`
	Encodings             []int32    `thrift:"2,required"`
	PathInSchema          []string   `thrift:"3,required"`
	Codec                 int32      `thrift:"4,required"`
	NumValues             int64      `thrift:"5,required"`
	TotalUncompressedSize int64      `thrift:"6,required"`
	TotalCompressedSize   int64      `thrift:"7,required"`
	DataPageOffset        int64      `thrift:"9,required"`
	Statistics            statistics `thrift:"12,optional"`
	// BloomFilterOffset and BloomFilterLength locate the chunk's bloom
	// filter (header and bitset); the length is absent in files of
	// parquet-format before 2.10.
	BloomFilterOffset thrift.Null[int64] `thrift:"14,optional"`
	BloomFilterLength thrift.Null[int32] `thrift:"15,optional"`
}

// statistics mirrors Statistics (parquet.thrift) with a nullable null_count,
// so that an absent count is told apart from 0.
type statistics struct {
	Max       []byte             `thrift:"1,optional"` // deprecated: signed order
	Min       []byte             `thrift:"2,optional"` // deprecated: signed order
	NullCount thrift.Null[int64] `thrift:"3,optional"`
	MaxValue  []byte             `thrift:"5,optional"`
	MinValue  []byte             `thrift:"6,optional"`
	MaxExact  thrift.Null[bool]  `thrift:"7,optional"`
	MinExact  thrift.Null[bool]  `thrift:"8,optional"`
	_         struct{}           `thrift:"-"`
}

// ColumnStats are the statistics of one column chunk: one leaf column in
// one row group, as [File.ColumnStats] returns them.
type ColumnStats struct {
	// Field is the leaf field of [File.Schema] (its id and file type).
	Field *schema.Field
	// NullCount is the number of nulls, or -1 when the writer left it out.
	NullCount int64
	// Min and Max bound the chunk's non-null values, inclusively, in the
	// Go form of Field.Type ([schema.Field]); nil when unknown. A truncated
	// bound (min_value/max_value with is_*_value_exact false) is still a
	// bound.
	Min, Max any
	// Bytes is the chunk's compressed size in bytes.
	Bytes int64
}

// statsIndex maps the field ids of the file's leaves outside lists and maps
// to their column index and field.
type statsIndex struct {
	once    sync.Once
	byID    map[int]int
	byField map[*schema.Field]int
	fields  []*schema.Field // by column index
}

// ColumnStats returns the statistics of the leaf with field id id in row
// group rowGroup. ok is false when the file has no leaf with that id
// outside a list or map (the statistics of a repeated leaf count elements,
// not rows), or the row group is out of range.
//
// Min and Max come from min_value/max_value (the column's type order,
// Parquet format "Statistics"), and for integers, dates, times, timestamps,
// floats and booleans also from the deprecated min/max, whose signed order
// is right for those types; for strings, binary, decimals and fixed the
// deprecated fields are ignored (PARQUET-686: writers ordered them as
// signed bytes). INT96 and FLOAT16 columns have no bounds. A NaN bound is
// dropped.
func (f *File) ColumnStats(rowGroup, id int) (ColumnStats, bool) {
	f.stats.once.Do(f.buildStatsIndex)
	col, ok := f.stats.byID[id]
	if !ok {
		return ColumnStats{}, false
	}
	return f.columnStats(rowGroup, col)
}

// ColumnStatsOf is [File.ColumnStats] for a leaf given as its field of
// [File.Schema], for files whose columns are matched by name.
func (f *File) ColumnStatsOf(rowGroup int, leaf *schema.Field) (ColumnStats, bool) {
	f.stats.once.Do(f.buildStatsIndex)
	col, ok := f.stats.byField[leaf]
	if !ok {
		return ColumnStats{}, false
	}
	return f.columnStats(rowGroup, col)
}

func (f *File) columnStats(rowGroup, col int) (ColumnStats, bool) {
	if rowGroup < 0 || rowGroup >= len(f.meta.RowGroups) {
		return ColumnStats{}, false
	}
	fld := f.stats.fields[col]
	rg := f.meta.RowGroups[rowGroup]
	if col >= len(rg.Columns) {
		return ColumnStats{Field: fld, NullCount: -1}, true
	}
	md := rg.Columns[col].MetaData
	st := md.Statistics
	out := ColumnStats{Field: fld, NullCount: -1, Bytes: md.TotalCompressedSize}
	if st.NullCount.Valid && st.NullCount.V >= 0 {
		out.NullCount = st.NullCount.V
	}
	ln := f.leaves[col]
	_, conv := leafType(ln)
	pt, _ := fld.Type.(schema.PrimitiveType)
	lo, hi := st.MinValue, st.MaxValue
	if lo == nil && hi == nil && signedOrderOK(pt.K, conv.op) {
		lo, hi = st.Min, st.Max
	}
	out.Min = statValue(lo, pt, conv)
	out.Max = statValue(hi, pt, conv)
	return out, true
}

func (f *File) buildStatsIndex() {
	f.stats.byID = map[int]int{}
	f.stats.byField = map[*schema.Field]int{}
	f.stats.fields = make([]*schema.Field, len(f.leaves))
	var walk func(ln *lnode)
	walk = func(ln *lnode) {
		for _, c := range ln.children {
			switch {
			case c.phys != nil:
				if c.phys.column >= 0 && c.phys.column < len(f.leaves) {
					f.stats.fields[c.phys.column] = c.field
					f.stats.byField[c.field] = c.phys.column
					if c.field.ID != schema.NoID {
						f.stats.byID[c.field.ID] = c.phys.column
					}
				}
			case c.kind == schema.KindStruct:
				walk(c)
			}
		}
	}
	walk(f.lroot)
}

// signedOrderOK reports whether the deprecated min/max (signed comparison
// of the physical values) order values of this kind correctly.
func signedOrderOK(k schema.Kind, op convOp) bool {
	switch op {
	case opUint8To16, opUint16To32, opUint32To64, opUint64:
		return false
	}
	switch k {
	case schema.KindBoolean, schema.KindTinyInt, schema.KindSmallInt, schema.KindInt, schema.KindLong,
		schema.KindFloat, schema.KindDouble, schema.KindDate, schema.KindTime,
		schema.KindTimestamp, schema.KindTimestampTz, schema.KindTimestampNs, schema.KindTimestampTzNs:
		return true
	}
	return false
}

// statValue decodes a statistics value (the plain encoding of one value)
// into the Go form of the leaf's type t, converted as the column's values
// are; nil when b is nil, malformed or of a type without usable bounds.
func statValue(b []byte, t schema.PrimitiveType, conv *converter) any {
	if b == nil || conv == nil {
		return nil
	}
	i32 := func() (int32, bool) {
		if len(b) != 4 {
			return 0, false
		}
		return int32(binary.LittleEndian.Uint32(b)), true
	}
	i64 := func() (int64, bool) {
		if len(b) != 8 {
			return 0, false
		}
		return int64(binary.LittleEndian.Uint64(b)), true
	}
	switch conv.op {
	case opBool:
		if len(b) != 1 {
			return nil
		}
		return b[0] != 0
	case opCopy:
		switch t.K {
		case schema.KindInt, schema.KindDate:
			if v, ok := i32(); ok {
				return v
			}
		case schema.KindFloat:
			if v, ok := i32(); ok {
				return nonNaN32(math.Float32frombits(uint32(v)))
			}
		case schema.KindDouble:
			if v, ok := i64(); ok {
				return nonNaN64(math.Float64frombits(uint64(v)))
			}
		case schema.KindLong, schema.KindTime, schema.KindTimestamp, schema.KindTimestampTz, schema.KindTimestampNs, schema.KindTimestampTzNs:
			if v, ok := i64(); ok {
				return v
			}
		}
	case opInt32To8:
		if v, ok := i32(); ok && v >= math.MinInt8 && v <= math.MaxInt8 {
			return int8(v)
		}
	case opInt32To16:
		if v, ok := i32(); ok && v >= math.MinInt16 && v <= math.MaxInt16 {
			return int16(v)
		}
	case opUint8To16:
		if v, ok := i32(); ok {
			return int16(uint8(v))
		}
	case opUint16To32:
		if v, ok := i32(); ok {
			return int32(uint16(v))
		}
	case opUint32To64:
		if v, ok := i32(); ok {
			return int64(uint32(v))
		}
	case opInt32MillisTo64Micros:
		if v, ok := i32(); ok {
			return int64(v) * 1000
		}
	case opUint64:
		if v, ok := i64(); ok && v >= 0 {
			return v
		}
	case opMul1000:
		if v, ok := i64(); ok && v > math.MinInt64/1000 && v < math.MaxInt64/1000 {
			return v * 1000
		}
	case opFloorDiv1000:
		if v, ok := i64(); ok {
			q := v / 1000
			if v%1000 < 0 {
				q--
			}
			return q
		}
	case opDecInt32:
		if v, ok := i32(); ok {
			return decimalOf(int64(v))
		}
	case opDecInt64:
		if v, ok := i64(); ok {
			return decimalOf(v)
		}
	case opDecBytes, opDecFixed:
		if len(b) == 0 || len(b) > 16 {
			return nil
		}
		return decimalFromBytes(b)
	case opBytes:
		if t.K == schema.KindString {
			return string(b)
		}
		return append([]byte(nil), b...)
	case opFixed:
		switch t.K {
		case schema.KindUUID:
			if len(b) == 16 {
				var u [16]byte
				copy(u[:], b)
				return u
			}
		case schema.KindFixed:
			if len(b) == t.Length {
				return append([]byte(nil), b...)
			}
		}
	}
	return nil
}

func nonNaN32(f float32) any {
	if f != f {
		return nil
	}
	return f
}

func nonNaN64(f float64) any {
	if f != f {
		return nil
	}
	return f
}

func decimalOf(v int64) schema.DecimalValue {
	hi := int64(0)
	if v < 0 {
		hi = -1
	}
	return schema.DecimalValue{Hi: hi, Lo: uint64(v)}
}

// decimalFromBytes sign-extends a big-endian two's complement value of 1 to
// 16 bytes.
func decimalFromBytes(b []byte) schema.DecimalValue {
	var full [16]byte
	if b[0]&0x80 != 0 {
		for i := range full {
			full[i] = 0xff
		}
	}
	copy(full[16-len(b):], b)
	return schema.DecimalValue{Hi: int64(binary.BigEndian.Uint64(full[:8])), Lo: binary.BigEndian.Uint64(full[8:])}
}
