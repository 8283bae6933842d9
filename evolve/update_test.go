package evolve

import (
	"testing"

	"github.com/lakecat/lakecat/schema"
)

// TestCaseA22 adds a struct column: the column gets its id first, then its
// fields in order (apache/iceberg-python#2511).
func TestCaseA22(t *testing.T) {
	base := schema.New(0,
		req(1, "id", schema.String),
		opt(2, "name", schema.String),
		req(3, "roll_number", schema.Int))
	addr := st(opt(0, "street", schema.String), opt(0, "city", schema.String),
		opt(0, "state", schema.String), opt(0, "zip", schema.Int))
	u := NewUpdate().AddColumn("address", addr, "")
	want := schema.New(0,
		req(1, "id", schema.String),
		opt(2, "name", schema.String),
		req(3, "roll_number", schema.Int),
		opt(4, "address", st(opt(5, "street", schema.String), opt(6, "city", schema.String),
			opt(7, "state", schema.String), opt(8, "zip", schema.Int))))
	mustApply(t, u, base, 3, want, 8)
}

func TestAddColumnIDOrder(t *testing.T) {
	// struct<a: struct<x, y: list<int>>, b: map<string, struct<v>>>: each
	// struct's own fields first, then what is nested in each.
	typ := st(
		opt(99, "a", st(opt(99, "x", schema.Int), opt(99, "y", schema.NewList(99, schema.Int, false)))),
		opt(99, "b", schema.NewMap(99, schema.String, 99, st(opt(99, "v", schema.Long)), false)))
	u := NewUpdate().AddColumn("n", typ, "nested").AddColumn("tail", schema.Double, "")
	want := schema.New(0, base1().Fields[0], base1().Fields[1], base1().Fields[2],
		&schema.Field{ID: 4, Name: "n", Doc: "nested", Type: st(
			opt(5, "a", st(opt(7, "x", schema.Int), opt(8, "y", schema.NewList(9, schema.Int, false)))),
			opt(6, "b", schema.NewMap(10, schema.String, 11, st(opt(12, "v", schema.Long)), false)))},
		opt(13, "tail", schema.Double))
	mustApply(t, u, base1(), 3, want, 13)
}

func TestAddListAndMapColumns(t *testing.T) {
	u := NewUpdate().
		AddColumn("tags", schema.NewList(0, schema.String, true), "").
		AddColumn("attrs", schema.NewMap(0, schema.String, 0, schema.Int, false), "")
	want := base1()
	want.Fields = append(want.Fields,
		opt(11, "tags", schema.NewList(12, schema.String, true)),
		opt(13, "attrs", schema.NewMap(14, schema.String, 15, schema.Int, false)))
	// last-column-id 10 > highest id 3: ids start above last-column-id.
	mustApply(t, u, base1(), 10, want, 15)
}

// nestedBase is id#1, points#2 list<struct<x#4, y#5>> (element #3),
// attrs#6 map<string#7, struct<v#9>#8>, addr#10 struct<street#11, zip#12 int>.
func nestedBase() *schema.Schema {
	return schema.New(0,
		req(1, "id", schema.Long),
		opt(2, "points", schema.NewList(3, st(req(4, "x", schema.Double), req(5, "y", schema.Double)), true)),
		opt(6, "attrs", schema.NewMap(7, schema.String, 8, st(opt(9, "v", schema.Int)), true)),
		opt(10, "addr", st(opt(11, "street", schema.String), opt(12, "zip", schema.Int))))
}

func TestAddNestedColumn(t *testing.T) {
	u := NewUpdate().
		AddNestedColumn("points", "z", schema.Double, "height").
		AddNestedColumn("attrs", "w", schema.String, "").
		AddNestedColumn("addr", "geo", st(opt(0, "lat", schema.Double), opt(0, "lon", schema.Double)), "").
		AddNestedColumn("addr.geo", "alt", schema.Float, "").
		AddNestedColumn("points.element", "m", schema.Int, "")
	want := schema.New(0,
		req(1, "id", schema.Long),
		opt(2, "points", schema.NewList(3, st(req(4, "x", schema.Double), req(5, "y", schema.Double),
			&schema.Field{ID: 13, Name: "z", Type: schema.Double, Doc: "height"}, opt(19, "m", schema.Int)), true)),
		opt(6, "attrs", schema.NewMap(7, schema.String, 8, st(opt(9, "v", schema.Int), opt(14, "w", schema.String)), true)),
		opt(10, "addr", st(opt(11, "street", schema.String), opt(12, "zip", schema.Int),
			opt(15, "geo", st(opt(16, "lat", schema.Double), opt(17, "lon", schema.Double), opt(18, "alt", schema.Float))))))
	mustApply(t, u, nestedBase(), 12, want, 19)
}

