package evolve

import (
	"errors"
	"testing"

	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/schema"
)

func problems(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var ce *CompatibilityError
	if !errors.As(err, &ce) || !errors.Is(err, ErrIncompatibleSchema) {
		t.Fatalf("error %T %v is not a *CompatibilityError", err, err)
	}
	out := make([]string, len(ce.Problems))
	for i, p := range ce.Problems {
		out[i] = p.String()
	}
	return out
}

func eqStrings(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d problems %q, want %d %q", len(got), got, len(want), want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("problem %d = %q, want %q", i, got[i], want[i])
		}
	}
}

func TestCheckRead(t *testing.T) {
	read := schema.New(1,
		req(1, "id", schema.Long),
		opt(2, "qty", schema.Long),
		req(3, "name", schema.String),
		opt(4, "price", schema.Double),
		opt(5, "addr", st(req(6, "zip", schema.Int), opt(7, "city", schema.String))),
		opt(8, "tags", schema.NewList(9, schema.String, true)),
		&schema.Field{ID: 10, Name: "flag", Type: schema.Boolean, Required: true, InitialDefault: true},
		opt(11, "day", schema.Timestamp),
		opt(12, "m", schema.NewMap(13, schema.String, 14, schema.Long, false)))
	file := schema.New(0,
		req(1, "id", schema.Int),
		opt(2, "qty", schema.Int),
		opt(4, "price", schema.String),
		opt(5, "addr", st(opt(6, "zip", schema.Int))),
		opt(8, "tags", schema.String),
		opt(11, "day", schema.Date),
		opt(12, "m", schema.NewMap(13, schema.String, 14, schema.Int, false)),
		opt(99, "extra", schema.Int))
	eqStrings(t, problems(t, CheckRead(read, file, project.IcebergV2)), []string{
		"name (id 3): missing required field",
		"price (id 4): type cannot be promoted: string → double",
		"addr.zip (id 6): optional data for a required field",
		"tags (id 8): kind mismatch: string → list<string>",
		"day (id 11): type cannot be promoted: date → timestamp",
	})
	// v3 promotes date to timestamp.
	eqStrings(t, problems(t, CheckRead(read, file, IcebergV3.Rules())), []string{
		"name (id 3): missing required field",
		"price (id 4): type cannot be promoted: string → double",
		"addr.zip (id 6): optional data for a required field",
		"tags (id 8): kind mismatch: string → list<string>",
	})
	if err := CheckRead(read, read, project.IcebergV2); err != nil {
		t.Fatalf("CheckRead(read, read) = %v", err)
	}
}

func TestCheckWrite(t *testing.T) {
	table := schema.New(1,
		req(1, "id", schema.Long),
		opt(2, "qty", schema.Long),
		req(3, "name", schema.String),
		opt(4, "addr", st(req(5, "zip", schema.Int))),
		opt(6, "note", schema.String))
	// By name: incoming without ids.
	in := schema.New(0,
		&schema.Field{ID: schema.NoID, Name: "id", Type: schema.Long},
		&schema.Field{ID: schema.NoID, Name: "qty", Type: schema.Int},
		&schema.Field{ID: schema.NoID, Name: "addr", Type: schema.NewList(schema.NoID, schema.Int, false)},
		&schema.Field{ID: schema.NoID, Name: "bogus", Type: schema.Int})
	eqStrings(t, problems(t, CheckWrite(table, in, project.IcebergV2)), []string{
		"id (id 1): optional data for a required field",
		"name (id 3): missing required field",
		"addr (id 4): kind mismatch: list<int> → struct<5:zip: required int>",
		"bogus: field not in table",
	})
	// Paimon allows int → decimal(12, 2); Iceberg does not.
	pt := schema.New(0, opt(0, "d", schema.Decimal(12, 2)), opt(1, "s", schema.String), opt(2, "t", schema.Timestamp))
	pin := schema.New(0, opt(0, "d", schema.Int), opt(1, "s", schema.Varchar(10)), opt(2, "t", schema.Date))
	if err := CheckWrite(pt, pin, project.Paimon); err != nil {
		t.Fatalf("CheckWrite Paimon: %v", err)
	}
	eqStrings(t, problems(t, CheckWrite(pt, pin, project.IcebergV3)), []string{
		"d (id 0): type cannot be promoted: int → decimal(12, 2)",
	})
	// Hudi: long → string is allowed, string → long is not.
	ht := schema.New(0, opt(1, "a", schema.String), opt(2, "b", schema.Long))
	hin := schema.New(0, opt(1, "a", schema.Long), opt(2, "b", schema.String))
	eqStrings(t, problems(t, CheckWrite(ht, hin, Hudi.Rules())), []string{
		"b (id 2): type cannot be promoted: string → long",
	})
}

