package table_test

import (
	"encoding/json"
	"testing"

	"github.com/lakecat/lakecat/table"
)

// FuzzTaskJSON decodes arbitrary bytes as a task: never a panic, and a task
// that decodes encodes again to one that decodes to the same encoding.
func FuzzTaskJSON(f *testing.F) {
	f.Add([]byte(`{"version":1,"path":"a.parquet","format":"PARQUET","size-bytes":1,"record-count":1,"file-schema-id":-1,` +
		`"read-schema":{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"d","required":false,"type":"date"}]},` +
		`"rules":"iceberg-v2","constants":[{"field-id":1,"value":"2024-01-02"}],"spec-id":0,"sequence-number":0,"file-sequence-number":0}`))
	f.Add([]byte(`{"version":1,"path":"b.orc","format":"ORC","size-bytes":-1,"record-count":-1,"file-schema-id":0,` +
		`"read-schema-paimon":{"version":3,"id":0,"fields":[{"id":0,"name":"a","type":"ARRAY<INT>"}],"highestFieldId":0,"partitionKeys":[],"primaryKeys":[],"options":{},"timeMillis":0},` +
		`"rules":"paimon","spec-id":0,"sequence-number":0,"file-sequence-number":0}`))
	f.Add([]byte(`{"version":2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var task table.Task
		if err := json.Unmarshal(data, &task); err != nil {
			return
		}
		b, err := json.Marshal(task)
		if err != nil {
			t.Fatalf("decoded task does not encode: %v", err)
		}
		var again table.Task
		if err := json.Unmarshal(b, &again); err != nil {
			t.Fatalf("re-encoded task does not decode: %v\n%s", err, b)
		}
		if b2, err := json.Marshal(again); err != nil || string(b2) != string(b) {
			t.Fatalf("encoding not stable:\n%s\n%s", b, b2)
		}
	})
}
