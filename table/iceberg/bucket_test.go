package iceberg

import (
	"testing"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/schema"
)

// TestBucketHashSpecVectors: the hashes of Appendix B's table of test
// values ("Appendix B: 32-bit Hash Requirements").
func TestBucketHashSpecVectors(t *testing.T) {
	uuid := [16]byte{0xf7, 0x9c, 0x3e, 0x09, 0x67, 0x7c, 0x4b, 0xbd, 0xa4, 0x79, 0x3f, 0x34, 0x9c, 0xb7, 0x85, 0xe7}
	for _, c := range []struct {
		name string
		t    schema.PrimitiveType
		v    any
		want int32
	}{
		{"int 34", schema.Int, int32(34), 2017239379},
		{"long 34", schema.Long, int64(34), 2017239379},
		{"decimal(9,2) 14.20", schema.PrimitiveType{K: schema.KindDecimal, Precision: 9, Scale: 2}, schema.DecimalValue{Lo: 1420}, -500754589},
		{"date 2017-11-16", schema.Date, int32(17486), -653330422},
		{"time 22:31:08", schema.Time, int64(81068000000), -662762989},
		{"timestamp 2017-11-16T22:31:08", schema.Timestamp, int64(1510871468000000), -2047944441},
		{"timestamptz 2017-11-16T14:31:08-08:00", schema.TimestampTz, int64(1510871468000000), -2047944441},
		{"timestamp 2017-11-16T22:31:08.000001", schema.Timestamp, int64(1510871468000001), -1207196810},
		{"timestamp_ns 2017-11-16T22:31:08", schema.TimestampNs, int64(1510871468000000000), -2047944441},
		{"timestamp_ns 2017-11-16T22:31:08.000001001", schema.TimestampNs, int64(1510871468000001001), -1207196810},
		{"timestamptz_ns 2017-11-16T14:31:08.000001001-08:00", schema.TimestampTzNs, int64(1510871468000001001), -1207196810},
		{"string iceberg", schema.String, "iceberg", 1210000089},
		{"uuid f79c3e09-677c-4bbd-a479-3f349cb785e7", schema.UUID, uuid, 1488055340},
		{"fixed 00 01 02 03", schema.PrimitiveType{K: schema.KindFixed, Length: 4}, []byte{0, 1, 2, 3}, -188683207},
		{"binary 00 01 02 03", schema.Binary, []byte{0, 1, 2, 3}, -188683207},
	} {
		h, ok := bucketHash(c.t, c.v)
		if !ok || int32(h) != c.want {
			t.Errorf("%s: hash %d (ok %v), want %d", c.name, int32(h), ok, c.want)
		}
	}
	// A negative decimal is hashed by its minimal two's complement bytes:
	// -1.00 (unscaled -100) is the one byte 0x9c, not sixteen bytes.
	neg, _ := bucketHash(schema.PrimitiveType{K: schema.KindDecimal, Precision: 9, Scale: 2}, schema.DecimalValue{Hi: -1, Lo: ^uint64(99)})
	if want := murmur3([]byte{0x9c}); neg != want {
		t.Errorf("decimal -1.00: hash %d, want %d", neg, want)
	}
}

// TestBucketPartitionPruning: = and IN on the source of a bucket[16]
// partition keep only the partitions of the literals' buckets (34 is in
// bucket 3: 2017239379 % 16), after the source column was promoted from
// int to long too; a column once a date and now a timestamp keeps every
// partition (its old files were bucketed by day numbers); other operators
// keep every partition.
func TestBucketPartitionPruning(t *testing.T) {
	read := schema.New(1,
		&schema.Field{ID: 1, Name: "id", Type: schema.Long},
		&schema.Field{ID: 2, Name: "ts", Type: schema.Timestamp})
	old := schema.New(0,
		&schema.Field{ID: 1, Name: "id", Type: schema.Int},
		&schema.Field{ID: 2, Name: "ts", Type: schema.Date})
	s := &Scan{Metadata: &Metadata{Schemas: []*schema.Schema{old, read}, PartitionSpecs: []PartitionSpec{{SpecID: 0, Fields: []PartitionField{
		{SourceID: 1, FieldID: 1000, Name: "id_bucket", Transform: "bucket[16]"},
		{SourceID: 2, FieldID: 1001, Name: "ts_bucket", Transform: "bucket[16]"},
	}}}}}
	if b, _ := bucketOf(schema.Long, int64(34), 16); b != 3 {
		t.Fatalf("bucket of 34 is %d, want 3", b)
	}
	b35, _ := bucketOf(schema.Long, int64(35), 16)
	for _, c := range []struct {
		where string
		want  []int64 // the id buckets kept, of 0-15
	}{
		{"id = 34", []int64{3}},
		{"id in (34, 35)", uniq(3, b35)},
		{"id != 34", all16()},
		{"id > 34", all16()},
		{"ts = '2017-11-16T22:31:08'", all16()},
		{"id = 34 or id = 35", uniq(3, b35)},
	} {
		f := expr.MustParseBind(c.where, read)
		var kept []int64
		for b := int64(0); b < 16; b++ {
			df := &DataFile{SpecID: 0, Partition: map[int]any{1000: int32(b), 1001: int32(b)}}
			if s.PartitionMayMatch(df, f, read) {
				kept = append(kept, b)
			}
		}
		if len(kept) != len(c.want) {
			t.Errorf("%s: kept buckets %v, want %v", c.where, kept, c.want)
			continue
		}
		for i := range kept {
			if kept[i] != c.want[i] {
				t.Errorf("%s: kept buckets %v, want %v", c.where, kept, c.want)
				break
			}
		}
	}
	// A null bucket (every id null) cannot hold id = 34.
	if s.PartitionMayMatch(&DataFile{Partition: map[int]any{1000: nil}}, expr.MustParseBind("id = 34", read), read) {
		t.Error("a null bucket kept for id = 34")
	}
}

func all16() []int64 {
	out := make([]int64, 16)
	for i := range out {
		out[i] = int64(i)
	}
	return out
}

func uniq(a, b int64) []int64 {
	switch {
	case a == b:
		return []int64{a}
	case a < b:
		return []int64{a, b}
	}
	return []int64{b, a}
}
