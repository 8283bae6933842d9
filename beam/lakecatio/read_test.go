package lakecatio

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/lakecat/lakecat/internal/testutil"
)

func TestReadBundledOrders(t *testing.T) {
	loc := filepath.Join(testutil.RepoRoot(t), "testdata", "orders")
	want, wantSchema, err := referenceRows(t, loc, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	p, s := beam.NewPipelineWithRoot()
	collect(s, t.Name(), Read(s, loc))
	counters, err := run(t, p)
	if err != nil {
		t.Fatal(err)
	}
	got, sch := batchRows(t, sink(t.Name()))
	sameRows(t, loc, got, want)
	sameSchema(t, loc, sch, wantSchema)
	t.Logf("%d rows; counters %v", len(got), counters)
}

// TestReadDeletes reads Impala's table with an equality and a position
// delete: the rows the deletes leave, and the counters saying how many
// they removed.
func TestReadDeletes(t *testing.T) {
	loc := testutil.RealDir(t, "impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_v2_delete_both_eq_and_pos")
	p, s := beam.NewPipelineWithRoot()
	collect(s, "deletes", Read(s, loc))
	collect(s, "deletes s", Read(s.Scope("s"), loc, Columns("s")))
	counters, err := run(t, p)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := batchRows(t, sink("deletes"))
	sameRows(t, loc, got, []string{`{"i":2,"s":"str2_updated","d":"2023-12-13"}`, `{"i":3,"s":"str3","d":"2023-12-23"}`})
	// The key columns i and d are read for the equality delete, then dropped.
	got, _ = batchRows(t, sink("deletes s"))
	sameRows(t, loc+" s", got, []string{`{"s":"str2_updated"}`, `{"s":"str3"}`})
	// Two reads of 2 rows each out of 4 stored.
	if counters["rows"] != 4 || counters["rows_decoded"] != 8 || counters["rows_deleted"] != 4 {
		t.Errorf("counters %v, want rows 4, rows_decoded 8, rows_deleted 4", counters)
	}
}

// TestReadFilterColumns reads the bundled table with a filter on a column
// that is not selected: the rows and columns of `lakecat cat --columns
// customer,order_id --where "channel = 'web' and price > 2"`.
func TestReadFilterColumns(t *testing.T) {
	loc := filepath.Join(testutil.RepoRoot(t), "testdata", "orders")
	cols, where := []string{"customer", "order_id"}, "channel = 'web' and price > 2"
	want, wantSchema, err := referenceRows(t, loc, cols, where)
	if err != nil {
		t.Fatal(err)
	}
	// Exact values, so that the reference is checked too.
	sameRows(t, "reference", want, []string{`{"customer":"alice","order_id":1}`, `{"customer":"bob","order_id":2}`, `{"customer":null,"order_id":4}`})
	p, s := beam.NewPipelineWithRoot()
	collect(s, t.Name(), Read(s, loc, Columns(cols...), Where(where)))
	if _, err := run(t, p); err != nil {
		t.Fatal(err)
	}
	got, sch := batchRows(t, sink(t.Name()))
	sameRows(t, loc, got, want)
	sameSchema(t, loc, sch, wantSchema)
}

// TestReadBadFilter: a filter naming no column fails the pipeline with the
// binding error.
func TestReadBadFilter(t *testing.T) {
	loc := filepath.Join(testutil.RepoRoot(t), "testdata", "orders")
	p, s := beam.NewPipelineWithRoot()
	collect(s, t.Name(), Read(s, loc, Where("nosuch = 1")))
	_, err := run(t, p)
	if err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Fatalf("err = %v, want the filter's unknown column named", err)
	}
}

type order struct {
	OrderID  int64
	Customer *string
	Price    *float64
	Shop     *int64 `lakecat:"order_shop_id"`
	Channel  string
}

func init() { beam.RegisterType(reflect.TypeOf((*order)(nil)).Elem()) }

