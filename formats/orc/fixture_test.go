package orc

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/schema"
)

func id(n int) [2]string { return [2]string{attrIcebergID, fmt.Sprint(n)} }

// nestedFixture is a 3-row file with struct, list, map, nested nulls,
// Iceberg attributes and every encoding family (RLE v1 and v2, direct and
// dictionary strings).
func nestedFixture(comp uint64) *fxFile {
	ts0 := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC).Unix()
	return &fxFile{
		comp: comp, block: 16, rows: 3, tz: "UTC",
		types: []fxType{
			{kind: kStruct, sub: []uint32{1, 2, 3, 5, 8, 11, 12, 13, 14, 15, 16},
				names: []string{"id", "name", "tags", "props", "loc", "ts", "tstz", "price", "u", "t", "d"}},
			{kind: kLong, attrs: [][2]string{id(1), {attrIcebergRequired, "true"}}},                         // 1 id
			{kind: kString, attrs: [][2]string{id(2), {attrIcebergRequired, "false"}}},                      // 2 name
			{kind: kList, sub: []uint32{4}, attrs: [][2]string{id(3)}},                                      // 3 tags
			{kind: kString, attrs: [][2]string{id(4)}},                                                      // 4 tags.element
			{kind: kMap, sub: []uint32{6, 7}, attrs: [][2]string{id(5)}},                                    // 5 props
			{kind: kString, attrs: [][2]string{id(6), {attrIcebergRequired, "true"}}},                       // 6 props.key
			{kind: kInt, attrs: [][2]string{id(7)}},                                                         // 7 props.value
			{kind: kStruct, sub: []uint32{9, 10}, names: []string{"lat", "lon"}, attrs: [][2]string{id(8)}}, // 8 loc
			{kind: kDouble, attrs: [][2]string{id(9)}},                                                      // 9 loc.lat
			{kind: kDouble, attrs: [][2]string{id(10)}},                                                     // 10 loc.lon
			{kind: kTimestamp, attrs: [][2]string{id(11), {attrIcebergTSUnit, "MICROS"}}},                   // 11 ts
			{kind: kTimestampInstant, attrs: [][2]string{id(12)}},                                           // 12 tstz
			{kind: kDecimal, prec: 10, scal: 2, attrs: [][2]string{id(13)}},                                 // 13 price
			{kind: kBinary, attrs: [][2]string{id(14), {attrIcebergBinType, "UUID"}}},                       // 14 u
			{kind: kLong, attrs: [][2]string{id(15), {attrIcebergLongType, "TIME"}}},                        // 15 t
			{kind: kDate, attrs: [][2]string{id(16)}},                                                       // 16 d
		},
		enc: []uint64{encDirect, encDirectV2, encDirect, encDirectV2, encDictionaryV2, encDirect, encDirectV2,
			encDirect, encDirect, encDirect, encDirect, encDirectV2, encDirect, encDirectV2, encDirect, encDirect, encDirectV2},
		dict: map[int]uint64{4: 2},
		streams: []fxStream{
			{1, sData, encV2(true, 1, 2, 3)},
			{2, sPresent, encBools(1, 0, 1)},
			{2, sData, []byte("accc")},
			{2, sLength, encV1(false, 1, 3)},
			{3, sPresent, encBools(1, 1, 0)},
			{3, sLength, encV2(false, 2, 0)},
			{4, sData, encV2(false, 0, 1)},
			{4, sLength, encV2(false, 1, 1)},
			{4, sDictionaryData, []byte("xy")},
			{5, sPresent, encBools(1, 0, 1)},
			{5, sLength, encV1(false, 1, 2)},
			{6, sData, []byte("k1ab")},
			{6, sLength, encV2(false, 2, 1, 1)},
			{7, sPresent, encBools(1, 0, 1)},
			{7, sData, encV1(true, 1, 2)},
			{8, sPresent, encBools(1, 0, 1)},
			{9, sPresent, encBools(1, 0)},
			{9, sData, encDoubles(1.5)},
			{10, sData, encDoubles(-2.25, 3)},
			{11, sPresent, encBools(1, 0, 1)},
			// 1969-12-31 23:59:58.5 is written as the Java writer does:
			// seconds truncated toward zero (-1), then 0.5 s of nanos.
			{11, sData, encV2(true, ts0-orcEpoch, -1-orcEpoch)},
			{11, sSecondary, encV2(false, encNanos(123456000), encNanos(500000000))},
			{12, sPresent, encBools(1, 0, 0)},
			{12, sData, encV1(true, -orcEpoch)},
			{12, sSecondary, encV1(false, encNanos(1000))},
			{13, sData, encVarints(12345, -1, 5)},
			{13, sSecondary, encV2(true, 2, 2, 0)},
			{14, sPresent, encBools(1, 0, 0)},
			{14, sData, []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}},
			{14, sLength, encV1(false, 16)},
			{15, sData, encV1(true, 3600000000, 0, 86399999999)},
			{16, sData, encV2(true, 18000, -1, 0)},
		},
	}
}

