package table_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table"
)

func TestTaskJSONRoundTrip(t *testing.T) {
	one := 1
	read := schema.New(3,
		&schema.Field{ID: 1, Name: "id", Type: schema.Long, Required: true},
		&schema.Field{ID: 2, Name: "day", Type: schema.Date},
		&schema.Field{ID: 3, Name: "amount", Type: schema.Decimal(10, 2)},
		&schema.Field{ID: 2147483546, Name: "_file", Type: schema.String, Required: true},
	)
	task := table.Task{
		Path: "/wh/t/data/a.parquet", StoredPath: "s3://old/t/data/a.parquet", Format: "PARQUET",
		SizeBytes: 1234, RecordCount: 10, FirstRowGroup: 2, RowGroups: 3,
		FileSchema: schema.New(0, &schema.Field{ID: 1, Name: "id", Type: schema.Int, Required: true}), FileSchemaID: 0,
		ReadSchema: read, Rules: "iceberg-v3", TimeZone: "Asia/Shanghai",
		NameMapping: schema.NameMapping{{FieldID: &one, Names: []string{"id"}}},
		Constants:   map[int]any{2: int32(19000), 3: schema.DecimalValue{Lo: 1234}, 2147483546: "s3://old/t/data/a.parquet"},
		PosFieldID:  2147483000, SpecID: 1, SequenceNumber: 5, FileSequenceNumber: 6,
		Deletes: []table.DeleteFile{{Path: "/wh/t/data/d.parquet", Format: "PARQUET", Content: table.EqualityDeletes,
			RecordCount: 2, SizeBytes: 99, EqualityIDs: []int{1}, SequenceNumber: 7, FileSequenceNumber: 7, SpecID: 1}},
	}
	b, err := json.Marshal(task)
	if err != nil {
		t.Fatal(err)
	}
	var got table.Task
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if !got.ReadSchema.Equal(task.ReadSchema) || !got.FileSchema.Equal(task.FileSchema) {
		t.Fatalf("schemas differ after the round trip:\n%s", b)
	}
	got.ReadSchema, got.FileSchema = task.ReadSchema, task.FileSchema
	if !reflect.DeepEqual(got, task) {
		t.Fatalf("round trip:\n got %#v\nwant %#v\n%s", got, task, b)
	}
	var probe map[string]any
	json.Unmarshal(b, &probe)
	if probe["version"] != float64(table.TaskVersion) {
		t.Fatalf("version %v", probe["version"])
	}
}

func TestTaskJSONRefused(t *testing.T) {
	for _, c := range []struct {
		json string
		err  error
	}{
		{`{"version":2,"path":"a"}`, table.ErrTaskVersion},
		{`{"path":"a"}`, table.ErrInvalidTask},
		{`[1]`, table.ErrInvalidTask},
		{`{"version":1,"path":"a","read-schema":{"type":"struct","schema-id":0,"fields":[]},"bogus":1}`, table.ErrInvalidTask},
		{`{"version":1,"path":"a","read-schema":{"type":"struct","schema-id":0,"fields":[]},"constants":[{"field-id":9,"value":1}]}`, table.ErrInvalidTask},
		{`{"version":1,"path":"","read-schema":{"type":"struct","schema-id":0,"fields":[]}}`, table.ErrInvalidTask},
	} {
		var task table.Task
		err := json.Unmarshal([]byte(c.json), &task)
		if !errors.Is(err, c.err) {
			t.Errorf("%s: err %v, want %v", c.json, err, c.err)
		}
	}
	var task table.Task
	if err := json.Unmarshal([]byte(`{"version":7}`), &task); lakecat.ClassOf(err) != lakecat.ErrUnsupported {
		t.Errorf("unknown version: class %v", lakecat.ClassOf(err))
	}
}

// TestTaskJSONStripes: the optional stripe range of an ORC task survives
// the round trip, is absent from the encoding when the task has none (a
// version-1 task written before it decodes alike), and a negative stripe or
// both row groups and stripes are refused.
func TestTaskJSONStripes(t *testing.T) {
	read := schema.New(0, &schema.Field{ID: 1, Name: "id", Type: schema.Long})
	task := table.Task{Path: "/t/a.orc", Format: "ORC", SizeBytes: 10, RecordCount: 3, FileSchemaID: -1, ReadSchema: read, Rules: "iceberg-v2", FirstStripe: 2, Stripes: 3}
	b, err := json.Marshal(task)
	if err != nil {
		t.Fatal(err)
	}
	var got table.Task
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	got.ReadSchema = read
	if !reflect.DeepEqual(got, task) {
		t.Fatalf("round trip:\n got %#v\nwant %#v\n%s", got, task, b)
	}
	task.FirstStripe, task.Stripes = 0, 0
	b, _ = json.Marshal(task)
	var probe map[string]any
	json.Unmarshal(b, &probe)
	if _, ok := probe["stripes"]; ok {
		t.Errorf("a whole-file task encodes stripes: %s", b)
	}
	if _, ok := probe["first-stripe"]; ok {
		t.Errorf("a whole-file task encodes first-stripe: %s", b)
	}
	schemaJSON := `{"type":"struct","schema-id":0,"fields":[]}`
	for _, bad := range []string{
		`{"version":1,"path":"a","read-schema":` + schemaJSON + `,"stripes":-1}`,
		`{"version":1,"path":"a","read-schema":` + schemaJSON + `,"first-stripe":-2}`,
		`{"version":1,"path":"a","read-schema":` + schemaJSON + `,"row-groups":1,"stripes":1}`,
	} {
		var task table.Task
		if err := json.Unmarshal([]byte(bad), &task); !errors.Is(err, table.ErrInvalidTask) {
			t.Errorf("%s: err %v, want ErrInvalidTask", bad, err)
		}
	}
}

// TestDeletedRows: the rows a task's deletes remove are known from the
// record counts of deletion vectors (Iceberg and Paimon) and of position
// delete files naming the data file, and unknown otherwise.
func TestDeletedRows(t *testing.T) {
	cases := []struct {
		name    string
		deletes []table.DeleteFile
		n       int64
		known   bool
	}{
		{"none", nil, 0, true},
		{"iceberg dv and referenced positions", []table.DeleteFile{{Content: table.DeletionVector, RecordCount: 2, ReferencedDataFile: "d"},
			{Content: table.PositionDeletes, RecordCount: 5, ReferencedDataFile: "d"}}, 7, true},
		{"paimon dv", []table.DeleteFile{{Content: table.PaimonDeletionVector, RecordCount: 3, ReferencedDataFile: "d"}}, 3, true},
		{"paimon dv without cardinality", []table.DeleteFile{{Content: table.PaimonDeletionVector, RecordCount: -1, ReferencedDataFile: "d"}}, 0, false},
		{"shared positions", []table.DeleteFile{{Content: table.PositionDeletes, RecordCount: 4}}, 0, false},
		{"equality", []table.DeleteFile{{Content: table.EqualityDeletes, RecordCount: 4}}, 0, false},
	}
	for _, c := range cases {
		n, known := (table.Task{Deletes: c.deletes}).DeletedRows()
		if known != c.known || (known && n != c.n) {
			t.Errorf("%s: %d, %v, want %d, %v", c.name, n, known, c.n, c.known)
		}
	}
}
