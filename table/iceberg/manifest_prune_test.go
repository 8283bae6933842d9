package iceberg

import (
	"encoding/binary"
	"testing"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/schema"
)

// TestManifestMayMatch: a data manifest is ruled out by its partition
// summaries: identity bounds 10..20 of a column written as int and read
// as long (4-byte bounds), bucket bounds 3..3, day bounds, a summary of
// null values only; never for operators the projection does not cover,
// delete manifests or a summary count that does not fit the spec.
func TestManifestMayMatch(t *testing.T) {
	le32 := func(v int32) []byte { return binary.LittleEndian.AppendUint32(nil, uint32(v)) }
	read := schema.New(1,
		&schema.Field{ID: 1, Name: "id", Type: schema.Long},
		&schema.Field{ID: 2, Name: "k", Type: schema.Long},
		&schema.Field{ID: 3, Name: "ts", Type: schema.Timestamp},
		&schema.Field{ID: 4, Name: "n", Type: schema.Int})
	old := schema.New(0,
		&schema.Field{ID: 1, Name: "id", Type: schema.Int},
		&schema.Field{ID: 2, Name: "k", Type: schema.Long},
		&schema.Field{ID: 3, Name: "ts", Type: schema.Timestamp},
		&schema.Field{ID: 4, Name: "n", Type: schema.Int})
	s := &Scan{Metadata: &Metadata{Schemas: []*schema.Schema{old, read}, PartitionSpecs: []PartitionSpec{{SpecID: 0, Fields: []PartitionField{
		{SourceID: 1, FieldID: 1000, Name: "id", Transform: "identity"},
		{SourceID: 2, FieldID: 1001, Name: "k_bucket", Transform: "bucket[16]"},
		{SourceID: 3, FieldID: 1002, Name: "ts_day", Transform: "day"},
		{SourceID: 4, FieldID: 1003, Name: "n", Transform: "identity"},
	}}}}}
	// 2017-11-16 is day 17486; 34 is in bucket 3 of 16.
	mf := ManifestFile{SpecID: 0, Files: 2, Partitions: []FieldSummary{
		{Lower: le32(10), Upper: le32(20)},
		{Lower: le32(3), Upper: le32(3)},
		{Lower: le32(17486), Upper: le32(17487)},
		{ContainsNull: true},
	}}
	for _, c := range []struct {
		where string
		want  bool
	}{
		{"id = 15", true},
		{"id = 21", false},
		{"id in (1, 25)", false},
		{"id in (1, 20)", true},
		{"id < 10", false},
		{"id <= 10", true},
		{"id > 20", false},
		{"id >= 20", true},
		{"id != 15", true},
		{"id is null", false},
		{"k = 34", true},
		{"k = 35", false}, // bucket 7
		{"k < 0", true},
		{"ts >= '2017-11-18T00:00:00'", false},
		{"ts < '2017-11-16T00:00:00'", false},
		{"ts < '2017-11-16T00:00:01'", true},
		{"n = 1", false},
		{"n is null", true},
		{"n is not null", true},
		{"id = 21 or k = 34", true},
		{"id = 15 and k = 35", false},
	} {
		f := expr.MustParseBind(c.where, read)
		if got := s.ManifestMayMatch(mf, f, read); got != c.want {
			t.Errorf("%s: may match %v, want %v", c.where, got, c.want)
		}
	}
	f := expr.MustParseBind("id = 21", read)
	del := mf
	del.Content = 1
	short := mf
	short.Partitions = short.Partitions[:2]
	v1 := mf
	v1.SpecID = -1
	for name, m := range map[string]ManifestFile{"delete manifest": del, "summaries short of the spec": short, "v1 snapshot manifest": v1} {
		if !s.ManifestMayMatch(m, f, read) {
			t.Errorf("%s ruled out", name)
		}
	}
}

// TestManifestInvertedSummary: a partition summary whose lower bound is
// greater than its upper one (20..10, compared in the field's result type)
// bounds nothing, as inverted statistics of every other source: no
// comparison and not its contains_null flag rule the manifest out, while
// the well-ordered summary beside it still does.
func TestManifestInvertedSummary(t *testing.T) {
	le32 := func(v int32) []byte { return binary.LittleEndian.AppendUint32(nil, uint32(v)) }
	read := schema.New(0,
		&schema.Field{ID: 1, Name: "id", Type: schema.Int},
		&schema.Field{ID: 2, Name: "d", Type: schema.Date},
		&schema.Field{ID: 3, Name: "n", Type: schema.Int})
	s := &Scan{Metadata: &Metadata{Schemas: []*schema.Schema{read}, PartitionSpecs: []PartitionSpec{{SpecID: 0, Fields: []PartitionField{
		{SourceID: 1, FieldID: 1000, Name: "id", Transform: "identity"},
		{SourceID: 2, FieldID: 1001, Name: "d_month", Transform: "month"},
		{SourceID: 3, FieldID: 1002, Name: "n_trunc", Transform: "truncate[10]"},
	}}}}}
	mf := ManifestFile{SpecID: 0, Files: 1, Partitions: []FieldSummary{
		{Lower: le32(20), Upper: le32(10)},
		{Lower: le32(600), Upper: le32(599)}, // months 2020-01 .. 2019-12
		{Lower: le32(10), Upper: le32(30)},
	}}
	for _, c := range []struct {
		where string
		want  bool
	}{
		{"id = 15", true},
		{"id = 5", true},
		{"id = 25", true},
		{"id < 5", true},
		{"id > 30", true},
		{"id in (1, 40)", true},
		{"id is null", true},
		{"d = '2021-06-01'", true},
		{"d < '2000-01-01'", true},
		{"d is null", true},
		{"n = 5", false},
		{"n > 45", false},
		{"n = 25", true},
		{"n is null", false},
		{"id = 5 and n = 5", false},
	} {
		f := expr.MustParseBind(c.where, read)
		if got := s.ManifestMayMatch(mf, f, read); got != c.want {
			t.Errorf("%s: may match %v, want %v", c.where, got, c.want)
		}
	}
}
