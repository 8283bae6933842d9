package reader_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pqparquet "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/formats/hudilog"
	"github.com/lakecat/lakecat/internal/hudiwrite"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
)

// morTable is a generated Hudi merge-on-read table (table version 6
// layout): hoodie.properties, completed deltacommits with their Avro
// schemas, base files and log files.
type morTable struct {
	t   *testing.T
	dir string
}

func newMORTable(t *testing.T, props string) *morTable {
	m := &morTable{t: t, dir: t.TempDir()}
	m.put(".hoodie/hoodie.properties", []byte("hoodie.table.name=t\nhoodie.table.type=MERGE_ON_READ\nhoodie.table.version=6\nhoodie.table.recordkey.fields=id\n"+props))
	return m
}

func (m *morTable) put(rel string, data []byte) {
	m.t.Helper()
	p := filepath.Join(m.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		m.t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		m.t.Fatal(err)
	}
}

// commit completes a deltacommit whose writer schema is avro (the table's
// columns, without the meta columns).
func (m *morTable) commit(instant, avro string) {
	q := strings.ReplaceAll(strings.ReplaceAll(avro, `\`, `\\`), `"`, `\"`)
	m.put(".hoodie/"+instant+".deltacommit", []byte(`{"partitionToWriteStats":{"":[]},"extraMetadata":{"schema":"`+q+`"},"operationType":"UPSERT"}`))
}

// log writes a log file of blocks.
func (m *morTable) log(name string, blocks ...hudiwrite.Block) {
	m.put(name, hudiwrite.Encode(blocks...))
}

func (m *morTable) avroBlock(instant, schema string, recs ...map[string]any) hudiwrite.Block {
	m.t.Helper()
	b, err := hudiwrite.AvroData(instant, schema, recs)
	if err != nil {
		m.t.Fatal(err)
	}
	return b
}

func (m *morTable) deleteBlock(instant string, dels ...hudiwrite.Delete) hudiwrite.Block {
	m.t.Helper()
	b, err := hudiwrite.DeleteBlock(instant, dels)
	if err != nil {
		m.t.Fatal(err)
	}
	return b
}

// The table schemas: v1 (id, name, ts) and v2, which adds score.
const (
	morV1 = `{"type":"record","name":"t_record","fields":[{"name":"id","type":"int"},{"name":"name","type":["null","string"],"default":null},{"name":"ts","type":"long"}]}`
	morV2 = `{"type":"record","name":"t_record","fields":[{"name":"id","type":"int"},{"name":"name","type":["null","string"],"default":null},{"name":"ts","type":"long"},{"name":"score","type":["null","double"],"default":null}]}`
	// The log blocks' schemas: the meta columns, then the table's.
	morLogV1 = `{"type":"record","name":"t_record","fields":[{"name":"_hoodie_commit_time","type":["null","string"],"default":null},{"name":"_hoodie_record_key","type":["null","string"],"default":null},{"name":"id","type":"int"},{"name":"name","type":["null","string"],"default":null},{"name":"ts","type":"long"}]}`
	morLogV2 = `{"type":"record","name":"t_record","fields":[{"name":"_hoodie_commit_time","type":["null","string"],"default":null},{"name":"_hoodie_record_key","type":["null","string"],"default":null},{"name":"id","type":"int"},{"name":"name","type":["null","string"],"default":null},{"name":"ts","type":"long"},{"name":"score","type":["null","double"],"default":null}]}`
)

func rec(key string, id int, name string, ts int64) map[string]any {
	return map[string]any{"_hoodie_commit_time": nil, "_hoodie_record_key": key, "id": id, "name": name, "ts": ts}
}

func rec2(key string, id int, name string, ts int64, score float64) map[string]any {
	r := rec(key, id, name, ts)
	r["score"] = score
	return r
}

// writeMOR writes the merge-on-read table of TestHudiMergeGenerated: base
// file g1 (instant 001, keys k1–k4), then in g1's log files: an update of
// k1 and an insert of k5 (002); deletes of k2 (ordering 30, above its base
// ts 10) and k3 (ordering 5, below it) (003); an update of k4 (004) that a
// rollback command block (005) rolls back; an update of k1 by an instant
// that never completed (006); after the schema change, in the second log
// file, an update of k5, an insert of k6 and a late update of k1 whose ts
// 15 is below its current 20 (007). File group g2 has a log file only: k7
// (002).
func writeMOR(t *testing.T, props string) *morTable {
	m := newMORTable(t, props)
	m.commit("20240101000000001", morV1)
	m.commit("20240101000000002", morV1)
	m.commit("20240101000000003", morV1)
	m.commit("20240101000000004", morV1)
	m.put(".hoodie/20240101000000006.deltacommit.inflight", nil)
	m.commit("20240101000000007", morV2)
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "_hoodie_record_key", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ts", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	writeParquetRowGroups(t, filepath.Join(m.dir, "g1_0-1-1_20240101000000001.parquet"), sc, 2,
		`[{"_hoodie_record_key":"k1","id":1,"name":"a","ts":10},{"_hoodie_record_key":"k2","id":2,"name":"b","ts":10},
		  {"_hoodie_record_key":"k3","id":3,"name":"c","ts":10},{"_hoodie_record_key":"k4","id":4,"name":"d","ts":10}]`)
	m.log(".g1_20240101000000001.log.1_0-1-1",
		m.avroBlock("20240101000000002", morLogV1, rec("k1", 1, "a2", 20), rec("k5", 5, "e", 20)),
		m.deleteBlock("20240101000000003", hudiwrite.Delete{Key: "k2", Ordering: int64(30)}, hudiwrite.Delete{Key: "k3", Ordering: int64(5)}),
		m.avroBlock("20240101000000004", morLogV1, rec("k4", 4, "d-rolled-back", 40)),
		hudiwrite.Rollback("20240101000000005", "20240101000000004"),
		m.avroBlock("20240101000000006", morLogV1, rec("k1", 1, "never committed", 60)),
	)
	m.log(".g1_20240101000000001.log.2_0-1-1",
		m.avroBlock("20240101000000007", morLogV2, rec2("k5", 5, "e2", 70, 1.5), rec2("k6", 6, "f", 70, 2.5), rec2("k1", 1, "late", 15, 9)),
	)
	m.log(".g2_20240101000000002.log.1_0-1-1", m.avroBlock("20240101000000002", morLogV1, rec("k7", 7, "g", 20)))
	return m
}

// TestHudiMergeGenerated reads a generated merge-on-read table merged by
// event time (DefaultHoodieRecordPayload, precombine ts): every rule of the
// merge gives the rows below, in the v2 schema (score null for the records
// written in v1), with the Arrow types of the table schema.
func TestHudiMergeGenerated(t *testing.T) {
	m := writeMOR(t, "hoodie.table.precombine.field=ts\nhoodie.compaction.payload.class=org.apache.hudi.common.model.DefaultHoodieRecordPayload\n")
	mem := testutil.CheckedAllocator(t)
	tbl, err := reader.OpenTable(context.Background(), m.dir, reader.TableOptions{Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	if len(tbl.Files) != 2 || tbl.Files[1].Format != "HUDI-LOG" || len(tbl.Files[0].Task.Hudi.LogFiles) != 2 || tbl.Files[0].Task.Hudi.MergeMode != "event-time" {
		t.Fatalf("files %+v", tbl.Files)
	}
	rr, err := tbl.Scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	wantSchema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ts", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	if !sameArrowTypes(rr.Schema(), wantSchema) {
		t.Errorf("schema %s\nwant %s", rr.Schema(), wantSchema)
	}
	got := strings.TrimSpace(testutil.ReaderJSON(t, rr))
	// Base rows left (k3: its delete's ordering 5 is below ts 10; k4: its
	// update rolled back), then the log records in the order of their last
	// write; then g2's.
	want := strings.Join([]string{
		`{"id":3,"name":"c","ts":10,"score":null}`,
		`{"id":4,"name":"d","ts":10,"score":null}`,
		`{"id":1,"name":"a2","ts":20,"score":null}`,
		`{"id":5,"name":"e2","ts":70,"score":1.5}`,
		`{"id":6,"name":"f","ts":70,"score":2.5}`,
		`{"id":7,"name":"g","ts":20,"score":null}`,
	}, "\n")
	if got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
}

// writeParquetRowGroups writes rows (JSON) of schema sc as a Parquet file
// without field ids in row groups of at most n rows.
func writeParquetRowGroups(t *testing.T, path string, sc *arrow.Schema, n int64, rows string) {
	t.Helper()
	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, sc, strings.NewReader(rows))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(sc, f, pqparquet.NewWriterProperties(pqparquet.WithMaxRowGroupLength(n)), pqarrow.NewArrowWriterProperties())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// sameArrowTypes compares field names and types (not metadata).
func sameArrowTypes(a, b *arrow.Schema) bool {
	if a.NumFields() != b.NumFields() {
		return false
	}
	for i := range a.Fields() {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name || !arrow.TypeEqual(fa.Type, fb.Type) {
			return false
		}
	}
	return true
}

// TestHudiMergeCommitOrder: the same table merged as Hudi 0.x's default
// payload (OverwriteWithLatestAvroPayload) does: log records among
// themselves by ordering value, a log record always over the base file; so
// k3's delete applies (ordering 5 below the base's 10 does not matter).
// Then by commit time (COMMIT_TIME_ORDERING): the latest write wins, k1's
// late update included.
func TestHudiMergeCommitOrder(t *testing.T) {
	m := writeMOR(t, "hoodie.table.precombine.field=ts\n")
	got := scanTableRows(t, m.dir, reader.TableOptions{})
	want := rowsOf(`
{"id":1,"name":"a2","ts":20,"score":null}
{"id":4,"name":"d","ts":10,"score":null}
{"id":5,"name":"e2","ts":70,"score":1.5}
{"id":6,"name":"f","ts":70,"score":2.5}
{"id":7,"name":"g","ts":20,"score":null}`)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("overwrite-latest rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	m = writeMOR(t, "hoodie.table.precombine.field=ts\nhoodie.record.merge.mode=COMMIT_TIME_ORDERING\n")
	got = scanTableRows(t, m.dir, reader.TableOptions{})
	want = rowsOf(`
{"id":1,"name":"late","ts":15,"score":9}
{"id":4,"name":"d","ts":10,"score":null}
{"id":5,"name":"e2","ts":70,"score":1.5}
{"id":6,"name":"f","ts":70,"score":2.5}
{"id":7,"name":"g","ts":20,"score":null}`)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("commit-time rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	m = writeMOR(t, "hoodie.compaction.payload.class=com.example.MyPayload\n")
	_, err := reader.OpenTable(context.Background(), m.dir, reader.TableOptions{})
	if !errors.Is(err, reader.ErrMergeOnRead) || !errors.Is(err, lakecat.ErrUnsupported) || !strings.Contains(err.Error(), "payload class com.example.MyPayload") {
		t.Errorf("custom payload: %v", err)
	}
}

// TestHudiMergeSchemaHistory: a schema-on-read table renamed name to
// fullname at instant 007 (schema history ids: the column keeps id 1). The
// base file and the logs written before the rename hold "name"; they align
// by the history's ids, so their values come out under fullname.
func TestHudiMergeSchemaHistory(t *testing.T) {
	m := writeMOR(t, "hoodie.table.precombine.field=ts\nhoodie.compaction.payload.class=org.apache.hudi.common.model.DefaultHoodieRecordPayload\n")
	renamed := strings.Replace(morV2, `"name":"name"`, `"name":"fullname"`, 1)
	m.commit("20240101000000007", renamed)
	m.put(".hoodie/.schema/20240101000000007.schemacommit", []byte(`{"schemas":[
{"max_column_id":2,"version-id":20240101000000001,"type":"record","fields":[
 {"id":0,"name":"id","optional":false,"type":"int"},{"id":1,"name":"name","optional":true,"type":"string"},{"id":2,"name":"ts","optional":false,"type":"long"}]},
{"max_column_id":3,"version-id":20240101000000007,"type":"record","fields":[
 {"id":0,"name":"id","optional":false,"type":"int"},{"id":1,"name":"fullname","optional":true,"type":"string"},{"id":2,"name":"ts","optional":false,"type":"long"},
 {"id":3,"name":"score","optional":true,"type":"double"}]}]}`))
	// The block of 007 is written with the renamed column.
	m.log(".g1_20240101000000001.log.2_0-1-1",
		m.avroBlock("20240101000000007", strings.Replace(morLogV2, `"name":"name"`, `"name":"fullname"`, 1),
			map[string]any{"_hoodie_commit_time": nil, "_hoodie_record_key": "k5", "id": 5, "fullname": "e2", "ts": int64(70), "score": 1.5}))
	got := scanTableRows(t, m.dir, reader.TableOptions{})
	want := rowsOf(`
{"id":3,"fullname":"c","ts":10,"score":null}
{"id":4,"fullname":"d","ts":10,"score":null}
{"id":1,"fullname":"a2","ts":20,"score":null}
{"id":5,"fullname":"e2","ts":70,"score":1.5}
{"id":7,"fullname":"g","ts":20,"score":null}`)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestHudiMergeTasksJSON: a file slice's task read from its JSON gives the
// same rows as the table scan.
func TestHudiMergeTasksJSON(t *testing.T) {
	m := writeMOR(t, "hoodie.table.precombine.field=ts\nhoodie.compaction.payload.class=org.apache.hudi.common.model.DefaultHoodieRecordPayload\n")
	tbl, err := reader.OpenTable(context.Background(), m.dir, reader.TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := tbl.Tasks(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, task := range tasks {
		b, err := json.Marshal(task)
		if err != nil {
			t.Fatal(err)
		}
		task = table.Task{}
		if err := json.Unmarshal(b, &task); err != nil {
			t.Fatal(err)
		}
		mem := testutil.CheckedAllocator(t)
		rr, err := reader.ReadTask(context.Background(), storage.OSFS{}, task, reader.TaskOptions{Allocator: mem})
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.TrimSpace(testutil.ReaderJSON(t, rr)))
		rr.Release()
	}
	want := `{"id":3,"name":"c","ts":10,"score":null}
{"id":4,"name":"d","ts":10,"score":null}
{"id":1,"name":"a2","ts":20,"score":null}
{"id":5,"name":"e2","ts":70,"score":1.5}
{"id":6,"name":"f","ts":70,"score":2.5}
{"id":7,"name":"g","ts":20,"score":null}`
	if got := strings.Join(lines, "\n"); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
}

// TestHudiMergeCorrupt: a log with a bad block length, an unknown block
// type or a schema its records do not match fails the read with a
// classified error naming the log file; never a panic or other rows. A
// budget smaller than the log records fails with ErrMergeBudget.
func TestHudiMergeCorrupt(t *testing.T) {
	props := "hoodie.table.precombine.field=ts\n"
	read := func(m *morTable, opts reader.TableOptions) error {
		opts.Allocator = testutil.CheckedAllocator(t)
		tbl, err := reader.OpenTable(context.Background(), m.dir, opts)
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
	logName := ".g2_20240101000000002.log.1_0-1-1"
	good := hudiwrite.EncodeBlock(func() hudiwrite.Block {
		b, _ := hudiwrite.AvroData("20240101000000002", morLogV1, []map[string]any{rec("k7", 7, "g", 20)})
		return b
	}())
	badLen := append([]byte(nil), good...)
	badLen[13] ^= 0x40 // the block size's low byte
	badType := append([]byte(nil), good...)
	badType[21] = 9
	for _, c := range []struct {
		name  string
		log   []byte
		class error
		text  string
	}{
		{"bad block length", badLen, lakecat.ErrCorrupt, "hudilog: corrupt block in "},
		{"unknown block type", badType, lakecat.ErrCorrupt, "unknown block type 9"},
	} {
		m := writeMOR(t, props)
		m.put(logName, c.log)
		err := read(m, reader.TableOptions{})
		if !errors.Is(err, c.class) || !errors.Is(err, hudilog.ErrCorrupt) || !strings.Contains(err.Error(), c.text) || !strings.Contains(err.Error(), logName) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	// A log block whose id column is a string: the table's id is an int.
	m := writeMOR(t, props)
	m.log(logName, m.avroBlock("20240101000000002", strings.Replace(morLogV1, `{"name":"id","type":"int"}`, `{"name":"id","type":"string"}`, 1),
		map[string]any{"_hoodie_commit_time": nil, "_hoodie_record_key": "k7", "id": "seven", "name": "g", "ts": int64(20)}))
	if err := read(m, reader.TableOptions{}); !errors.Is(err, lakecat.ErrIncompatibleSchema) || !strings.Contains(err.Error(), logName) {
		t.Errorf("unresolvable schema: %v (class %v)", err, lakecat.ClassOf(err))
	}
	// A log block without a record key.
	m = writeMOR(t, props)
	m.log(logName, m.avroBlock("20240101000000002", morLogV1, map[string]any{"_hoodie_commit_time": nil, "_hoodie_record_key": nil, "id": 7, "name": "g", "ts": int64(20)}))
	if err := read(m, reader.TableOptions{}); !errors.Is(err, reader.ErrCorruptLog) || !errors.Is(err, lakecat.ErrCorrupt) || !strings.Contains(err.Error(), logName) {
		t.Errorf("no record key: %v", err)
	}
	m = writeMOR(t, props)
	if err := read(m, reader.TableOptions{MemoryBytes: 64}); !errors.Is(err, reader.ErrMergeBudget) || !errors.Is(err, lakecat.ErrUnsupported) {
		t.Errorf("budget: %v", err)
	}
}

// TestHudiMergeFilter: a filter applies to the merged rows: k1's base row
// (name "a") was updated to "a2", so name = 'a' selects nothing, and a
// filter on the updated values selects the log records. A slice of log
// files only has a plan (its first data block's).
func TestHudiMergeFilter(t *testing.T) {
	m := writeMOR(t, "hoodie.table.precombine.field=ts\nhoodie.compaction.payload.class=org.apache.hudi.common.model.DefaultHoodieRecordPayload\n")
	for _, c := range []struct{ where, want string }{
		{"name = 'a'", ""},
		{"name = 'a2' or name = 'd'", `{"id":1,"name":"a2","ts":20,"score":null}` + "\n" + `{"id":4,"name":"d","ts":10,"score":null}`},
		{"ts >= 70", `{"id":5,"name":"e2","ts":70,"score":1.5}` + "\n" + `{"id":6,"name":"f","ts":70,"score":2.5}`},
	} {
		e, err := expr.Parse(c.where)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(scanTableRows(t, m.dir, reader.TableOptions{Filter: e}), "\n")
		if got != c.want {
			t.Errorf("%s:\n%s\nwant:\n%s", c.where, got, c.want)
		}
	}
	tbl, err := reader.OpenTable(context.Background(), m.dir, reader.TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := tbl.Plan(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	if got := p.ArrowSchema().String(); !strings.Contains(got, "score: type=float64") || !strings.Contains(got, "id: type=int32") {
		t.Errorf("log-only slice plan: %s", got)
	}
}

// TestHudiMergePrune: the statistics of a base file do not rule out its
// file slice (its log records may match), and a slice of log files only is
// not opened as a data file.
func TestHudiMergePrune(t *testing.T) {
	m := writeMOR(t, "hoodie.table.precombine.field=ts\n")
	e, _ := expr.Parse("ts >= 70")
	tbl, err := reader.OpenTable(context.Background(), m.dir, reader.TableOptions{Filter: e, ListOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := range tbl.Files {
		pr, err := tbl.Prune(context.Background(), i)
		if err != nil || !pr.MayMatch {
			t.Errorf("file %d: %+v %v", i, pr, err)
		}
	}
}

// TestHudiMergeIsDeleted: a log record with _hoodie_is_deleted true
// deletes its key (k1) and its column reads as stored; a key deleted by a
// delete block and then written again comes back, whatever the two
// ordering values (k3 below the delete's, k4 too): after a delete Hudi's
// preCombine takes the later record.
func TestHudiMergeIsDeleted(t *testing.T) {
	m := newMORTable(t, "hoodie.table.precombine.field=ts\nhoodie.compaction.payload.class=org.apache.hudi.common.model.DefaultHoodieRecordPayload\n")
	avro := `{"type":"record","name":"t_record","fields":[{"name":"id","type":"int"},{"name":"ts","type":"long"},{"name":"_hoodie_is_deleted","type":["null","boolean"],"default":null}]}`
	logSchema := `{"type":"record","name":"t_record","fields":[{"name":"_hoodie_record_key","type":["null","string"],"default":null},{"name":"id","type":"int"},{"name":"ts","type":"long"},{"name":"_hoodie_is_deleted","type":["null","boolean"],"default":null}]}`
	m.commit("20240101000000001", avro)
	m.commit("20240101000000002", avro)
	m.commit("20240101000000003", avro)
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "_hoodie_record_key", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "ts", Type: arrow.PrimitiveTypes.Int64},
		{Name: "_hoodie_is_deleted", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	}, nil)
	writeArrowParquet(t, filepath.Join(m.dir, "g1_0-1-1_20240101000000001.parquet"), sc,
		`[{"_hoodie_record_key":"k1","id":1,"ts":1,"_hoodie_is_deleted":false},{"_hoodie_record_key":"k2","id":2,"ts":1,"_hoodie_is_deleted":false}]`)
	r := func(key string, id int, ts int64, del bool) map[string]any {
		return map[string]any{"_hoodie_record_key": key, "id": id, "ts": ts, "_hoodie_is_deleted": del}
	}
	m.log(".g1_20240101000000001.log.1_0-1-1",
		m.avroBlock("20240101000000002", logSchema, r("k1", 1, 5, true), r("k2", 2, 5, false)),
		m.deleteBlock("20240101000000002", hudiwrite.Delete{Key: "k3", Ordering: int64(9)}, hudiwrite.Delete{Key: "k4", Ordering: int64(9)}),
		m.avroBlock("20240101000000003", logSchema, r("k3", 3, 2, false), r("k4", 4, 20, false)),
	)
	got := scanTableRows(t, m.dir, reader.TableOptions{})
	want := rowsOf(`
{"id":2,"ts":5,"_hoodie_is_deleted":false}
{"id":3,"ts":2,"_hoodie_is_deleted":false}
{"id":4,"ts":20,"_hoodie_is_deleted":false}`)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestHudiMergeNotSplit: a file slice's task is not split at row groups
// (each part would merge the logs again): a split size of one byte gives the
// same rows.
func TestHudiMergeNotSplit(t *testing.T) {
	m := writeMOR(t, "hoodie.table.precombine.field=ts\nhoodie.compaction.payload.class=org.apache.hudi.common.model.DefaultHoodieRecordPayload\n")
	got := scanTableRows(t, m.dir, reader.TableOptions{SplitBytes: 1})
	want := rowsOf(`
{"id":3,"name":"c","ts":10,"score":null}
{"id":4,"name":"d","ts":10,"score":null}
{"id":1,"name":"a2","ts":20,"score":null}
{"id":5,"name":"e2","ts":70,"score":1.5}
{"id":6,"name":"f","ts":70,"score":2.5}
{"id":7,"name":"g","ts":20,"score":null}`)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestHudiMergeListOnly: a table whose merge a scan refuses (a custom
// payload class) still lists its base files.
func TestHudiMergeListOnly(t *testing.T) {
	m := writeMOR(t, "hoodie.compaction.payload.class=com.example.MyPayload\n")
	tbl, err := reader.OpenTable(context.Background(), m.dir, reader.TableOptions{ListOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(tbl.Files) != 1 || tbl.Files[0].Format != "PARQUET" || tbl.Files[0].Task.Hudi != nil {
		t.Errorf("files %+v", tbl.Files)
	}
}

// TestHudiMergeParquetBlock: a Parquet data block (its content a Parquet
// file with the meta columns, as Spark writes them) merges as an Avro one
// does: k3's update of instant 008 replaces its base row.
func TestHudiMergeParquetBlock(t *testing.T) {
	m := writeMOR(t, "hoodie.table.precombine.field=ts\nhoodie.compaction.payload.class=org.apache.hudi.common.model.DefaultHoodieRecordPayload\n")
	m.commit("20240101000000008", morV2)
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "_hoodie_commit_time", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "_hoodie_record_key", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ts", Type: arrow.PrimitiveTypes.Int64},
		{Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	p := filepath.Join(t.TempDir(), "block.parquet")
	writeParquetRowGroups(t, p, sc, 10, `[{"_hoodie_commit_time":"20240101000000008","_hoodie_record_key":"k3","id":3,"name":"c-pq","ts":80,"score":8.5}]`)
	content, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	m.log(".g1_20240101000000001.log.3_0-1-1", hudiwrite.ParquetData("20240101000000008", morLogV2, content))
	got := scanTableRows(t, m.dir, reader.TableOptions{})
	want := rowsOf(`
{"id":1,"name":"a2","ts":20,"score":null}
{"id":3,"name":"c-pq","ts":80,"score":8.5}
{"id":4,"name":"d","ts":10,"score":null}
{"id":5,"name":"e2","ts":70,"score":1.5}
{"id":6,"name":"f","ts":70,"score":2.5}
{"id":7,"name":"g","ts":20,"score":null}`)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
