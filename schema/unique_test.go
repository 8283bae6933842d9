package schema_test

import (
	"errors"
	"testing"

	"github.com/lakecat/lakecat/schema"
)

// TestDuplicateIDsAndNames: a schema with a field id used twice (at any
// depth) or a name used twice among siblings is an invalid schema when
// parsed, in every codec; it was accepted, and both read fields took the
// same file column.
func TestDuplicateIDsAndNames(t *testing.T) {
	cases := []struct {
		name, want string
		parse      func() error
	}{
		{"iceberg duplicate id", `schema: iceberg schema: field "b": duplicate field id 1 (also field "a")`, func() error {
			_, err := schema.ParseIcebergSchema([]byte(`{"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":"int"},{"id":1,"name":"b","required":false,"type":"long"}]}`))
			return err
		}},
		{"iceberg duplicate nested id", `schema: iceberg schema: field "s.element": duplicate field id 1 (also field "a")`, func() error {
			_, err := schema.ParseIcebergSchema([]byte(`{"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":"int"},{"id":2,"name":"s","required":false,"type":{"type":"list","element-id":1,"element-required":false,"element":"int"}}]}`))
			return err
		}},
		{"iceberg duplicate map key id", `schema: iceberg schema: field "m.value": duplicate field id 3 (also field "m.key")`, func() error {
			_, err := schema.ParseIcebergSchema([]byte(`{"type":"struct","fields":[{"id":2,"name":"m","required":false,"type":{"type":"map","key-id":3,"key":"string","value-id":3,"value":"int","value-required":false}}]}`))
			return err
		}},
		{"iceberg duplicate sibling name", `schema: iceberg schema: field "s.x": duplicate field name`, func() error {
			_, err := schema.ParseIcebergSchema([]byte(`{"type":"struct","fields":[{"id":1,"name":"s","required":true,"type":{"type":"struct","fields":[{"id":2,"name":"x","required":true,"type":"int"},{"id":3,"name":"x","required":true,"type":"int"}]}}]}`))
			return err
		}},
		{"paimon duplicate id", `schema: paimon schema: field "b": duplicate field id 0 (also field "a")`, func() error {
			_, err := schema.ParsePaimonSchema([]byte(`{"version":3,"id":0,"fields":[{"id":0,"name":"a","type":"INT NOT NULL"},{"id":0,"name":"b","type":"BIGINT"}],"highestFieldId":0,"partitionKeys":[],"primaryKeys":[],"options":{}}`))
			return err
		}},
		{"paimon duplicate name", `schema: paimon schema: field "a": duplicate field name`, func() error {
			_, err := schema.ParsePaimonSchema([]byte(`{"version":3,"id":0,"fields":[{"id":0,"name":"a","type":"INT"},{"id":1,"name":"a","type":"BIGINT"}],"highestFieldId":1,"partitionKeys":[],"primaryKeys":[],"options":{}}`))
			return err
		}},
		{"name mapping duplicate id", `schema: name mapping: field "b": duplicate field id 1`, func() error {
			_, err := schema.ParseNameMapping([]byte(`[{"field-id":1,"names":["a"]},{"field-id":1,"names":["b"]}]`))
			return err
		}},
		{"name mapping name twice", `schema: name mapping: field "s.x": name mapped twice`, func() error {
			_, err := schema.ParseNameMapping([]byte(`[{"field-id":1,"names":["s"],"fields":[{"field-id":2,"names":["x"]},{"field-id":3,"names":["y","x"]}]}]`))
			return err
		}},
	}
	for _, c := range cases {
		err := c.parse()
		if err == nil || err.Error() != c.want || !errors.Is(err, schema.ErrInvalidSchema) {
			t.Errorf("%s: %v, want %s (ErrInvalidSchema)", c.name, err, c.want)
		}
	}
	// The same names in different structs and the same name as an alias
	// at different levels are fine.
	if _, err := schema.ParseIcebergSchema([]byte(`{"type":"struct","fields":[{"id":1,"name":"x","required":true,"type":"int"},{"id":2,"name":"s","required":true,"type":{"type":"struct","fields":[{"id":3,"name":"x","required":true,"type":"int"}]}}]}`)); err != nil {
		t.Errorf("same name in two structs: %v", err)
	}
}
