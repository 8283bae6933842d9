package parquet

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/internal/realdata"
)

// realDir returns the shared real-file test data folder. It skips the test
// when the folder is absent, but fails under CI=true, where it must exist.
func realDir(t testing.TB) string {
	t.Helper()
	return realdata.Require(t)
}

func newMem(t testing.TB) *memory.CheckedAllocator {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// openBytes opens b as a Parquet file.
func openBytes(t testing.TB, b []byte) *File {
	t.Helper()
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return f
}

// readAll decodes every column of f (or proj) and returns, per column, the
// canonical values of every row.
func readAll(f *File, mem memory.Allocator, batchRows int) ([][]any, error) {
	br, err := f.NewBatchReader(f.Schema(), BatchOptions{BatchRows: batchRows, Allocator: mem})
	if err != nil {
		return nil, err
	}
	defer br.Close()
	cols := make([][]any, len(f.Schema().Fields))
	for {
		rec, err := br.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if !rec.Schema().Equal(br.Schema()) {
			rec.Release()
			return nil, fmt.Errorf("batch schema %v differs from reader schema %v", rec.Schema(), br.Schema())
		}
		for c := 0; c < int(rec.NumCols()); c++ {
			col := rec.Column(c)
			if v, ok := col.(interface{ ValidateFull() error }); ok {
				if err := v.ValidateFull(); err != nil {
					rec.Release()
					return nil, fmt.Errorf("column %d invalid: %v", c, err)
				}
			}
			for i := 0; i < col.Len(); i++ {
				cols[c] = append(cols[c], canon(col, i))
			}
		}
		rec.Release()
	}
	return cols, nil
}

// canon returns a representation of value i of a that does not depend on
// Arrow representation choices: integers of every width and signedness as
// int64, temporal values as microseconds (times, timestamps) or days,
// decimals as their decimal string, binary-like values as strings, floats
// by their bit pattern when NaN, nested values as slices.
func canon(a arrow.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch a := a.(type) {
	case *array.Boolean:
		return a.Value(i)
	case *array.Int8:
		return int64(a.Value(i))
	case *array.Int16:
		return int64(a.Value(i))
	case *array.Int32:
		return int64(a.Value(i))
	case *array.Int64:
		return a.Value(i)
	case *array.Uint8:
		return int64(a.Value(i))
	case *array.Uint16:
		return int64(a.Value(i))
	case *array.Uint32:
		return int64(a.Value(i))
	case *array.Uint64:
		if v := a.Value(i); v <= math.MaxInt64 {
			return int64(v)
		}
		return fmt.Sprint(a.Value(i)) // above int64: compared as text
	case *array.Float16:
		return "f16:" + fmt.Sprint(a.Value(i).Float32())
	case *array.Float32:
		v := a.Value(i)
		if math.IsNaN(float64(v)) {
			return "NaN"
		}
		return float64(v)
	case *array.Float64:
		v := a.Value(i)
		if math.IsNaN(v) {
			return "NaN"
		}
		return v
	case *array.Date32:
		return int64(a.Value(i))
	case *array.Time32:
		u := a.DataType().(*arrow.Time32Type).Unit
		return "time:" + fmt.Sprint(toMicros(int64(a.Value(i)), u))
	case *array.Time64:
		u := a.DataType().(*arrow.Time64Type).Unit
		return "time:" + fmt.Sprint(toMicros(int64(a.Value(i)), u))
	case *array.Timestamp:
		u := a.DataType().(*arrow.TimestampType).Unit
		v := int64(a.Value(i))
		if u == arrow.Nanosecond {
			us := floorDiv(v, 1000)
			return fmt.Sprintf("ts:%d.%03d", us, v-us*1000)
		}
		return fmt.Sprintf("ts:%d.000", toMicros(v, u))
	case *array.Decimal128:
		s := a.DataType().(*arrow.Decimal128Type).Scale
		return "dec:" + decString(a.Value(i).BigInt(), s)
	case *array.Decimal256:
		s := a.DataType().(*arrow.Decimal256Type).Scale
		return "dec:" + decString(a.Value(i).BigInt(), s)
	case *array.String:
		return a.Value(i)
	case *array.LargeString:
		return a.Value(i)
	case *array.Binary:
		return string(a.Value(i))
	case *array.LargeBinary:
		return string(a.Value(i))
	case *array.FixedSizeBinary:
		return string(a.Value(i))
	case *array.Dictionary:
		return canon(a.Dictionary(), a.GetValueIndex(i))
	case *array.Map:
		start, end := a.ValueOffsets(i)
		keys, items := a.Keys(), a.Items()
		out := make([]any, 0, end-start)
		for j := start; j < end; j++ {
			out = append(out, []any{canon(keys, int(j)), canon(items, int(j))})
		}
		return out
	case *array.List:
		start, end := a.ValueOffsets(i)
		out := make([]any, 0, end-start)
		for j := start; j < end; j++ {
			out = append(out, canon(a.ListValues(), int(j)))
		}
		return out
	case *array.LargeList:
		start, end := a.ValueOffsets(i)
		out := make([]any, 0, end-start)
		for j := start; j < end; j++ {
			out = append(out, canon(a.ListValues(), int(j)))
		}
		return out
	case *array.FixedSizeList:
		n := int(a.DataType().(*arrow.FixedSizeListType).Len())
		out := make([]any, 0, n)
		for j := i * n; j < (i+1)*n; j++ {
			out = append(out, canon(a.ListValues(), j))
		}
		return out
	case *array.Struct:
		out := make([]any, a.NumField())
		for j := range out {
			out[j] = canon(a.Field(j), i)
		}
		return out
	case *array.Null:
		return nil
	case array.ExtensionArray:
		return canon(a.Storage(), i)
	}
	return fmt.Sprintf("unhandled %s: %s", a.DataType(), a.ValueStr(i))
}

func toMicros(v int64, u arrow.TimeUnit) int64 {
	switch u {
	case arrow.Second:
		return v * 1_000_000
	case arrow.Millisecond:
		return v * 1000
	case arrow.Nanosecond:
		return floorDiv(v, 1000)
	}
	return v
}

func decString(b *big.Int, scale int32) string {
	neg := b.Sign() < 0
	s := new(big.Int).Abs(b).String()
	if scale > 0 {
		for len(s) <= int(scale) {
			s = "0" + s
		}
		s = s[:len(s)-int(scale)] + "." + s[len(s)-int(scale):]
	}
	if neg {
		s = "-" + s
	}
	return s
}

var _ = decimal128.Num{}
var _ = decimal256.Num{}
var _ = hex.EncodeToString
var _ = strings.Contains

// floorTS rounds every canonical timestamp in v down to whole microseconds
// (INT96 holds nanoseconds; this package returns microseconds).
func floorTS(v any) any {
	switch v := v.(type) {
	case string:
		if strings.HasPrefix(v, "ts:") && len(v) > 4 {
			return v[:len(v)-3] + "000"
		}
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = floorTS(x)
		}
		return out
	}
	return v
}
