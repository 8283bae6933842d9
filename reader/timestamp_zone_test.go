package reader_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
)

// TestTimestampZonesPaimon: a table scan's record batches carry the zone of
// each timestamp column: Paimon TIMESTAMP(p) (wall-clock) none,
// TIMESTAMP(p) WITH LOCAL TIME ZONE (an instant) "UTC", from both the ORC
// and the Parquet files of paimon-cpp's table.
func TestTimestampZonesPaimon(t *testing.T) {
	want := "ts_sec timestamp[us] ts_milli timestamp[us] ts_micro timestamp[us] ts_nano timestamp[ns] " +
		"ts_tz_sec timestamp[us, tz=UTC] ts_tz_milli timestamp[us, tz=UTC] ts_tz_micro timestamp[us, tz=UTC] ts_tz_nano timestamp[ns, tz=UTC]"
	for _, table := range []string{"orc/append_with_multiple_ts_precision_and_timezone", "parquet/append_with_multiple_ts_precision_and_timezone"} {
		t.Run(table, func(t *testing.T) {
			mem := testutil.CheckedAllocator(t)
			tbl, err := reader.OpenTable(context.Background(), paimonCpp(t, table), reader.TableOptions{Allocator: mem})
			if err != nil {
				t.Fatal(err)
			}
			rr, err := tbl.Scan(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer rr.Release()
			rows := 0
			for rr.Next() {
				rec := rr.RecordBatch()
				rows += int(rec.NumRows())
				var got []string
				for _, f := range rec.Schema().Fields() {
					ts := f.Type.(*arrow.TimestampType)
					zone := ""
					if ts.TimeZone != "" {
						zone = ", tz=" + ts.TimeZone
					}
					got = append(got, fmt.Sprintf("%s timestamp[%s%s]", f.Name, ts.Unit, zone))
					if !arrow.TypeEqual(rec.Column(rec.Schema().FieldIndices(f.Name)[0]).DataType(), f.Type) ||
						rec.Column(rec.Schema().FieldIndices(f.Name)[0]).DataType().(*arrow.TimestampType).TimeZone != ts.TimeZone {
						t.Errorf("%s: column type %s, schema type %s", f.Name, rec.Column(rec.Schema().FieldIndices(f.Name)[0]).DataType(), f.Type)
					}
				}
				if g := strings.Join(got, " "); g != want {
					t.Errorf("types:\n%s\nwant\n%s", g, want)
				}
			}
			if err := rr.Err(); err != nil {
				t.Fatal(err)
			}
			if rows != 3 {
				t.Errorf("%d rows, want 3", rows)
			}
		})
	}
}
