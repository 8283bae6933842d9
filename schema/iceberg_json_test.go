package schema

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"reflect"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/jsonutil"
	"github.com/lakecat/lakecat/internal/realdata"
)

// realDir returns the shared folder of real third-party files (see
// package internal/realdata). Tests skip when it is absent, except under
// CI=true, where they fail.
func realDir(t testing.TB) string {
	t.Helper()
	return realdata.Require(t)
}

// assertJSONEqual fails t unless got and want are the same JSON value
// (see jsonutil.Equal: 1 and 1.0 are equal, 1 and 2 are not).
func assertJSONEqual(t testing.TB, got, want []byte) {
	t.Helper()
	eq, err := jsonutil.Equal(got, want)
	if err != nil {
		t.Fatalf("invalid JSON: %v\n got: %s\nwant: %s", err, got, want)
	}
	if !eq {
		t.Fatalf("JSON values differ\n got: %s\nwant: %s", jsonutil.Compact(got), jsonutil.Compact(want))
	}
}

const allTypesSchema = `{"type":"struct","schema-id":7,"identifier-field-ids":[1],"fields":[` +
	`{"id":1,"name":"id","required":true,"type":"long","doc":"row id"},` +
	`{"id":2,"name":"b","required":false,"type":"boolean","initial-default":true,"write-default":false},` +
	`{"id":3,"name":"i","required":false,"type":"int","initial-default":-1},` +
	`{"id":4,"name":"f","required":false,"type":"float","initial-default":0.34234},` +
	`{"id":5,"name":"d","required":false,"type":"double","write-default":0.342343242342342},` +
	`{"id":6,"name":"dec","required":false,"type":"decimal(7, 2)","initial-default":"12345.00"},` +
	`{"id":7,"name":"dt","required":false,"type":"date","initial-default":"2003-10-20"},` +
	`{"id":8,"name":"tm","required":false,"type":"time","initial-default":"00:00:00.012345"},` +
	`{"id":9,"name":"ts","required":false,"type":"timestamp","initial-default":"1970-01-01T00:00:00.012345"},` +
	`{"id":10,"name":"tstz","required":false,"type":"timestamptz","initial-default":"1970-01-01T00:00:00.012345+00:00"},` +
	`{"id":11,"name":"tsn","required":false,"type":"timestamp_ns","initial-default":"2017-11-16T22:31:08.123456789"},` +
	`{"id":12,"name":"tstzn","required":false,"type":"timestamptz_ns"},` +
	`{"id":13,"name":"s","required":false,"type":"string","initial-default":"HELLO"},` +
	`{"id":14,"name":"u","required":false,"type":"uuid","initial-default":"f79c3e09-677c-4bbd-a479-3f349cb785e7"},` +
	`{"id":15,"name":"fx","required":false,"type":"fixed[5]","initial-default":"010203ff03"},` +
	`{"id":16,"name":"bin","required":false,"type":"binary","initial-default":"0102"},` +
	`{"id":17,"name":"unk","required":false,"type":"unknown"},` +
	`{"id":18,"name":"l","required":false,"type":{"type":"list","element-id":19,"element":"int","element-required":true},"initial-default":[1,2,3]},` +
	`{"id":20,"name":"m","required":false,"type":{"type":"map","key-id":21,"key":"string","value-id":22,"value":"double","value-required":false},"initial-default":{"keys":["a","b"],"values":[1.5,null]}},` +
	`{"id":23,"name":"st","required":true,"type":{"type":"struct","fields":[{"id":24,"name":"x","required":true,"type":"int"},{"id":25,"name":"a.b","required":false,"type":"string"}]},"initial-default":{"24":1,"25":"bar"}}` +
	`]}`

