package merge

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The test schema: k, _SEQUENCE_NUMBER, _VALUE_KIND, v, n.
var testSchema = arrow.NewSchema([]arrow.Field{
	{Name: "k", Type: arrow.PrimitiveTypes.Int64},
	{Name: "_SEQUENCE_NUMBER", Type: arrow.PrimitiveTypes.Int64},
	{Name: "_VALUE_KIND", Type: arrow.PrimitiveTypes.Int8},
	{Name: "v", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "n", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

func testSpec(e Engine) Spec {
	return Spec{Keys: []int{0}, SequenceNumber: 1, ValueKind: 2, Engine: e}
}

// row is "k seq kind v n" with "-" for null, e.g. "1 5 +I a 3".
type row string

var kinds = map[string]int8{"+I": Insert, "-U": UpdateBefore, "+U": UpdateAfter, "-D": Delete}

func buildBatch(t *testing.T, mem memory.Allocator, rows []row) arrow.RecordBatch {
	t.Helper()
	b := array.NewRecordBuilder(mem, testSchema)
	defer b.Release()
	for _, r := range rows {
		var k, seq, n int64
		var kind, v, ns string
		if _, err := fmt.Sscan(string(r), &k, &seq, &kind, &v, &ns); err != nil {
			t.Fatalf("row %q: %v", r, err)
		}
		b.Field(0).(*array.Int64Builder).Append(k)
		b.Field(1).(*array.Int64Builder).Append(seq)
		b.Field(2).(*array.Int8Builder).Append(kinds[kind])
		if v == "-" {
			b.Field(3).AppendNull()
		} else {
			b.Field(3).(*array.StringBuilder).Append(v)
		}
		if ns == "-" {
			b.Field(4).AppendNull()
		} else {
			fmt.Sscan(ns, &n)
			b.Field(4).(*array.Int64Builder).Append(n)
		}
	}
	return b.NewRecordBatch()
}

type sliceRun struct {
	name    string
	batches []arrow.RecordBatch
}

func (s *sliceRun) Name() string { return s.name }
func (s *sliceRun) Next() (arrow.RecordBatch, error) {
	if len(s.batches) == 0 {
		return nil, io.EOF
	}
	b := s.batches[0]
	s.batches = s.batches[1:]
	return b, nil
}
func (s *sliceRun) Close() error {
	for _, b := range s.batches {
		b.Release()
	}
	s.batches = nil
	return nil
}

// newRun makes a run of rows in batches of per rows.
func newRun(t *testing.T, mem memory.Allocator, name string, per int, rows ...row) Run {
	r := &sliceRun{name: name}
	for len(rows) > 0 {
		n := min(per, len(rows))
		r.batches = append(r.batches, buildBatch(t, mem, rows[:n]))
		rows = rows[n:]
	}
	return r
}

// dump reads every batch as "k v n" lines.
func dump(t *testing.T, rr *Reader) (string, error) {
	t.Helper()
	var sb strings.Builder
	for rr.Next() {
		rec := rr.RecordBatch()
		if !rec.Schema().Equal(testSchema) {
			t.Fatalf("schema %s", rec.Schema())
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			fmt.Fprintf(&sb, "%s %s %s;", rec.Column(0).ValueStr(i), rec.Column(3).ValueStr(i), rec.Column(4).ValueStr(i))
		}
	}
	return sb.String(), rr.Err()
}

func mergeRows(t *testing.T, spec Spec, batchRows, per int, runs ...[]row) (string, error) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var rs []Run
	for i, r := range runs {
		rs = append(rs, newRun(t, mem, fmt.Sprintf("run-%d", i), per, r...))
	}
	rr, err := NewReader(testSchema, rs, spec, Options{BatchRows: batchRows, Allocator: mem})
	if err != nil {
		return "", err
	}
	defer rr.Release()
	return dump(t, rr)
}

func TestDeduplicate(t *testing.T) {
	older := []row{"1 0 +I a 1", "2 1 +I b 2", "3 2 +I c 3", "5 3 +I e 5", "7 4 +I g 7"}
	newer := []row{"2 10 +U B 20", "3 11 -D c 3", "4 12 +I d 4", "7 13 -U g 7", "8 14 +I h 8"}
	want := "1 a 1;2 B 20;4 d 4;5 e 5;8 h 8;"
	for _, batchRows := range []int{1, 2, 3, 100} {
		for _, per := range []int{1, 2, 5} {
			// The run order does not matter: sequence numbers decide.
			for _, order := range [][][]row{{older, newer}, {newer, older}} {
				got, err := mergeRows(t, testSpec(Deduplicate), batchRows, per, order...)
				if err != nil || got != want {
					t.Fatalf("batch %d per %d: got %q, %v; want %q", batchRows, per, got, err, want)
				}
			}
		}
	}
	spec := testSpec(Deduplicate)
	spec.IgnoreDelete = true
	got, err := mergeRows(t, spec, 100, 2, older, newer)
	if want := "1 a 1;2 B 20;3 c 3;4 d 4;5 e 5;7 g 7;8 h 8;"; err != nil || got != want {
		t.Fatalf("ignore-delete: got %q, %v; want %q", got, err, want)
	}
}

func TestDeduplicateManyRuns(t *testing.T) {
	// Four level-0 files over the same keys, a retract in the middle one.
	runs := [][]row{
		{"1 0 +I a -", "2 1 +I a -"},
		{"1 2 +I b -", "2 3 -D b -"},
		{"1 4 +I c -"},
		{"2 5 +I d -", "3 6 +I d -"},
	}
	got, err := mergeRows(t, testSpec(Deduplicate), 2, 1, runs...)
	if want := "1 c (null);2 d (null);3 d (null);"; err != nil || got != want {
		t.Fatalf("got %q, %v; want %q", got, err, want)
	}
}

func TestUserSequenceField(t *testing.T) {
	// sequence.field = n: the record with the highest n wins, whatever
	// the sequence numbers; ties fall back to them.
	spec := testSpec(Deduplicate)
	spec.Sequence = []int{4}
	got, err := mergeRows(t, spec, 10, 10,
		[]row{"1 0 +I a 9", "2 1 +I a 5"},
		[]row{"1 5 +I b 3", "2 6 +I b 5"})
	if want := "1 a 9;2 b 5;"; err != nil || got != want {
		t.Fatalf("got %q, %v; want %q", got, err, want)
	}
}

func TestFirstRow(t *testing.T) {
	got, err := mergeRows(t, testSpec(FirstRow), 10, 10,
		[]row{"1 0 +I a 1", "2 1 +I a 2"},
		[]row{"1 5 +I b 3", "3 6 +I b 5"})
	if want := "1 a 1;2 a 2;3 b 5;"; err != nil || got != want {
		t.Fatalf("got %q, %v; want %q", got, err, want)
	}
	_, err = mergeRows(t, testSpec(FirstRow), 10, 10, []row{"1 0 +I a 1"}, []row{"1 5 -D b 3"})
	if !errors.Is(err, ErrRetract) || !strings.Contains(err.Error(), "run-") {
		t.Fatalf("retract under first-row: %v", err)
	}
	spec := testSpec(FirstRow)
	spec.IgnoreDelete = true
	got, err = mergeRows(t, spec, 10, 10, []row{"1 0 -D a 1"}, []row{"1 5 +I b 3"})
	if want := "1 b 3;"; err != nil || got != want {
		t.Fatalf("ignore-delete: got %q, %v; want %q", got, err, want)
	}
}

func TestPartialUpdate(t *testing.T) {
	runs := [][]row{
		{"1 0 +I a -", "2 1 +I a 1"},
		{"1 2 +I - 7", "2 3 +I b -"},
		{"1 4 +I c -"},
	}
	got, err := mergeRows(t, testSpec(PartialUpdate), 10, 1, runs...)
	if want := "1 c 7;2 b 1;"; err != nil || got != want {
		t.Fatalf("got %q, %v; want %q", got, err, want)
	}
	_, err = mergeRows(t, testSpec(PartialUpdate), 10, 1, []row{"1 0 +I a -"}, []row{"1 1 -D a -"})
	if !errors.Is(err, ErrRetract) {
		t.Fatalf("delete under partial-update: %v", err)
	}
	spec := testSpec(PartialUpdate)
	spec.IgnoreDelete = true
	got, err = mergeRows(t, spec, 10, 1, []row{"1 0 +I a -"}, []row{"1 1 -D b 2"})
	if want := "1 a (null);"; err != nil || got != want {
		t.Fatalf("ignore-delete: got %q, %v; want %q", got, err, want)
	}
	spec = testSpec(PartialUpdate)
	spec.RemoveRecordOnDelete = true
	got, err = mergeRows(t, spec, 10, 1, []row{"1 0 +I a -", "2 1 +I x 1"}, []row{"1 2 -D a -"}, []row{"2 3 -D - -", "2 4 +I - 5"})
	if want := "2 (null) 5;"; err != nil || got != want {
		t.Fatalf("remove-record-on-delete: got %q, %v; want %q", got, err, want)
	}
}

func TestPartialUpdateSequenceGroup(t *testing.T) {
	// fields.n.sequence-group = v: v follows the record with the highest
	// n, nulls included; a record with n null leaves v alone.
	spec := testSpec(PartialUpdate)
	spec.SequenceGroups = []SequenceGroup{{Sequence: []int{4}, Fields: []int{3}}}
	got, err := mergeRows(t, spec, 10, 1,
		[]row{"1 0 +I a 5", "2 1 +I a 5"},
		[]row{"1 2 +I b 3", "2 3 +I - 6"},
		[]row{"1 4 +I c -"})
	if want := "1 a 5;2 (null) 6;"; err != nil || got != want {
		t.Fatalf("got %q, %v; want %q", got, err, want)
	}
}

func TestAggregation(t *testing.T) {
	runs := [][]row{
		{"1 0 +I a 1", "2 1 +I x -"},
		{"1 2 +I b 2", "2 3 +I y 4"},
		{"1 4 +I c -"},
	}
	cases := []struct {
		fv, fn Aggregate
		want   string
	}{
		{Aggregate{Function: "listagg"}, Aggregate{Function: "sum"}, "1 a,b,c 3;2 x,y 4;"},
		{Aggregate{Function: "listagg", Delimiter: "|"}, Aggregate{Function: "product"}, "1 a|b|c 2;2 x|y 4;"},
		{Aggregate{Function: "max"}, Aggregate{Function: "count"}, "1 c 2;2 y 1;"},
		{Aggregate{Function: "min"}, Aggregate{Function: "max"}, "1 a 2;2 x 4;"},
		{Aggregate{Function: "first_value"}, Aggregate{Function: "last_value"}, "1 a (null);2 x 4;"},
		{Aggregate{Function: "first_non_null_value"}, Aggregate{Function: "last_non_null_value"}, "1 a 2;2 x 4;"},
		{Aggregate{Function: "last_value"}, Aggregate{Function: "first_value"}, "1 c 1;2 y (null);"},
		{Aggregate{Function: "last_value"}, Aggregate{Function: "min"}, "1 c 1;2 y 4;"},
	}
	for _, c := range cases {
		spec := testSpec(Aggregation)
		spec.Aggregates = map[int]Aggregate{3: c.fv, 4: c.fn}
		got, err := mergeRows(t, spec, 10, 1, runs...)
		if err != nil || got != c.want {
			t.Errorf("%s/%s: got %q, %v; want %q", c.fv.Function, c.fn.Function, got, err, c.want)
		}
	}
	// The default is last_non_null_value.
	got, err := mergeRows(t, testSpec(Aggregation), 10, 1, runs...)
	if want := "1 c 2;2 y 4;"; err != nil || got != want {
		t.Fatalf("default: got %q, %v; want %q", got, err, want)
	}
	// sum retracts; max cannot.
	spec := testSpec(Aggregation)
	spec.Aggregates = map[int]Aggregate{4: {Function: "sum"}}
	got, err = mergeRows(t, spec, 10, 1, []row{"1 0 +I a 5"}, []row{"1 1 -U a 2"})
	if want := "1 (null) 3;"; err != nil || got != want {
		t.Fatalf("sum retract: got %q, %v; want %q", got, err, want)
	}
	spec.Aggregates = map[int]Aggregate{4: {Function: "max"}}
	_, err = mergeRows(t, spec, 10, 1, []row{"1 0 +I a 5"}, []row{"1 1 -U a 2"})
	if !errors.Is(err, ErrRetract) || !strings.Contains(err.Error(), "max") {
		t.Fatalf("max retract: %v", err)
	}
}

func TestAggregationBool(t *testing.T) {
	s := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int32},
		{Name: "_SEQUENCE_NUMBER", Type: arrow.PrimitiveTypes.Int64},
		{Name: "_VALUE_KIND", Type: arrow.PrimitiveTypes.Int8},
		{Name: "a", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "o", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	}, nil)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	mk := func(seq int64, a, o bool) Run {
		b := array.NewRecordBuilder(mem, s)
		defer b.Release()
		b.Field(0).(*array.Int32Builder).Append(1)
		b.Field(1).(*array.Int64Builder).Append(seq)
		b.Field(2).(*array.Int8Builder).Append(Insert)
		b.Field(3).(*array.BooleanBuilder).Append(a)
		b.Field(4).(*array.BooleanBuilder).Append(o)
		return &sliceRun{name: "r", batches: []arrow.RecordBatch{b.NewRecordBatch()}}
	}
	spec := Spec{Keys: []int{0}, SequenceNumber: 1, ValueKind: 2, Engine: Aggregation,
		Aggregates: map[int]Aggregate{3: {Function: "bool_and"}, 4: {Function: "bool_or"}}}
	rr, err := NewReader(s, []Run{mk(0, true, false), mk(1, false, true), mk(2, true, false)}, spec, Options{Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	if !rr.Next() {
		t.Fatal(rr.Err())
	}
	rec := rr.RecordBatch()
	if got := fmt.Sprint(rec.Column(3), rec.Column(4)); got != "[false] [true]" {
		t.Fatalf("got %s", got)
	}
}

func TestSpecErrors(t *testing.T) {
	spec := testSpec(Aggregation)
	spec.Aggregates = map[int]Aggregate{4: {Function: "rbm32"}}
	_, err := NewReader(testSchema, nil, spec, Options{})
	if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), `"rbm32"`) {
		t.Fatalf("unknown function: %v", err)
	}
	spec.Aggregates = map[int]Aggregate{3: {Function: "sum"}}
	if _, err := NewReader(testSchema, nil, spec, Options{}); !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), "sum") {
		t.Fatalf("sum of a string: %v", err)
	}
	if _, err := NewReader(testSchema, nil, Spec{Keys: []int{0}, SequenceNumber: 3, ValueKind: 2}, Options{}); !errors.Is(err, ErrSpec) {
		t.Fatalf("string sequence number: %v", err)
	}
	if _, err := NewReader(testSchema, nil, Spec{Keys: []int{0}, SequenceNumber: 1, ValueKind: 2, Engine: "lookup"}, Options{}); !errors.Is(err, ErrSpec) {
		t.Fatalf("unknown engine: %v", err)
	}
}

func TestUnsortedRun(t *testing.T) {
	for _, per := range []int{1, 3} {
		_, err := mergeRows(t, testSpec(Deduplicate), 10, per, []row{"1 0 +I a 1", "3 1 +I a 1", "2 2 +I a 1"}, []row{"5 3 +I b 1"})
		if !errors.Is(err, ErrUnsorted) || !strings.Contains(err.Error(), "run-0") {
			t.Fatalf("per %d: %v", per, err)
		}
	}
}

func TestNoCopyForOneRun(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	run := newRun(t, mem, "only", 4, "1 0 +I a 1", "2 1 +I b 2", "3 2 +I c 3", "4 3 +I d 4")
	buf := run.(*sliceRun).batches[0].Column(3).Data().Buffers()[2]
	rr, err := NewReader(testSchema, []Run{run}, testSpec(Deduplicate), Options{BatchRows: 100, Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	if !rr.Next() {
		t.Fatal(rr.Err())
	}
	out := rr.RecordBatch()
	if out.NumRows() != 4 || out.Column(3).Data().Buffers()[2] != buf {
		t.Fatalf("a run alone is not passed through: %d rows", out.NumRows())
	}
}
