package reader_test

import (
	"context"
	"encoding/binary"
	"testing"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/internal/icebergwrite"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
)

// invertedSummaryTable writes an Iceberg table partitioned by identity(p):
// a first manifest lists files p=1 (ids 1, 2, 3) and p=5 (ids 10, 11)
// under a damaged manifest-list summary of p, lower 9 > upper 0; a second
// lists file p=20 (id 20) under its true summary 20..20.
func invertedSummaryTable(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	le32 := func(v int32) []byte { return binary.LittleEndian.AppendUint32(nil, uint32(v)) }
	tb := &icebergwrite.Table{Dir: dir, Location: "/warehouse/inverted", FormatVersion: 2, LastColumnID: 2,
		Schemas: []string{`{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": true, "type": "long"}, {"id": 2, "name": "p", "required": true, "type": "int"}]}`},
		Specs:   []icebergwrite.Spec{{ID: 0, Fields: []icebergwrite.PartitionField{{Name: "p", FieldID: 1000, SourceID: 2, Type: "int"}}}},
		Summaries: func(_, _ int, files []icebergwrite.File) []icebergwrite.FieldSummary {
			if len(files) == 2 {
				return []icebergwrite.FieldSummary{{Lower: le32(9), Upper: le32(0)}}
			}
			return []icebergwrite.FieldSummary{{Lower: le32(20), Upper: le32(20)}}
		}}
	type row struct {
		ID int64 `parquet:"id,id(1)"`
		P  int32 `parquet:"p,id(2)"`
	}
	write := func(name string, p int32, ids ...int64) icebergwrite.File {
		var rows []row
		for _, id := range ids {
			rows = append(rows, row{id, p})
		}
		f, err := icebergwrite.WriteParquet(tb, name, rows, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.Partition = map[string]any{"p": p}
		return f
	}
	if err := tb.Commit(write("data/p1.parquet", 1, 1, 2, 3), write("data/p5.parquet", 5, 10, 11)); err != nil {
		t.Fatal(err)
	}
	if err := tb.Commit(write("data/p20.parquet", 20, 20)); err != nil {
		t.Fatal(err)
	}
	if err := tb.WriteMetadata(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestInvertedManifestSummary: a manifest-list partition summary with
// lower > upper is unknown, as inverted statistics of every other source:
// its manifest is read and its files judged by their own partition values,
// so p = 5 gives back rows 10 and 11 (a summary compared as stored would
// skip the manifest and return nothing), while the second manifest's true
// summary still skips it.
func TestInvertedManifestSummary(t *testing.T) {
	dir := invertedSummaryTable(t)
	for _, c := range []struct {
		where                    string
		want                     string
		read, skipped, manifests int64
	}{
		{"p = 5", `{"id":10,"p":5}` + "\n" + `{"id":11,"p":5}` + "\n", 1, 2, 1},
		{"p = 1", `{"id":1,"p":1}` + "\n" + `{"id":2,"p":1}` + "\n" + `{"id":3,"p":1}` + "\n", 1, 2, 1},
		{"p in (0, 9)", "", 0, 3, 1},
		{"p > 3", `{"id":10,"p":5}` + "\n" + `{"id":11,"p":5}` + "\n" + `{"id":20,"p":20}` + "\n", 2, 1, 0},
		{"p = 20", `{"id":20,"p":20}` + "\n", 1, 2, 0},
		{"p is null", "", 0, 3, 1},
	} {
		e, err := expr.Parse(c.where)
		if err != nil {
			t.Fatal(err)
		}
		var stats reader.ScanStats
		mem := testutil.CheckedAllocator(t)
		tbl, err := reader.OpenTable(context.Background(), dir, reader.TableOptions{Filter: e, Stats: &stats, Allocator: mem})
		if err != nil {
			t.Fatal(err)
		}
		rr, err := tbl.Scan(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got := testutil.ReaderJSON(t, rr)
		rr.Release()
		if got != c.want {
			t.Errorf("%s: rows\n%s\nwant\n%s", c.where, got, c.want)
		}
		if n := stats.Counts(); n.FilesRead != c.read || n.FilesSkipped != c.skipped || n.ManifestsSkipped != c.manifests {
			t.Errorf("%s: files read %d, skipped %d, manifests skipped %d; want %d, %d, %d", c.where, n.FilesRead, n.FilesSkipped, n.ManifestsSkipped, c.read, c.skipped, c.manifests)
		}
	}
}
