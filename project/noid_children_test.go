package project

import (
	"testing"

	"github.com/lakecat/lakecat/schema"
)

// Paimon and Hudi schemas give list elements and map keys and values no
// field id (schema.NoID) on either side: the parts follow their parent,
// which matched by id, and a Paimon cast still applies inside them
// (paimon-cpp append_complex_build_in_fieldid: map<tinyint, smallint>;
// parquet_append_table: a map keyed by array<float>).
func TestNoIDContainerPartsMatchStructurally(t *testing.T) {
	noID := func(name string, typ schema.Type, required bool) *schema.Field {
		return &schema.Field{ID: schema.NoID, Name: name, Type: typ, Required: required}
	}
	file := sch(
		fld(0, "m", &schema.MapType{Key: noID("key", schema.TinyInt, true), Value: noID("value", schema.SmallInt, false)}),
		fld(1, "l", &schema.ListType{Element: noID("element", schema.Int, false)}),
	)
	read := sch(
		fld(0, "m", &schema.MapType{Key: noID("key", schema.TinyInt, true), Value: noID("value", schema.Int, false)}),
		fld(1, "l", &schema.ListType{Element: noID("element", schema.Long, false)}),
	)
	p := mustPlan(t, file, read, Options{Rules: Paimon})
	if !p.FileProjection().Equal(file) {
		t.Fatalf("FileProjection = %s, want %s", p.FileProjection(), file)
	}
	applyJSON(t, p, `[{"m":[{"key":1,"value":2}],"l":[3,null]},{"m":null,"l":null}]`,
		`[{"m":[{"key":1,"value":2}],"l":[3,null]},{"m":null,"l":null}]`)
}
