package table_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table"
)

// A Hudi file slice's task keeps its log files, instants with their
// schemas, key and ordering fields and merge mode through JSON; a task
// without them (every v1 task) decodes with Hudi nil.
func TestTaskJSONHudiSlice(t *testing.T) {
	read := schema.New(0,
		&schema.Field{ID: 1, Name: "id", Type: schema.Int},
		&schema.Field{ID: 2, Name: "ts", Type: schema.Long},
	)
	old := schema.New(0, &schema.Field{ID: 1, Name: "id", Type: schema.Int})
	task := table.Task{
		Path: "/t/g1_0-1-1_001.parquet", Format: "PARQUET", SizeBytes: 10, RecordCount: 2, FileSchema: old, FileSchemaID: -1,
		ReadSchema: read, Rules: "hudi",
		Hudi: &table.HudiSlice{
			LogFiles:       []table.HudiLogFile{{Path: "/t/.g1_001.log.1_0-1-1", SizeBytes: 99}, {Path: "/t/.g1_001.log.2_0-1-1", SizeBytes: 7}},
			Instants:       []table.HudiInstant{{Time: "001", Schema: 0}, {Time: "002", Schema: 1}},
			ArchivedBefore: "000", AsOf: "003",
			Schemas:          []*schema.Schema{old, read},
			KeyFieldID:       2147483000,
			Ordering:         schema.New(0, &schema.Field{ID: 2, Name: "ts", Type: schema.Long}),
			IsDeletedFieldID: 5, MergeMode: "event-time",
		},
	}
	b, err := json.Marshal(task)
	if err != nil {
		t.Fatal(err)
	}
	var got table.Task
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	h, w := got.Hudi, task.Hudi
	if h == nil || len(h.Schemas) != 2 || !h.Schemas[0].Equal(old) || !h.Schemas[1].Equal(read) || !h.Ordering.Equal(w.Ordering) {
		t.Fatalf("schemas after the round trip:\n%s", b)
	}
	hc := *h
	hc.Schemas, hc.Ordering = w.Schemas, w.Ordering
	if !reflect.DeepEqual(&hc, w) {
		t.Errorf("round trip:\n got %+v\nwant %+v", hc, *w)
	}

	// A task without a Hudi part has no "hudi" key and decodes with nil.
	task.Hudi = nil
	b, err = json.Marshal(task)
	if err != nil || strings.Contains(string(b), `"hudi":`) {
		t.Fatalf("%v %s", err, b)
	}
	if err := json.Unmarshal(b, &got); err != nil || got.Hudi != nil {
		t.Fatalf("%v %+v", err, got.Hudi)
	}

	for _, bad := range []string{
		`{"log-files":[],"instants":[{"time":"1","schema":3}],"key-field-id":1,"merge-mode":"event-time"}`,
		`{"log-files":[],"instants":[],"key-field-id":1,"merge-mode":"newest"}`,
	} {
		js := `{"version":1,"path":"a","read-schema":{"type":"struct","schema-id":0,"fields":[]},"hudi":` + bad + `}`
		if err := json.Unmarshal([]byte(js), &got); !errors.Is(err, table.ErrInvalidTask) {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
