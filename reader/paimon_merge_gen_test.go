package reader_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/merge"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/paimon"
	"github.com/lakecat/lakecat/table/paimon/paimonwrite"
)

// lsmRow0 is a row of schema-0 (key k INT); lsmRow1 of schema-1, where the
// key (field id 0) is renamed id and widened to BIGINT.
type lsmRow0 struct {
	Key  int32   `parquet:"_KEY_k,id(1073741823)"`
	Seq  int64   `parquet:"_SEQUENCE_NUMBER,id(2147483646)"`
	Kind int8    `parquet:"_VALUE_KIND,id(2147483645)"`
	K    int32   `parquet:"k,id(0)"`
	V    *string `parquet:"v,id(1),optional"`
	N    *int64  `parquet:"n,id(2),optional"`
}

type lsmRow1 struct {
	Key  int64   `parquet:"_KEY_id,id(1073741823)"`
	Seq  int64   `parquet:"_SEQUENCE_NUMBER,id(2147483646)"`
	Kind int8    `parquet:"_VALUE_KIND,id(2147483645)"`
	ID   int64   `parquet:"id,id(0)"`
	V    *string `parquet:"v,id(1),optional"`
	N    *int64  `parquet:"n,id(2),optional"`
}

func sp(s string) *string { return &s }
func ip(n int64) *int64   { return &n }

// writeLSMTable writes a primary-key table of one bucket with options
// opts (in both schemas) whose LSM tree is:
//
//	level 2 (schema-0): keys 1..6, v "a", n = key              seq 0-5
//	level 1 (schema-0): 2 (b, null), 4 (b, 10)                 seq 6-7
//	level 0 (schema-1): 4 -D (x, 4), 5 +U (null, 50)           seq 8-9
//	level 0 (schema-1): 6 (c, 60), 7 (d, 70)                   seq 10-11
//
// with keys k INT in schema-0 and id BIGINT (the same field id, renamed
// and widened) in schema-1. With unsorted, the level-1 file has its keys
// in descending order.
func writeLSMTable(t *testing.T, opts map[string]string, unsorted bool) string {
	t.Helper()
	root := t.TempDir()
	w := &paimonwrite.Writer{Dir: root, TimeMillis: 1}
	s0 := []*schema.Field{{ID: 0, Name: "k", Type: schema.Int, Required: true}, {ID: 1, Name: "v", Type: schema.String}, {ID: 2, Name: "n", Type: schema.Long}}
	s1 := []*schema.Field{{ID: 0, Name: "id", Type: schema.Long, Required: true}, {ID: 1, Name: "v", Type: schema.String}, {ID: 2, Name: "n", Type: schema.Long}}
	o := map[string]string{"bucket": "1"}
	for k, v := range opts {
		o[k] = v
	}
	if err := w.WriteSchema(schema.NewPaimonSchema(0, s0, nil, []string{"k"}, o)); err != nil {
		t.Fatal(err)
	}
	o1 := map[string]string{}
	for k, v := range o {
		o1[strings.ReplaceAll(k, "fields.k.", "fields.id.")] = v
	}
	if err := w.WriteSchema(schema.NewPaimonSchema(1, s1, nil, []string{"id"}, o1)); err != nil {
		t.Fatal(err)
	}
	write := func(name string, rows any, schemaID int64, level int, n int, seq0, seq1 int64, lo, hi any, retracts int64) paimonwrite.DataFile {
		p, err := w.DataFilePath(0, name)
		if err != nil {
			t.Fatal(err)
		}
		switch r := rows.(type) {
		case []lsmRow0:
			err = parquet.WriteFile(p, r)
		case []lsmRow1:
			err = parquet.WriteFile(p, r)
		}
		if err != nil {
			t.Fatal(err)
		}
		ks := &paimonwrite.Stats{Min: paimonwrite.KeyRow(lo), Max: paimonwrite.KeyRow(hi), NullCounts: []int64{0}}
		return paimonwrite.DataFile{Name: name, Bucket: 0, TotalBuckets: 1, SchemaID: schemaID, RowCount: int64(n), MinSequence: seq0, MaxSequence: seq1,
			Level: level, DeleteRowCount: retracts, MinKey: paimonwrite.KeyRow(lo), MaxKey: paimonwrite.KeyRow(hi),
			KeyStats: ks, ValueStats: lsmValueStats(rows)}
	}
	var l2 []lsmRow0
	for k := int32(1); k <= 6; k++ {
		l2 = append(l2, lsmRow0{Key: k, Seq: int64(k - 1), K: k, V: sp("a"), N: ip(int64(k))})
	}
	l1 := []lsmRow0{{Key: 2, Seq: 6, K: 2, V: sp("b")}, {Key: 4, Seq: 7, K: 4, V: sp("b"), N: ip(10)}}
	if unsorted {
		l1[0], l1[1] = l1[1], l1[0]
	}
	a := []lsmRow1{{Key: 4, Seq: 8, Kind: merge.Delete, ID: 4, V: sp("x"), N: ip(4)}, {Key: 5, Seq: 9, Kind: merge.UpdateAfter, ID: 5, N: ip(50)}}
	b := []lsmRow1{{Key: 6, Seq: 10, ID: 6, V: sp("c"), N: ip(60)}, {Key: 7, Seq: 11, ID: 7, V: sp("d"), N: ip(70)}}
	if err := w.Commit(0, []paimonwrite.DataFile{
		write("data-l2.parquet", l2, 0, 2, 6, 0, 5, int32(1), int32(6), 0),
		write("data-l1.parquet", l1, 0, 1, 2, 6, 7, int32(2), int32(4), 0),
	}); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(1, []paimonwrite.DataFile{
		write("data-l0-a.parquet", a, 1, 0, 2, 8, 9, int64(4), int64(5), 1),
		write("data-l0-b.parquet", b, 1, 0, 2, 10, 11, int64(6), int64(7), 0),
	}); err != nil {
		t.Fatal(err)
	}
	return root
}

