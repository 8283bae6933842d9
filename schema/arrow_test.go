package schema_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakecat/lakecat/schema"
)

// TestArrowTimestampZones: a wall-clock timestamp (Iceberg timestamp,
// timestamp_ns; Paimon TIMESTAMP(p); ORC timestamp) is an Arrow timestamp
// with no zone, an instant (timestamptz, timestamptz_ns) one with zone "UTC".
// arrow-go's FixedWidthTypes.Timestamp_us/ns carry "UTC" and were once
// returned for the wall-clock types.
func TestArrowTimestampZones(t *testing.T) {
	cases := []struct {
		t    schema.PrimitiveType
		unit arrow.TimeUnit
		zone string
	}{
		{schema.Timestamp, arrow.Microsecond, ""},
		{schema.TimestampNs, arrow.Nanosecond, ""},
		{schema.TimestampTz, arrow.Microsecond, "UTC"},
		{schema.TimestampTzNs, arrow.Nanosecond, "UTC"},
	}
	for _, c := range cases {
		ts, ok := schema.ToArrowType(c.t).(*arrow.TimestampType)
		if !ok {
			t.Fatalf("%s: %T, want *arrow.TimestampType", c.t, schema.ToArrowType(c.t))
		}
		if ts.Unit != c.unit || ts.TimeZone != c.zone {
			t.Errorf("%s: unit %s zone %q, want unit %s zone %q", c.t, ts.Unit, ts.TimeZone, c.unit, c.zone)
		}
	}
}

