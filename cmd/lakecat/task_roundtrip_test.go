package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
)

// tableFolders returns every folder under root that holds a table (the
// table.Detect rule), not descending into a table found.
func tableFolders(t *testing.T, root string) []string {
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if _, err := table.Detect(context.Background(), storage.OSFS{}, p); err == nil {
			out = append(out, p)
			return filepath.SkipDir
		}
		return nil
	})
	return out
}

// TestTaskRoundTrip plans every table lakecat reads (the real tables of the
// shared test data and the bundled ones), splitting every multi-row-group
// Parquet file into one task per row group and every multi-stripe ORC file
// into one per stripe, encodes the tasks as JSON,
// reads them in a fresh process (internal/taskread, built here) and
// checks that the rows are exactly those `lakecat cat --format jsonl` prints.
func TestTaskRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a helper binary")
	}
	bin := filepath.Join(t.TempDir(), "taskread")
	build := exec.Command("go", "build", "-o", bin, "github.com/lakecat/lakecat/internal/taskread")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build taskread: %v\n%s", err, out)
	}
	repo := testutil.RepoRoot(t)
	dirs := append(tableFolders(t, testutil.RealDir(t)), filepath.Join(repo, "testdata", "orders"), filepath.Join(repo, "testdata", "paimon_orders"),
		multiRowGroupOrders(t))
	var read, refused, tasks, splits, stripeSplits, rows int
	for _, dir := range dirs {
		want, _, code := runCLI(t, "cat", dir, "--format", "jsonl")
		if code != exitOK {
			refused++ // refused by cat too (delete files, primary keys, log files, …)
			continue
		}
		tbl, err := reader.OpenTable(context.Background(), dir, reader.TableOptions{SplitBytes: 1})
		if err != nil {
			t.Errorf("%s: cat reads it, OpenTable: %v", dir, err)
			continue
		}
		planned, err := tbl.Tasks(context.Background())
		if err != nil {
			t.Errorf("%s: Tasks: %v", dir, err)
			continue
		}
		for _, task := range planned {
			if task.RowGroups > 0 {
				splits++
			}
			if task.Stripes > 0 {
				stripeSplits++
			}
		}
		b, err := json.Marshal(planned)
		if err != nil {
			t.Errorf("%s: encode tasks: %v", dir, err)
			continue
		}
		cmd := exec.Command(bin)
		cmd.Stdin = bytes.NewReader(b)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		got, err := cmd.Output()
		if err != nil {
			t.Errorf("%s: taskread: %v: %s", dir, err, stderr.String())
			continue
		}
		if string(got) != want {
			t.Errorf("%s: rows read from %d decoded tasks differ from lakecat cat:\n got %s\nwant %s", dir, len(planned), got, want)
			continue
		}
		read++
		tasks += len(planned)
		rows += strings.Count(want, "\n")
	}
	// Split tasks keep each row's position in its file (_pos) and its file.
	split := multiRowGroupOrders(t)
	want, errOut, code := runCLI(t, "cat", split, "--format", "jsonl", "--columns", "order_id,_file,_pos")
	if code != exitOK || !strings.Contains(want, `"_pos":1`) {
		t.Fatalf("cat _pos: code %d, %s, stdout:\n%s", code, errOut, want)
	}
	tbl, err := reader.OpenTable(context.Background(), split, reader.TableOptions{SplitBytes: 1, Columns: []string{"order_id", "_file", "_pos"}})
	if err != nil {
		t.Fatal(err)
	}
	planned, err := tbl.Tasks(context.Background())
	if err != nil || len(planned) != 6 || planned[1].FirstRowGroup != 1 || planned[1].RowGroups != 1 {
		t.Fatalf("tasks %+v, %v", planned, err)
	}
	b, err := json.Marshal(planned)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Stdin = bytes.NewReader(b)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if got, err := cmd.Output(); err != nil || string(got) != want {
		t.Errorf("_pos through split tasks: %v %s\n got %s\nwant %s", err, stderr.String(), got, want)
	}
	t.Logf("%d tables read through JSON tasks in a fresh process (%d tasks, %d of them row-group splits, %d stripe splits, %d rows); %d refused by cat as well",
		read, tasks, splits, stripeSplits, rows, refused)
	if read < 20 || splits == 0 {
		t.Errorf("too little covered: %d tables, %d split tasks", read, splits)
	}
}

// multiRowGroupOrders returns a copy of the bundled orders table whose data
// files are rewritten with one row per row group (same rows, same schema
// and field ids), so the split of a file into row-group tasks is covered.
func multiRowGroupOrders(t *testing.T) string {
	src := filepath.Join(testutil.RepoRoot(t), "testdata", "orders")
	return testutil.CopyTree(t, src, filepath.Join(t.TempDir(), "orders"), func(p string, b []byte) ([]byte, error) {
		if !strings.HasSuffix(p, ".parquet") {
			return b, nil
		}
		b, err := oneRowPerGroup(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		return b, nil
	})
}

func oneRowPerGroup(b []byte) ([]byte, error) {
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	w := parquet.NewWriter(&out, f.Schema(), parquet.MaxRowsPerRowGroup(1))
	for _, rg := range f.RowGroups() {
		rows := rg.Rows()
		if _, err := parquet.CopyRows(w, rows); err != nil {
			rows.Close()
			return nil, err
		}
		rows.Close()
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
