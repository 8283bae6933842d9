package iceberg

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// mixedTable is a format-v2 table of one snapshot whose manifest list has
// a data manifest and a delete manifest, each of two live entries of the
// contents given (0 data, 1 position deletes).
func mixedTable(t *testing.T, dataContents, deleteContents [2]int) memFS {
	b := &testing.B{}
	m := memFS{}
	var list []any
	for i, contents := range [][2]int{dataContents, deleteContents} {
		recs := make([]any, len(contents))
		for k, c := range contents {
			recs[k] = map[string]any{"status": 1, "snapshot_id": nil, "sequence_number": nil, "data_file": map[string]any{
				"content": c, "file_path": fmt.Sprintf("s3://b/wh/mixed/data/j=0/%d-%d.parquet", i, k), "file_format": "PARQUET",
				"partition":    map[string]any{"j": map[string]any{"int": 0}, "d": nil},
				"record_count": int64(10), "file_size_in_bytes": int64(100), "equality_ids": nil}}
		}
		kind := []string{"data", "deletes"}[i]
		path := fmt.Sprintf("s3://b/wh/mixed/metadata/m%d.avro", i)
		data := encodeOCF(b, synthManifestSchema, map[string][]byte{"format-version": []byte("2"), "partition-spec-id": []byte("0"), "content": []byte(kind)}, recs...)
		m[fmt.Sprintf("mem/mixed/metadata/m%d.avro", i)] = data
		list = append(list, map[string]any{"manifest_path": path, "manifest_length": int64(len(data)), "partition_spec_id": 0,
			"content": i, "sequence_number": int64(1), "min_sequence_number": int64(1), "added_snapshot_id": int64(1)})
	}
	big := bigTable()
	m["mem/mixed/metadata/snap-1.avro"] = encodeOCF(b, `{"type":"record","name":"manifest_file","fields":[
 {"name":"manifest_path","type":"string"},{"name":"manifest_length","type":"long"},{"name":"partition_spec_id","type":"int"},
 {"name":"content","type":"int"},{"name":"sequence_number","type":"long"},{"name":"min_sequence_number","type":"long"},
 {"name":"added_snapshot_id","type":"long"}]}`, map[string][]byte{}, list...)
	m["mem/mixed/metadata/v1.metadata.json"] = []byte(strings.ReplaceAll(string(big["mem/big/metadata/v1.metadata.json"]), "/big", "/mixed"))
	return m
}

// TestManifestContentMismatch: a data manifest that lists a delete file,
// or a delete manifest that lists a data file, is ErrCorruptManifest for
// Plan and for Tasks alike, naming the manifest and the file; the
// well-formed table plans one data file with its delete file.
func TestManifestContentMismatch(t *testing.T) {
	ctx := context.Background()
	plan := func(m memFS) (int, error) {
		tab, err := Open(ctx, m, "mem/mixed")
		if err != nil {
			t.Fatal(err)
		}
		s, err := tab.Plan(ctx, ScanOptions{})
		if err != nil {
			return 0, err
		}
		return len(s.DataFiles) + len(s.DeleteFiles), nil
	}
	tasks := func(m memFS) (int, error) {
		tab, err := Open(ctx, m, "mem/mixed")
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, err := range tab.Tasks(ctx, ScanOptions{}) {
			if err != nil {
				return n, err
			}
			n++
		}
		return n, nil
	}
	if n, err := plan(mixedTable(t, [2]int{0, 0}, [2]int{1, 1})); n != 4 || err != nil {
		t.Fatalf("well-formed Plan: %d files, %v", n, err)
	}
	if n, err := tasks(mixedTable(t, [2]int{0, 0}, [2]int{1, 1})); n != 2 || err != nil {
		t.Fatalf("well-formed Tasks: %d tasks, %v", n, err)
	}
	for _, c := range []struct {
		data, deletes [2]int
		want          string
	}{
		{[2]int{0, 1}, [2]int{1, 1}, "m0.avro): iceberg: corrupt manifest: a data manifest lists the position deletes file s3://b/wh/mixed/data/j=0/0-1.parquet"},
		{[2]int{0, 0}, [2]int{1, 0}, "m1.avro): iceberg: corrupt manifest: a delete manifest lists the data file s3://b/wh/mixed/data/j=0/1-1.parquet"},
	} {
		m := mixedTable(t, c.data, c.deletes)
		_, perr := plan(m)
		_, terr := tasks(m)
		for name, err := range map[string]error{"Plan": perr, "Tasks": terr} {
			if !errors.Is(err, ErrCorruptManifest) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v %v: %s: %v; want ErrCorruptManifest, %q", c.data, c.deletes, name, err, c.want)
			}
		}
	}
}