// lsmValueStats returns the value statistics of rows ([]lsmRow0 or
// []lsmRow1) as Paimon Java writes them: every column of the file's
// schema (key, v, n), the rows as stored, retracts included.
func lsmValueStats(rows any) *paimonwrite.Stats {
	var keys []int64
	var vs []*string
	var ns []*int64
	switch r := rows.(type) {
	case []lsmRow0:
		for _, x := range r {
			keys, vs, ns = append(keys, int64(x.K)), append(vs, x.V), append(ns, x.N)
		}
	case []lsmRow1:
		for _, x := range r {
			keys, vs, ns = append(keys, x.ID), append(vs, x.V), append(ns, x.N)
		}
	}
	var vmin, vmax, nmin, nmax any
	var vnull, nnull int64
	for i := range keys {
		if v := vs[i]; v == nil {
			vnull++
		} else {
			if vmin == nil || *v < vmin.(string) {
				vmin = *v
			}
			if vmax == nil || *v > vmax.(string) {
				vmax = *v
			}
		}
		if n := ns[i]; n == nil {
			nnull++
		} else {
			if nmin == nil || *n < nmin.(int64) {
				nmin = *n
			}
			if nmax == nil || *n > nmax.(int64) {
				nmax = *n
			}
		}
	}
	kmin, kmax := any(slices.Min(keys)), any(slices.Max(keys))
	if _, ok := rows.([]lsmRow0); ok {
		kmin, kmax = int32(kmin.(int64)), int32(kmax.(int64))
	}
	return &paimonwrite.Stats{Min: paimonwrite.KeyRow(kmin, vmin, nmin), Max: paimonwrite.KeyRow(kmax, vmax, nmax), NullCounts: []int64{0, vnull, nnull}}
}