func TestFixtureNested(t *testing.T) {
	wantSchema := "table {\n  1:id: required long\n  2:name: string\n  3:tags: list<string>\n  5:props: map<string, int>\n" +
		"  8:loc: struct<9:lat: double, 10:lon: double>\n  11:ts: timestamp\n  12:tstz: timestamptz\n" +
		"  13:price: decimal(10, 2)\n  14:u: uuid\n  15:t: time\n  16:d: date\n}"
	ts0 := time.Date(2020, 1, 2, 3, 4, 5, 123456000, time.UTC).UnixMicro()
	want := map[string]string{
		"id":    "[1 2 3]",
		"name":  `["a" (null) "ccc"]`,
		"tags":  `[["x" "y"] [] (null)]`,
		"props": `[{["k1"] [1]} (null) {["a" "b"] [(null) 2]}]`,
		"loc":   "{[1.5 (null)] [-2.25 (null)]} {[(null)] [3]}", // two batches of 2 and 1 rows
		"ts":    fmt.Sprintf("[%d (null) %d]", ts0, int64(-1_500_000)),
		"tstz":  "[1 (null) (null)]",
		"price": "[123.45 -0.01 5]",
		"u":     `["\x00\x01\x02\x03\x04\x05\x06\a\b\t\n\v\f\r\x0e\x0f" (null) (null)]`,
		"t":     "[3600000000 0 86399999999]",
		"d":     "[2019-04-14 1969-12-31 1970-01-01]", // days 18000, -1, 0
	}
	for _, comp := range []uint64{compNone, compZlib, compZstd, compSnappy, compLZ4} {
		t.Run(compName(comp), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			b := nestedFixture(comp).bytes(t)
			f, err := Open(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				t.Fatal(err)
			}
			if s := f.Schema().String(); s != wantSchema {
				t.Errorf("schema\n%s\nwant\n%s", s, wantSchema)
			}
			if k := f.Schema().Fields[3].Type.(*schema.MapType).Key; k.ID != 6 || !k.Required {
				t.Errorf("map key %v", k)
			}
			if f.Compression() != compName(comp) || f.NumRows() != 3 {
				t.Errorf("%s %d rows", f.Compression(), f.NumRows())
			}
			got := readRaw(t, f, f.Schema(), mem, 2)
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s: got %s, want %s", k, got[k], v)
				}
			}
			// Projection: only loc.lon and props.
			full := f.Schema()
			loc := full.Fields[4]
			proj := schema.New(0, full.Fields[3], &schema.Field{ID: loc.ID, Name: "loc",
				Type: &schema.StructType{Fields: loc.Type.(*schema.StructType).Fields[1:]}})
			got = readRaw(t, f, proj, mem, 3)
			if got["loc"] != "{[-2.25 (null) 3]}" || got["props"] != want["props"] || len(got) != 2 {
				t.Errorf("projection %v", got)
			}
		})
	}
}

