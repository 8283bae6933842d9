package hudi

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lakecat/lakecat/storage"
)

// TestFileSliceRules: a file group's latest slice is its newest committed
// base file with the log files written onto it, in version order (10 after
// 2); logs of an older slice, of a failed write and of a replaced file group
// are left out; logs written while a compaction is pending (named with the
// compaction's instant) extend the slice being compacted; a file group of
// log files only is a slice without a base; change-data-capture logs
// (write token ending "-cdc") are not part of a slice. SliceTask lists the instants
// from the base file's on, with their schemas, and the merge settings.
func TestFileSliceRules(t *testing.T) {
	root := t.TempDir()
	write := func(rel, data string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".hoodie/hoodie.properties", "hoodie.table.type=MERGE_ON_READ\nhoodie.table.version=6\nhoodie.table.precombine.field=ts\n"+
		"hoodie.compaction.payload.class=org.apache.hudi.common.model.DefaultHoodieRecordPayload\n")
	sch := `"extraMetadata":{"schema":"{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"id\",\"type\":\"int\"},{\"name\":\"ts\",\"type\":\"long\"}]}"}`
	for _, in := range []string{"20240101000000001.commit", "20240101000000002.deltacommit", "20240101000000003.commit", "20240101000000004.deltacommit"} {
		write(".hoodie/"+in, `{"partitionToWriteStats":{"":[]},`+sch+`}`)
	}
	write(".hoodie/20240101000000005.compaction.requested", "")
	write(".hoodie/20240101000000006.deltacommit", `{"partitionToWriteStats":{"":[]},`+sch+`}`)
	write(".hoodie/20240101000000007.deltacommit.inflight", "")
	write("g1_0-1-1_20240101000000001.parquet", "x")
	write(".g1_20240101000000001.log.1_0-1-1", "old slice")
	write("g1_0-1-1_20240101000000003.parquet", "x")
	write(".g1_20240101000000003.log.10_0-1-1", "l10")
	write(".g1_20240101000000003.log.2_0-1-1", "l2")
	write(".g1_20240101000000005.log.1_0-1-1", "pending compaction")
	write(".g1_20240101000000007.log.1_0-1-1", "failed write")
	write(".g2_20240101000000002.log.1_0-1-1", "logs only")
	write(".g1_20240101000000003.log.3_0-1-1-cdc", "change data capture")
	tab, err := Open(context.Background(), storage.OSFS{}, filepath.ToSlash(root))
	if err != nil {
		t.Fatal(err)
	}
	s, err := tab.Plan(context.Background(), ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, fs := range s.FileSlices {
		row := []string{fs.FileID}
		if fs.Base != nil {
			row = append(row, filepath.Base(fs.Base.Path))
		}
		for _, l := range fs.Logs {
			row = append(row, filepath.Base(l.Path))
		}
		got = append(got, row)
	}
	want := [][]string{
		{"g1", "g1_0-1-1_20240101000000003.parquet", ".g1_20240101000000003.log.2_0-1-1", ".g1_20240101000000003.log.10_0-1-1", ".g1_20240101000000005.log.1_0-1-1"},
		{"g2", ".g2_20240101000000002.log.1_0-1-1"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("slices\n got %v\nwant %v", got, want)
	}
	task, err := s.SliceTask(context.Background(), &s.FileSlices[0])
	if err != nil {
		t.Fatal(err)
	}
	h := task.Hudi
	var instants []string
	for _, in := range h.Instants {
		instants = append(instants, in.Time)
	}
	if h == nil || h.NoBase || len(h.LogFiles) != 3 || h.MergeMode != "event-time" || h.Ordering == nil || h.Ordering.Fields[0].Name != "ts" ||
		!reflect.DeepEqual(instants, []string{"20240101000000003", "20240101000000004", "20240101000000006"}) || len(h.Schemas) != 1 || h.KeyFieldID != 3 {
		t.Errorf("slice task %+v instants %v", h, instants)
	}
	task, err = s.SliceTask(context.Background(), &s.FileSlices[1])
	if err != nil || !task.Hudi.NoBase || task.Format != LogFormat || task.Path != s.FileSlices[1].Logs[0].Path || len(task.Hudi.Instants) != 5 {
		t.Errorf("log-only slice task %+v %v", task, err)
	}
	// A payload class the merge does not implement is refused by name.
	tab.Properties["hoodie.compaction.payload.class"] = "org.apache.hudi.common.model.PartialUpdateAvroPayload"
	if _, err := s.SliceTask(context.Background(), &s.FileSlices[0]); !errors.Is(err, ErrUnsupportedMerge) {
		t.Errorf("partial update payload: %v", err)
	}
	tab.Properties["hoodie.compaction.payload.class"] = ""
	tab.Properties["hoodie.table.precombine.field"] = "nope"
	if _, err := s.SliceTask(context.Background(), &s.FileSlices[0]); !errors.Is(err, ErrUnsupportedMerge) {
		t.Errorf("missing ordering field: %v", err)
	}
}
