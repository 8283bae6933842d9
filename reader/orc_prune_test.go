package reader_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/formats/orc"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
)

// over1kEvolved returns apache/orc's over1k_bloom.orc (2 stripes of 1049
// rows; stripe 1 holds the constants -100, -1000, -10000, -1000000 in
// _col0.._col3 and nulls in _col7) with the ids of its writer schema, and a
// read schema after evolution: _col2 (int) promoted to long as "promoted",
// _col3 renamed "renamed", _col7 kept as "s", and two added columns the
// file lacks, "added" (no default) and "defaulted" (initial-default 5).
func over1kEvolved(t *testing.T) (data []byte, writer, read *schema.Schema) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testutil.RealDir(t, "apache-orc", "examples"), "over1k_bloom.orc"))
	if err != nil {
		t.Fatal(err)
	}
	fs, _, err := reader.FileSchema(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	writer = reader.SelfDescribed(fs)
	id := func(name string) int {
		for _, f := range writer.Fields {
			if f.Name == name {
				return f.ID
			}
		}
		t.Fatalf("no %s", name)
		return 0
	}
	read = &schema.Schema{Fields: []*schema.Field{
		{ID: id("_col2"), Name: "promoted", Type: schema.Long},
		{ID: id("_col3"), Name: "renamed", Type: schema.Long},
		{ID: id("_col7"), Name: "s", Type: schema.String},
		{ID: 900, Name: "added", Type: schema.Int},
		{ID: 901, Name: "defaulted", Type: schema.Int, InitialDefault: int32(5)},
		{ID: reader.FieldIDPos, Name: reader.ColumnPos, Type: schema.Long, Required: true},
	}}
	return data, writer, read
}

// TestORCStripeStatistics: filters that stripe statistics must prune, and
// the evolution cases where a naive reader would wrongly skip (a promoted
// int→long column's int stats, a renamed column, a column the file lacks,
// an initial-default equal to the literal), give exact rows and _pos, with
// the stripes counted.
func TestORCStripeStatistics(t *testing.T) {
	data, writer, read := over1kEvolved(t)
	cases := []struct {
		where            string
		rows             int
		firstPos         string
		read, skipped    int64
		filesSkipped     int64
		bytesSkippedZero bool
	}{
		// Stripe 0 holds _col2 in [65536, 65791]: read as long.
		{where: "promoted = -10000", rows: 1049, firstPos: `"_pos":1049`, read: 1, skipped: 1},
		{where: "promoted >= 65536 and promoted < 65540", rows: 18, firstPos: `"_pos":`, read: 1, skipped: 1},
		{where: "promoted > 4294967296", rows: 0, read: 0, skipped: 2, filesSkipped: 1},
		{where: "renamed = -1000000", rows: 1049, firstPos: `"_pos":1049`, read: 1, skipped: 1},
		{where: "renamed < 0 or promoted = 65536", rows: 1056, firstPos: `"_pos":`, read: 2, skipped: 0, bytesSkippedZero: true},
		// Stripe 1 has only nulls in _col7.
		{where: "s is not null and promoted < 0", rows: 0, read: 0, skipped: 2, filesSkipped: 1},
		{where: "s is null", rows: 1049, firstPos: `"_pos":1049`, read: 1, skipped: 1},
		// Columns the file lacks: null, or their initial-default.
		{where: "added is null", rows: 2098, firstPos: `"_pos":0`, read: 2, skipped: 0, bytesSkippedZero: true},
		{where: "added = 5", rows: 0, read: 0, skipped: 2, filesSkipped: 1},
		{where: "defaulted = 5 and promoted = -10000", rows: 1049, firstPos: `"_pos":1049`, read: 1, skipped: 1},
		{where: "defaulted != 5", rows: 0, read: 0, skipped: 2, filesSkipped: 1},
	}
	for _, c := range cases {
		t.Run(c.where, func(t *testing.T) {
			e, err := expr.Parse(c.where)
			if err != nil {
				t.Fatal(err)
			}
			for _, workers := range []int{1, 2} {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				var st reader.ScanStats
				rr, err := reader.Open(context.Background(), bytes.NewReader(data), int64(len(data)),
					reader.Options{ReadSchema: read, WriterSchema: writer, Filter: e, Stats: &st, Workers: workers, Allocator: mem})
				if err != nil {
					t.Fatal(err)
				}
				got := testutil.ReaderJSON(t, rr)
				rr.Release()
				mem.AssertSize(t, 0)
				lines := strings.Count(got, "\n")
				if lines != c.rows {
					t.Errorf("workers %d: %d rows, want %d", workers, lines, c.rows)
				}
				if c.rows > 0 && !strings.Contains(strings.SplitN(got, "\n", 2)[0], c.firstPos) {
					t.Errorf("workers %d: first row %s, want %s", workers, strings.SplitN(got, "\n", 2)[0], c.firstPos)
				}
				sc := st.Counts()
				if sc.StripesRead != c.read || sc.StripesSkipped != c.skipped || sc.FilesSkipped != c.filesSkipped {
					t.Errorf("workers %d: stripes read %d skipped %d files skipped %d, want %d %d %d", workers, sc.StripesRead, sc.StripesSkipped, sc.FilesSkipped, c.read, c.skipped, c.filesSkipped)
				}
				if (sc.BytesSkippedStripes == 0) != (c.skipped == 0) {
					t.Errorf("workers %d: %d bytes skipped with %d stripes skipped", workers, sc.BytesSkippedStripes, sc.StripesSkipped)
				}
			}
		})
	}
}

