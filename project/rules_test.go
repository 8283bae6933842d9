package project

import (
	"errors"
	"fmt"
	"testing"

	"github.com/lakecat/lakecat/schema"
)

// The matrix of the package documentation, row by row: file type, read type,
// and whether IcebergV2, IcebergV3, Hudi and Paimon allow it.
func TestRulesMatrix(t *testing.T) {
	type row struct {
		from, to           schema.PrimitiveType
		v2, v3, hudi, paim bool
	}
	rows := []row{
		{schema.Int, schema.Int, true, true, true, true},
		{schema.String, schema.Varchar(10), true, true, true, true},
		{schema.Char(3), schema.String, true, true, true, true},
		{schema.TinyInt, schema.Int, true, true, true, true},
		{schema.SmallInt, schema.Long, true, true, true, true},
		{schema.Int, schema.Long, true, true, true, true},
		{schema.Long, schema.Int, false, false, false, true},
		{schema.Float, schema.Double, true, true, true, true},
		{schema.Double, schema.Float, false, false, false, true},
		{schema.Decimal(10, 2), schema.Decimal(20, 2), true, true, true, true},
		{schema.Decimal(10, 2), schema.Decimal(9, 2), false, false, false, true},
		{schema.Decimal(10, 2), schema.Decimal(20, 4), false, false, true, true},
		{schema.Decimal(10, 2), schema.Decimal(11, 4), false, false, false, true},
		{schema.Fixed(16), schema.UUID, true, true, true, true},
		{schema.Fixed(8), schema.UUID, false, false, false, false},
		{schema.Fixed(8), schema.Fixed(16), false, false, false, false},
		{schema.Unknown, schema.Long, false, true, false, false},
		{schema.Date, schema.Timestamp, false, true, false, true},
		{schema.Date, schema.TimestampNs, false, true, false, true},
		{schema.Date, schema.TimestampTz, false, false, false, true},
		{schema.Int, schema.Double, false, false, true, true},
		{schema.Long, schema.Float, false, false, true, true},
		{schema.Int, schema.Decimal(12, 2), false, false, true, true},
		{schema.Double, schema.Decimal(12, 2), false, false, true, true},
		{schema.Int, schema.String, false, false, true, true},
		{schema.Decimal(10, 2), schema.String, false, false, true, true},
		{schema.Date, schema.String, false, false, true, true},
		{schema.Timestamp, schema.String, false, false, true, true},
		{schema.Boolean, schema.String, false, false, false, true},
		{schema.Boolean, schema.Int, false, false, false, true},
		{schema.String, schema.Binary, false, false, true, true},
		{schema.Binary, schema.String, false, false, true, true},
		{schema.String, schema.Decimal(10, 2), false, false, true, true},
		{schema.String, schema.Date, false, false, true, true},
		{schema.String, schema.Long, false, false, false, true},
		{schema.String, schema.Timestamp, false, false, false, true},
		{schema.Timestamp, schema.TimestampTz, false, false, false, true},
		{schema.Timestamp, schema.Date, false, false, false, true},
		{schema.Time, schema.Timestamp, false, false, false, true},
		{schema.Long, schema.Timestamp, false, false, false, true},
		{schema.Int, schema.TimestampTz, false, false, false, true},
		{schema.Timestamp, schema.Int, false, false, false, true},
		{schema.TimestampTzNs, schema.Long, false, false, false, true},
		{schema.Timestamp, schema.SmallInt, false, false, false, false},
		{schema.String, schema.UUID, false, false, false, false},
		{schema.Int, schema.Boolean, false, false, false, true},
	}
	for _, r := range rows {
		for i, rules := range []Rules{IcebergV2, IcebergV3, Hudi, Paimon} {
			want := []bool{r.v2, r.v3, r.hudi, r.paim}[i]
			if got := rules.Allows(r.from, r.to); got != want {
				t.Errorf("%v.Allows(%s, %s) = %v, want %v", rules, r.from, r.to, got, want)
			}
			_, err := NewPlan(sch(fld(1, "c", r.from)), sch(fld(1, "c", r.to)), Options{Rules: rules})
			if want != (err == nil) || (err != nil && !errors.Is(err, ErrIncompatibleType)) {
				t.Errorf("%v: NewPlan(%s → %s) err = %v, want allowed=%v", rules, r.from, r.to, err, want)
			}
		}
	}
}

func TestParseRules(t *testing.T) {
	for name, want := range map[string]Rules{"iceberg": IcebergV2, "iceberg-v2": IcebergV2, "Iceberg-V3": IcebergV3, "hudi": Hudi, "paimon": Paimon} {
		got, err := ParseRules(name)
		if err != nil || got != want {
			t.Errorf("ParseRules(%q) = %v, %v", name, got, err)
		}
		if _, err := ParseRules(got.String()); err != nil {
			t.Errorf("ParseRules(%q.String()): %v", name, err)
		}
	}
	if _, err := ParseRules("delta"); err == nil || err.Error() != `project: unknown rules "delta" (want iceberg, iceberg-v3, hudi or paimon)` {
		t.Errorf("ParseRules(delta) err = %v", err)
	}
	if (Rules{}) != IcebergV2 {
		t.Error("zero Rules should be IcebergV2")
	}
}

