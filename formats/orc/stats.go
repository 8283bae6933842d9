package orc

import (
	"encoding/json"
	"fmt"
	"math"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/lakecat/lakecat/schema"
)

// ColumnStats are the statistics an ORC writer recorded for one column over
// a unit of rows (a stripe, in the metadata section's StripeStatistics, or a
// row group, in a ROW_INDEX entry; spec section "Column Statistics"), in the
// Go forms of the column's [schema.Field] type ([File.Schema]).
type ColumnStats struct {
	// Rows is the number of rows of the unit.
	Rows int64
	// Nulls is the number of null values, -1 when unknown: writers before
	// Hive 1.1 record no hasNull.
	Nulls int64
	// Min and Max bound the non-null values inclusively; nil when unknown.
	// String bounds come from minimum/maximum, else from the truncated
	// lowerBound/upperBound, which still bound (ORC-203). Timestamp bounds
	// come from minimumUtc/maximumUtc only (the millisecond values widened
	// by one millisecond each way, so that the sub-millisecond digits and
	// the writers that truncate toward zero before 1970 stay inside);
	// minimum/maximum are in the writer's local zone and are not used.
	// Decimal bounds are parsed at the column's scale. Floating-point bounds
	// that are NaN are dropped. Binary columns have none.
	Min, Max any
}

// statsState holds the stripe statistics of the metadata section, split
// into each stripe's column statistics messages on first use.
type statsState struct {
	once    sync.Once
	stripes [][][]byte // stripe → column → ColumnStatistics message
	err     error
	nodes   map[*schema.Field]*node
}

// StripeStats returns the statistics of the column of field (a field of
// [File.Schema], at any depth) over stripe i, as the metadata section
// records them. ok is false when the file has no statistics for it (no
// metadata section, fewer entries than stripes, a field of another schema)
// or they cannot be decoded: then nothing is known, and any row may match.
func (f *File) StripeStats(i int, field *schema.Field) (ColumnStats, bool) {
	st := f.stats()
	n := st.nodes[field]
	if n == nil || st.err != nil || i < 0 || i >= len(st.stripes) || len(st.stripes) != len(f.tail.footer.stripes) {
		return ColumnStats{}, false
	}
	cols := st.stripes[i]
	if n.col >= len(cols) {
		return ColumnStats{}, false
	}
	return decodeColumnStats(cols[n.col], n, f.StripeRows(i))
}

// RowIndexStride returns the number of rows of each row group of the row
// index (the footer's rowIndexStride; 0: the file has no row index).
func (f *File) RowIndexStride() int64 {
	return int64(min(f.tail.footer.rowIndexStride, 1<<40))
}

func (f *File) stats() *statsState {
	st := &f.tail.st
	st.once.Do(func() {
		st.nodes = map[*schema.Field]*node{}
		var walk func(n *node)
		walk = func(n *node) {
			st.nodes[n.field] = n
			for _, c := range n.children {
				walk(c)
			}
		}
		walk(f.root)
		if f.tail.meta == nil {
			return
		}
		st.stripes, st.err = splitMetadata(f.tail.meta, len(f.tail.footer.stripes), len(f.tail.footer.types))
	})
	return st
}

// splitMetadata splits the Metadata message into each stripe's
// ColumnStatistics messages (aliasing b), at most stripes entries of at most
// cols columns each.
func splitMetadata(b []byte, stripes, cols int) ([][][]byte, error) {
	r := pbReader{b: b}
	ss, ok := r.repeatedBytes(1, stripes)
	if !ok {
		return nil, fmt.Errorf("more stripe statistics than stripes")
	}
	if r.err != nil {
		return nil, r.err
	}
	out := make([][][]byte, 0, len(ss))
	for _, m := range ss {
		sr := pbReader{b: m}
		cs, ok := sr.repeatedBytes(1, cols)
		if !ok {
			return nil, fmt.Errorf("more column statistics than columns")
		}
		if sr.err != nil {
			return nil, sr.err
		}
		out = append(out, cs)
	}
	return out, nil
}

