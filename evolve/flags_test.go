package evolve

import (
	"bytes"
	"errors"
	"testing"

	"github.com/lakecat/lakecat/schema"
)

// cliBase is the table of the command-line example.
func cliBase() *schema.Schema {
	return schema.New(0,
		req(1, "id", schema.Long),
		opt(2, "amount", schema.Decimal(10, 2)),
		req(3, "region", schema.String),
		opt(4, "qty", schema.Int),
		opt(5, "old", schema.String),
		opt(6, "addr", st(opt(7, "street", schema.String))))
}

// cliFlags is `lakecat evolve TABLE --add 'note string' --add-nested
// 'addr.zip int' --rename amount=total --optional region --type qty=long
// --delete old --move 'total after id'`.
var cliFlags = [][2]string{
	{"add", "note string"},
	{"add-nested", "addr.zip int"},
	{"rename", "amount=total"},
	{"optional", "region"},
	{"type", "qty=long"},
	{"delete", "old"},
	{"move", "total after id"},
}

func TestAddFlag(t *testing.T) {
	u := NewUpdate()
	for _, f := range cliFlags {
		if err := u.AddFlag(f[0], f[1]); err != nil {
			t.Fatal(err)
		}
	}
	want := schema.New(0,
		req(1, "id", schema.Long),
		opt(2, "total", schema.Decimal(10, 2)),
		opt(3, "region", schema.String),
		opt(4, "qty", schema.Long),
		opt(6, "addr", st(opt(7, "street", schema.String), opt(9, "zip", schema.Int))),
		opt(8, "note", schema.String))
	mustApply(t, u, cliBase(), 7, want, 9)
}

func TestAddFlagSpellings(t *testing.T) {
	u := NewUpdate()
	for _, f := range [][2]string{
		{"add", "price decimal(10, 2)"},
		{"add", `tags {"type":"list","element-id":0,"element":"string","element-required":false}`},
		{"add", "code  \"fixed[4]\""},
		{"add", "flag BOOLEAN NOT NULL"},
		{"doc", "id=the key"},
		{"move", "price FIRST"},
		{"move", "code before id"},
	} {
		if err := u.AddFlag(f[0], f[1]); err != nil {
			t.Fatal(err)
		}
	}
	want := schema.New(0,
		opt(2, "price", schema.Decimal(10, 2)),
		opt(5, "code", schema.Fixed(4)),
		&schema.Field{ID: 1, Name: "id", Type: schema.Long, Required: true, Doc: "the key"},
		opt(3, "tags", schema.NewList(4, schema.String, false)),
		req(6, "flag", schema.Boolean))
	mustApply(t, u.AllowIncompatibleChanges(), schema.New(0, req(1, "id", schema.Long)), 1, want, 6)

	for _, f := range [][2]string{
		{"add", "note"},
		{"add", "note strang"},
		{"add-nested", "zip int"},
		{"add-nested", "addr. int"},
		{"rename", "amount"},
		{"rename", "=x"},
		{"type", "qty=lang"},
		{"optional", " "},
		{"move", "a after"},
		{"move", "a sideways b"},
		{"frobnicate", "x"},
	} {
		if err := NewUpdate().AddFlag(f[0], f[1]); !errors.Is(err, ErrInvalidFlag) {
			t.Errorf("AddFlag(%q, %q) = %v, want ErrInvalidFlag", f[0], f[1], err)
		}
	}
}

func TestWriteDiff(t *testing.T) {
	u := NewUpdate()
	for _, f := range cliFlags {
		u.AddFlag(f[0], f[1])
	}
	u.UpdateColumnDoc("id", "order id").MoveFirst("qty")
	old := cliBase()
	next, last, err := u.Apply(old, 7)
	if err != nil {
		t.Fatal(err)
	}
	next.ID = 1
	var b bytes.Buffer
	if err := WriteDiff(&b, old, next, 7, last); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "testdata/cli-diff.golden", b.Bytes())

	// Paimon lists carry no element ids: matched by position.
	po := schema.New(0, opt(0, "l", schema.NewList(schema.NoID, st(opt(1, "a", schema.Int)), true)))
	pn, plast, err := NewUpdate().ForFormat(Paimon).AddNestedColumn("l", "b", schema.Int, "").
		AddColumn("m", schema.NewMap(0, schema.String, 0, schema.Int, false), "").Apply(po, 1)
	if err != nil {
		t.Fatal(err)
	}
	pn.ID = 1
	b.Reset()
	WriteDiff(&b, po, pn, -1, plast)
	want := "schema 0 → 1\n" +
		"  0 l: list\n" +
		"    - element: required struct\n" +
		"      1 a: int\n" +
		"+     2 b: int\n" +
		"+ 3 m: map\n" +
		"+   - key: required string\n" +
		"+   - value: int\n"
	if b.String() != want {
		t.Fatalf("diff:\n%s\nwant:\n%s", b.String(), want)
	}
}