func TestAddRefusals(t *testing.T) {
	mustFail(t, NewUpdate().AddColumn("data", schema.Int, ""), base1(), 3, "column already exists|data")
	mustFail(t, NewUpdate().AddNestedColumn("addr", "zip", schema.Int, ""), nestedBase(), 12, "column already exists|addr.zip")
	mustFail(t, NewUpdate().AddNestedColumn("id", "x", schema.Int, ""), base1(), 3, "invalid change|id.x")
	mustFail(t, NewUpdate().AddNestedColumn("nope", "x", schema.Int, ""), base1(), 3, "column not found|nope")
	mustFail(t, NewUpdate().AddColumn("", schema.Int, ""), base1(), 3, "invalid change|")
	mustFail(t, NewUpdate().AddColumn("x", nil, ""), base1(), 3, "invalid change|x")
	// Case-insensitive: "DATA" clashes with "data".
	mustFail(t, NewUpdate().CaseInsensitive(true).AddColumn("DATA", schema.Int, ""), base1(), 3, "column already exists|DATA")
}

func TestAddRequiredColumn(t *testing.T) {
	mustFail(t, NewUpdate().AddColumn("n", schema.Int, "", Required()), base1(), 3, "required column needs an initial-default|n")
	// v2 has no defaults at all.
	mustFail(t, NewUpdate().AddColumn("n", schema.Int, "", Required(), WithInitialDefault(int32(7))), base1(), 3,
		"invalid change|n")
	// v3 without a default: refused; with one: accepted.
	mustFail(t, NewUpdate().ForFormat(IcebergV3).AddColumn("n", schema.Int, "", Required()), base1(), 3,
		"required column needs an initial-default|n")
	want := base1()
	want.Fields = append(want.Fields, &schema.Field{ID: 4, Name: "n", Type: schema.Int, Required: true,
		InitialDefault: int32(7), WriteDefault: int32(7)})
	mustApply(t, NewUpdate().ForFormat(IcebergV3).AddColumn("n", schema.Int, "", Required(), WithInitialDefault(int32(7))),
		base1(), 3, want, 4)
	// Allowed incompatible changes: no default needed.
	want = base1()
	want.Fields = append(want.Fields, req(4, "n", schema.Int))
	mustApply(t, NewUpdate().AllowIncompatibleChanges().AddColumn("n", schema.Int, "", Required()), base1(), 3, want, 4)
	// Paimon never adds a NOT NULL column.
	mustFail(t, NewUpdate().ForFormat(Paimon).AddColumn("n", schema.Int, "", Required()), base1(), 3,
		"required column needs an initial-default|n")
}

func TestRenameColumn(t *testing.T) {
	want := schema.New(0, req(1, "key", schema.Long), opt(2, "data", schema.String), opt(3, "ts", schema.Timestamp))
	mustApply(t, NewUpdate().RenameColumn("id", "key"), base1(), 3, want, 3)

	want = nestedBase()
	want.Fields[3].Type.(*schema.StructType).Fields[1].Name = "postcode"
	want.Fields[1].Type.(*schema.ListType).Element.Type.(*schema.StructType).Fields[0].Name = "lon"
	mustApply(t, NewUpdate().RenameColumn("addr.zip", "postcode").RenameColumn("points.x", "lon"), nestedBase(), 12, want, 12)

	// Case-insensitive path, name stored as given.
	want = schema.New(0, req(1, "Key", schema.Long), opt(2, "data", schema.String), opt(3, "ts", schema.Timestamp))
	mustApply(t, NewUpdate().CaseInsensitive(true).RenameColumn("ID", "Key"), base1(), 3, want, 3)
	mustFail(t, NewUpdate().RenameColumn("ID", "Key"), base1(), 3, "column not found|ID")

	mustFail(t, NewUpdate().RenameColumn("id", "data"), base1(), 3, "column already exists|id")
	mustFail(t, NewUpdate().DeleteColumn("data").RenameColumn("data", "d2"), base1(), 3, "column is deleted|data")
	mustFail(t, NewUpdate().RenameColumn("points.element", "e"), nestedBase(), 12, "invalid change|points.element")
	mustFail(t, NewUpdate().RenameColumn("id", ""), base1(), 3, "invalid change|id")
}