// Values read under each rule: one column per conversion.
func TestPromotedValues(t *testing.T) {
	cases := []struct {
		rules    Rules
		from, to schema.PrimitiveType
		in, want string // JSON values of column c
	}{
		{IcebergV2, schema.Int, schema.Long, `[1,null,-2147483648,2147483647]`, `[1,null,-2147483648,2147483647]`},
		{IcebergV2, schema.Float, schema.Double, `[1.5,null,-0.25]`, `[1.5,null,-0.25]`},
		{IcebergV2, schema.TinyInt, schema.Long, `[-128,127,null]`, `[-128,127,null]`},
		{IcebergV2, schema.SmallInt, schema.Int, `[-32768,32767,null]`, `[-32768,32767,null]`},
		{IcebergV2, schema.Decimal(5, 1), schema.Decimal(38, 1), `["-9999.9","0.1",null]`, `["-9999.9","0.1",null]`},
		{IcebergV3, schema.Date, schema.Timestamp, `["1970-01-02","1969-12-31",null]`, `[86400000000,-86400000000,null]`},
		{IcebergV3, schema.Date, schema.TimestampNs, `["1970-01-02",null]`, `[86400000000000,null]`},
		{Hudi, schema.Int, schema.Double, `[3,null,-7]`, `[3,null,-7]`},
		{Hudi, schema.Long, schema.Float, `[16777217,null]`, `[16777216,null]`},
		{Hudi, schema.Int, schema.Decimal(12, 2), `[5,-3,null]`, `["5.00","-3.00",null]`},
		{Hudi, schema.Double, schema.Decimal(6, 2), `[1.005,2.5,null]`, `["1.01","2.50",null]`},
		{Hudi, schema.Double, schema.String, `[1.5,10000000,0.0001,null]`, `["1.5","1.0E7","1.0E-4",null]`},
		{Hudi, schema.Long, schema.String, `[-12,null]`, `["-12",null]`},
		{Hudi, schema.Decimal(10, 2), schema.String, `["111.11","-0.50"]`, `["111.11","-0.50"]`},
		{Hudi, schema.Date, schema.String, `["2024-02-29",null]`, `["2024-02-29",null]`},
		{Hudi, schema.Timestamp, schema.String, `[1704164645500000,0]`, `["2024-01-02 03:04:05.5","1970-01-01 00:00:00"]`},
		{Hudi, schema.String, schema.Decimal(10, 2), `["1.235"," 7 ",null]`, `["1.24","7.00",null]`},
		{Hudi, schema.String, schema.Date, `["2024-02-29",null]`, `["2024-02-29",null]`},
		{Hudi, schema.String, schema.Binary, `["hi",null]`, `["aGk=",null]`}, // binary JSON is base64
		{Paimon, schema.Long, schema.Int, `[1,-5,null]`, `[1,-5,null]`},
		{Paimon, schema.Double, schema.Int, `[1.9,-1.9,null]`, `[1,-1,null]`},
		{Paimon, schema.Int, schema.TinyInt, `[127,-128]`, `[127,-128]`},
		{Paimon, schema.Double, schema.Float, `[0.5,null]`, `[0.5,null]`},
		{Paimon, schema.Decimal(10, 3), schema.Decimal(5, 1), `["12.345","-12.355"]`, `["12.3","-12.4"]`},
		{Paimon, schema.Decimal(10, 2), schema.Long, `["-12.99","5.00"]`, `[-12,5]`},
		{Paimon, schema.String, schema.Long, `["42"," -7",null]`, `[42,-7,null]`},
		{Paimon, schema.String, schema.Boolean, `["true","0",null]`, `[true,false,null]`},
		{Paimon, schema.String, schema.Timestamp, `["2024-01-02 03:04:05.5","2024-01-02T00:00:00"]`, `[1704164645500000,1704153600000000]`},
		{Paimon, schema.Boolean, schema.Int, `[true,false,null]`, `[1,0,null]`},
		{Paimon, schema.Boolean, schema.String, `[true,false,null]`, `["true","false",null]`},
		{Paimon, schema.Timestamp, schema.Date, `[86400000001,-1]`, `["1970-01-02","1969-12-31"]`},
		{Paimon, schema.TimestampNs, schema.Timestamp, `[1500,-1500]`, `[1,-2]`},
		{Paimon, schema.Timestamp, schema.TimestampTz, `[5,null]`, `[5,null]`},
		{Paimon, schema.Date, schema.TimestampTz, `["1970-01-02"]`, `[86400000000]`},
		{Paimon, schema.Timestamp, schema.Time, `[86400000001]`, `[1]`},
		{Paimon, schema.Time, schema.Timestamp, `[3600000000,null]`, `[3600000000,null]`},
		{Paimon, schema.Date, schema.String, `["1969-12-31"]`, `["1969-12-31"]`},
		{Paimon, schema.Time, schema.String, `[3723500000]`, `["01:02:03.5"]`},
		{Paimon, schema.Fixed(2), schema.Binary, `["AAE="]`, `["AAE="]`},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%v/%s→%s", c.rules, c.from, c.to), func(t *testing.T) {
			p := mustPlan(t, sch(fld(1, "c", c.from)), sch(fld(1, "c", c.to)), Options{Rules: c.rules})
			applyJSON(t, p, rowsOf(c.in), rowsOf(c.want))
		})
	}
}