// TestArrowTypes: every primitive type's exact Arrow type, and the field-id
// metadata at every depth of a nested field (struct child, list element, map
// key and value).
func TestArrowTypes(t *testing.T) {
	cases := []struct {
		t    schema.Type
		want arrow.DataType
	}{
		{schema.Unknown, arrow.Null},
		{schema.Boolean, arrow.FixedWidthTypes.Boolean},
		{schema.TinyInt, arrow.PrimitiveTypes.Int8},
		{schema.SmallInt, arrow.PrimitiveTypes.Int16},
		{schema.Int, arrow.PrimitiveTypes.Int32},
		{schema.Long, arrow.PrimitiveTypes.Int64},
		{schema.Float16, arrow.FixedWidthTypes.Float16},
		{schema.Float, arrow.PrimitiveTypes.Float32},
		{schema.Double, arrow.PrimitiveTypes.Float64},
		{schema.Decimal(9, 2), &arrow.Decimal128Type{Precision: 9, Scale: 2}},
		{schema.Decimal(38, 10), &arrow.Decimal128Type{Precision: 38, Scale: 10}},
		{schema.Decimal(0, 0), &arrow.Decimal128Type{Precision: 38, Scale: 0}},
		{schema.Date, arrow.FixedWidthTypes.Date32},
		{schema.Time, &arrow.Time64Type{Unit: arrow.Microsecond}},
		{schema.Timestamp, &arrow.TimestampType{Unit: arrow.Microsecond}},
		{schema.TimestampTz, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
		{schema.TimestampNs, &arrow.TimestampType{Unit: arrow.Nanosecond}},
		{schema.TimestampTzNs, &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}},
		{schema.String, arrow.BinaryTypes.String},
		{schema.Char(3), arrow.BinaryTypes.String},
		{schema.Varchar(10), arrow.BinaryTypes.String},
		{schema.UUID, &arrow.FixedSizeBinaryType{ByteWidth: 16}},
		{schema.Fixed(3), &arrow.FixedSizeBinaryType{ByteWidth: 3}},
		{schema.Binary, arrow.BinaryTypes.Binary},
	}
	for _, c := range cases {
		got := schema.ToArrowType(c.t)
		// arrow.TypeEqual ignores a timestamp's zone; compare the
		// fingerprint too, which includes it.
		if !arrow.TypeEqual(got, c.want) || got.Fingerprint() != c.want.Fingerprint() {
			t.Errorf("%s: %s, want %s", c.t, got, c.want)
		}
	}

	s := schema.New(0,
		&schema.Field{ID: 1, Name: "s", Type: &schema.StructType{Fields: []*schema.Field{
			{ID: 2, Name: "ts", Type: schema.Timestamp, Required: true},
		}}},
		&schema.Field{ID: 3, Name: "l", Type: schema.NewList(4, schema.TimestampTz, false), Required: true},
		&schema.Field{ID: 5, Name: "m", Type: schema.NewMap(6, schema.String, 7, schema.TimestampNs, true)},
	)
	as := schema.ToArrowSchema(s)
	var got []string
	var walk func(prefix string, f arrow.Field)
	walk = func(prefix string, f arrow.Field) {
		got = append(got, fmt.Sprintf("%s%s id=%d nullable=%t %s", prefix, f.Name, schema.FieldIDOf(f), f.Nullable, f.Type))
		switch dt := f.Type.(type) {
		case *arrow.MapType:
			walk(prefix+f.Name+".", dt.KeyField())
			walk(prefix+f.Name+".", dt.ItemField())
		case *arrow.ListType:
			walk(prefix+f.Name+".", dt.ElemField())
		case *arrow.StructType:
			for _, c := range dt.Fields() {
				walk(prefix+f.Name+".", c)
			}
		}
	}
	for _, f := range as.Fields() {
		walk("", f)
	}
	want := []string{
		"s id=1 nullable=true struct<ts: timestamp[us]>",
		"s.ts id=2 nullable=false timestamp[us]",
		"l id=3 nullable=false list<element: timestamp[us, tz=UTC], nullable>",
		"l.element id=4 nullable=true timestamp[us, tz=UTC]",
		"m id=5 nullable=true map<utf8, timestamp[ns], items_non_nullable>",
		"m.key id=6 nullable=false utf8",
		"m.value id=7 nullable=false timestamp[ns]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("nested:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestArrowTypesREADME: every row of README.md's type table (section
// "Types") is what ToArrowType returns, written in the README's notation.
func TestArrowTypesREADME(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][2]string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "## Types":
			in = true
		case in && strings.HasPrefix(line, "## "):
			in = false
		case in && strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "| Iceberg"):
			cells := strings.Split(strings.Trim(line, "| "), " | ")
			if len(cells) != 2 {
				t.Fatalf("README type row %q: want two cells", line)
			}
			ice, arr := strings.Split(cells[0], " / "), strings.Split(cells[1], " / ")
			if len(ice) != len(arr) {
				t.Fatalf("README type row %q: %d Iceberg types, %d Arrow types", line, len(ice), len(arr))
			}
			for i := range ice {
				rows = append(rows, [2]string{ice[i], arr[i]})
			}
		}
	}
	if len(rows) < 15 {
		t.Fatalf("README type table: %d rows read, want the whole table", len(rows))
	}
	for _, r := range rows {
		ice, want := r[0], r[1]
		// The placeholders of the parameterized rows take example values.
		ice = strings.NewReplacer("(P,S)", "(9, 2)", "[L]", "[3]").Replace(ice)
		want = strings.NewReplacer("(P,S)", "(9,2)", "(L)", "(3)").Replace(want)
		var got string
		switch ice {
		case "struct", "list", "map":
			got = ice // nested: TestArrowTypes checks the children and ids
		default:
			p, err := schema.ParseIcebergPrimitive(ice)
			if err != nil {
				t.Errorf("README type %q: %v", ice, err)
				continue
			}
			got = readmeNotation(schema.ToArrowType(p))
		}
		if got != want {
			t.Errorf("README: %s → %s, ToArrowType gives %s", r[0], r[1], got)
		}
	}
}

// readmeNotation writes an Arrow type as README's type table does.
func readmeNotation(dt arrow.DataType) string {
	switch t := dt.(type) {
	case *arrow.TimestampType:
		if t.TimeZone != "" {
			return fmt.Sprintf("timestamp[%s, %s]", t.Unit, t.TimeZone)
		}
		return fmt.Sprintf("timestamp[%s]", t.Unit)
	case *arrow.Decimal128Type:
		return fmt.Sprintf("decimal128(%d,%d)", t.Precision, t.Scale)
	case *arrow.FixedSizeBinaryType:
		return fmt.Sprintf("fixed_size_binary(%d)", t.ByteWidth)
	case *arrow.Time64Type:
		return fmt.Sprintf("time64[%s]", t.Unit)
	}
	return dt.String()
}
