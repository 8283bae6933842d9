package project

import (
	"testing"
	"time"

	"github.com/lakecat/lakecat/schema"
)

// Paimon's timestamp casts in a session time zone, with the values
// paimon-cpp's TestCastTimestampType asserts for append_with_cast_timestamp
// under Asia/Shanghai (UTC+8): a TIMESTAMP is a wall clock taken in the
// zone, a TIMESTAMP_LTZ an instant seen in it, and INT is seconds of the
// instant. The file values are the README's rows; timestamps below are
// microseconds or nanoseconds since the epoch as stored.
func TestPaimonCastsInSessionTimeZone(t *testing.T) {
	sh, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Skipf("no tz database: %v", err)
	}
	ts := func(k schema.Kind, p int) schema.PrimitiveType { return schema.PrimitiveType{K: k, Precision: p} }
	file := sch(
		fld(0, "ts_sec", ts(schema.KindTimestamp, 0)),
		fld(1, "ts_milli", ts(schema.KindTimestamp, 3)),
		fld(2, "ts_micro", ts(schema.KindTimestamp, 6)),
		fld(3, "ts_nano", ts(schema.KindTimestampNs, 9)),
		fld(4, "ts_tz_sec", ts(schema.KindTimestampTz, 0)),
		fld(5, "ts_tz_milli", ts(schema.KindTimestampTz, 3)),
		fld(6, "ts_tz_micro", ts(schema.KindTimestampTz, 6)),
		fld(7, "ts_tz_nano", ts(schema.KindTimestampTzNs, 9)),
		fld(8, "int_ts_sec", schema.Int),
		fld(9, "int_ts_tz_micro", schema.Int),
	)
	read := sch(
		fld(0, "ts_sec", schema.Int),
		fld(1, "ts_milli", schema.Date),
		fld(2, "ts_micro", schema.String),
		fld(3, "ts_nano", ts(schema.KindTimestampTzNs, 9)),
		fld(4, "ts_tz_sec", schema.Int),
		fld(5, "ts_tz_milli", schema.Date),
		fld(6, "ts_tz_micro", schema.String),
		fld(7, "ts_tz_nano", ts(schema.KindTimestampNs, 9)),
		fld(8, "int_ts_sec", ts(schema.KindTimestamp, 0)),
		fld(9, "int_ts_tz_micro", ts(schema.KindTimestampTz, 6)),
	)
	in := `[
	{"ts_sec":1000000,"ts_milli":1000,"ts_micro":1,"ts_nano":1,"ts_tz_sec":2000000,"ts_tz_milli":2000,"ts_tz_micro":2,"ts_tz_nano":2,"int_ts_sec":0,"int_ts_tz_micro":0},
	{"ts_sec":3000000,"ts_milli":3000,"ts_micro":null,"ts_nano":3,"ts_tz_sec":4000000,"ts_tz_milli":4000,"ts_tz_micro":4,"ts_tz_nano":4,"int_ts_sec":1,"int_ts_tz_micro":1},
	{"ts_sec":5000000,"ts_milli":5000,"ts_micro":null,"ts_nano":null,"ts_tz_sec":6000000,"ts_tz_milli":null,"ts_tz_micro":6,"ts_tz_nano":null,"int_ts_sec":-1,"int_ts_tz_micro":-1}]`
	// paimon-cpp: [-28799, 0, "1970-01-01 00:00:00.000001", "1969-12-31 16:00:00.000000001", 2, 0,
	// "1970-01-01 08:00:00.000002", "1970-01-01 08:00:00.000000002", "1970-01-01 08:00:00", "1970-01-01 00:00:00.000000"], …
	// (timestamps below: units since the epoch; 28800 s = 8 h).
	want := `[
	{"ts_sec":-28799,"ts_milli":0,"ts_micro":"1970-01-01 00:00:00.000001","ts_nano":-28799999999999,"ts_tz_sec":2,"ts_tz_milli":0,"ts_tz_micro":"1970-01-01 08:00:00.000002","ts_tz_nano":28800000000002,"int_ts_sec":28800000000,"int_ts_tz_micro":0},
	{"ts_sec":-28797,"ts_milli":0,"ts_micro":null,"ts_nano":-28799999999997,"ts_tz_sec":4,"ts_tz_milli":0,"ts_tz_micro":"1970-01-01 08:00:00.000004","ts_tz_nano":28800000000004,"int_ts_sec":28801000000,"int_ts_tz_micro":1000000},
	{"ts_sec":-28795,"ts_milli":0,"ts_micro":null,"ts_nano":null,"ts_tz_sec":6,"ts_tz_milli":null,"ts_tz_micro":"1970-01-01 08:00:00.000006","ts_tz_nano":null,"int_ts_sec":28799000000,"int_ts_tz_micro":-1000000}]`
	applyJSON(t, mustPlan(t, file, read, Options{Rules: Paimon.WithTimeZone(sh)}), in, want)

	// UTC (the default): the wall clock and the instant are the same number.
	wantUTC := `[
	{"ts_sec":1,"ts_milli":0,"ts_micro":"1970-01-01 00:00:00.000001","ts_nano":1,"ts_tz_sec":2,"ts_tz_milli":0,"ts_tz_micro":"1970-01-01 00:00:00.000002","ts_tz_nano":2,"int_ts_sec":0,"int_ts_tz_micro":0},
	{"ts_sec":3,"ts_milli":0,"ts_micro":null,"ts_nano":3,"ts_tz_sec":4,"ts_tz_milli":0,"ts_tz_micro":"1970-01-01 00:00:00.000004","ts_tz_nano":4,"int_ts_sec":1000000,"int_ts_tz_micro":1000000},
	{"ts_sec":5,"ts_milli":0,"ts_micro":null,"ts_nano":null,"ts_tz_sec":6,"ts_tz_milli":null,"ts_tz_micro":"1970-01-01 00:00:00.000006","ts_tz_nano":null,"int_ts_sec":-1000000,"int_ts_tz_micro":-1000000}]`
	applyJSON(t, mustPlan(t, file, read, Options{Rules: Paimon}), in, wantUTC)
	if Paimon.TimeZone() != time.UTC || Paimon.WithTimeZone(sh).TimeZone() != sh {
		t.Error("TimeZone")
	}
}