// rowsOf turns a JSON array of values into rows of column c.
func rowsOf(values string) string {
	var out []byte
	out = append(out, '[')
	depth, start := 0, 1
	emit := func(v string) {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, `{"c":`...)
		out = append(out, v...)
		out = append(out, '}')
	}
	inStr := false
	for i := 1; i < len(values)-1; i++ {
		ch := values[i]
		switch {
		case ch == '"' && values[i-1] != '\\':
			inStr = !inStr
		case inStr:
		case ch == '[' || ch == '{':
			depth++
		case ch == ']' || ch == '}':
			depth--
		case ch == ',' && depth == 0:
			emit(values[start:i])
			start = i + 1
		}
	}
	if len(values) > 2 {
		emit(values[start : len(values)-1])
	}
	return string(append(out, ']'))
}

// A value that does not fit fails the batch with a *ValueError naming file,
// field and row.
func TestValueErrors(t *testing.T) {
	cases := []struct {
		rules    Rules
		from, to schema.PrimitiveType
		in       string
		sentinel error
		want     string
	}{
		{Paimon, schema.Int, schema.TinyInt, `[1,300]`, ErrValueOutOfRange,
			`project: file "p.parquet": field 1 (c), row 1: value does not fit the read type: 300 as tinyint (file type int)`},
		{Paimon, schema.String, schema.Int, `["1","x1"]`, ErrInvalidValue,
			`project: file "p.parquet": field 1 (c), row 1: invalid value: "x1" as int (file type string)`},
		{Paimon, schema.Decimal(10, 2), schema.Decimal(3, 1), `["99.99","100.00"]`, ErrValueOutOfRange,
			`project: file "p.parquet": field 1 (c), row 0: value does not fit the read type: 99.99 as decimal(3, 1) (file type decimal(10, 2))`},
		{Paimon, schema.Double, schema.Long, `[1e300]`, ErrValueOutOfRange,
			`project: file "p.parquet": field 1 (c), row 0: value does not fit the read type: 1.0E300 as long (file type double)`},
		{IcebergV3, schema.Date, schema.TimestampNs, `["2262-04-11","2262-04-12"]`, ErrValueOutOfRange,
			`project: file "p.parquet": field 1 (c), row 1: value does not fit the read type: 2262-04-12 as timestamp_ns (file type date)`},
		{Hudi, schema.Int, schema.Decimal(3, 2), `[1,10]`, ErrValueOutOfRange,
			`project: file "p.parquet": field 1 (c), row 1: value does not fit the read type: 10 as decimal(3, 2) (file type int)`},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%v/%s→%s", c.rules, c.from, c.to), func(t *testing.T) {
			mem := checkedMem(t)
			p := mustPlan(t, sch(fld(1, "c", c.from)), sch(fld(1, "c", c.to)), Options{FileName: "p.parquet", Rules: c.rules})
			defer p.Release()
			in := fileBatch(t, mem, p, rowsOf(c.in))
			defer in.Release()
			out, err := p.Apply(in, mem)
			if err == nil {
				out.Release()
				t.Fatal("Apply succeeded, want a ValueError")
			}
			var ve *ValueError
			if !errors.As(err, &ve) || !errors.Is(err, c.sentinel) {
				t.Fatalf("err = %v (%T), want *ValueError matching %v", err, err, c.sentinel)
			}
			if err.Error() != c.want {
				t.Errorf("err = %s\nwant  %s", err, c.want)
			}
		})
	}
}

// Every pair a rule allows has a kernel: NewPlan succeeds for it (NewPlan runs
// each cast on an empty array).
func TestEveryAllowedPairHasAKernel(t *testing.T) {
	types := []schema.PrimitiveType{schema.Unknown, schema.Boolean, schema.TinyInt, schema.SmallInt, schema.Int, schema.Long,
		schema.Float16, schema.Float, schema.Double, schema.Decimal(9, 2), schema.Decimal(20, 4), schema.Decimal(38, 0),
		schema.Date, schema.Time, schema.Timestamp, schema.TimestampTz, schema.TimestampNs, schema.TimestampTzNs,
		schema.String, schema.Char(3), schema.Varchar(8), schema.UUID, schema.Fixed(16), schema.Fixed(4), schema.Binary}
	n := 0
	for _, rules := range []Rules{IcebergV2, IcebergV3, Hudi, Paimon} {
		for _, from := range types {
			for _, to := range types {
				if !rules.Allows(from, to) {
					continue
				}
				n++
				if _, err := NewPlan(sch(fld(1, "c", from)), sch(fld(1, "c", to)), Options{Rules: rules}); err != nil {
					t.Errorf("%v: %s → %s allowed but NewPlan: %v", rules, from, to, err)
				}
			}
		}
	}
	t.Logf("%d allowed pairs", n)
}
