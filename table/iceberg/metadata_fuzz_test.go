package iceberg

import (
	"bytes"
	"errors"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/schema"
)

// FuzzParseMetadata checks that no input makes the table metadata codec
// panic, that its errors match schema.ErrInvalidSchema, and that whatever
// it accepts encodes, decodes again and encodes to the same bytes.
func FuzzParseMetadata(f *testing.F) {
	f.Add([]byte(`{"format-version":1,"table-uuid":"u","location":"l","last-updated-ms":1,"last-column-id":1,` +
		`"schema":{"type":"struct","fields":[{"id":1,"name":"a","required":false,"type":"int"}]},` +
		`"partition-spec":[{"name":"a","transform":"identity","source-id":1}],"properties":{"schema.name-mapping.default":"[{\"field-id\":1,\"names\":[\"a\"]}]"},"current-snapshot-id":-1}`))
	f.Add([]byte(`{"format-version":2,"table-uuid":"u","location":"l","last-sequence-number":3,"last-updated-ms":1,"last-column-id":1,"current-schema-id":0,` +
		`"schemas":[{"type":"struct","schema-id":0,"identifier-field-ids":[],"fields":[{"id":1,"name":"a","required":true,"type":"long"}]}],` +
		`"default-spec-id":0,"partition-specs":[{"spec-id":0,"fields":[]}],"last-partition-id":999,"current-snapshot-id":9876543210123456789,` +
		`"snapshots":[{"snapshot-id":9876543210123456789,"parent-snapshot-id":null,"sequence-number":1,"timestamp-ms":5,"manifest-list":"m","summary":{"operation":"append"},"schema-id":0}],` +
		`"snapshot-log":[{"timestamp-ms":5,"snapshot-id":1}],"metadata-log":[{"timestamp-ms":4,"metadata-file":"f"}],"refs":{}}`))
	for _, b := range testutil.RealSeeds(256<<10, "*.metadata.json", "*Metadata*.json", "*table_metadata*.json") {
		f.Add(b) // real table metadata, read in place
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseMetadata(data)
		if err != nil {
			checkInvalid(t, err)
			return
		}
		_ = m.CurrentSnapshot()
		if _, err := m.NameMapping(); err != nil {
			checkInvalid(t, err)
		}
		out, err := MarshalMetadata(m)
		if err != nil {
			t.Fatalf("accepted metadata does not encode: %v", err)
		}
		m2, err := ParseMetadata(out)
		if err != nil {
			t.Fatalf("encoded metadata does not decode: %v\n%s", err, out)
		}
		out2, err := MarshalMetadata(m2)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("encoding is not stable: %v\n%s\n%s", err, out, out2)
		}
	})
}

func checkInvalid(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, schema.ErrInvalidSchema) {
		t.Fatalf("error %v (%T) does not match ErrInvalidSchema", err, err)
	}
}
