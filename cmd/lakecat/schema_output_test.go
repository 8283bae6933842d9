package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
)

// TestSchemaInitialDefaults: schema prints initial-defaults in Iceberg's
// JSON single-value form (spec, Appendix D), as the metadata stores them
// (it printed Go values: {0 1234500} for a decimal, day and microsecond
// counts, byte slices). duckdb-iceberg's add_columns_with_defaults.
func TestSchemaInitialDefaults(t *testing.T) {
	md := testutil.RealDir(t, "duckdb-iceberg", "data", "persistent", "add_columns_with_defaults", "default.db",
		"add_columns_with_defaults", "metadata", "00003-3f1801a5-7dfb-4072-b14a-39cd12f9279b.metadata.json")
	out, errOut, code := runCLI(t, "schema", md)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		`  7 col_decimal: optional decimal(16, 2) (initial-default "12345.00")`,
		`  8 col_date: optional date (initial-default "2003-10-20")`,
		`  9 col_time: optional time (initial-default "00:00:00.012345")`,
		`  10 col_timestamp: optional timestamp (initial-default "1970-01-01T00:00:00.012345")`,
		`  11 col_timestamptz: optional timestamptz (initial-default "1970-01-01T00:00:00.012345+00:00")`,
		`  13 col_uuid: optional uuid (initial-default "f79c3e09-677c-4bbd-a479-3f349cb785e7")`,
		`  14 col_fixed: optional fixed[5] (initial-default "010203ff03")`,
		`  15 col_binary: optional binary (initial-default "0102")`,
		`  4 col_long: optional long (initial-default -9223372036854775808)`,
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("schema lacks %q; stdout:\n%s", want, out)
		}
	}
}

// TestSchemaAndFilesJSON: schema and files take --format json: schema one
// object with Iceberg schema JSON, files one object per line.
func TestSchemaAndFilesJSON(t *testing.T) {
	type field struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
	}
	type obj struct {
		Kind            string `json:"kind"`
		Format          string `json:"format"`
		FormatVersion   int    `json:"format-version"`
		LastColumnID    *int   `json:"last-column-id"`
		LiveDataFiles   *int   `json:"live-data-files"`
		CurrentSchemaID *int   `json:"current-schema-id"`
		Schema          struct {
			Fields []field `json:"fields"`
		} `json:"schema"`
		Schemas []struct {
			ID int `json:"schema-id"`
		} `json:"schemas"`
	}
	orders := filepath.Join("..", "..", "testdata", "orders")
	paimon := filepath.Join("..", "..", "testdata", "paimon_orders")
	for _, c := range []struct {
		path  string
		check func(o obj) bool
	}{
		{filepath.Join(orders, "data", "00000-orders-schema0.parquet"), func(o obj) bool {
			return o.Kind == "parquet-file" && len(o.Schema.Fields) > 0 && o.Schema.Fields[0] == field{1, "order_id"}
		}},
		{filepath.Join(orders, "metadata", "v1.metadata.json"), func(o obj) bool {
			return o.Kind == "iceberg-metadata" && o.FormatVersion == 3 && *o.LastColumnID == 8 && *o.CurrentSchemaID == 2 && len(o.Schemas) == 3
		}},
		{paimon, func(o obj) bool {
			return o.Kind == "table" && o.Format == "paimon" && *o.LiveDataFiles == 14 && *o.CurrentSchemaID == 2 && len(o.Schemas) == 3
		}},
	} {
		out, errOut, code := runCLI(t, "schema", c.path, "--format", "json")
		var o obj
		if err := json.Unmarshal([]byte(out), &o); code != exitOK || err != nil || !c.check(o) {
			t.Errorf("schema %s --format json: exit %d (%q), %v:\n%s", c.path, code, errOut, err, out)
		}
	}
	out, errOut, code := runCLI(t, "files", paimon, "--format", "json")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	last := `{"path":"` + filepath.ToSlash(paimon) + `/bucket-4/data-00000000-0000-0000-0000-000000000009-0.parquet","format":"PARQUET","rows":1,"partition":"","schema-id":1,"lacks":["note"],"older-type":[{"name":"quantity","from":"int"}],"deletes":[],"deleted-rows":0,"lsm":{"bucket":4,"level":0,"section":1,"run":0,"runs":1,"merged":false}}`
	if code != exitOK || len(lines) != 14 || lines[13] != last || !strings.Contains(lines[0], `"lacks":["quantity","note"]`) {
		t.Errorf("files --format json: exit %d (%q), %d lines:\n%s", code, errOut, len(lines), out)
	}
	_, errOut, code = runCLI(t, "files", paimon, "--format", "csv")
	if code != exitUsage {
		t.Errorf("files --format csv: exit %d (%q)", code, errOut)
	}
}