// colStatsMsg is a decoded ColumnStatistics message (spec section "Column
// Statistics"; field numbers of orc_proto.proto).
type colStatsMsg struct {
	values     uint64
	hasValues  bool
	hasNull    bool
	hasNullSet bool
	intStats   []byte // 2
	dblStats   []byte // 3
	strStats   []byte // 4
	bucket     []byte // 5
	decStats   []byte // 6
	dateStats  []byte // 7
	tsStats    []byte // 9
}

func parseColStats(b []byte) (colStatsMsg, error) {
	var m colStatsMsg
	r := pbReader{b: b}
	for {
		num, typ, ok := r.next()
		if !ok {
			break
		}
		switch num {
		case 1:
			m.values, m.hasValues = r.uint(typ), true
		case 2:
			m.intStats = r.bytes(typ)
		case 3:
			m.dblStats = r.bytes(typ)
		case 4:
			m.strStats = r.bytes(typ)
		case 5:
			m.bucket = r.bytes(typ)
		case 6:
			m.decStats = r.bytes(typ)
		case 7:
			m.dateStats = r.bytes(typ)
		case 9:
			m.tsStats = r.bytes(typ)
		case 10:
			m.hasNull, m.hasNullSet = r.uint(typ) != 0, true
		default:
			r.skip(num, typ)
		}
	}
	return m, r.err
}

// pbFields decodes the scalar fields of a small statistics message: varints
// (zigzag-decoded when signed), doubles and byte strings, by field number.
type pbFields struct {
	ints    map[protowire.Number]int64
	doubles map[protowire.Number]float64
	strs    map[protowire.Number][]byte
}

func parseFields(b []byte, signed bool) (pbFields, error) {
	f := pbFields{ints: map[protowire.Number]int64{}, doubles: map[protowire.Number]float64{}, strs: map[protowire.Number][]byte{}}
	r := pbReader{b: b}
	for {
		num, typ, ok := r.next()
		if !ok {
			break
		}
		switch typ {
		case protowire.VarintType:
			v := r.uint(typ)
			if signed {
				f.ints[num] = protowire.DecodeZigZag(v)
			} else {
				f.ints[num] = int64(v)
			}
		case protowire.Fixed64Type:
			v, n := protowire.ConsumeFixed64(r.b)
			if n < 0 {
				r.fail(n)
				break
			}
			r.b = r.b[n:]
			f.doubles[num] = math.Float64frombits(v)
		case protowire.BytesType:
			f.strs[num] = r.bytes(typ)
		default:
			r.skip(num, typ)
		}
	}
	return f, r.err
}

// decodeColumnStats decodes the statistics message b of column n over a
// unit of rows rows.
func decodeColumnStats(b []byte, n *node, rows int64) (ColumnStats, bool) {
	m, err := parseColStats(b)
	if err != nil {
		return ColumnStats{}, false
	}
	cs := ColumnStats{Rows: rows, Nulls: -1}
	if m.hasNullSet && m.hasValues && m.values <= uint64(rows) {
		switch {
		case !m.hasNull:
			// Fewer values than rows without a null: a column inside a
			// struct that is null in some rows, which read as null.
			if int64(m.values) == rows {
				cs.Nulls = 0
			}
		case m.values < uint64(rows):
			cs.Nulls = rows - int64(m.values)
		}
	}
	if m.hasValues && m.values == 0 && m.hasNullSet && m.hasNull {
		return cs, true // all null: no bounds to read
	}
	pt, ok := n.field.Type.(schema.PrimitiveType)
	if !ok {
		return cs, true
	}
	cs.Min, cs.Max = bounds(m, n, pt)
	return cs, true
}

