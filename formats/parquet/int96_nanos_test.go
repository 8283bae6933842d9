package parquet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakecat/lakecat/schema"
)

// Paimon writes TIMESTAMP(9) and TIMESTAMP(9) WITH LOCAL TIME ZONE as INT96
// (paimon-cpp's append_with_multiple_ts_precision_and_timezone, README:
// Timestamp(0l,1), Timestamp(0l,3), null and Timestamp(0l,2),
// Timestamp(0l,4), null). By default INT96 reads as microseconds (0, 0);
// with WithInt96Nanos it is timestamp_ns with every digit.
func TestInt96Nanos(t *testing.T) {
	dir := filepath.Join(realDir(t), "paimon-cpp", "test", "test_data", "parquet",
		"append_with_multiple_ts_precision_and_timezone.db", "append_with_multiple_ts_precision_and_timezone", "bucket-0")
	paths, _ := filepath.Glob(filepath.Join(dir, "data-*.parquet"))
	if len(paths) != 1 {
		t.Fatalf("%d data files, want 1", len(paths))
	}
	b, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		opts []Option
		typ  string
		want string
	}{
		{nil, "timestamp", "ts_nano=[0 0 (null)] ts_tz_nano=[0 0 (null)]"},
		{[]Option{WithInt96Nanos()}, "timestamp_ns", "ts_nano=[1 3 (null)] ts_tz_nano=[2 4 (null)]"},
	} {
		mem := newMem(t)
		f, err := Open(bytes.NewReader(b), int64(len(b)), tc.opts...)
		if err != nil {
			t.Fatal(err)
		}
		proj, err := schema.Select(f.Schema(), []string{"ts_nano", "ts_tz_nano"}, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := proj.Fields[0].Type.String(); got != tc.typ {
			t.Errorf("ts_nano type %s, want %s", got, tc.typ)
		}
		br, err := f.NewBatchReader(proj, BatchOptions{Allocator: mem})
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for {
			rec, err := br.Next(context.Background())
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			for c := range int(rec.NumCols()) {
				ts := rec.Column(c).(*array.Timestamp)
				vals := ""
				for i := 0; i < ts.Len(); i++ {
					if i > 0 {
						vals += " "
					}
					if ts.IsNull(i) {
						vals += "(null)"
					} else {
						vals += fmt.Sprint(int64(ts.Value(i)))
					}
				}
				got += rec.ColumnName(c) + "=[" + vals + "] "
			}
			rec.Release()
		}
		br.Close()
		if got != tc.want+" " {
			t.Errorf("opts %d: got %q, want %q", len(tc.opts), got, tc.want)
		}
	}
}

// int96ToNanos refuses days whose nanoseconds would overflow.
func TestInt96ToNanosRange(t *testing.T) {
	enc := func(day int32, nanos int64) []byte {
		b := make([]byte, 12)
		for i := range 8 {
			b[i] = byte(uint64(nanos) >> (8 * i))
		}
		for i := range 4 {
			b[8+i] = byte(uint32(day) >> (8 * i))
		}
		return b
	}
	if v, ok := int96ToNanos(enc(julianEpochDay+1, 5)); !ok || v != 86_400_000_000_005 {
		t.Errorf("day 1: %d %v", v, ok)
	}
	if v, ok := int96ToNanos(enc(julianEpochDay-1, 86_399_999_999_999)); !ok || v != -1 {
		t.Errorf("day -1: %d %v", v, ok)
	}
	for _, d := range []int32{julianEpochDay + 106752, julianEpochDay - 106752, 0} {
		if _, ok := int96ToNanos(enc(d, 0)); ok {
			t.Errorf("day %d accepted", d-julianEpochDay)
		}
	}
	if _, ok := int96ToNanos(enc(julianEpochDay+106751, 86_400_000_000_000)); ok {
		t.Error("overflow by the nanoseconds accepted")
	}
	if v, ok := int96ToNanos(enc(julianEpochDay, -1)); !ok || v != -1 {
		t.Errorf("negative nanoseconds: %d %v", v, ok)
	}
}

// A wall-clock timestamp column may be projected as the instant kind of the
// same unit (INT96 has no UTC flag; Paimon's TIMESTAMP WITH LOCAL TIME ZONE
// is one); another change of kind is refused.
func TestInt96ProjectedAsInstant(t *testing.T) {
	dir := filepath.Join(realDir(t), "paimon-cpp", "test", "test_data", "parquet",
		"append_with_multiple_ts_precision_and_timezone.db", "append_with_multiple_ts_precision_and_timezone", "bucket-0")
	paths, _ := filepath.Glob(filepath.Join(dir, "data-*.parquet"))
	if len(paths) != 1 {
		t.Fatalf("%d data files, want 1", len(paths))
	}
	b, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(bytes.NewReader(b), int64(len(b)), WithInt96Nanos())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		col  string
		typ  schema.PrimitiveType
		okay bool
	}{
		{"ts_tz_nano", schema.PrimitiveType{K: schema.KindTimestampTzNs}, true},
		{"ts_tz_nano", schema.PrimitiveType{K: schema.KindTimestampTz}, false},
		{"ts_micro", schema.PrimitiveType{K: schema.KindTimestampTz}, true},
		{"ts_micro", schema.PrimitiveType{K: schema.KindTimestampNs}, false},
		{"ts_tz_micro", schema.PrimitiveType{K: schema.KindTimestamp}, false}, // an instant is not made a wall clock
	} {
		proj, err := schema.Select(f.Schema(), []string{tc.col}, false)
		if err != nil {
			t.Fatal(err)
		}
		proj.Fields[0].Type = tc.typ
		br, err := f.NewBatchReader(proj, BatchOptions{Allocator: newMem(t)})
		if (err == nil) != tc.okay {
			t.Errorf("%s as %s: err = %v, want ok=%v", tc.col, tc.typ, err, tc.okay)
		}
		if br != nil {
			br.Close()
		}
	}
}