// TestSchemaPaimonSystemColumns: a Paimon primary-key table's schema is the
// table's columns; its system columns only with --raw (shown in the help).
func TestSchemaPaimonSystemColumns(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "paimon_orders")
	out, errOut, code := runCLI(t, "schema", dir)
	if code != exitOK || strings.Contains(out, "_KEY_order_id") || !strings.Contains(out, "read schema (schema 2)\n  0 order_id: required long\n") {
		t.Errorf("schema: exit %d (%q), stdout:\n%s", code, errOut, out)
	}
	out, errOut, code = runCLI(t, "schema", dir, "--raw")
	if code != exitOK || !strings.Contains(out, "read schema (schema 2)\n  1073741823 _KEY_order_id: required long\n  2147483646 _SEQUENCE_NUMBER: required long\n") {
		t.Errorf("schema --raw: exit %d (%q), stdout:\n%s", code, errOut, out)
	}
}

// TestSchemaJSONWithoutIDs: schema --format json of a Parquet file written
// without field ids and of a Paimon table whose list element and map key
// and value have none prints the schema the text format shows, each
// missing id as -1 (it printed "error: ..." strings in place of the
// schemas, exit 0).
func TestSchemaJSONWithoutIDs(t *testing.T) {
	for _, c := range []struct {
		path, key string
		want      string
	}{
		{testutil.RealDir(t, "parquet-testing", "data", "alltypes_plain.parquet"), "schema",
			`{"type":"struct","schema-id":0,"fields":[{"id":-1,"name":"id","required":false,"type":"int"},{"id":-1,"name":"bool_col","required":false,"type":"boolean"},{"id":-1,"name":"tinyint_col","required":false,"type":"int"},{"id":-1,"name":"smallint_col","required":false,"type":"int"},{"id":-1,"name":"int_col","required":false,"type":"int"},{"id":-1,"name":"bigint_col","required":false,"type":"long"},{"id":-1,"name":"float_col","required":false,"type":"float"},{"id":-1,"name":"double_col","required":false,"type":"double"},{"id":-1,"name":"date_string_col","required":false,"type":"binary"},{"id":-1,"name":"string_col","required":false,"type":"binary"},{"id":-1,"name":"timestamp_col","required":false,"type":"timestamp"}]}`},
		{paimonCppTable(t, "parquet/pk_table_nested_type"), "read-schema",
			`{"type":"struct","schema-id":0,"fields":[{"id":0,"name":"shopId","required":true,"type":"int"},{"id":1,"name":"dt","required":true,"type":"string"},{"id":2,"name":"hr","required":true,"type":"int"},{"id":3,"name":"col0","required":false,"type":"int"},` +
				`{"id":4,"name":"col1","required":false,"type":{"type":"struct","fields":[{"id":5,"name":"f0","required":false,"type":"string"},{"id":6,"name":"f1","required":false,"type":"int"},{"id":7,"name":"f2","required":false,"type":{"type":"list","element-id":-1,"element":"int","element-required":false}}]}},` +
				`{"id":8,"name":"col2","required":false,"type":{"type":"map","key-id":-1,"key":"int","value-id":-1,"value":"int","value-required":false}}]}`},
	} {
		out, errOut, code := runCLI(t, "schema", c.path, "--format", "json")
		if code != exitOK || errOut != "" {
			t.Fatalf("%s: exit %d, stderr %s", c.path, code, errOut)
		}
		var doc map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%s: %v\n%s", c.path, err, out)
		}
		var got bytes.Buffer
		if err := json.Compact(&got, doc[c.key]); err != nil {
			t.Fatal(err)
		}
		if got.String() != c.want {
			t.Errorf("%s: %q is\n%s\nwant\n%s", c.path, c.key, got.String(), c.want)
		}
		if strings.Contains(out, `"error: `) {
			t.Errorf("%s: output holds an error string:\n%s", c.path, out)
		}
	}
}