// TestPaimonMergeEngines reads the generated LSM tree with each merge
// engine and option: exact merged rows, in the latest schema (the key
// named id, BIGINT), whatever level or schema a row comes from.
func TestPaimonMergeEngines(t *testing.T) {
	row := func(id int, v string, n string) string {
		if v != "null" {
			v = `"` + v + `"`
		}
		return fmt.Sprintf(`{"id":%d,"v":%s,"n":%s}`, id, v, n)
	}
	cases := []struct {
		name string
		opts map[string]string
		want []string
	}{
		{"deduplicate", nil, []string{row(1, "a", "1"), row(2, "b", "null"), row(3, "a", "3"), row(5, "null", "50"), row(6, "c", "60"), row(7, "d", "70")}},
		{"deduplicate ignore-delete", map[string]string{"ignore-delete": "true"},
			[]string{row(1, "a", "1"), row(2, "b", "null"), row(3, "a", "3"), row(4, "b", "10"), row(5, "null", "50"), row(6, "c", "60"), row(7, "d", "70")}},
		{"sequence.field", map[string]string{"sequence.field": "n"},
			[]string{row(1, "a", "1"), row(2, "a", "2"), row(3, "a", "3"), row(4, "b", "10"), row(5, "null", "50"), row(6, "c", "60"), row(7, "d", "70")}},
		{"first-row", map[string]string{"merge-engine": "first-row", "ignore-delete": "true"},
			[]string{row(1, "a", "1"), row(2, "a", "2"), row(3, "a", "3"), row(4, "a", "4"), row(5, "a", "5"), row(6, "a", "6"), row(7, "d", "70")}},
		{"partial-update", map[string]string{"merge-engine": "partial-update", "partial-update.ignore-delete": "true"},
			[]string{row(1, "a", "1"), row(2, "b", "2"), row(3, "a", "3"), row(4, "b", "10"), row(5, "a", "50"), row(6, "c", "60"), row(7, "d", "70")}},
		{"partial-update remove-record-on-delete", map[string]string{"merge-engine": "partial-update", "partial-update.remove-record-on-delete": "true"},
			[]string{row(1, "a", "1"), row(2, "b", "2"), row(3, "a", "3"), row(5, "a", "50"), row(6, "c", "60"), row(7, "d", "70")}},
		{"partial-update sequence-group", map[string]string{"merge-engine": "partial-update", "ignore-delete": "true", "fields.n.sequence-group": "v"},
			// v follows the record with the highest n: key 2's level-1
			// record has n null and leaves v alone.
			[]string{row(1, "a", "1"), row(2, "a", "2"), row(3, "a", "3"), row(4, "b", "10"), row(5, "null", "50"), row(6, "c", "60"), row(7, "d", "70")}},
		{"aggregation", map[string]string{"merge-engine": "aggregation", "fields.n.aggregate-function": "sum", "fields.v.aggregate-function": "listagg", "fields.v.ignore-retract": "true"},
			[]string{row(1, "a", "1"), row(2, "a,b", "2"), row(3, "a", "3"), row(4, "a,b", "10"), row(5, "a", "55"), row(6, "a,c", "66"), row(7, "d", "70")}},
		{"aggregation count and max", map[string]string{"merge-engine": "aggregation", "fields.n.aggregate-function": "count", "fields.default-aggregate-function": "max", "ignore-delete": "true"},
			[]string{row(1, "a", "1"), row(2, "b", "1"), row(3, "a", "1"), row(4, "b", "2"), row(5, "a", "2"), row(6, "c", "2"), row(7, "d", "1")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeLSMTable(t, c.opts, false)
			for _, batch := range []int{1, 2, 1000} {
				got := scanTableRows(t, dir, reader.TableOptions{BatchRows: batch})
				if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
					t.Errorf("batch %d:\n%s\nwant:\n%s", batch, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
				}
			}
			// A 1-byte --memory: the merge holds its floor (one batch per
			// run) and emits after every key group, the same rows.
			got := scanTableRows(t, dir, reader.TableOptions{BatchRows: 1000, MemoryBytes: 1})
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("memory 1 byte:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestPaimonMergeRefused: options lakecat cannot apply name themselves;
// a retract an engine cannot take, or a run whose keys go down, fails the
// read with a classified error naming the file.
func TestPaimonMergeRefused(t *testing.T) {
	for _, c := range []struct {
		opts map[string]string
		msg  string
	}{
		{map[string]string{"merge-engine": "aggregation", "fields.n.aggregate-function": "rbm64"}, `aggregate function "rbm64" (fields.n.aggregate-function)`},
		{map[string]string{"merge-engine": "lookup"}, `merge-engine "lookup"`},
		{map[string]string{"sequence.field": "nope"}, `sequence.field names "nope"`},
		{map[string]string{"merge-engine": "partial-update", "fields.n.aggregate-function": "sum"}, "fields.n.aggregate-function = sum under partial-update"},
	} {
		_, err := reader.OpenTable(context.Background(), writeLSMTable(t, c.opts, false), reader.TableOptions{})
		if !errors.Is(err, paimon.ErrMergeOption) || !errors.Is(err, lakecat.ErrUnsupported) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%v: %v", c.opts, err)
		}
	}
	scanErr := func(dir string) error {
		tbl, err := reader.OpenTable(context.Background(), dir, reader.TableOptions{})
		if err != nil {
			return err
		}
		rr, err := tbl.Scan(context.Background())
		if err != nil {
			return err
		}
		defer rr.Release()
		for rr.Next() {
		}
		return rr.Err()
	}
	err := scanErr(writeLSMTable(t, map[string]string{"merge-engine": "partial-update"}, false))
	if !errors.Is(err, merge.ErrRetract) || !errors.Is(err, lakecat.ErrUnsupported) || !strings.Contains(err.Error(), "data-l") {
		t.Errorf("partial-update -D: %v", err)
	}
	err = scanErr(writeLSMTable(t, nil, true))
	if !errors.Is(err, merge.ErrUnsorted) || !errors.Is(err, lakecat.ErrCorrupt) || !strings.Contains(err.Error(), "data-l1.parquet") {
		t.Errorf("unsorted run: %v", err)
	}
}

// TestPaimonMergeRuns: the planned sections and runs of the generated
// tree, as `lakecat files` shows them.
func TestPaimonMergeRuns(t *testing.T) {
	tbl, err := reader.OpenTable(context.Background(), writeLSMTable(t, nil, false), reader.TableOptions{ListOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range tbl.Files {
		l := f.LSM
		got = append(got, fmt.Sprintf("%s L%d s%d r%d/%d %v", f.Path[strings.LastIndexByte(f.Path, '/')+1:], l.Level, l.Section, l.Run, l.Runs, l.Merged))
	}
	want := "data-l0-b.parquet L0 s0 r0/4 true data-l0-a.parquet L0 s0 r1/4 true data-l1.parquet L1 s0 r2/4 true data-l2.parquet L2 s0 r3/4 true"
	if strings.Join(got, " ") != want {
		t.Errorf("runs:\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
}

// writeDVTable writes a primary-key table in deletion-vector mode: a
// level-1 file of keys 1-4 whose deletion vector deletes positions 1 and
// 3 (keys 2 and 4), and a level-0 file (key 2 updated, key 5) not yet
// compacted. It returns the table and its index file.
func writeDVTable(t *testing.T) (string, string) {
	t.Helper()
	root := t.TempDir()
	w := &paimonwrite.Writer{Dir: root, TimeMillis: 1}
	s1 := []*schema.Field{{ID: 0, Name: "id", Type: schema.Long, Required: true}, {ID: 1, Name: "v", Type: schema.String}, {ID: 2, Name: "n", Type: schema.Long}}
	if err := w.WriteSchema(schema.NewPaimonSchema(0, s1, nil, []string{"id"}, map[string]string{"bucket": "1", "deletion-vectors.enabled": "true"})); err != nil {
		t.Fatal(err)
	}
	var l1 []lsmRow1
	for k := int64(1); k <= 4; k++ {
		l1 = append(l1, lsmRow1{Key: k, Seq: k, ID: k, V: sp("a"), N: ip(k)})
	}
	l0 := []lsmRow1{{Key: 2, Seq: 5, ID: 2, V: sp("b")}, {Key: 5, Seq: 6, ID: 5, V: sp("b")}}
	var files []paimonwrite.DataFile
	for _, f := range []struct {
		name  string
		rows  []lsmRow1
		level int
	}{{"data-l1.parquet", l1, 1}, {"data-l0.parquet", l0, 0}} {
		p, err := w.DataFilePath(0, f.name)
		if err != nil {
			t.Fatal(err)
		}
		if err := parquet.WriteFile(p, f.rows); err != nil {
			t.Fatal(err)
		}
		files = append(files, paimonwrite.DataFile{Name: f.name, Bucket: 0, TotalBuckets: 1, RowCount: int64(len(f.rows)), Level: f.level,
			MinSequence: f.rows[0].Seq, MaxSequence: f.rows[len(f.rows)-1].Seq, MinKey: paimonwrite.KeyRow(f.rows[0].ID), MaxKey: paimonwrite.KeyRow(f.rows[len(f.rows)-1].ID)})
	}
	if err := w.CommitDeletionVectors(0, files, []paimonwrite.DeletionVector{{DataFile: "data-l1.parquet", Deleted: []uint32{1, 3}}}); err != nil {
		t.Fatal(err)
	}
	idx, err := filepath.Glob(filepath.Join(root, "index", "index-*"))
	if err != nil || len(idx) != 1 {
		t.Fatalf("index files %v, %v", idx, err)
	}
	return root, idx[0]
}

// TestPaimonDeletionVectors: in deletion-vector mode the level ≥ 1 files
// are read with their deletion vectors applied and level-0 files are not
// visible (Paimon docs, "Deletion Vectors"); a vector with a bad CRC or
// magic number fails the read with ErrCorrupt naming the index file.
func TestPaimonDeletionVectors(t *testing.T) {
	dir, idx := writeDVTable(t)
	got := scanTableRows(t, dir, reader.TableOptions{})
	if want := `{"id":1,"v":"a","n":1}` + "\n" + `{"id":3,"v":"a","n":3}`; strings.Join(got, "\n") != want {
		t.Errorf("rows:\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
	tbl, err := reader.OpenTable(context.Background(), dir, reader.TableOptions{ListOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(tbl.Files) != 1 || len(tbl.Files[0].Deletes) != 1 || tbl.Files[0].Deletes[0].RecordCount != 2 {
		t.Errorf("files: %+v", tbl.Files)
	}
	good, err := os.ReadFile(idx)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		at   int
		msg  string
	}{{"magic", 1 + 4, "magic number"}, {"crc", len(good) - 1, "CRC"}, {"length", 1, "length"}} {
		bad := append([]byte(nil), good...)
		bad[c.at] ^= 0x40
		if err := os.WriteFile(idx, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		tbl, err := reader.OpenTable(context.Background(), dir, reader.TableOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rr, err := tbl.Scan(context.Background())
		if err == nil {
			for rr.Next() {
			}
			err = rr.Err()
			rr.Release()
		}
		if !errors.Is(err, lakecat.ErrCorrupt) || !strings.Contains(err.Error(), filepath.Base(idx)) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
