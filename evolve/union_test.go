package evolve

import (
	"testing"

	"github.com/lakecat/lakecat/schema"
)

func TestUnionByName(t *testing.T) {
	base := schema.New(0,
		req(1, "id", schema.Long),
		req(2, "name", schema.String),
		opt(3, "addr", st(opt(4, "zip", schema.Int))),
		opt(5, "pts", schema.NewList(6, st(opt(7, "x", schema.Double)), true)),
		opt(8, "m", schema.NewMap(9, schema.String, 10, st(opt(11, "v", schema.Int)), false)))
	// The incoming schema's ids are ignored (here they collide on purpose).
	in := schema.New(7,
		req(1, "id", schema.Long),
		&schema.Field{ID: 1, Name: "name", Type: schema.String, Doc: "full name"},
		opt(1, "addr", st(opt(1, "zip", schema.Int), req(1, "city", schema.String))),
		opt(1, "pts", schema.NewList(1, st(opt(1, "y", schema.Double)), false)),
		opt(1, "m", schema.NewMap(1, schema.String, 1, st(opt(1, "w", schema.Long)), false)),
		req(1, "extra", st(req(1, "a", schema.Int), opt(1, "b", schema.NewList(1, schema.Int, false)))))
	want := schema.New(0,
		req(1, "id", schema.Long),
		&schema.Field{ID: 2, Name: "name", Type: schema.String, Doc: "full name"},
		opt(3, "addr", st(opt(4, "zip", schema.Int), opt(12, "city", schema.String))),
		opt(5, "pts", schema.NewList(6, st(opt(7, "x", schema.Double), opt(13, "y", schema.Double)), false)),
		opt(8, "m", schema.NewMap(9, schema.String, 10, st(opt(11, "v", schema.Int), opt(14, "w", schema.Long)), false)),
		opt(15, "extra", st(req(16, "a", schema.Int), opt(17, "b", schema.NewList(18, schema.Int, false)))))
	mustApply(t, NewUpdate().UnionByName(in), base, 11, want, 18)

	// Idempotent: the result unioned with itself changes nothing.
	got, last, err := NewUpdate().UnionByName(want).Apply(want, 18)
	if err != nil || !got.Equal(want) || last != 18 {
		t.Fatalf("union with itself: %v %d %v", got, last, err)
	}
}

func TestUnionByNameRefusesTypeChange(t *testing.T) {
	base := schema.New(0, opt(1, "a", schema.Int), opt(2, "s", st(opt(3, "b", schema.Int))))
	in := schema.New(0, opt(1, "a", schema.Long), opt(2, "s", st(opt(3, "b", schema.String))))
	mustFail(t, NewUpdate().UnionByName(in), base, 3, "incompatible type change|a", "incompatible type change|s.b")
	in = schema.New(0, opt(1, "a", st(opt(1, "x", schema.Int))))
	mustFail(t, NewUpdate().UnionByName(in), base, 3, "incompatible type change|a")
	idb := schema.New(0, req(1, "a", schema.Int))
	idb.IdentifierFieldIDs = []int{1}
	mustFail(t, NewUpdate().UnionByName(schema.New(0, opt(1, "a", schema.Int))), idb, 1, "column is an identifier field|a")
}

func TestUnionByNameCaseInsensitive(t *testing.T) {
	base := schema.New(0, opt(1, "Name", schema.String))
	in := schema.New(0, opt(1, "name", schema.String), opt(2, "Age", schema.Int))
	want := schema.New(0, opt(1, "Name", schema.String), opt(2, "Age", schema.Int))
	mustApply(t, NewUpdate().CaseInsensitive(true).UnionByName(in), base, 1, want, 2)
	want = schema.New(0, opt(1, "Name", schema.String), opt(2, "name", schema.String), opt(3, "Age", schema.Int))
	mustApply(t, NewUpdate().UnionByName(in), base, 1, want, 3)
}