func TestIcebergSchemaRoundTrip(t *testing.T) {
	s, err := ParseIcebergSchema([]byte(allTypesSchema))
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != 7 || len(s.Fields) != 20 || !reflect.DeepEqual(s.IdentifierFieldIDs, []int{1}) {
		t.Fatalf("schema id %d, %d fields, identifier ids %v", s.ID, len(s.Fields), s.IdentifierFieldIDs)
	}
	want := map[int]struct {
		typ  Type
		init any
	}{
		1:  {Long, nil},
		2:  {Boolean, true},
		3:  {Int, int32(-1)},
		4:  {Float, float32(0.34234)},
		6:  {Decimal(7, 2), DecimalValue{Lo: 1234500}},
		7:  {Date, int32(12345)},
		8:  {Time, int64(12345)},
		9:  {Timestamp, int64(12345)},
		10: {TimestampTz, int64(12345)},
		11: {TimestampNs, int64(1510871468123456789)},
		13: {String, "HELLO"},
		14: {UUID, [16]byte{0xf7, 0x9c, 0x3e, 0x09, 0x67, 0x7c, 0x4b, 0xbd, 0xa4, 0x79, 0x3f, 0x34, 0x9c, 0xb7, 0x85, 0xe7}},
		15: {Fixed(5), []byte{1, 2, 3, 0xff, 3}},
		16: {Binary, []byte{1, 2}},
		17: {Unknown, nil},
		18: {NewList(19, Int, true), []any{int32(1), int32(2), int32(3)}},
		20: {NewMap(21, String, 22, Double, false), MapValue{Keys: []any{"a", "b"}, Values: []any{1.5, nil}}},
		23: {&StructType{Fields: []*Field{{ID: 24, Name: "x", Type: Int, Required: true}, {ID: 25, Name: "a.b", Type: String}}},
			map[int]any{24: int32(1), 25: "bar"}},
	}
	for id, w := range want {
		f := s.FindByID(id)
		if f == nil {
			t.Fatalf("field id %d missing", id)
		}
		if !Equal(f.Type, w.typ) {
			t.Errorf("field id %d: type %v, want %v", id, f.Type, w.typ)
		}
		if !reflect.DeepEqual(f.InitialDefault, w.init) {
			t.Errorf("field id %d: initial-default %#v, want %#v", id, f.InitialDefault, w.init)
		}
	}
	if f := s.FindByID(1); f.Doc != "row id" || !f.Required {
		t.Errorf("field 1: doc %q required %v", f.Doc, f.Required)
	}
	if f := s.FindByID(5); f.WriteDefault != 0.342343242342342 {
		t.Errorf("field 5 write-default %#v", f.WriteDefault)
	}
	if f := s.FindByName("st.a.b", false); f == nil || f.ID != 25 {
		t.Errorf("dotted name lookup: %v", f)
	}
	out, err := MarshalIcebergSchema(s)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != allTypesSchema {
		t.Fatalf("byte-exact round trip failed\n got: %s\nwant: %s", out, allTypesSchema)
	}
	s2, err := ParseIcebergSchema(out)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Equal(s2) || s2.ID != 7 {
		t.Fatal("re-parsed schema differs")
	}
}

func TestParseIcebergTypeSpellings(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Type
	}{
		{`long`, Long},
		{`"long"`, Long},
		{`LONG`, Long},
		{`decimal(10, 2)`, Decimal(10, 2)},
		{`decimal(10,2)`, Decimal(10, 2)},
		{`"decimal( 38 , 0 )"`, Decimal(38, 0)},
		{`fixed[16]`, Fixed(16)},
		{`"fixed[ 3 ]"`, Fixed(3)},
		{`timestamptz_ns`, TimestampTzNs},
		{`tinyint`, TinyInt},
		{`varchar(20)`, Varchar(20)},
		{`char(3)`, Char(3)},
		{`varbinary(7)`, PrimitiveType{K: KindBinary, Length: 7}},
		{`{"type":"list","element-id":3,"element":"string","element-required":false}`, NewList(3, String, false)},
		{`{"type":"map","key-id":4,"key":"string","value-id":5,"value":{"type":"list","element-id":6,"element":"int","element-required":true},"value-required":true}`,
			NewMap(4, String, 5, NewList(6, Int, true), true)},
		{`{"type":"struct","fields":[{"id":1,"name":"a","required":false,"type":"int"}]}`, &StructType{Fields: []*Field{{ID: 1, Name: "a", Type: Int}}}},
	} {
		got, err := ParseIcebergType([]byte(c.in))
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if !Equal(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.in, got, c.want)
		}
	}
	// Writing uses Java's spelling.
	b, err := MarshalIcebergType(Decimal(10, 2))
	if err != nil || string(b) != `"decimal(10, 2)"` {
		t.Errorf("marshal decimal: %s %v", b, err)
	}
	for _, bad := range []string{`decimal(10)`, `decimal(39, 2)`, `decimal(5, 6)`, `fixed[]`, `fixed[0]`, `varient`, `"list"`, `{"type":"set"}`, `{"type":"list"}`, `5`, `{`} {
		if _, err := ParseIcebergType([]byte(bad)); !errors.Is(err, ErrInvalidSchema) {
			t.Errorf("%s: error %v, want ErrInvalidSchema", bad, err)
		}
	}
}

