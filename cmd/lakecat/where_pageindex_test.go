package main

import (
	"regexp"
	"testing"

	pq "github.com/parquet-go/parquet-go"

	"github.com/lakecat/lakecat/internal/icebergwrite"
)

// pageIndexTable writes an Iceberg table of one data file of 1,000 rows
// (id = row, long) in 2 row groups of 500, in pages of a few dozen rows
// with a page index.
func pageIndexTable(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	tb := &icebergwrite.Table{Dir: dir, Location: "/warehouse/pages", FormatVersion: 2, LastColumnID: 1,
		Schemas: []string{`{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": true, "type": "long"}]}`},
		Specs:   []icebergwrite.Spec{{ID: 0}}}
	type row struct {
		ID int64 `parquet:"id,id(1)"`
	}
	rows := make([]row, 1000)
	for i := range rows {
		rows[i].ID = int64(i)
	}
	f, err := icebergwrite.WriteParquetWith(tb, "data/d.parquet", rows, pq.MaxRowsPerRowGroup(500), pq.PageBufferSize(256))
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Commit(f); err != nil {
		t.Fatal(err)
	}
	if err := tb.WriteMetadata(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestPlanWherePageIndex: plan --where prints, per file, the pages and
// rows the page index skips and the bytes then not read, the same counts
// cat --stats reports for the read.
func TestPlanWherePageIndex(t *testing.T) {
	dir := pageIndexTable(t)
	const where = "id >= 100 and id < 140"
	out, errOut, code := runCLI(t, "plan", dir, "--where", where)
	m := regexp.MustCompile(`(?m)^page index: \S*data/d\.parquet: (\d+) pages, (\d+) rows skipped, (\d+) bytes not read$`).FindStringSubmatch(out)
	if code != exitOK || m == nil {
		t.Fatalf("plan --where: exit %d, %s\n%s", code, errOut, out)
	}
	// Pages of 64 rows: rows 64..191 of the first row group are read.
	if m[1] != "6" || m[2] != "372" || m[3] != "2117" {
		t.Errorf("plan --where: %s pages, %s rows, %s bytes; want 6, 372, 2117\n%s", m[1], m[2], m[3], out)
	}
	cout, cerr, code := runCLI(t, "cat", dir, "--where", where, "--stats", "--format", "csv")
	if code != exitOK || len(regexp.MustCompile(`\n`).FindAllString(cout, -1)) != 41 {
		t.Fatalf("cat: exit %d, %s\n%s", code, cerr, cout)
	}
	want := "; page index: " + m[1] + " pages, " + m[2] + " rows skipped, " + m[3] + " bytes not read\n"
	if !regexp.MustCompile(regexp.QuoteMeta(want) + "$").MatchString(cerr) {
		t.Errorf("cat --stats: %q; want it to end with %q", cerr, want)
	}
}
