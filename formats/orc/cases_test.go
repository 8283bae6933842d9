package orc

import (
	"bytes"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/schema"
)

// TestCaseA16 (apache/iceberg#9784, decoder part): ORC "timestamp" and
// "timestamp with local time zone" come out as different kinds whose names
// differ, so a plan can tell a migrated Hive timestamp from an instant.
func TestCaseA16(t *testing.T) {
	fx := &fxFile{comp: compNone, rows: 1,
		types: []fxType{{kind: kStruct, sub: []uint32{1, 2}, names: []string{"ts", "tsi"}},
			{kind: kTimestamp}, {kind: kTimestampInstant}},
		enc: []uint64{encDirect, encDirectV2, encDirectV2},
		streams: []fxStream{
			{1, sData, encV2(true, 0)}, {1, sSecondary, encV2(false, 0)},
			{2, sData, encV2(true, 0)}, {2, sSecondary, encV2(false, 0)},
		}}
	b := fx.bytes(t)
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	ts, tsi := f.Schema().Fields[0].Type, f.Schema().Fields[1].Type
	if ts != schema.TimestampNs || tsi != schema.TimestampTzNs || ts.String() == tsi.String() {
		t.Errorf("timestamp → %v, timestamp_instant → %v", ts, tsi)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	// Both hold 2015-01-01 00:00:00 (writer zone UTC): the same number.
	got := readRaw(t, f, f.Schema(), mem, 0)
	if got["ts"] != "[1420070400000000000]" || got["tsi"] != "[1420070400000000000]" {
		t.Errorf("values %v", got)
	}
}

// TestCaseA17 (trino#24795, apache/iceberg#1055, decoder part): a Hive
// file without attributes has no field ids at all, and a file with ids on
// some columns gets no invented ids for the others.
func TestCaseA17(t *testing.T) {
	mk := func(idOnA bool) *File {
		fx := &fxFile{comp: compNone, rows: 1,
			types:   []fxType{{kind: kStruct, sub: []uint32{1, 2}, names: []string{"a", "b"}}, {kind: kInt}, {kind: kString}},
			enc:     []uint64{encDirect, encDirect, encDirect},
			streams: []fxStream{{1, sData, encV1(true, 1)}, {2, sData, []byte("x")}, {2, sLength, encV1(false, 1)}}}
		if idOnA {
			fx.types[1].attrs = [][2]string{{attrIcebergID, "1"}}
		}
		b := fx.bytes(t)
		f, err := Open(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	if s := mk(false).Schema(); s.HasIDs() || s.String() != "table {\n  a: int\n  b: string\n}" {
		t.Errorf("no attributes: %s", s)
	}
	if s := mk(true).Schema(); s.Fields[0].ID != 1 || s.Fields[1].ID != schema.NoID {
		t.Errorf("partial attributes: %s", s)
	}
}

// TestTimestampNanoRange checks that a timestamp beyond year 2262 read as
// nanoseconds is refused rather than wrapped, and read as microseconds
// (Iceberg attribute) is exact.
func TestTimestampNanoRange(t *testing.T) {
	far := int64(4102444800*3) - orcEpoch // about year 2359
	mk := func(attrs [][2]string) *File {
		fx := &fxFile{comp: compNone, rows: 1, types: []fxType{{kind: kTimestampInstant, attrs: attrs}},
			enc: []uint64{encDirectV2}, streams: []fxStream{{0, sData, encV2(true, far)}, {0, sSecondary, encV2(false, 0)}}}
		b := fx.bytes(t)
		f, err := Open(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	if err := fuzzDecode(func() []byte {
		fx := &fxFile{comp: compNone, rows: 1, types: []fxType{{kind: kTimestampInstant}},
			enc: []uint64{encDirectV2}, streams: []fxStream{{0, sData, encV2(true, far)}, {0, sSecondary, encV2(false, 0)}}}
		return fx.bytes(t)
	}(), memory.NewGoAllocator()); !errors.Is(err, ErrUnsupported) || errors.Is(err, ErrCorrupt) {
		t.Errorf("nanoseconds: %v", err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	f := mk([][2]string{{attrIcebergTSUnit, "MICROS"}})
	if got := readRaw(t, f, f.Schema(), mem, 0)["_col0"]; got != "[12307334400000000]" {
		t.Errorf("microseconds: %s", got)
	}
}
