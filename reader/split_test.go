package reader_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakecat/lakecat/formats/orc"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
)

// orcTask returns a task that reads the ORC file at path whole, with _pos:
// its columns located by name through the file's own schema given fresh
// field ids (the real files carry none).
func orcTask(path string, f *orc.File) table.Task {
	s := f.Schema().Clone()
	id := 1
	schema.Walk(s.Fields, func(_ []string, fl *schema.Field) bool {
		fl.ID = id
		id++
		return true
	})
	s = schema.New(0, s.Fields...)
	read := schema.New(0, append(append([]*schema.Field(nil), s.Fields...),
		&schema.Field{ID: reader.FieldIDPos, Name: "_pos", Type: schema.Long, Required: true})...)
	return table.Task{Path: path, Format: "ORC", SizeBytes: -1, RecordCount: -1, FileSchema: s, FileSchemaID: -1, ReadSchema: read, Rules: "iceberg-v2"}
}

// readTasks reads tasks one after another with [reader.ReadTask], each
// JSON-encoded and decoded first, and returns their rows as JSON.
func readTasks(t *testing.T, tasks []table.Task) (string, int64) {
	t.Helper()
	var out bytes.Buffer
	var rows int64
	for _, task := range tasks {
		b, err := json.Marshal(task)
		if err != nil {
			t.Fatal(err)
		}
		var back table.Task
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		if back.FirstStripe != task.FirstStripe || back.Stripes != task.Stripes {
			t.Fatalf("stripes after the round trip: %d+%d, want %d+%d", back.FirstStripe, back.Stripes, task.FirstStripe, task.Stripes)
		}
		rr, err := reader.ReadTask(context.Background(), storage.OSFS{}, back, reader.TaskOptions{Allocator: testutil.CheckedAllocator(t), BatchRows: 1000})
		if err != nil {
			t.Fatalf("%s stripes %d+%d: %v", task.Path, task.FirstStripe, task.Stripes, err)
		}
		for rr.Next() {
			rows += rr.RecordBatch().NumRows()
		}
		rr.Release()
		rr, err = reader.ReadTask(context.Background(), storage.OSFS{}, back, reader.TaskOptions{Allocator: testutil.CheckedAllocator(t), BatchRows: 1000})
		if err != nil {
			t.Fatal(err)
		}
		out.WriteString(testutil.ReaderJSON(t, rr))
		rr.Release()
	}
	return out.String(), rows
}

// TestSplitTaskORCStripes splits the real multi-stripe ORC files of
// apache/orc's examples into one task per stripe (and into runs of
// stripes) with [reader.SplitTask]: read one after another through their
// JSON encoding, the split tasks give every row of the whole-file read
// exactly once, in order, with the same _pos.
func TestSplitTaskORCStripes(t *testing.T) {
	dir := testutil.RealDir(t, "apache-orc", "examples")
	names, err := filepath.Glob(filepath.Join(dir, "*.orc"))
	if err != nil {
		t.Fatal(err)
	}
	tested := 0
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := orc.Open(bytes.NewReader(data), int64(len(data)))
		if err != nil || f.NumStripes() < 2 || f.NumRows() > 100_000 {
			continue // the large ones take long to compare as JSON
		}
		task := orcTask(name, f)
		if rr, err := reader.ReadTask(context.Background(), storage.OSFS{}, task, reader.TaskOptions{}); err != nil {
			continue // a file the reader refuses whole too
		} else {
			rr.Release()
		}
		want, wantRows := readTasks(t, []table.Task{task})
		if wantRows != f.NumRows() {
			t.Fatalf("%s: %d rows read whole, the footer says %d", name, wantRows, f.NumRows())
		}
		parts, err := reader.SplitTask(context.Background(), storage.OSFS{}, task, 1, reader.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if len(parts) != f.NumStripes() {
			t.Fatalf("%s: %d tasks of %d stripes", name, len(parts), f.NumStripes())
		}
		for i, p := range parts {
			if p.FirstStripe != i || p.Stripes != 1 || p.FirstRowGroup != 0 || p.RowGroups != 0 {
				t.Fatalf("%s: task %d selects stripes %d+%d, row groups %d+%d", name, i, p.FirstStripe, p.Stripes, p.FirstRowGroup, p.RowGroups)
			}
		}
		if got, rows := readTasks(t, parts); got != want || rows != wantRows {
			t.Errorf("%s: %d stripe tasks give %d rows, differing from the whole file's %d", name, len(parts), rows, wantRows)
		}
		// Runs of about half the file each.
		half := (int64(len(data)) + 1) / 2
		runs, err := reader.SplitTask(context.Background(), storage.OSFS{}, task, half, reader.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		covered := 0
		for _, p := range runs {
			if p.FirstStripe != covered || p.Stripes < 1 {
				t.Fatalf("%s: runs %+v do not tile the stripes", name, runs)
			}
			covered += p.Stripes
		}
		if covered != f.NumStripes() || len(runs) > 3 {
			t.Fatalf("%s: %d runs cover %d of %d stripes", name, len(runs), covered, f.NumStripes())
		}
		if got, _ := readTasks(t, runs); got != want {
			t.Errorf("%s: %d runs of stripes differ from the whole file", name, len(runs))
		}
		tested++
	}
	t.Logf("%d ORC files of several stripes split", tested)
	if tested < 2 {
		t.Fatalf("%d ORC files of several stripes split", tested)
	}
}

// TestTaskRangeOfAnotherFormat: a stripe range of a Parquet file is
// [reader.ErrStripeRange], a row-group range of an ORC file
// [reader.ErrRowGroupRange], a task with both is refused, and a task that
// already selects a range, or an Avro file, is not split again.
func TestTaskRangeOfAnotherFormat(t *testing.T) {
	ctx := context.Background()
	pq := filepath.Join(testutil.RepoRoot(t), "testdata", "orders", "data", "00000-orders-schema0.parquet")
	read := schema.New(0, &schema.Field{ID: 1, Name: "order_id", Type: schema.Long})
	_, err := reader.ReadTask(ctx, storage.OSFS{}, table.Task{Path: pq, Format: "PARQUET", ReadSchema: read, FirstStripe: 0, Stripes: 1}, reader.TaskOptions{})
	if !errors.Is(err, reader.ErrStripeRange) {
		t.Errorf("stripes of a Parquet file: %v", err)
	}
	_, err = reader.ReadTask(ctx, storage.OSFS{}, table.Task{Path: pq, Format: "PARQUET", ReadSchema: read, RowGroups: 1, Stripes: 1}, reader.TaskOptions{})
	if !errors.Is(err, reader.ErrStripeRange) {
		t.Errorf("row groups and stripes: %v", err)
	}
	name := filepath.Join(testutil.RealDir(t, "apache-orc", "examples"), "demo-12-zlib.orc")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	f, err := orc.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	task := orcTask(name, f)
	task.RowGroups = 1
	if _, err := reader.ReadTask(ctx, storage.OSFS{}, task, reader.TaskOptions{}); !errors.Is(err, reader.ErrRowGroupRange) {
		t.Errorf("row groups of an ORC file: %v", err)
	}
	for _, task := range []table.Task{task, {Path: "x.avro", Format: "AVRO", ReadSchema: read}} {
		got, err := reader.SplitTask(ctx, storage.OSFS{}, task, 1, reader.Limits{})
		if err != nil || len(got) != 1 {
			t.Errorf("%s: split into %d tasks, %v", task.Path, len(got), err)
		}
	}
}