// evolvedRead returns the data of a real ORC example, its writer schema
// (ids by position) and a read schema that renames each of its top-level
// fields to the names given (the same ids), promotes int to long, and adds
// "added" (a column the file lacks) and _pos.
func evolvedRead(t *testing.T, name string, names ...string) (data []byte, writer, read *schema.Schema) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testutil.RealDir(t, "apache-orc", "examples"), name))
	if err != nil {
		t.Fatal(err)
	}
	fs, _, err := reader.FileSchema(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	writer = reader.SelfDescribed(fs)
	read = &schema.Schema{}
	for i, f := range writer.Fields {
		rf := f.Clone()
		rf.Name = names[i]
		if rf.Type == schema.Int {
			rf.Type = schema.Long
		}
		read.Fields = append(read.Fields, rf)
	}
	read.Fields = append(read.Fields, &schema.Field{ID: 900, Name: "added", Type: schema.Int},
		&schema.Field{ID: reader.FieldIDPos, Name: reader.ColumnPos, Type: schema.Long, Required: true})
	return data, writer, read
}

// TestORCRowIndex: within a kept stripe, row groups of the row index whose
// statistics (or bloom filters) rule them out are dropped, with exact rows
// and _pos, through a renamed int column read as long and a column the
// file lacks. TestOrcFile.testPredicatePushdown.orc: one stripe of 3500
// rows, row index stride 1000, int1 = 300·row. bad_bloom_filter_1.6.11.orc
// (C++ 1.6.11): 5 rows, one row group, a usable BLOOM_FILTER_UTF8 on name
// and an unusable one on id.
func TestORCRowIndex(t *testing.T) {
	pp, ppW, ppR := evolvedRead(t, "TestOrcFile.testPredicatePushdown.orc", "n", "s")
	bb, bbW, bbR := evolvedRead(t, "bad_bloom_filter_1.6.11.orc", "key", "who")
	cases := []struct {
		data                []byte
		writer, read        *schema.Schema
		where               string
		want                string // the first row
		rows                int
		groupsRead, skipped int64
		bloomSkipped        int64
		decoded             int64
	}{
		{pp, ppW, ppR, "n >= 300000 and n < 600000", `{"n":300000,"s":"2710","added":null,"_pos":1000}`, 1000, 1, 3, 0, 1000},
		{pp, ppW, ppR, "n = 300300", `{"n":300300,"s":"271a","added":null,"_pos":1001}`, 1, 1, 3, 0, 1000},
		{pp, ppW, ppR, "n = 300300 or n = 1049700", `{"n":300300,"s":"271a","added":null,"_pos":1001}`, 2, 2, 2, 0, 1500},
		{pp, ppW, ppR, "n < 0", ``, 0, 0, 0, 0, 0}, // the stripe statistics rule it out
		{pp, ppW, ppR, "added is null and n > 1049000", `{"n":1049100,"s":"889a","added":null,"_pos":3497}`, 3, 1, 3, 0, 500},
		{pp, ppW, ppR, "n in (0, 2400000)", `{"n":0,"s":"0","added":null,"_pos":0}`, 1, 1, 3, 0, 1000},
		// 'Carl' lies within name's bounds [Alice, b]; the bloom filter
		// rules it out. id's filter (numbers, C++ 1.6.11) is never used.
		{bb, bbW, bbR, "who = 'Carl'", ``, 0, 0, 1, 1, 0},
		{bb, bbW, bbR, "who in ('Carl', 'Mike')", `{"key":18000000000,"who":"Mike","added":null,"_pos":4}`, 1, 1, 0, 0, 5},
		{bb, bbW, bbR, "key = 7", ``, 0, 1, 0, 0, 5},
		{bb, bbW, bbR, "key = 7 or who = 'Carl'", ``, 0, 1, 0, 0, 5},
		{bb, bbW, bbR, "key = 3 and who = 'b'", `{"key":3,"who":"b","added":null,"_pos":3}`, 1, 1, 0, 0, 5},
	}
	for _, c := range cases {
		t.Run(c.where, func(t *testing.T) {
			e, err := expr.Parse(c.where)
			if err != nil {
				t.Fatal(err)
			}
			for _, batch := range []int{0, 7} {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				var st reader.ScanStats
				rr, err := reader.Open(context.Background(), bytes.NewReader(c.data), int64(len(c.data)),
					reader.Options{ReadSchema: c.read, WriterSchema: c.writer, Filter: e, Stats: &st, BatchRows: batch, Allocator: mem})
				if err != nil {
					t.Fatal(err)
				}
				got := testutil.ReaderJSON(t, rr)
				rr.Release()
				mem.AssertSize(t, 0)
				if n := strings.Count(got, "\n"); n != c.rows {
					t.Errorf("batch %d: %d rows, want %d", batch, n, c.rows)
				}
				if first, _, _ := strings.Cut(got, "\n"); first != c.want {
					t.Errorf("batch %d: first row %s, want %s", batch, first, c.want)
				}
				sc := st.Counts()
				if sc.OrcRowGroupsRead != c.groupsRead || sc.OrcRowGroupsSkipped != c.skipped || sc.OrcBloomSkipped != c.bloomSkipped {
					t.Errorf("batch %d: row groups read %d skipped %d (bloom %d), want %d %d %d", batch,
						sc.OrcRowGroupsRead, sc.OrcRowGroupsSkipped, sc.OrcBloomSkipped, c.groupsRead, c.skipped, c.bloomSkipped)
				}
				if sc.RowsRead != c.decoded {
					t.Errorf("batch %d: %d rows decoded, want %d (the dropped row groups' are not counted)", batch, sc.RowsRead, c.decoded)
				}
				// The rows of the row groups skipped are seeked over, none
				// decoded.
				var seeked int64
				if c.skipped > 0 {
					of, err := orc.Open(bytes.NewReader(c.data), int64(len(c.data)))
					if err != nil {
						t.Fatal(err)
					}
					seeked = of.NumRows() - c.decoded
				}
				if sc.OrcRowIndexRowsSkipped != seeked || sc.OrcRowIndexRowsDecoded != 0 || (seeked > 0) != (sc.OrcRowIndexBytesSkipped > 0) {
					t.Errorf("batch %d: row index rows skipped %d (%d decoded), %d bytes; want %d rows skipped, none decoded", batch,
						sc.OrcRowIndexRowsSkipped, sc.OrcRowIndexRowsDecoded, sc.OrcRowIndexBytesSkipped, seeked)
				}
			}
		})
	}
}
