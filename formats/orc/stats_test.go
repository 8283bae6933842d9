package orc

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/schema"
)

// TestStripeStats: the metadata section's column statistics of real
// examples, decoded into the Go forms of the columns' types.
func TestStripeStats(t *testing.T) {
	dir := testutil.RealDir(t, "apache-orc", "examples")
	cases := []struct {
		file   string
		stripe int
		col    string
		want   ColumnStats
	}{
		{"TestOrcFile.testStripeLevelStats.orc", 1, "int1", ColumnStats{Rows: 5000, Nulls: 0, Min: int32(2), Max: int32(2)}},
		{"TestOrcFile.testStripeLevelStats.orc", 2, "string1", ColumnStats{Rows: 1000, Nulls: 0, Min: "three", Max: "three"}},
		// Hive 0.12 wrote no hasNull: null counts unknown.
		{"orc_split_elim.orc", 1, "userid", ColumnStats{Rows: 5000, Nulls: -1, Min: int64(13), Max: int64(100)}},
		{"orc_split_elim.orc", 0, "subtype", ColumnStats{Rows: 5000, Nulls: -1, Min: 0.8, Max: 8.0}},
		// No minimumUtc/maximumUtc: timestamp bounds unknown.
		{"orc_split_elim.orc", 0, "ts", ColumnStats{Rows: 5000, Nulls: -1}},
		// minimumUtc/maximumUtc (ms) widened by 1 ms, in nanoseconds.
		{"orc_split_elim_new.orc", 0, "ts", ColumnStats{Rows: 25000, Nulls: 0, Min: int64(-28800001000000), Max: int64(-28549999000000)}},
		{"orc_split_elim_new.orc", 0, "decimal1", ColumnStats{Rows: 25000, Nulls: 0, Min: schema.DecimalValue{}, Max: schema.DecimalValue{Lo: 5500000}}},
		{"over1k_bloom.orc", 0, "_col0", ColumnStats{Rows: 1049, Nulls: 3, Min: int8(-3), Max: int8(124)}},
		{"over1k_bloom.orc", 0, "_col1", ColumnStats{Rows: 1049, Nulls: 3, Min: int16(256), Max: int16(511)}},
		{"over1k_bloom.orc", 0, "_col4", ColumnStats{Rows: 1049, Nulls: 0, Min: float32(0.08), Max: float32(99.92)}},
		{"over1k_bloom.orc", 0, "_col6", ColumnStats{Rows: 1049, Nulls: 0, Min: false, Max: true}},
		{"over1k_bloom.orc", 1, "_col6", ColumnStats{Rows: 1049, Nulls: 0, Min: false, Max: false}},
		{"over1k_bloom.orc", 0, "_col9", ColumnStats{Rows: 1049, Nulls: 0, Min: schema.DecimalValue{Lo: 8}, Max: schema.DecimalValue{Lo: 9994}}},
		{"over1k_bloom.orc", 1, "_col7", ColumnStats{Rows: 1049, Nulls: 1049}},
		{"over1k_bloom.orc", 0, "_col10", ColumnStats{Rows: 1049, Nulls: 0}}, // binary: no bounds
		{"TestOrcFile.testDate2038.orc", 0, "date", ColumnStats{Rows: 15000, Nulls: 0, Min: int32(25195), Max: int32(30309)}},
	}
	for _, c := range cases {
		data, err := os.ReadFile(filepath.Join(dir, c.file))
		if err != nil {
			t.Fatal(err)
		}
		f, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		var fl *schema.Field
		for _, x := range f.Schema().Fields {
			if x.Name == c.col {
				fl = x
			}
		}
		got, ok := f.StripeStats(c.stripe, fl)
		if !ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s stripe %d %s: %v %#v, want %#v", c.file, c.stripe, c.col, ok, got, c.want)
		}
	}
}

// TestStatsUnknown: statistics that cannot be read are unknown, never an
// error or a panic: a field of another schema, a stripe out of range,
// garbage column statistics, a metadata section of more entries than
// stripes.
func TestStatsUnknown(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testutil.RealDir(t, "apache-orc", "examples"), "TestOrcFile.testStripeLevelStats.orc"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	fl := f.Schema().Fields[0]
	if _, ok := f.StripeStats(0, &schema.Field{Name: "int1", Type: schema.Int}); ok {
		t.Error("a field of another schema has statistics")
	}
	if _, ok := f.StripeStats(3, fl); ok {
		t.Error("stripe 3 of 3 has statistics")
	}
	n := f.stats().nodes[fl]
	for _, b := range [][]byte{{0xff}, {0x12, 0x05, 0x08}, {0x12, 0x02, 0x08, 0xff}, {0x50, 0x01, 0x08, 0x00, 0x12, 0x01, 0x0a}} {
		cs, ok := decodeColumnStats(b, n, 10)
		if ok && (cs.Min != nil || cs.Max != nil) {
			t.Errorf("% x: bounds %v %v from garbage", b, cs.Min, cs.Max)
		}
	}
	if _, err := splitMetadata([]byte{0x0a, 0x00, 0x0a, 0x00}, 1, 3); err == nil {
		t.Error("two stripe statistics for one stripe accepted")
	}
	if _, err := f.NewBatchReader(nil, BatchOptions{Skip: []RowRange{{10, 20}, {15, 30}}}); err == nil {
		t.Error("overlapping skipped ranges accepted")
	}
}

