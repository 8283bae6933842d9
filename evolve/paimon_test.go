package evolve

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
)

func TestCommitPaimon(t *testing.T) {
	dir := copyDir(t, "testdata/paimon")
	c := Committer{Now: fixedNow}
	addr := st(opt(0, "street", schema.String), opt(0, "tags", schema.NewList(0, st(opt(0, "k", schema.String)), true)),
		opt(0, "zip", schema.Int))
	res, err := c.CommitPaimon(context.Background(), dir, NewUpdate().
		AddColumn("addr", addr, "postal").
		RenameColumn("amount", "total").
		UpdateColumnType("qty", schema.Long).
		MoveAfter("total", "id"))
	if err != nil {
		t.Fatal(err)
	}
	// Paimon numbers nested ROW fields depth first; lists carry no ids.
	want := schema.New(1,
		req(0, "id", schema.Long),
		opt(2, "total", schema.Decimal(10, 2)),
		req(1, "dt", schema.String),
		opt(3, "qty", schema.Long),
		&schema.Field{ID: 4, Name: "addr", Doc: "postal", Type: st(
			opt(5, "street", schema.String),
			opt(6, "tags", schema.NewList(schema.NoID, st(opt(7, "k", schema.String)), true)),
			opt(8, "zip", schema.Int))})
	if !res.Changed || res.New.ID != 1 || res.LastColumnID != 8 || !res.New.Equal(want) ||
		res.File != filepath.Join(dir, "schema", "schema-1") {
		t.Fatalf("result %+v\n%v", res, res.New)
	}
	tbl, err := loadPaimon(dir)
	if err != nil {
		t.Fatal(err)
	}
	p := tbl.Schema
	if p.ID != 1 || p.HighestFieldID != 8 || !p.Schema().Equal(want) || !slices.Equal(p.PartitionKeys, []string{"dt"}) ||
		!slices.Equal(p.PrimaryKeys, []string{"id", "dt"}) || p.Options["bucket"] != "2" || p.Options["file.format"] != "parquet" ||
		len(p.Options) != 2 || p.Comment != "orders" || p.TimeMillis != 1767312000000 || p.Version != 3 {
		t.Fatalf("schema-1: %+v", p)
	}
	written, _ := os.ReadFile(filepath.Join(dir, "schema", "schema-1"))
	checkGolden(t, "testdata/paimon-schema-1.golden", written)
	// schema-0 is untouched.
	old, _ := os.ReadFile(filepath.Join("testdata", "paimon", "schema", "schema-0"))
	now, _ := os.ReadFile(filepath.Join(dir, "schema", "schema-0"))
	if string(old) != string(now) {
		t.Fatal("schema-0 changed")
	}
	// Refusals: key columns, NOT NULL adds; nothing written.
	for _, tc := range []struct {
		u    *UpdateSchema
		want error
	}{
		{NewUpdate().RenameColumn("dt", "day"), ErrKeyColumn},
		{NewUpdate().DeleteColumn("id"), ErrKeyColumn},
		{NewUpdate().UpdateColumnType("dt", schema.Varchar(10)), ErrKeyColumn},
		{NewUpdate().AddColumn("n", schema.Int, "", Required()), ErrRequiredColumn},
		{NewUpdate().UpdateColumnType("qty", schema.NewList(0, schema.Int, false)), ErrIncompatibleType},
	} {
		if _, err := c.CommitPaimon(context.Background(), dir, tc.u); !errors.Is(err, tc.want) {
			t.Fatalf("err = %v, want %v", err, tc.want)
		}
	}
	if got := listDir(t, filepath.Join(dir, "schema")); !slices.Equal(got, []string{"schema-0", "schema-1"}) {
		t.Fatalf("schema dir: %q", got)
	}
	// Paimon allows narrowing casts (its explicit casts).
	res, err = c.CommitPaimon(context.Background(), dir, NewUpdate().UpdateColumnType("qty", schema.Int))
	if err != nil || res.New.ID != 2 || res.LastColumnID != 8 {
		t.Fatalf("narrowing: %+v %v", res, err)
	}
}