// TestSwapNames renames a→b and b→a through a temporary name.
func TestSwapNames(t *testing.T) {
	base := schema.New(0, opt(1, "a", schema.Int), opt(2, "b", schema.Long))
	want := schema.New(0, opt(1, "b", schema.Int), opt(2, "a", schema.Long))
	mustApply(t, NewUpdate().RenameColumn("a", "tmp").RenameColumn("b", "a").RenameColumn("tmp", "b"), base, 2, want, 2)
}

func TestMakeColumnOptional(t *testing.T) {
	base := schema.New(0,
		req(1, "id", schema.Long),
		req(2, "tags", schema.NewList(3, schema.String, true)),
		req(4, "m", schema.NewMap(5, schema.String, 6, schema.Int, true)))
	base.IdentifierFieldIDs = []int{1}
	want := schema.New(0,
		req(1, "id", schema.Long),
		opt(2, "tags", schema.NewList(3, schema.String, false)),
		req(4, "m", schema.NewMap(5, schema.String, 6, schema.Int, false)))
	want.IdentifierFieldIDs = []int{1}
	mustApply(t, NewUpdate().MakeColumnOptional("tags").MakeColumnOptional("tags.element").MakeColumnOptional("m.value"),
		base, 6, want, 6)
	mustFail(t, NewUpdate().MakeColumnOptional("id"), base, 6, "column is an identifier field|id")
	mustFail(t, NewUpdate().MakeColumnOptional("m.key"), base, 6, "invalid change|m.key")
}

func TestUpdateColumnType(t *testing.T) {
	base := schema.New(0,
		opt(1, "i", schema.Int), opt(2, "f", schema.Float), opt(3, "d", schema.Decimal(10, 2)),
		opt(4, "day", schema.Date), opt(5, "u", schema.Unknown), opt(6, "s", schema.String),
		opt(7, "l", schema.NewList(8, schema.Int, false)))
	u := NewUpdate().UpdateColumnType("i", schema.Long).UpdateColumnType("f", schema.Double).
		UpdateColumnType("d", schema.Decimal(12, 2)).UpdateColumnType("l.element", schema.Long).
		UpdateColumnType("s", schema.String) // no change
	want := schema.New(0,
		opt(1, "i", schema.Long), opt(2, "f", schema.Double), opt(3, "d", schema.Decimal(12, 2)),
		opt(4, "day", schema.Date), opt(5, "u", schema.Unknown), opt(6, "s", schema.String),
		opt(7, "l", schema.NewList(8, schema.Long, false)))
	mustApply(t, u, base, 8, want, 8)

	mustFail(t, NewUpdate().UpdateColumnType("i", schema.String), base, 8, "incompatible type change|i")
	mustFail(t, NewUpdate().UpdateColumnType("d", schema.Decimal(12, 3)), base, 8, "incompatible type change|d")
	mustFail(t, NewUpdate().UpdateColumnType("d", schema.Decimal(9, 2)), base, 8, "incompatible type change|d")
	mustFail(t, NewUpdate().UpdateColumnType("f", schema.Long), base, 8, "incompatible type change|f")
	// v3 extras are refused on v2 …
	mustFail(t, NewUpdate().UpdateColumnType("day", schema.Timestamp), base, 8, "incompatible type change|day")
	mustFail(t, NewUpdate().UpdateColumnType("u", schema.String), base, 8, "incompatible type change|u")
	mustFail(t, NewUpdate().UpdateColumnType("l", schema.NewList(0, schema.Long, false)), base, 8, "incompatible type change|l")
	// … and accepted on v3; unknown may become a nested type, with fresh ids.
	want = schema.New(0,
		opt(1, "i", schema.Int), opt(2, "f", schema.Float), opt(3, "d", schema.Decimal(10, 2)),
		opt(4, "day", schema.TimestampNs), opt(5, "u", st(opt(9, "a", schema.Int))), opt(6, "s", schema.String),
		opt(7, "l", schema.NewList(8, schema.Int, false)))
	mustApply(t, NewUpdate().ForFormat(IcebergV3).UpdateColumnType("day", schema.TimestampNs).
		UpdateColumnType("u", st(opt(0, "a", schema.Int))), base, 8, want, 9)
}