func TestIcebergUnknownTypeError(t *testing.T) {
	in := `{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"a","required":false,"type":"int"},` +
		`{"id":2,"name":"loc","required":false,"type":{"type":"struct","fields":[{"id":3,"name":"geo","required":false,"type":"geometry(srid:4326)"}]}}]}`
	_, err := ParseIcebergSchema([]byte(in))
	var se *SchemaError
	if !errors.As(err, &se) || !errors.Is(err, ErrInvalidSchema) || !errors.Is(err, ErrUnknownType) {
		t.Fatalf("error %v (%T), want *SchemaError matching ErrInvalidSchema and ErrUnknownType", err, err)
	}
	if se.Path != "loc.geo" || se.Type != "geometry(srid:4326)" {
		t.Fatalf("path %q type %q", se.Path, se.Type)
	}
	want := `schema: iceberg schema: field "loc.geo": unknown type "geometry(srid:4326)": unknown type`
	if err.Error() != want {
		t.Fatalf("message %q\n want %q", err.Error(), want)
	}
}

// TestCaseA22 checks that ids are JSON integers both ways: 5.0 is refused
// on input, and output never holds a float.
func TestCaseA22(t *testing.T) {
	in := `{"type":"struct","schema-id":0,"fields":[{"id":5.0,"name":"street","required":false,"type":"string"}]}`
	if _, err := ParseIcebergSchema([]byte(in)); !errors.Is(err, ErrInvalidSchema) || !strings.Contains(err.Error(), `"street"`) {
		t.Fatalf("id 5.0: error %v", err)
	}
	addr := &StructType{Fields: []*Field{
		{ID: 5, Name: "street", Type: String}, {ID: 6, Name: "city", Type: String},
		{ID: 7, Name: "state", Type: String}, {ID: 8, Name: "zip", Type: Int},
	}}
	s := New(1, &Field{ID: 1, Name: "id", Type: String, Required: true}, &Field{ID: 2, Name: "name", Type: String},
		&Field{ID: 3, Name: "roll_number", Type: Int, Required: true}, &Field{ID: 4, Name: "address", Type: addr})
	out, err := MarshalIcebergSchema(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"struct","schema-id":1,"fields":[{"id":1,"name":"id","required":true,"type":"string"},` +
		`{"id":2,"name":"name","required":false,"type":"string"},{"id":3,"name":"roll_number","required":true,"type":"int"},` +
		`{"id":4,"name":"address","required":false,"type":{"type":"struct","fields":[{"id":5,"name":"street","required":false,"type":"string"},` +
		`{"id":6,"name":"city","required":false,"type":"string"},{"id":7,"name":"state","required":false,"type":"string"},` +
		`{"id":8,"name":"zip","required":false,"type":"int"}]}}]}`
	if string(out) != want {
		t.Fatalf("got  %s\nwant %s", out, want)
	}
}

func TestMarshalIcebergSchemaErrors(t *testing.T) {
	for name, s := range map[string]*Schema{
		"no id":        New(0, &Field{ID: NoID, Name: "a", Type: Int}),
		"nil type":     New(0, &Field{ID: 1, Name: "a"}),
		"bad default":  New(0, &Field{ID: 1, Name: "a", Type: Int, InitialDefault: "x"}),
		"list no id":   New(0, &Field{ID: 1, Name: "a", Type: NewList(NoID, Int, false)}),
		"fixed length": New(0, &Field{ID: 1, Name: "a", Type: Fixed(2), WriteDefault: []byte{1}}),
	} {
		if _, err := MarshalIcebergSchema(s); !errors.Is(err, ErrInvalidSchema) {
			t.Errorf("%s: error %v, want ErrInvalidSchema", name, err)
		}
	}
}

func TestLiterals(t *testing.T) {
	dec := func(s string) DecimalValue {
		v, _ := new(big.Int).SetString(s, 10)
		d, err := decimalFromBig(v)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, c := range []struct {
		typ   Type
		in    string
		want  any
		canon string // "" → in
	}{
		{Boolean, `true`, true, ""},
		{TinyInt, `-128`, int8(-128), ""},
		{SmallInt, `32767`, int16(32767), ""},
		{Int, `34`, int32(34), ""},
		{Long, `-9223372036854775808`, int64(math.MinInt64), ""},
		{Float, `1.5`, float32(1.5), ""},
		{Double, `"NaN"`, math.NaN(), ""},
		{Double, `"-Infinity"`, math.Inf(-1), ""},
		{Double, `1e300`, 1e300, `1e+300`},
		{Decimal(9, 2), `"14.20"`, DecimalValue{Lo: 1420}, ""},
		{Decimal(9, 2), `"1.5"`, DecimalValue{Lo: 150}, `"1.50"`},
		{Decimal(9, 2), `"-0.05"`, dec("-5"), ""},
		{Decimal(9, 2), `"1.5E+1"`, DecimalValue{Lo: 1500}, `"15.00"`},
		{Decimal(9, 0), `12`, DecimalValue{Lo: 12}, `"12"`},
		{Decimal(38, 0), `"-99999999999999999999999999999999999999"`, dec("-99999999999999999999999999999999999999"), ""},
		{Date, `"1970-01-01"`, int32(0), ""},
		{Date, `"1969-12-31"`, int32(-1), ""},
		{Date, `"2017-11-16"`, int32(17486), ""},
		{Time, `"22:31:08"`, int64(81068000000), `"22:31:08.000000"`},
		{Time, `"22:31:08.123456"`, int64(81068123456), ""},
		{Timestamp, `"2017-11-16T22:31:08"`, int64(1510871468000000), `"2017-11-16T22:31:08.000000"`},
		{Timestamp, `"1969-12-31T23:59:59.999999"`, int64(-1), ""},
		{TimestampTz, `"2017-11-16T14:31:08.000001-08:00"`, int64(1510871468000001), `"2017-11-16T22:31:08.000001+00:00"`},
		{TimestampTz, `"2017-11-16T22:31:08Z"`, int64(1510871468000000), `"2017-11-16T22:31:08.000000+00:00"`},
		{TimestampNs, `"1677-09-21T00:12:43.145224192"`, int64(math.MinInt64), ""},
		{TimestampTzNs, `"2017-11-16T22:31:08.123456789+00:00"`, int64(1510871468123456789), ""},
		{String, `"a\"<b>"`, `a"<b>`, ""},
		{Varchar(3), `"abc"`, "abc", ""},
		{UUID, `"00000000-0000-0000-0000-0000000000ff"`, [16]byte{15: 0xff}, ""},
		{Fixed(2), `"00ff"`, []byte{0, 0xff}, ""},
		{Binary, `""`, []byte{}, ""},
		{NewList(1, NewList(2, Int, false), false), `[[1,null],[]]`, []any{[]any{int32(1), nil}, []any{}}, ""},
		{Int, `null`, nil, ""},
	} {
		got, err := ParseLiteral(c.typ, json.RawMessage(c.in))
		if err != nil {
			t.Errorf("%v %s: %v", c.typ, c.in, err)
			continue
		}
		if f, ok := c.want.(float64); ok && math.IsNaN(f) {
			if g, ok := got.(float64); !ok || !math.IsNaN(g) {
				t.Errorf("%v %s: got %#v, want NaN", c.typ, c.in, got)
			}
		} else if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v %s: got %#v, want %#v", c.typ, c.in, got, c.want)
			continue
		}
		out, err := MarshalLiteral(c.typ, got)
		if err != nil {
			t.Errorf("%v %s: marshal: %v", c.typ, c.in, err)
			continue
		}
		canon := c.canon
		if canon == "" {
			canon = c.in
		}
		if string(out) != canon {
			t.Errorf("%v %s: marshal %s, want %s", c.typ, c.in, out, canon)
		}
	}
	for _, c := range []struct {
		typ Type
		in  string
	}{
		{Int, `2147483648`}, {Int, `1.0`}, {Int, `"1"`}, {TinyInt, `128`}, {Boolean, `1`},
		{Decimal(3, 2), `"10.00"`}, {Decimal(9, 2), `"1.005"`}, {Decimal(9, 2), `"1.2.3"`}, {Decimal(9, 2), `true`},
		{Date, `"2023-02-30"`}, {Date, `"20230201"`}, {Time, `"24:00:00"`}, {Time, `"12:00:00.0000001"`},
		{Timestamp, `"2017-11-16T22:31:08+00:00"`}, {TimestampTz, `"2017-11-16T22:31:08"`},
		{Timestamp, `"2017-11-16T22:31:08.1234567"`}, {TimestampNs, `"2262-04-12T00:00:00"`},
		{UUID, `"f79c3e09677c4bbda4793f349cb785e7"`}, {Fixed(2), `"00"`}, {Binary, `"0g"`}, {Unknown, `1`},
		{NewMap(1, String, 2, Int, false), `{"keys":["a"],"values":[]}`},
		{&StructType{Fields: []*Field{{ID: 1, Name: "a", Type: Int}}}, `{"2":1}`},
	} {
		if v, err := ParseLiteral(c.typ, json.RawMessage(c.in)); !errors.Is(err, ErrInvalidSchema) {
			t.Errorf("%v %s: got %#v, %v; want ErrInvalidSchema", c.typ, c.in, v, err)
		}
	}
}