// collectOrdersFn renders each order for the test to compare.
type collectOrdersFn struct{ Key string }

func (fn *collectOrdersFn) ProcessElement(o order) {
	str := func(p *string) string {
		if p == nil {
			return "nil"
		}
		return *p
	}
	f := "nil"
	if o.Price != nil {
		f = strconv.FormatFloat(*o.Price, 'g', -1, 64)
	}
	shop := "nil"
	if o.Shop != nil {
		shop = strconv.FormatInt(*o.Shop, 10)
	}
	line := fmt.Sprintf("%d %s %s %s %q", o.OrderID, str(o.Customer), f, shop, o.Channel)
	sinkMu.Lock()
	defer sinkMu.Unlock()
	sinks[fn.Key] = append(sinks[fn.Key], []byte(line))
}

func TestReadRows(t *testing.T) {
	loc := filepath.Join(testutil.RepoRoot(t), "testdata", "orders")
	p, s := beam.NewPipelineWithRoot()
	beam.ParDo0(s, &collectOrdersFn{Key: t.Name()}, ReadRows[order](s, loc))
	if _, err := run(t, p); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range sink(t.Name()) {
		got = append(got, string(b))
	}
	slices.Sort(got)
	sameRows(t, loc, got, []string{
		`1 alice 9.5 100 "web"`,
		`2 bob 20.25 nil "web"`,
		`3 carol 1.5 5000000000 "web"`,
		`4 nil 3 101 "web"`,
		`5 dave 0.1 102 "app"`,
		`6 erin nil nil ""`,
	})
}

type badOrder struct {
	Customer int64
}

func init() { beam.RegisterType(reflect.TypeOf((*badOrder)(nil)).Elem()) }

// TestReadRowsType: a struct field whose Go type cannot hold its column
// fails the read naming both.
func TestReadRowsType(t *testing.T) {
	loc := filepath.Join(testutil.RepoRoot(t), "testdata", "orders")
	p, s := beam.NewPipelineWithRoot()
	beam.ParDo0(s, &discardFn{}, ReadRows[badOrder](s, loc))
	_, err := run(t, p)
	if err == nil || !strings.Contains(err.Error(), "field Customer (int64)") || !strings.Contains(err.Error(), "column customer (utf8)") {
		t.Fatalf("err = %v, want the field and column named", err)
	}
}

type discardFn struct{}

func (fn *discardFn) ProcessElement(_ beam.X) {}

// TestReadPartitionedColumns reads partitioned tables (an Iceberg identity
// partition with position deletes; a Paimon partitioned append table) with
// a column selection that leaves the partition columns out: their tasks
// used to fail to encode (a partition constant of a column the read
// schema lacks); the rows are those of `lakecat cat --columns`.
func TestReadPartitionedColumns(t *testing.T) {
	real := testutil.RealDir(t)
	cases := []struct {
		loc  string
		cols []string
	}{
		{filepath.Join(real, "impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_v2_partitioned_position_deletes_orc"), []string{"id"}},
		{filepath.Join(real, "impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_alltypes_part"), []string{"i"}},
		{filepath.Join(real, "paimon-cpp/test/test_data/parquet/append_10.db/append_10"), []string{"f0"}},
	}
	for i, c := range cases {
		want, wantSchema, err := referenceRows(t, c.loc, c.cols, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 {
			t.Fatalf("%s: no reference rows", c.loc)
		}
		key := fmt.Sprintf("%s/%d", t.Name(), i)
		p, s := beam.NewPipelineWithRoot()
		collect(s, key, Read(s, c.loc, Columns(c.cols...)))
		if _, err := run(t, p); err != nil {
			t.Fatalf("%s: %v", c.loc, err)
		}
		got, sch := batchRows(t, sink(key))
		sameRows(t, c.loc, got, want)
		sameSchema(t, c.loc, sch, wantSchema)
	}
}
