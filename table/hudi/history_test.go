package hudi

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
)

const historySeed = `{"schemas":[
{"max_column_id":4,"version-id":20240101000000003,"type":"record","fields":[
 {"id":0,"name":"id","optional":false,"type":"int"},
 {"id":1,"name":"full_name","optional":true,"type":"string"},
 {"id":2,"name":"age","optional":true,"type":"long"},
 {"id":3,"name":"tags","optional":true,"type":{"type":"array","element-id":4,"element":"string","element_optional":true}},
 {"id":5,"name":"m","optional":true,"type":{"type":"map","key-id":6,"key":"string","value-id":7,"value":"decimal(10, 2)","value_optional":false}}]},
{"max_column_id":1,"version-id":20240101000000001,"type":"record","fields":[
 {"id":0,"name":"id","optional":false,"type":"int"},
 {"id":1,"name":"name","optional":true,"type":"string"}]}]}`

// TestSchemaHistory: with .hoodie/.schema/, the table schema and each base
// file's writer schema come from the history with Hudi's ids, so a renamed
// column keeps its id.
func TestSchemaHistory(t *testing.T) {
	root := t.TempDir()
	write := func(rel, data string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	avro := `"extraMetadata":{"schema":"{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"id\",\"type\":\"int\"}]}"}`
	write(".hoodie/hoodie.properties", "hoodie.table.type=COPY_ON_WRITE\n")
	write(".hoodie/20240101000000001.commit", `{"partitionToWriteStats":{"":[]},`+avro+`}`)
	write(".hoodie/20240101000000003.commit", `{"partitionToWriteStats":{"":[]},`+avro+`}`)
	write(".hoodie/.schema/20240101000000003.schemacommit", historySeed)
	write(".hoodie/.schema/20240101000000009.schemacommit", `not read: instant 9 is not completed`)
	write("g1_0-1-1_20240101000000001.parquet", "x")
	write("g2_0-1-1_20240101000000003.parquet", "x")
	tab, err := Open(context.Background(), storage.OSFS{}, filepath.ToSlash(root))
	if err != nil {
		t.Fatal(err)
	}
	s, err := tab.Plan(context.Background(), ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	v3 := schema.New(0,
		&schema.Field{ID: 0, Name: "id", Type: schema.Int, Required: true},
		&schema.Field{ID: 1, Name: "full_name", Type: schema.String},
		&schema.Field{ID: 2, Name: "age", Type: schema.Long},
		&schema.Field{ID: 3, Name: "tags", Type: schema.NewList(4, schema.String, false)},
		&schema.Field{ID: 5, Name: "m", Type: schema.NewMap(6, schema.String, 7, schema.Decimal(10, 2), true)},
	)
	v1 := schema.New(0,
		&schema.Field{ID: 0, Name: "id", Type: schema.Int, Required: true},
		&schema.Field{ID: 1, Name: "name", Type: schema.String},
	)
	if !s.Schema.Equal(v3) {
		t.Errorf("table schema %s\nwant %s", s.Schema, v3)
	}
	if len(s.BaseFiles) != 2 {
		t.Fatalf("base files %+v", s.BaseFiles)
	}
	for i, want := range []*schema.Schema{v1, v3} {
		ws, err := s.WriterSchema(context.Background(), &s.BaseFiles[i])
		if err != nil || !ws.Equal(want) {
			t.Errorf("%s: writer schema %v, %v\nwant %s", s.BaseFiles[i].FileID, ws, err, want)
		}
	}
	// As of instant 1 the history's version 1 is the table schema.
	s, err = tab.Plan(context.Background(), ScanOptions{AsOfInstant: "20240101000000001"})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Schema.Equal(v1) || len(s.BaseFiles) != 1 {
		t.Errorf("as of 1: schema %s, files %+v", s.Schema, s.BaseFiles)
	}
}

func TestParseSchemaHistoryErrors(t *testing.T) {
	for _, bad := range []string{`{`, `{"schemas":[{"version-id":"x","type":"record","fields":[]}]}`,
		`{"schemas":[{"version-id":1,"type":"record","fields":[{"name":"a","optional":true,"type":"int"}]}]}`,
		`{"schemas":[{"version-id":1,"type":"record","fields":[{"id":1,"name":"a","optional":true,"type":"varchar"}]}]}`,
		`{"schemas":[{"version-id":1,"type":"array","element-id":1,"element":"int"}]}`,
		`{"schemas":[{"version-id":1,"type":"record","fields":[{"id":1,"name":"a","optional":true,"type":"decimal(40, 2)"}]}]}`,
	} {
		if _, err := ParseSchemaHistory([]byte(bad)); !errors.Is(err, ErrUnsupportedSchema) {
			t.Errorf("ParseSchemaHistory(%s) err = %v", bad, err)
		}
	}
}

// FuzzParseSchemaHistory checks that schema history files never panic the
// parser.
func FuzzParseSchemaHistory(f *testing.F) {
	f.Add([]byte(historySeed))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := ParseSchemaHistory(data); err != nil && !errors.Is(err, ErrUnsupportedSchema) {
			t.Fatalf("unexpected error %v", err)
		}
	})
}