func TestMarshalIcebergSchemaNoIDs(t *testing.T) {
	s := New(0,
		&Field{ID: NoID, Name: "a", Type: PrimitiveType{K: KindInt}},
		&Field{ID: 2, Name: "l", Type: &ListType{Element: &Field{ID: NoID, Name: ElementName, Type: PrimitiveType{K: KindLong}, Required: true}}},
		&Field{ID: 3, Name: "m", Type: &MapType{Key: &Field{ID: NoID, Name: KeyName, Type: PrimitiveType{K: KindString}, Required: true}, Value: &Field{ID: 5, Name: ValueName, Type: PrimitiveType{K: KindInt}}}},
	)
	if _, err := MarshalIcebergSchema(s); !errors.Is(err, ErrInvalidSchema) {
		t.Errorf("MarshalIcebergSchema: %v, want ErrInvalidSchema", err)
	}
	got, err := MarshalIcebergSchemaNoIDs(s)
	want := `{"type":"struct","schema-id":0,"fields":[{"id":-1,"name":"a","required":false,"type":"int"},` +
		`{"id":2,"name":"l","required":false,"type":{"type":"list","element-id":-1,"element":"long","element-required":true}},` +
		`{"id":3,"name":"m","required":false,"type":{"type":"map","key-id":-1,"key":"string","value-id":5,"value":"int","value-required":false}}]}`
	if err != nil || string(got) != want {
		t.Errorf("MarshalIcebergSchemaNoIDs: %v\n%s\nwant\n%s", err, got, want)
	}
	s.Fields[0].ID = -2
	if _, err := MarshalIcebergSchemaNoIDs(s); !errors.Is(err, ErrInvalidSchema) {
		t.Errorf("id -2: %v, want ErrInvalidSchema", err)
	}
}
