package reader_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/paimon"
	"github.com/lakecat/lakecat/table/paimon/paimonwrite"
)

type fallbackRow struct {
	Key  int64   `parquet:"_KEY_id,id(1073741823)"`
	Seq  int64   `parquet:"_SEQUENCE_NUMBER,id(2147483646)"`
	Kind int8    `parquet:"_VALUE_KIND,id(2147483645)"`
	ID   int64   `parquet:"id,id(0)"`
	V    *string `parquet:"v,id(1),optional"`
}

// writeFallbackTable writes an append table that was never written, whose
// scan.fallback-branch is b, a primary-key table (id) with one bucket; each
// element of commits is one commit of one data file into bucket-0.
func writeFallbackTable(t *testing.T, commits ...[]fallbackRow) string {
	t.Helper()
	root := t.TempDir()
	fields := func() []*schema.Field {
		return []*schema.Field{{ID: 0, Name: "id", Type: schema.Long, Required: true}, {ID: 1, Name: "v", Type: schema.String}}
	}
	main := &paimonwrite.Writer{Dir: root, TimeMillis: 1}
	if err := main.WriteSchema(schema.NewPaimonSchema(0, fields(), nil, nil, map[string]string{"bucket": "-1", "scan.fallback-branch": "b"})); err != nil {
		t.Fatal(err)
	}
	br := &paimonwrite.Writer{Dir: filepath.Join(root, "branch", "branch-b"), DataDir: root, TimeMillis: 1}
	if err := br.WriteSchema(schema.NewPaimonSchema(0, fields(), nil, []string{"id"}, map[string]string{"bucket": "1"})); err != nil {
		t.Fatal(err)
	}
	var seq int64
	for i, rows := range commits {
		first := seq
		for j := range rows {
			rows[j].Key, rows[j].Seq = rows[j].ID, seq
			seq++
		}
		name := "data-" + string(rune('a'+i)) + ".parquet"
		p, err := br.DataFilePath(0, name)
		if err != nil {
			t.Fatal(err)
		}
		if err := parquet.WriteFile(p, rows); err != nil {
			t.Fatal(err)
		}
		if err := br.Commit(0, []paimonwrite.DataFile{{Name: name, Bucket: 0, TotalBuckets: 1, RowCount: int64(len(rows)),
			MinSequence: first, MaxSequence: seq - 1}}); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// A never-written main table reads its fallback branch. When that branch is
// a primary-key table, its files are read as stored only where no merge
// could change them: one live file in the bucket with no retract rows.
// With two files in the bucket (id 2 updated by the second) it is refused
// unless Raw.
func TestPaimonFallbackPrimaryKeyBranch(t *testing.T) {
	a, b, b2 := "a", "b", "b2"
	one := writeFallbackTable(t, []fallbackRow{{ID: 1, V: &a}, {ID: 2, V: &b}})
	got := scanTableRows(t, one, reader.TableOptions{})
	if want := `{"id":1,"v":"a"}` + "\n" + `{"id":2,"v":"b"}`; strings.Join(got, "\n") != want {
		t.Errorf("one file: %s", strings.Join(got, "\n"))
	}

	two := writeFallbackTable(t, []fallbackRow{{ID: 1, V: &a}, {ID: 2, V: &b}}, []fallbackRow{{ID: 2, V: &b2}})
	_, err := reader.OpenTable(context.Background(), two, reader.TableOptions{})
	wantErr := `paimon table ` + two + `: table: primary-key table needs merge on read: paimon: primary-key table: fallback branch "b" (primary key id): ` +
		filepath.Join(two, "bucket-0", "data-a.parquet") + ` needs a merge (2 live files in its bucket)`
	if !errors.Is(err, reader.ErrPrimaryKeyTable) || !errors.Is(err, lakecat.ErrUnsupported) || err.Error() != wantErr {
		t.Errorf("two files: err %v\nwant %s", err, wantErr)
	}
	got = scanTableRows(t, two, reader.TableOptions{FormatOptions: paimon.Options{Raw: true}})
	if want := `{"id":1,"v":"a"}` + "\n" + `{"id":2,"v":"b"}` + "\n" + `{"id":2,"v":"b2"}`; strings.Join(got, "\n") != want {
		t.Errorf("two files, raw: %s", strings.Join(got, "\n"))
	}
}
