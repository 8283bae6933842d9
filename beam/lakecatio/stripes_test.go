package lakecatio

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"

	"github.com/lakecat/lakecat/internal/icebergwrite"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/storage"
)

func init() {
	RegisterFS("test-count-deletes", func() (storage.FS, error) { return deleteOpensFS{storage.OSFS{}}, nil })
}

// deleteOpens counts the opens of position delete files (named pos*) by
// deleteOpensFS.
var deleteOpens atomic.Int64

type deleteOpensFS struct{ storage.FS }

func (s deleteOpensFS) Open(ctx context.Context, p string) (storage.File, error) {
	if strings.HasPrefix(filepath.Base(p), "pos") {
		deleteOpens.Add(1)
	}
	return s.FS.Open(ctx, p)
}

// writeORCTable writes an Iceberg table whose one data file is apache/orc's
// TestOrcFile.testWithoutIndex.orc (10 stripes, 50,000 rows; columns
// int1, string1 without field ids, mapped by name), with a position delete
// file deleting rows 0, 4999, 5000 and 49999 (the first and last rows of
// stripes, when the file is cut at 5,000-row stripes).
func writeORCTable(t *testing.T) string {
	t.Helper()
	src := filepath.Join(testutil.RealDir(t, "apache-orc", "examples"), "TestOrcFile.testWithoutIndex.orc")
	data, err := os.ReadFile(src)
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
	df := icebergwrite.File{Path: tb.Stored("data/a.orc"), Format: "ORC", Records: 50000, Size: int64(len(data)), Partition: map[string]any{}}
	var dels []icebergwrite.PositionDelete
	for _, pos := range []int64{0, 4999, 5000, 49999} {
		dels = append(dels, icebergwrite.PositionDelete{FilePath: df.Path, Pos: pos})
	}
	pf, err := icebergwrite.WritePositionDeletes(tb, "data/pos.parquet", dels)
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Commit(df); err != nil {
		t.Fatal(err)
	}
	if err := tb.Commit(pf); err != nil {
		t.Fatal(err)
	}
	if err := tb.WriteMetadata(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestReadORCStripes reads a table whose ORC data file has 10 stripes,
// with a position delete file: the restriction is the file's stripes (10
// units counted), the rows and _pos are exactly the library's (49,996
// rows), and the delete file is opened once per restriction read, not once
// per stripe.
func TestReadORCStripes(t *testing.T) {
	dir := writeORCTable(t)
	cols := []string{"int1", "string1", "_pos"}
	want, wantSchema, err := referenceRows(t, dir, cols, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 49996 {
		t.Fatalf("reference: %d rows, want 49996", len(want))
	}
	deleteOpens.Store(0)
	p, s := beam.NewPipelineWithRoot()
	collect(s, t.Name(), Read(s, dir, Columns(cols...), WithFS("test-count-deletes")))
	counters, err := run(t, p)
	if err != nil {
		t.Fatal(err)
	}
	got, sch := batchRows(t, sink(t.Name()))
	sameRows(t, dir, got, want)
	sameSchema(t, dir, sch, wantSchema)
	t.Logf("counters %v, delete file opened %d times", counters, deleteOpens.Load())
	if counters["row_groups"] != 10 || counters["rows"] != 49996 || counters["rows_decoded"] != 50000 || counters["rows_deleted"] != 4 {
		t.Errorf("counters %v, want row_groups (stripes) 10, rows 49996, rows_decoded 50000, rows_deleted 4", counters)
	}
	if n := deleteOpens.Load(); n < 1 || n > counters["restrictions"] || n >= 10 {
		t.Errorf("the delete file was opened %d times for %d restrictions of 10 stripes", n, counters["restrictions"])
	}
}

// TestReadORCStripesSplit reads the ORC file with SplitBytes 1: the
// worker that reads its footer cuts it into 10 restrictions of one stripe
// each (planning reads no footer), every row exactly once, and each
// restriction opens the delete file once.
func TestReadORCStripesSplit(t *testing.T) {
	dir := writeORCTable(t)
	want, _, err := referenceRows(t, dir, []string{"int1", "_pos"}, "")
	if err != nil {
		t.Fatal(err)
	}
	deleteOpens.Store(0)
	p, s := beam.NewPipelineWithRoot()
	collect(s, t.Name(), Read(s, dir, Columns("int1", "_pos"), SplitBytes(1), WithFS("test-count-deletes")))
	counters, err := run(t, p)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := batchRows(t, sink(t.Name()))
	sameRows(t, dir, got, want)
	if counters["row_groups"] != 10 || counters["rows"] != 49996 || counters["restrictions"] < 10 {
		t.Errorf("counters %v, want row_groups 10, rows 49996, restrictions at least 10", counters)
	}
	if n := deleteOpens.Load(); n != counters["restrictions"] {
		t.Errorf("the delete file was opened %d times for %d restrictions", n, counters["restrictions"])
	}
}

// TestSplitUnits: runs of units of at least split bytes, the last one
// shorter, covering the restriction exactly; a negative split or a
// one-unit restriction stays whole.
func TestSplitUnits(t *testing.T) {
	e := taskElement{First: 2, UnitBytes: []int64{10, 30, 5, 5, 40, 1}}
	all := offsetrange.Restriction{Start: 2, End: 8}
	for _, c := range []struct {
		split int64
		rest  offsetrange.Restriction
		want  string
	}{
		{1, all, "[2,3) [3,4) [4,5) [5,6) [6,7) [7,8)"},
		{40, all, "[2,4) [4,7) [7,8)"},
		{1000, all, "[2,8)"},
		{0, all, "[2,8)"},
		{-1, all, "[2,8)"},
		{40, offsetrange.Restriction{Start: 3, End: 6}, "[3,6)"},
		{30, offsetrange.Restriction{Start: 3, End: 6}, "[3,4) [4,6)"},
		{1, offsetrange.Restriction{Start: 5, End: 6}, "[5,6)"},
	} {
		var got []string
		for _, r := range splitUnits(e, c.rest, c.split) {
			got = append(got, fmt.Sprintf("[%d,%d)", r.Start, r.End))
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("split %d of [%d,%d): %s, want %s", c.split, c.rest.Start, c.rest.End, strings.Join(got, " "), c.want)
		}
	}
}
