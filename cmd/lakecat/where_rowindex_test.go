package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/icebergwrite"
	"github.com/lakecat/lakecat/internal/testutil"
)

// TestPlanWhereRowIndex: on an Iceberg table whose data file is apache/orc's
// TestOrcFile.testPredicatePushdown.orc (3,500 rows, row groups of 1,000),
// plan --where shows the row groups the row index rules out in the file's
// one stripe, and cat --stats counts the same rows skipped, seeked over.
func TestPlanWhereRowIndex(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testutil.RealDir(t, "apache-orc", "examples"), "TestOrcFile.testPredicatePushdown.orc"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tb := &icebergwrite.Table{Dir: dir, Location: "/warehouse/orc", FormatVersion: 2, LastColumnID: 2,
		Schemas:    []string{`{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "int1", "required": false, "type": "int"}, {"id": 2, "name": "string1", "required": false, "type": "string"}]}`},
		Specs:      []icebergwrite.Spec{{ID: 0}},
		Properties: map[string]string{"schema.name-mapping.default": `[{"field-id": 1, "names": ["int1"]}, {"field-id": 2, "names": ["string1"]}]`}}
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "a.orc"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	df := icebergwrite.File{Path: tb.Stored("data/a.orc"), Format: "ORC", Records: 3500, Size: int64(len(data)), Partition: map[string]any{}}
	if err := tb.Commit(df); err != nil {
		t.Fatal(err)
	}
	if err := tb.WriteMetadata(); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "plan", dir, "--where", "int1 = 300300")
	for _, w := range []string{
		"row index: " + filepath.Join(dir, "data", "a.orc") + ": row groups 1/4 kept, 2500 rows skipped\n",
		"orc row groups skipped by the row index: 3\n",
		"files: 1 read, 0 skipped; row groups: 1 of 1 kept; bytes skipped: 0\n",
	} {
		if code != exitOK || !strings.Contains(out, w) {
			t.Errorf("plan --where: exit %d, %s: lacks %q in\n%s", code, errOut, w, out)
		}
	}
	out, errOut, code = runCLI(t, "plan", dir, "--where", "int1 > 0")
	if code != exitOK || strings.Contains(out, "row index") {
		t.Errorf("plan --where int1 > 0: exit %d, %s: a row index line in\n%s", code, errOut, out)
	}
	out, errOut, code = runCLI(t, "cat", dir, "--where", "int1 = 300300", "--stats", "--format", "jsonl")
	if code != exitOK || out != `{"int1":300300,"string1":"271a"}`+"\n" ||
		!strings.Contains(errOut, "; orc row groups 1 read, 3 skipped (0 by bloom filters); row index: 2500 rows skipped (0 decoded and dropped), 10642 bytes not decompressed\n") {
		t.Errorf("cat --stats: exit %d\n%s\nstderr %s", code, out, errOut)
	}
}
