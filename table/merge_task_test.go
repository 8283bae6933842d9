package table

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/schema"
)

// TestMergeTaskJSON: a merge task round-trips; a task without "merge" (a
// version 1 task written before merges) still decodes.
func TestMergeTaskJSON(t *testing.T) {
	read := schema.New(0, &schema.Field{ID: 0, Name: "id", Type: schema.Long, Required: true}, &schema.Field{ID: 1, Name: "v", Type: schema.String})
	old := schema.New(0, &schema.Field{ID: 1073741823, Name: "_KEY_k", Type: schema.Int, Required: true},
		&schema.Field{ID: 2147483646, Name: "_SEQUENCE_NUMBER", Type: schema.Long, Required: true},
		&schema.Field{ID: 2147483645, Name: "_VALUE_KIND", Type: schema.TinyInt, Required: true},
		&schema.Field{ID: 0, Name: "k", Type: schema.Int, Required: true}, &schema.Field{ID: 1, Name: "v", Type: schema.String})
	task := Task{Path: "t/bucket-0/a.parquet", Format: "PARQUET", SizeBytes: 10, RecordCount: 2, FileSchema: old, FileSchemaID: 0,
		ReadSchema: read, Rules: "paimon", Merge: &MergeTask{
			Runs: []MergeRun{
				{Level: 0, Files: []MergeFile{{Path: "t/bucket-0/b.parquet", Format: "ORC", SizeBytes: 5, RecordCount: 1, FileSchema: old, FileSchemaID: 1, MinSequenceNumber: 7, MaxSequenceNumber: 7}}},
				{Level: 2, Files: []MergeFile{{Path: "t/bucket-0/a.parquet", Format: "PARQUET", SizeBytes: 10, RecordCount: 2, FileSchema: old, MaxSequenceNumber: 6}}},
			},
			Spec: MergeSpec{Engine: "aggregation", KeyIDs: []int{0}, SequenceIDs: []int{1}, SequenceNumberID: 2147483646, ValueKindID: 2147483645,
				IgnoreDelete: true, SequenceGroups: []MergeSequenceGroup{{SequenceIDs: []int{1}, FieldIDs: []int{0}}},
				Aggregates: []MergeAggregate{{FieldID: 1, Function: "listagg", Delimiter: "|", IgnoreRetract: true}}, DefaultAggregate: &MergeAggregate{Function: "max"}},
			Schema: read,
		}}
	b, err := json.Marshal(task)
	if err != nil {
		t.Fatal(err)
	}
	var back Task
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Merge.Spec, task.Merge.Spec) || len(back.Merge.Runs) != 2 || back.Merge.Runs[0].Files[0].MinSequenceNumber != 7 ||
		!back.Merge.Runs[1].Files[0].FileSchema.Equal(old) || !back.Merge.Schema.Equal(read) || back.Merge.Runs[0].Level != 0 || back.Merge.Runs[1].Level != 2 {
		t.Errorf("round trip:\n%s\n%+v", b, back.Merge)
	}
	b2, _ := json.Marshal(back)
	if string(b2) != string(b) {
		t.Errorf("second encoding differs:\n%s\n%s", b, b2)
	}
	task.Merge = nil
	b, _ = json.Marshal(task)
	if strings.Contains(string(b), "merge") {
		t.Errorf("a task without a merge writes one: %s", b)
	}
	if err := json.Unmarshal(b, &back); err != nil || back.Merge != nil {
		t.Errorf("v1 task: %v, %+v", err, back.Merge)
	}
	for _, bad := range []string{`{"runs":[],"spec":{}}`, `{"runs":[{"level":0,"files":[{"path":""}]}],"spec":{},"schema":{}}`} {
		var m MergeTask
		if err := json.Unmarshal([]byte(bad), &m); !errors.Is(err, ErrInvalidTask) {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