func TestPaimonNoReplace(t *testing.T) {
	dir := copyDir(t, "testdata/paimon")
	h := &hookFS{WriteFS: storage.OSFS{}}
	h.before = func() {
		os.WriteFile(filepath.Join(dir, "schema", "schema-1"), []byte("winner"), 0o644)
	}
	_, err := (&Committer{FS: h, MaxAttempts: 1}).CommitPaimon(context.Background(), dir, NewUpdate().AddColumn("y", schema.Int, ""))
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.File != filepath.Join(dir, "schema", "schema-1") {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "schema", "schema-1")); string(b) != "winner" {
		t.Fatalf("schema-1 replaced: %s", b)
	}
}

// TestPaimonRealNested evolves paimon-cpp's pk_table_nested_type schema in
// a copy: an add inside the ROW column col1 gets the id above
// highestFieldId 8; partition keys dt, hr are protected.
func TestPaimonRealNested(t *testing.T) {
	src := filepath.Join(realDir(t), "paimon-cpp", "test", "test_data", "orc", "pk_table_nested_type.db", "pk_table_nested_type")
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "schema"), 0o755)
	data, err := os.ReadFile(filepath.Join(src, "schema", "schema-0"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "schema", "schema-0"), data, 0o644)
	c := Committer{Now: fixedNow}
	res, err := c.CommitPaimon(context.Background(), dir, NewUpdate().
		AddNestedColumn("col1", "f3", schema.Long, "").RenameColumn("col0", "c0").MakeColumnOptional("col1.f1"))
	if err != nil {
		t.Fatal(err)
	}
	f3 := res.New.FindByName("col1.f3", false)
	if f3 == nil || f3.ID != 9 || res.LastColumnID != 9 || res.New.ID != 1 || res.New.FindByID(3).Name != "c0" {
		t.Fatalf("result %+v\n%v", res, res.New)
	}
	tbl, err := loadPaimon(dir)
	if err != nil {
		t.Fatal(err)
	}
	if tbl.Schema.HighestFieldID != 9 || tbl.Schema.Options["bucket-key"] != "shopId" ||
		!slices.Equal(tbl.Schema.PartitionKeys, []string{"dt", "hr"}) || !slices.Equal(tbl.Schema.PrimaryKeys, []string{"shopId", "dt", "hr"}) {
		t.Fatalf("schema-1: %+v", tbl.Schema)
	}
	if _, err := c.CommitPaimon(context.Background(), dir, NewUpdate().DeleteColumn("hr")); !errors.Is(err, ErrKeyColumn) {
		t.Fatalf("delete partition key: %v", err)
	}
}

// TestPaimonKeepsUnchangedFields checks that columns the update does not
// touch keep their decoded form (here a defaultValue and a lower-case type
// spelling) in schema-N+1.
func TestPaimonKeepsUnchangedFields(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "schema"), 0o755)
	os.WriteFile(filepath.Join(dir, "schema", "schema-4"), []byte(`{"version":3,"id":4,"fields":[`+
		`{"id":0,"name":"a","type":"int","defaultValue":"7"},{"id":1,"name":"b","type":"INT"}],`+
		`"highestFieldId":1,"partitionKeys":[],"primaryKeys":[],"options":{},"timeMillis":1}`), 0o644)
	res, err := (&Committer{Now: fixedNow}).CommitPaimon(context.Background(), dir, NewUpdate().RenameColumn("b", "c"))
	if err != nil || res.File != filepath.Join(dir, "schema", "schema-5") {
		t.Fatalf("%+v %v", res, err)
	}
	got, _ := os.ReadFile(res.File)
	want := `{"version":3,"id":5,"fields":[{"id":0,"name":"a","type":"int","defaultValue":"7"},{"id":1,"name":"c","type":"INT"}],` +
		`"highestFieldId":1,"partitionKeys":[],"primaryKeys":[],"options":{},"timeMillis":1767312000000}`
	if string(got) != want {
		t.Fatalf("schema-5:\n%s\nwant\n%s", got, want)
	}
}
