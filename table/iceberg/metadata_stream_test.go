package iceberg

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/lakecat/lakecat/internal/jsonutil"
	"github.com/lakecat/lakecat/schema"
)

const streamHead = `{"format-version":2,"location":"l","last-sequence-number":1,"last-updated-ms":1,"last-column-id":1,"current-schema-id":0,` +
	`"schemas":[{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"a  b","required":false,"type":"long"}]}],` +
	`"default-spec-id":0,"partition-specs":[],"last-partition-id":999`

// TestDecodeTableMetadataStream covers what the streamed top level must
// decide as the whole-document decode did: a key given twice takes its last
// value, null arrays, white space kept inside strings, and errors for a
// streamed key that is not an array, data after the object, and a failed
// read (returned as it is, not as a schema error).
func TestDecodeTableMetadataStream(t *testing.T) {
	snap := func(id string) string {
		return `{"snapshot-id":` + id + `,"timestamp-ms":1,"summary":{"operation":"append","note":"x \t  y"}}`
	}
	m, err := ParseMetadata([]byte(streamHead + ",\n  \"snapshots\" : [" + snap("1") + "],\t\"snapshots\":[" + snap("2") + " , " + snap("3") + `],"snapshot-log":null}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Snapshots) != 2 || m.Snapshots[0].SnapshotID != 2 || m.Snapshots[1].SnapshotID != 3 {
		t.Fatalf("snapshots %+v, want ids 2 and 3", m.Snapshots)
	}
	if got := m.Snapshots[1].Summary["note"]; got != "x \t  y" {
		t.Errorf("summary note %q, want %q", got, "x \t  y")
	}
	if got := m.Schemas[0].Fields[0].Name; got != "a  b" {
		t.Errorf("field name %q", got)
	}
	out, err := MarshalMetadata(m)
	if err != nil || !strings.Contains(string(out), `"snapshot-log":[]`) {
		t.Errorf("re-encoded: %v\n%s", err, out)
	}

	for _, c := range []struct{ in, want string }{
		{streamHead + `,"snapshots":{"a":[1,{}]}}`, `bad "snapshots": not a JSON array`},
		{streamHead + `,"snapshots":5}`, `bad "snapshots": not a JSON array`},
		{streamHead + `,"snapshot-log":[{"timestamp-ms":1}]}`, `bad "snapshot-log"`},
		{streamHead + `,"snapshots":[{"snapshot-id":1}]}`, `bad snapshot "timestamp-ms"`},
		{streamHead + `} {}`, "data after the top-level object"},
		{streamHead + `,"snapshots":[}`, "not a JSON object"},
		{`[]`, "not a JSON object"},
		{`{"format-version":9,"snapshots":[{}]}`, "unsupported format-version 9"},
	} {
		_, err := ParseMetadata([]byte(c.in))
		if !errors.Is(err, schema.ErrInvalidSchema) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant schema.ErrInvalidSchema saying %q", c.in, err, c.want)
		}
	}

	failed := errors.New("connection reset")
	_, err = DecodeMetadata(io.MultiReader(strings.NewReader(streamHead+`,"snapshots":[`), iotest.ErrReader(failed)))
	if !errors.Is(err, failed) || errors.Is(err, schema.ErrInvalidSchema) {
		t.Errorf("failed read: %v, want the read error and no schema error", err)
	}
	_, err = decodeMetadata(strings.NewReader(streamHead+`}`), 10)
	if !errors.Is(err, schema.ErrInvalidSchema) || !strings.Contains(err.Error(), "over the 10-byte cap") {
		t.Errorf("over the cap: %v", err)
	}
	if _, err := decodeMetadata(strings.NewReader(streamHead+`}`), int64(len(streamHead)+1)); err != nil {
		t.Errorf("exactly at the cap: %v", err)
	}
}

// FuzzEachMember checks eachMember against encoding/json: for any valid
// JSON object it yields the keys and values json.Unmarshal finds (the last
// of a repeated key), and for any other input an error or members, never a
// panic.
func FuzzEachMember(f *testing.F) {
	f.Add([]byte(`{"a":1,"b":{"c":[1,"]}"]},"d\u002de":"x\"y", "e" : null ,"a":[]}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"a":`))
	f.Fuzz(func(t *testing.T, b []byte) {
		got := map[string]string{}
		err := eachMember(b, func(k, v []byte) error {
			got[string(k)] = string(jsonutil.Compact(v))
			return nil
		})
		var want map[string]json.RawMessage
		if !json.Valid(b) || json.Unmarshal(b, &want) != nil || want == nil {
			return
		}
		if err != nil {
			t.Fatalf("eachMember(%s): %v", b, err)
		}
		if len(got) != len(want) {
			t.Fatalf("eachMember(%s): %d keys, want %d", b, len(got), len(want))
		}
		for k, v := range want {
			if got[k] != string(jsonutil.Compact(v)) {
				t.Fatalf("eachMember(%s)[%q] = %s, want %s", b, k, got[k], jsonutil.Compact(v))
			}
		}
	})
}
