package main

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// checksum is a whole read's fingerprint: its rows and, per column, the
// nulls and a hash of the values in row order. Values hash by what they
// mean, not by their Arrow type: every integer as an int64, every float as
// a float64, a decimal by its unscaled value, strings and binaries by their
// bytes, dictionary arrays by the values they index, lists and structs by
// their children. Readers that decode the same file to different Arrow
// types of the same values (int32 and int64, utf8 and dictionary,
// decimal64 and decimal128) agree.
type checksum struct {
	rows  int64
	nulls []int64
	hash  []uint64
}

func (c *checksum) add(rec arrow.RecordBatch) error {
	if c.hash == nil {
		c.nulls = make([]int64, rec.NumCols())
		c.hash = make([]uint64, rec.NumCols())
	}
	if int(rec.NumCols()) != len(c.hash) {
		return fmt.Errorf("batch of %d columns, earlier batches had %d", rec.NumCols(), len(c.hash))
	}
	for j, col := range rec.Columns() {
		c.nulls[j] += int64(col.NullN())
		h := c.hash[j]
		for i := range col.Len() {
			v, err := valueHash(col, i)
			if err != nil {
				return fmt.Errorf("column %d (%s): %w", j, rec.ColumnName(j), err)
			}
			h = mix(h ^ v)
		}
		c.hash[j] = h
	}
	c.rows += rec.NumRows()
	return nil
}

func (c *checksum) String() string {
	return fmt.Sprintf("%d rows, nulls %v, hashes %x", c.rows, c.nulls, c.hash)
}

func (c *checksum) equal(o *checksum) bool {
	if c.rows != o.rows || len(c.hash) != len(o.hash) {
		return false
	}
	for j := range c.hash {
		if c.hash[j] != o.hash[j] || c.nulls[j] != o.nulls[j] {
			return false
		}
	}
	return true
}

// mix is a 64-bit finalizer (splitmix64's).
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

func hashBytes(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return mix(h ^ uint64(len(b)))
}

const nullHash = 0x6e756c6c

// valueHash hashes value i of a (see checksum).
func valueHash(a arrow.Array, i int) (uint64, error) {
	if a.IsNull(i) {
		return nullHash, nil
	}
	switch a := a.(type) {
	case *array.Boolean:
		if a.Value(i) {
			return mix(1), nil
		}
		return mix(2), nil
	case *array.Int8:
		return mix(uint64(int64(a.Value(i)))), nil
	case *array.Int16:
		return mix(uint64(int64(a.Value(i)))), nil
	case *array.Int32:
		return mix(uint64(int64(a.Value(i)))), nil
	case *array.Int64:
		return mix(uint64(a.Value(i))), nil
	case *array.Date32:
		return mix(uint64(int64(a.Value(i)))), nil
	case *array.Timestamp:
		return mix(uint64(int64(a.Value(i)))), nil
	case *array.Float32:
		return floatHash(float64(a.Value(i))), nil
	case *array.Float64:
		return floatHash(a.Value(i)), nil
	case *array.Decimal128:
		v := a.Value(i)
		return mix(mix(v.LowBits()) ^ uint64(v.HighBits())), nil
	case *array.Decimal64:
		v := int64(a.Value(i))
		hi := int64(0)
		if v < 0 {
			hi = -1
		}
		return mix(mix(uint64(v)) ^ uint64(hi)), nil
	case *array.String:
		return hashBytes([]byte(a.Value(i))), nil
	case *array.LargeString:
		return hashBytes([]byte(a.Value(i))), nil
	case *array.StringView:
		return hashBytes([]byte(a.Value(i))), nil
	case *array.Binary:
		return hashBytes(a.Value(i)), nil
	case *array.LargeBinary:
		return hashBytes(a.Value(i)), nil
	case *array.Dictionary:
		return valueHash(a.Dictionary(), a.GetValueIndex(i))
	case array.ListLike:
		lo, hi := a.ValueOffsets(i)
		h := mix(uint64(hi - lo))
		for k := lo; k < hi; k++ {
			v, err := valueHash(a.ListValues(), int(k))
			if err != nil {
				return 0, err
			}
			h = mix(h ^ v)
		}
		return h, nil
	case *array.Struct:
		h := mix(uint64(a.NumField()))
		for f := range a.NumField() {
			v, err := valueHash(a.Field(f), i)
			if err != nil {
				return 0, err
			}
			h = mix(h ^ v)
		}
		return h, nil
	}
	return 0, fmt.Errorf("no checksum for Arrow type %s", a.DataType())
}

func floatHash(f float64) uint64 {
	if f != f {
		return mix(0x7ff8000000000001) // every NaN alike
	}
	return mix(math.Float64bits(f))
}
