package avro_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/formats/avro"
)

// TestDeepSchemaError opens containers whose schema is recursive or nests
// records 200 deep: avro.ErrUnsupported (README, Errors), in one short
// message naming the file and the 128-level cap.
func TestDeepSchemaError(t *testing.T) {
	var deep strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&deep, `{"type":"record","name":"r%d","fields":[{"name":"f","type":`, i)
	}
	deep.WriteString(`"long"` + strings.Repeat(`}]}`, 200))
	for _, c := range []struct{ name, schema, want string }{
		{"rec.avro", `{"type":"record","name":"j","fields":[{"name":"j","type":["null","j"]}]}`,
			"rec.avro: avro: j.j.j.…: schema nested deeper than 128 levels (or recursive)"},
		{"deep.avro", deep.String(), "deep.avro: avro: f.f.f.…: schema nested deeper than 128 levels (or recursive)"},
	} {
		b := container(c.schema, nil)
		_, err := avro.Open(bytes.NewReader(b), int64(len(b)), avro.WithName(c.name))
		if !errors.Is(err, avro.ErrUnsupported) || err.Error() != c.want {
			t.Errorf("%s: error %v, want avro.ErrUnsupported %q", c.name, err, c.want)
		}
	}
	// Unnamed, the message has no empty segment.
	b := container(`{"type":"record","name":"j","fields":[{"name":"j","type":["null","j"]}]}`, nil)
	_, err := avro.Open(bytes.NewReader(b), int64(len(b)))
	if err == nil || strings.HasPrefix(err.Error(), ":") {
		t.Errorf("unnamed: error %v, want one starting with avro:", err)
	}
}