func TestUpdateColumnTypePartitionSource(t *testing.T) {
	base := schema.New(0, opt(1, "i", schema.Int), opt(2, "day", schema.Date), opt(3, "d2", schema.Date))
	parts := []PartitionSource{{1, "bucket[16]"}, {2, "day"}, {3, "identity"}}
	// int→long keeps bucket values; date→timestamp keeps day values.
	want := schema.New(0, opt(1, "i", schema.Long), opt(2, "day", schema.Timestamp), opt(3, "d2", schema.Date))
	mustApply(t, NewUpdate().ForFormat(IcebergV3).WithPartitionSources(parts...).
		UpdateColumnType("i", schema.Long).UpdateColumnType("day", schema.Timestamp), base, 3, want, 3)
	// identity of a date is not identity of a timestamp.
	mustFail(t, NewUpdate().ForFormat(IcebergV3).WithPartitionSources(parts...).UpdateColumnType("d2", schema.Timestamp),
		base, 3, "column is a partition source|d2")
	mustFail(t, NewUpdate().ForFormat(IcebergV3).WithPartitionSources(PartitionSource{2, "bucket[4]"}).
		UpdateColumnType("day", schema.TimestampNs), base, 3, "column is a partition source|day")
}

func TestUpdateColumnDoc(t *testing.T) {
	want := base1()
	want.Fields[1].Doc = "payload"
	mustApply(t, NewUpdate().UpdateColumnDoc("data", "payload"), base1(), 3, want, 3)
}

func TestDeleteColumn(t *testing.T) {
	want := schema.New(0, req(1, "id", schema.Long), opt(3, "ts", schema.Timestamp))
	mustApply(t, NewUpdate().DeleteColumn("data"), base1(), 3, want, 3)

	want = nestedBase()
	want.Fields = want.Fields[:3]
	want.Fields[1].Type.(*schema.ListType).Element.Type.(*schema.StructType).Fields = want.Fields[1].Type.(*schema.ListType).Element.Type.(*schema.StructType).Fields[1:]
	mustApply(t, NewUpdate().DeleteColumn("addr").DeleteColumn("points.x"), nestedBase(), 12, want, 12)

	// Delete, then add the same name: a new column with a new id.
	want = schema.New(0, req(1, "id", schema.Long), opt(3, "ts", schema.Timestamp), opt(4, "data", schema.Long))
	mustApply(t, NewUpdate().DeleteColumn("data").AddColumn("data", schema.Long, ""), base1(), 3, want, 4)

	idb := base1()
	idb.IdentifierFieldIDs = []int{1}
	mustFail(t, NewUpdate().DeleteColumn("id"), idb, 3, "column is an identifier field|id")
	nb := nestedBase()
	nb.IdentifierFieldIDs = []int{11}
	mustFail(t, NewUpdate().DeleteColumn("addr"), nb, 12, "column is an identifier field|addr")
	mustFail(t, NewUpdate().WithPartitionSources(PartitionSource{3, "day"}).DeleteColumn("ts"), base1(), 3,
		"column is a partition source|ts")
	mustFail(t, NewUpdate().DeleteColumn("data").DeleteColumn("data"), base1(), 3, "column is deleted|data")
	mustFail(t, NewUpdate().DeleteColumn("addr").UpdateColumnType("addr.zip", schema.Long), nestedBase(), 12,
		"column is deleted|addr.zip")
	mustFail(t, NewUpdate().DeleteColumn("points.element"), nestedBase(), 12, "invalid change|points.element")
}

func TestMoveColumn(t *testing.T) {
	b := base1()
	f1, f2, f3 := b.Fields[0], b.Fields[1], b.Fields[2]
	mustApply(t, NewUpdate().MoveFirst("ts"), base1(), 3, schema.New(0, f3, f1, f2), 3)
	mustApply(t, NewUpdate().MoveBefore("ts", "data"), base1(), 3, schema.New(0, f1, f3, f2), 3)
	mustApply(t, NewUpdate().MoveAfter("id", "ts"), base1(), 3, schema.New(0, f2, f3, f1), 3)
	mustApply(t, NewUpdate().MoveAfter("data", "id"), base1(), 3, schema.New(0, f1, f2, f3), 3)
	// An added column can be moved.
	mustApply(t, NewUpdate().AddColumn("n", schema.Int, "").MoveAfter("n", "id"), base1(), 3,
		schema.New(0, f1, opt(4, "n", schema.Int), f2, f3), 4)
	// Within a nested struct.
	want := nestedBase()
	ad := want.Fields[3].Type.(*schema.StructType)
	ad.Fields[0], ad.Fields[1] = ad.Fields[1], ad.Fields[0]
	mustApply(t, NewUpdate().MoveFirst("addr.zip"), nestedBase(), 12, want, 12)

	mustFail(t, NewUpdate().MoveBefore("data", "data"), base1(), 3, "column moved relative to itself|data")
	mustFail(t, NewUpdate().MoveAfter("addr.zip", "id"), nestedBase(), 12, "columns of a move are in different structs|addr.zip")
	mustFail(t, NewUpdate().MoveAfter("id", "nope"), base1(), 3, "column not found|id")
	mustFail(t, NewUpdate().DeleteColumn("ts").MoveFirst("ts"), base1(), 3, "column is deleted|ts")
}