// TestFixtureWriterTimeZone checks that a timestamp is read as the wall
// clock the writer saw in its zone (here across a DST change from the 2015
// base) and that a non-struct root is exposed as "_col0".
func TestFixtureWriterTimeZone(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Fatal(err)
	}
	inst := time.Date(2020, 7, 1, 12, 0, 0, 0, la).Unix()
	base := time.Date(2015, 1, 1, 0, 0, 0, 0, la).Unix()
	fx := &fxFile{comp: compZlib, block: 1 << 10, rows: 2, tz: "America/Los_Angeles",
		types: []fxType{{kind: kTimestamp}},
		enc:   []uint64{encDirectV2},
		streams: []fxStream{
			{0, sData, encV2(true, inst-base, 0)},
			{0, sSecondary, encV2(false, encNanos(7), 0)},
		}}
	b := fx.bytes(t)
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if s := f.Schema().String(); s != "table {\n  _col0: timestamp_ns\n}" {
		t.Errorf("schema %s", s)
	}
	got := readRaw(t, f, f.Schema(), mem, 10)["_col0"]
	want := fmt.Sprintf("[%d %d]", time.Date(2020, 7, 1, 12, 0, 0, 7, time.UTC).UnixNano(),
		time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestFixturePaimonIDs checks paimon.id attributes and a file without
// attributes (no ids, everything optional).
func TestFixturePaimonIDs(t *testing.T) {
	mk := func(attrs bool) *fxFile {
		fx := &fxFile{comp: compNone, rows: 2,
			types: []fxType{{kind: kStruct, sub: []uint32{1, 2}, names: []string{"k", "v"}},
				{kind: kByte}, {kind: kVarchar, maxLen: 5}},
			enc: []uint64{encDirect, encDirect, encDirect},
			streams: []fxStream{
				{1, sData, encBytes([]byte{0x80, 0x7f})},
				{2, sData, []byte("abcde")},
				{2, sLength, encV1(false, 2, 3)},
			}}
		if attrs {
			fx.types[1].attrs = [][2]string{{attrPaimonID, "0"}}
			fx.types[2].attrs = [][2]string{{attrPaimonID, "2147483646"}}
		}
		return fx
	}
	for _, attrs := range []bool{true, false} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		b := mk(attrs).bytes(t)
		f, err := Open(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		want := "table {\n  k: tinyint\n  v: varchar(5)\n}"
		if attrs {
			want = "table {\n  0:k: tinyint\n  2147483646:v: varchar(5)\n}"
		}
		if s := f.Schema().String(); s != want {
			t.Errorf("schema %s, want %s", s, want)
		}
		got := readRaw(t, f, f.Schema(), mem, 0)
		if got["k"] != "[-128 127]" || got["v"] != `["ab" "cde"]` {
			t.Errorf("values %v", got)
		}
		mem.AssertSize(t, 0)
	}
}

// TestProjectionErrors checks that a projection naming a missing field or
// changing a type is refused before decoding.
func TestProjectionErrors(t *testing.T) {
	b := nestedFixture(compNone).bytes(t)
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		proj *schema.Schema
		msg  string
	}{
		{schema.New(0, &schema.Field{ID: 99, Name: "nope", Type: schema.Int}), `orc: projected field "nope" is not in the file`},
		{schema.New(0, &schema.Field{ID: 1, Name: "id", Type: schema.Int}), `orc: projected field "id" is int, the file has long`},
		{schema.New(0, &schema.Field{ID: 8, Name: "loc", Type: &schema.StructType{Fields: []*schema.Field{
			{ID: 1, Name: "alt", Type: schema.Double}}}}), `orc: projected field "loc"."alt" is not in the file`},
	}
	for _, c := range cases {
		_, err := f.NewBatchReader(c.proj, BatchOptions{})
		if err == nil || err.Error() != c.msg {
			t.Errorf("got %v, want %s", err, c.msg)
		}
	}
}