// TestBatchSkip: rows of BatchOptions.Skip are not returned, across batch,
// row group and stripe ends, and BatchStart tells each batch's file row.
func TestBatchSkip(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testutil.RealDir(t, "apache-orc", "examples"), "TestOrcFile.testStripeLevelStats.orc"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	// Stripes of 5000, 5000 and 1000 rows; int1 is 1, 2, 3 per stripe.
	skip := []RowRange{{0, 10}, {4990, 5010}, {6000, 10000}, {10999, 11000}}
	for _, rows := range []int{7, 1000, 0} {
		br, err := f.NewBatchReader(nil, BatchOptions{BatchRows: rows, FirstStripe: 0, Skip: skip})
		if err != nil {
			t.Fatal(err)
		}
		var got []RowRange
		sums := map[int32]int{}
		for {
			b, err := br.Next(context.Background())
			if err != nil {
				break
			}
			at := br.BatchStart()
			if n := len(got); n > 0 && got[n-1].End == at {
				got[n-1].End += b.NumRows()
			} else {
				got = append(got, RowRange{at, at + b.NumRows()})
			}
			for _, v := range b.Column(0).(*array.Int32).Int32Values() {
				sums[v]++
			}
			b.Release()
		}
		br.Close()
		want := []RowRange{{10, 4990}, {5010, 6000}, {10000, 10999}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("batch rows %d: rows %v, want %v", rows, got, want)
		}
		if !reflect.DeepEqual(sums, map[int32]int{1: 4980, 2: 990, 3: 999}) {
			t.Errorf("batch rows %d: values %v", rows, sums)
		}
	}
	// From the second stripe on, file rows still count from the first.
	br, err := f.NewBatchReader(nil, BatchOptions{FirstStripe: 1, Skip: []RowRange{{5000, 5100}}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := br.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if br.BatchStart() != 5100 || b.NumRows() != 4900 {
		t.Errorf("first batch at %d of %d rows, want 5100 and 4900", br.BatchStart(), b.NumRows())
	}
	b.Release()
}

// TestSetStripes moves one reader from stripe to stripe, mid-stripe too:
// each range gives the batches, rows and BatchStart of a new reader of the
// same options, and a range or skip it refuses ends the reader.
func TestSetStripes(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testutil.RealDir(t, "apache-orc", "examples"), "TestOrcFile.testStripeLevelStats.orc"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	// Stripes of 5000, 5000 and 1000 rows; int1 is 1, 2, 3 per stripe.
	moved, err := f.NewBatchReader(nil, BatchOptions{BatchRows: 700, Allocator: mem, FirstStripe: 2, Stripes: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer moved.Close()
	b, err := moved.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b.Release() // 700 of stripe 2's 1000 rows; the rest is dropped below
	for _, c := range []struct {
		o    BatchOptions
		rows int64
	}{
		{BatchOptions{FirstStripe: 0, Stripes: 1, Skip: []RowRange{{0, 10}, {4000, 4100}}}, 4890},
		{BatchOptions{FirstStripe: 1}, 6000},
		{BatchOptions{FirstStripe: 2, Stripes: 1, Skip: []RowRange{{10000, 10999}}}, 1},
		{BatchOptions{FirstStripe: 0, Stripes: 3, Skip: []RowRange{{0, 10500}}}, 500},
	} {
		o := c.o
		if err := moved.SetStripes(o.FirstStripe, o.Stripes, o.Skip); err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		o.BatchRows, o.Allocator = 700, mem
		fresh, err := f.NewBatchReader(nil, o)
		if err != nil {
			t.Fatal(err)
		}
		var rows int64
		for i := 0; ; i++ {
			want, werr := fresh.Next(ctx)
			got, gerr := moved.Next(ctx)
			if werr != nil || gerr != nil {
				if !errors.Is(werr, io.EOF) || !errors.Is(gerr, io.EOF) {
					t.Fatalf("%+v batch %d: errors %v and %v, want io.EOF for both", o, i, werr, gerr)
				}
				break
			}
			if !array.RecordEqual(got, want) || moved.BatchStart() != fresh.BatchStart() {
				t.Errorf("%+v batch %d: at %d %v, want at %d %v", o, i, moved.BatchStart(), got, fresh.BatchStart(), want)
			}
			rows += got.NumRows()
			got.Release()
			want.Release()
		}
		fresh.Close()
		if rows != c.rows {
			t.Errorf("%+v: %d rows, want %d", c.o, rows, c.rows)
		}
	}
	if err := moved.SetStripes(2, 2, nil); err == nil {
		t.Error("stripes [2, +2) of 3 accepted")
	}
	if err := moved.SetStripes(0, 0, []RowRange{{20, 30}, {10, 15}}); err == nil {
		t.Error("descending skipped ranges accepted")
	}
	if b, err := moved.Next(ctx); !errors.Is(err, io.EOF) {
		if b != nil {
			b.Release()
		}
		t.Errorf("Next after a refused SetStripes: %v, want io.EOF", err)
	}
}