// bounds returns the minimum and maximum of m in the Go form of pt, nil
// where unknown.
func bounds(m colStatsMsg, n *node, pt schema.PrimitiveType) (lo, hi any) {
	switch n.t.kind {
	case kByte, kShort, kInt, kLong:
		if m.intStats == nil {
			return nil, nil
		}
		f, err := parseFields(m.intStats, true)
		if err != nil {
			return nil, nil
		}
		conv := func(num protowire.Number) any {
			v, ok := f.ints[num]
			if !ok {
				return nil
			}
			switch n.t.kind {
			case kByte:
				if v >= math.MinInt8 && v <= math.MaxInt8 {
					return int8(v)
				}
				return nil
			case kShort:
				if v >= math.MinInt16 && v <= math.MaxInt16 {
					return int16(v)
				}
				return nil
			case kInt:
				if v >= math.MinInt32 && v <= math.MaxInt32 {
					return int32(v)
				}
				return nil
			}
			return v
		}
		return conv(1), conv(2)
	case kFloat, kDouble:
		if m.dblStats == nil {
			return nil, nil
		}
		f, err := parseFields(m.dblStats, false)
		if err != nil {
			return nil, nil
		}
		conv := func(num protowire.Number) any {
			v, ok := f.doubles[num]
			if !ok || math.IsNaN(v) {
				return nil
			}
			if n.t.kind == kFloat {
				return float32(v)
			}
			return v
		}
		return conv(1), conv(2)
	case kString, kVarchar, kChar:
		if m.strStats == nil {
			return nil, nil
		}
		f, err := parseFields(m.strStats, true)
		if err != nil {
			return nil, nil
		}
		get := func(exact, bound protowire.Number) any {
			if v, ok := f.strs[exact]; ok {
				return string(v)
			}
			if v, ok := f.strs[bound]; ok {
				return string(v)
			}
			return nil
		}
		return get(1, 4), get(2, 5)
	case kDate:
		if m.dateStats == nil {
			return nil, nil
		}
		f, err := parseFields(m.dateStats, true)
		if err != nil {
			return nil, nil
		}
		conv := func(num protowire.Number) any {
			v, ok := f.ints[num]
			if !ok || v < math.MinInt32 || v > math.MaxInt32 {
				return nil
			}
			return int32(v)
		}
		return conv(1), conv(2)
	case kDecimal:
		if m.decStats == nil || n.t.precision == 0 {
			return nil, nil // Hive 0.11 decimals carry a scale per value
		}
		f, err := parseFields(m.decStats, true)
		if err != nil {
			return nil, nil
		}
		conv := func(num protowire.Number) any {
			s, ok := f.strs[num]
			if !ok {
				return nil
			}
			raw, _ := json.Marshal(string(s))
			v, err := schema.ParseLiteral(pt, raw)
			if err != nil {
				return nil
			}
			return v
		}
		return conv(1), conv(2)
	case kTimestamp, kTimestampInstant:
		if m.tsStats == nil {
			return nil, nil
		}
		f, err := parseFields(m.tsStats, true)
		if err != nil {
			return nil, nil
		}
		// minimumUtc (3) and maximumUtc (4), in milliseconds.
		conv := func(num protowire.Number, widen int64) any {
			ms, ok := f.ints[num]
			// Nanoseconds in an int64 reach years 1677 to 2262.
			if !ok || ms < -maxStatMillis || ms > maxStatMillis {
				return nil
			}
			ms += widen
			if n.tsNanos {
				return ms * 1_000_000
			}
			return ms * 1000
		}
		return conv(3, -1), conv(4, 1)
	case kBoolean:
		// BucketStatistics: count[0] is the number of true values.
		if m.bucket == nil || !m.hasValues || m.values == 0 {
			return nil, nil
		}
		r := pbReader{b: m.bucket}
		var counts []uint64
		for {
			num, typ, ok := r.next()
			if !ok {
				break
			}
			if num != 1 {
				r.skip(num, typ)
				continue
			}
			if typ == protowire.VarintType {
				counts = append(counts, r.uint(typ))
				continue
			}
			p := r.bytes(typ)
			for len(p) > 0 {
				v, k := protowire.ConsumeVarint(p)
				if k < 0 {
					return nil, nil
				}
				counts = append(counts, v)
				p = p[k:]
			}
		}
		if r.err != nil || len(counts) == 0 || counts[0] > m.values {
			return nil, nil
		}
		return counts[0] == m.values, counts[0] > 0
	}
	return nil, nil
}

// maxStatMillis bounds the timestamp statistics used: their nanoseconds
// must fit an int64.
const maxStatMillis = math.MaxInt64/1_000_000 - 1