func TestCanPromote(t *testing.T) {
	cases := []struct {
		f        Format
		from, to schema.Type
		want     bool
	}{
		{IcebergV2, schema.Int, schema.Long, true},
		{IcebergV2, schema.Long, schema.Int, false},
		{IcebergV2, schema.Float, schema.Double, true},
		{IcebergV2, schema.Decimal(9, 2), schema.Decimal(10, 2), true},
		{IcebergV2, schema.Decimal(9, 2), schema.Decimal(10, 3), false},
		{IcebergV2, schema.Date, schema.Timestamp, false},
		{IcebergV3, schema.Date, schema.Timestamp, true},
		{IcebergV3, schema.Date, schema.TimestampNs, true},
		{IcebergV3, schema.Date, schema.TimestampTz, false},
		{IcebergV3, schema.Unknown, schema.NewList(1, schema.Int, false), true},
		{IcebergV2, schema.Unknown, schema.Int, false},
		{Paimon, schema.TinyInt, schema.Long, true},
		{Paimon, schema.Long, schema.Int, true},
		{Paimon, schema.Long, schema.Decimal(19, 0), true},
		{Paimon, schema.Long, schema.Decimal(20, 2), true},
		{Paimon, schema.Decimal(10, 2), schema.Decimal(11, 3), true},
		{Paimon, schema.Decimal(10, 2), schema.Decimal(10, 3), true},
		{Paimon, schema.Char(3), schema.Varchar(5), true},
		{Paimon, schema.Varchar(5), schema.Varchar(3), true},
		{Paimon, schema.Timestamp, schema.TimestampTz, true},
		{Paimon, schema.TimestampTz, schema.Timestamp, true},
		{Paimon, schema.Int, schema.String, true},
		{Paimon, schema.Boolean, schema.Date, false},
		{Paimon, schema.NewList(1, schema.Int, false), schema.Int, false},
		{Hudi, schema.Int, schema.String, true},
		{Hudi, schema.String, schema.Binary, true},
		{Hudi, schema.Double, schema.Float, false},
	}
	for _, c := range cases {
		if got := c.f.CanPromote(c.from, c.to); got != c.want {
			t.Errorf("%v.CanPromote(%v, %v) = %v, want %v", c.f, c.from, c.to, got, c.want)
		}
	}
}

func TestCompatibilityErrorMessage(t *testing.T) {
	err := CheckRead(schema.New(0, req(1, "a", schema.Long), opt(2, "b", schema.Int)),
		schema.New(0, opt(2, "b", schema.Long)), project.IcebergV2)
	want := "evolve: read incompatible (iceberg): a (id 1): missing required field; b (id 2): type cannot be promoted: long → int"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
}

// TestCheckReadAfterEvolve: every schema an update produces reads the data
// files of the schema before it.
func TestCheckReadAfterEvolve(t *testing.T) {
	old := cliBase()
	u := NewUpdate()
	for _, f := range cliFlags {
		u.AddFlag(f[0], f[1])
	}
	next, _, err := u.Apply(old, 7)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckRead(next, old, IcebergV2.Rules()); err != nil {
		t.Fatal(err)
	}
	// The other way round fails: qty long is not read as int, region may be null.
	eqStrings(t, problems(t, CheckRead(old, next, IcebergV2.Rules())), []string{
		"region (id 3): optional data for a required field",
		"qty (id 4): type cannot be promoted: long → int",
	})
}
