package hudi

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/storage"
)

// TestDamagedInstantMagic: a version-8 commit file (an Avro object
// container) whose magic is damaged is reported as a damaged container
// naming the instant file, a corrupt timeline; it was "invalid character
// 'O' looking for beginning of value", as if the file were bad JSON.
func TestDamagedInstantMagic(t *testing.T) {
	root := unzipTable(t, "cow/v8_nonpartitioned.zip", "v8_nonpartitioned")
	inst := filepath.Join(root, ".hoodie", "timeline", "20250713010536861_20250713010537206.commit")
	b, err := os.ReadFile(inst)
	if err != nil {
		t.Fatal(err)
	}
	b[1] = 'x'
	if err := os.WriteFile(inst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tab, err := Open(ctx, storage.OSFS{}, root)
	if err == nil {
		_, err = tab.Plan(ctx, ScanOptions{})
	}
	if !errors.Is(err, ErrCorruptTimeline) || lakecat.ClassOf(err) != lakecat.ErrCorrupt ||
		!strings.Contains(err.Error(), inst+`: hudi: corrupt timeline: damaged Avro object container: magic "Oxj\x01", want "Obj\x01"`) {
		t.Errorf("Plan: %v", err)
	}

	// The rule alone: one byte of the magic off, or a magic wholly
	// damaged before an "avro.schema" key, is a container; JSON and other
	// text stay JSON errors.
	avroish := append([]byte("\x00\x00\x00\x00\x02\x16avro.schema"), b[17:40]...)
	for _, c := range []struct {
		data string
		msg  string
	}{
		{"Obj\x02\x00", `hudi: corrupt timeline: damaged Avro object container: magic "Obj\x02", want "Obj\x01"`},
		{string(avroish), `hudi: corrupt timeline: damaged Avro object container: magic "\x00\x00\x00\x00", want "Obj\x01"`},
		{`{"extraMetadata": `, "hudi: corrupt timeline: unexpected EOF"},
		{"Hello", "hudi: corrupt timeline: invalid character 'H' looking for beginning of value"},
	} {
		if _, err := ParseCommitMetadata([]byte(c.data)); !errors.Is(err, ErrCorruptTimeline) || err.Error() != c.msg {
			t.Errorf("ParseCommitMetadata(%q): %v, want %s", c.data, err, c.msg)
		}
	}
}
