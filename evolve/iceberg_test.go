package evolve

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/iceberg"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

const v2Metadata = "testdata/iceberg-v2/metadata/v1.metadata.json"

func loadMetadata(t testing.TB, path string) *iceberg.Metadata {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := iceberg.ParseMetadata(data)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// v2Schema1 is schema 1 of the iceberg-v2 fixture.
func v2Schema1() *schema.Schema {
	s := schema.New(1,
		req(1, "id", schema.Long),
		opt(2, "payload", schema.String),
		opt(3, "ts", schema.TimestampTz),
		opt(4, "qty", schema.Int),
		opt(5, "amount", schema.Decimal(10, 2)))
	s.IdentifierFieldIDs = []int{1}
	return s
}

func TestPrepareSchemaUpdateAdds(t *testing.T) {
	m := loadMetadata(t, v2Metadata)
	u := NewUpdate().AddColumn("note", schema.String, "free text").RenameColumn("amount", "total").
		UpdateColumnType("qty", schema.Long)
	c, err := PrepareSchemaUpdate(m, u)
	if err != nil {
		t.Fatal(err)
	}
	want := schema.New(2,
		req(1, "id", schema.Long),
		opt(2, "payload", schema.String),
		opt(3, "ts", schema.TimestampTz),
		opt(4, "qty", schema.Long),
		opt(5, "total", schema.Decimal(10, 2)),
		&schema.Field{ID: 6, Name: "note", Type: schema.String, Doc: "free text"})
	want.IdentifierFieldIDs = []int{1}
	if !c.Added || !c.Changed || c.Schema.ID != 2 || !c.Schema.Equal(want) {
		t.Fatalf("commit: added %v changed %v schema %v", c.Added, c.Changed, c.Schema)
	}
	if c.Metadata.CurrentSchemaID != 2 || c.Metadata.LastColumnID != 6 || len(c.Metadata.Schemas) != 3 ||
		c.Metadata.Schemas[2] != c.Schema {
		t.Fatalf("metadata: current %d last %d schemas %d", c.Metadata.CurrentSchemaID, c.Metadata.LastColumnID, len(c.Metadata.Schemas))
	}
	// The input is untouched.
	if m.CurrentSchemaID != 1 || m.LastColumnID != 5 || len(m.Schemas) != 2 || !m.CurrentSchema().Equal(v2Schema1()) {
		t.Fatalf("input metadata changed")
	}
	// The metadata encodes and decodes to the same schema, ids as integers.
	data, err := iceberg.MarshalMetadata(c.Metadata)
	if err != nil {
		t.Fatal(err)
	}
	back, err := iceberg.ParseMetadata(data)
	if err != nil {
		t.Fatal(err)
	}
	if back.CurrentSchemaID != 2 || back.LastColumnID != 6 || !back.CurrentSchema().Equal(want) {
		t.Fatalf("round trip: %v", back.CurrentSchema())
	}
}

func TestPrepareSchemaUpdateReusesOlderSchema(t *testing.T) {
	m := loadMetadata(t, v2Metadata)
	// Back to schema 0: rename payload→data, delete qty and amount.
	u := NewUpdate().RenameColumn("payload", "data").DeleteColumn("qty").DeleteColumn("amount")
	c, err := PrepareSchemaUpdate(m, u)
	if err != nil {
		t.Fatal(err)
	}
	if c.Added || !c.Changed || c.Schema != m.Schemas[0] || c.Metadata.CurrentSchemaID != 0 ||
		len(c.Metadata.Schemas) != 2 || c.Metadata.LastColumnID != 5 {
		t.Fatalf("commit: added %v changed %v schema id %d current %d schemas %d last %d",
			c.Added, c.Changed, c.Schema.ID, c.Metadata.CurrentSchemaID, len(c.Metadata.Schemas), c.Metadata.LastColumnID)
	}
	body, err := SchemaUpdateBody([]string{"db"}, "events", m, c)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "testdata/reuse-schema.golden", body)
}

func TestPrepareSchemaUpdateNoChange(t *testing.T) {
	m := loadMetadata(t, v2Metadata)
	for _, u := range []*UpdateSchema{
		NewUpdate(),
		NewUpdate().UpdateColumnType("qty", schema.Int).UpdateColumnDoc("id", ""),
		NewUpdate().RenameColumn("qty", "q").RenameColumn("q", "qty"),
		NewUpdate().UnionByName(v2Schema1()),
	} {
		c, err := PrepareSchemaUpdate(m, u)
		if err != nil {
			t.Fatal(err)
		}
		if c.Changed || c.Added || c.Metadata != m || c.Schema != m.CurrentSchema() {
			t.Fatalf("no-op update changed the table: %+v", c)
		}
		if _, err := SchemaUpdateBody(nil, "t", m, c); !errors.Is(err, ErrNoChanges) {
			t.Fatalf("SchemaUpdateBody on a no-op = %v, want ErrNoChanges", err)
		}
	}
}

func TestPrepareSchemaUpdateRefusals(t *testing.T) {
	m := loadMetadata(t, v2Metadata)
	_, err := PrepareSchemaUpdate(m, NewUpdate().DeleteColumn("ts").DeleteColumn("id").RenameColumn("nope", "x"))
	want := "evolve: delete \"ts\": column is a partition source: field id 3\n" +
		"evolve: delete \"id\": column is an identifier field: field id 1\n" +
		"evolve: rename \"nope\": column not found"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
	// Format v2: date→timestamp is not a promotion even though the update says v3.
	_, err = PrepareSchemaUpdate(m, NewUpdate().ForFormat(IcebergV3).AddColumn("n", schema.Int, "", Required(), WithInitialDefault(int32(1))))
	if !errors.Is(err, ErrInvalidChange) {
		t.Fatalf("v3 default on a v2 table: %v", err)
	}
	bad := *m
	bad.CurrentSchemaID = 7
	if _, err := PrepareSchemaUpdate(&bad, NewUpdate()); !errors.Is(err, ErrNoCurrentSchema) {
		t.Fatalf("err = %v", err)
	}
}

// TestSchemaUpdateBody is the REST body for an add + rename on a table with
// uuid, current schema id 1 and last-column-id 5.
func TestSchemaUpdateBody(t *testing.T) {
	m := loadMetadata(t, v2Metadata)
	addr := st(opt(0, "street", schema.String), opt(0, "zip", schema.Int))
	c, err := PrepareSchemaUpdate(m, NewUpdate().AddColumn("address", addr, "postal address").RenameColumn("payload", "body"))
	if err != nil {
		t.Fatal(err)
	}
	body, err := SchemaUpdateBody([]string{"db", "prod"}, "events", m, c)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "testdata/add-rename.golden", body)
	if bytes.Contains(body, []byte(".0")) {
		t.Fatalf("body holds a float: %s", body)
	}
}

func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	got = append(bytes.TrimRight(got, "\n"), '\n')
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs:\n got %s\nwant %s", filepath.Base(path), got, want)
	}
}
