package iceberg

import (
	"encoding/json"
	"testing"

	"github.com/lakecat/lakecat/schema"
)

const v1OnlySchema = `{"format-version":1,"table-uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1","location":"file:/t","last-updated-ms":1,"last-column-id":2,
"schema":{"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":"int"},{"id":2,"name":"b","required":false,"type":"string"}]},
"partition-spec":[],"properties":{}}`

// TestV1MetadataKeepsSchemaHistory: a format v1 file with only "schema",
// evolved (a second schema made current), is written with "schema" (the
// new current schema), "current-schema-id" and "schemas" holding both, so
// the old schema stays readable; it used to be written with the new
// "schema" alone and the old schema lost. Unchanged, the file is written
// as it was.
func TestV1MetadataKeepsSchemaHistory(t *testing.T) {
	m, err := ParseMetadata([]byte(v1OnlySchema))
	if err != nil {
		t.Fatal(err)
	}
	out, err := MarshalMetadata(m)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if _, ok := got["schemas"]; ok {
		t.Errorf("unchanged v1 file got \"schemas\": %s", out)
	}

	next := schema.New(1, m.Schemas[0].Fields[0], m.Schemas[0].Fields[1], &schema.Field{ID: 3, Name: "c", Type: schema.Long})
	m.Schemas = append(m.Schemas, next)
	m.CurrentSchemaID, m.LastColumnID = 1, 3
	out, err = MarshalMetadata(m)
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if s := string(got["schema"]); s != `{"type":"struct","schema-id":1,"fields":[{"id":1,"name":"a","required":true,"type":"int"},{"id":2,"name":"b","required":false,"type":"string"},{"id":3,"name":"c","required":false,"type":"long"}]}` {
		t.Errorf("schema: %s", s)
	}
	if s := string(got["current-schema-id"]); s != "1" {
		t.Errorf("current-schema-id: %s", s)
	}
	back, err := ParseMetadata(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Schemas) != 2 || back.Schemas[0].ID != 0 || len(back.Schemas[0].Fields) != 2 || back.CurrentSchemaID != 1 || len(back.CurrentSchema().Fields) != 3 {
		t.Errorf("re-read: %d schemas, current %d: %s", len(back.Schemas), back.CurrentSchemaID, got["schemas"])
	}

	// A v1 file with "schemas" and no "schema" gets "schema" too.
	m2, err := ParseMetadata([]byte(`{"format-version":1,"location":"file:/t","last-updated-ms":1,"last-column-id":1,"current-schema-id":0,
		"schemas":[{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"a","required":true,"type":"int"}]}],"partition-spec":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	out, err = MarshalMetadata(m2)
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if s := string(got["schema"]); s != `{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"a","required":true,"type":"int"}]}` {
		t.Errorf("v1 with schemas: schema %q in %s", s, out)
	}
}