// TestCaseA23 renames then moves by the new name in one update
// (apache/iceberg#16581): both the original and the pending name resolve.
func TestCaseA23(t *testing.T) {
	base := schema.New(0, opt(1, "id", schema.Long), opt(2, "data", schema.String), opt(3, "ts", schema.Timestamp))
	want := schema.New(0, opt(2, "data_renamed", schema.String), opt(1, "id", schema.Long), opt(3, "ts", schema.Timestamp))
	mustApply(t, NewUpdate().RenameColumn("data", "data_renamed").MoveFirst("data_renamed"), base, 3, want, 3)
	mustApply(t, NewUpdate().RenameColumn("data", "data_renamed").MoveFirst("data"), base, 3, want, 3)
	// Ambiguous: "b" is b's original name and a's pending one.
	ab := schema.New(0, opt(1, "a", schema.Int), opt(2, "b", schema.Int))
	mustFail(t, NewUpdate().RenameColumn("b", "c").RenameColumn("a", "b").MoveFirst("b"), ab, 2, "ambiguous column name|b")
	// Not ambiguous once the original b is deleted.
	mustApply(t, NewUpdate().DeleteColumn("b").RenameColumn("a", "b").MoveFirst("b"), ab, 2,
		schema.New(0, opt(1, "b", schema.Int)), 2)
}

// TestAllErrorsAtOnce checks that Apply reports every failing change.
func TestAllErrorsAtOnce(t *testing.T) {
	mustFail(t, NewUpdate().RenameColumn("nope", "x").AddColumn("id", schema.Int, "").UpdateColumnType("data", schema.Int),
		base1(), 3, "column not found|nope", "column already exists|id", "incompatible type change|data")
}

// TestApplyKeepsBase checks that base is not modified and that ids start
// above the highest id when last-column-id is stale.
func TestApplyKeepsBase(t *testing.T) {
	b := base1()
	before := b.String()
	want := schema.New(0, req(1, "id", schema.Long), opt(2, "d", schema.String), opt(3, "ts", schema.Timestamp), opt(4, "n", schema.Int))
	mustApply(t, NewUpdate().RenameColumn("data", "d").AddColumn("n", schema.Int, ""), b, 1, want, 4)
	if b.String() != before {
		t.Fatalf("base changed: %v", b)
	}
}

func TestPaimonKeyColumns(t *testing.T) {
	u := func() *UpdateSchema {
		return NewUpdate().ForFormat(Paimon)
	}
	base := schema.New(0, req(0, "id", schema.Int), req(1, "dt", schema.String), opt(2, "v", schema.Int))
	k := []string{"id", "dt"}
	mustFail(t, withKeys(u().RenameColumn("dt", "day"), k), base, 2, "column is a partition key or primary key|dt")
	mustFail(t, withKeys(u().DeleteColumn("id"), k), base, 2, "column is a partition key or primary key|id")
	mustFail(t, withKeys(u().UpdateColumnType("id", schema.Long), k), base, 2, "column is a partition key or primary key|id")
	mustFail(t, withKeys(u().MakeColumnOptional("id"), k), base, 2, "column is a partition key or primary key|id")
	want := schema.New(0, req(0, "id", schema.Int), req(1, "dt", schema.String), opt(2, "v", schema.Long))
	mustApply(t, withKeys(u().UpdateColumnType("v", schema.Long), k), base, 2, want, 2)
}

func withKeys(u *UpdateSchema, keys []string) *UpdateSchema {
	u.keyNames = keys
	return u
}
