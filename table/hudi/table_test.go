package hudi

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
)

// unzipTable extracts a hudi-rs sample table zip into a temporary folder
// (leaving out macOS "__MACOSX" entries) and returns the table folder.
func unzipTable(t *testing.T, rel, table string) string {
	t.Helper()
	zp := filepath.Join(testutil.RealDir(t, "hudi-rs", "crates", "test", "data", "sample_table"), rel)
	zr, err := zip.OpenReader(zp)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	dst := t.TempDir()
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "__MACOSX") {
			continue
		}
		p := filepath.Join(dst, filepath.FromSlash(f.Name))
		if !strings.HasPrefix(p, dst+string(filepath.Separator)) {
			t.Fatalf("zip entry %q escapes the folder", f.Name)
		}
		if f.FileInfo().IsDir() {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		out, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		_, err = io.Copy(out, rc)
		rc.Close()
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return filepath.ToSlash(filepath.Join(dst, table))
}

// wantSchema is the sample tables' schema (hudi-rs EXPECTED.md), with the ids
// IDs assigns: top-level 1..16, then nested fields breadth first per struct.
func wantSchema() *schema.Schema {
	opt := func(id int, name string, t schema.Type) *schema.Field {
		return &schema.Field{ID: id, Name: name, Type: t}
	}
	arrStruct := &schema.StructType{Fields: []*schema.Field{opt(18, "arr_struct_f1", schema.String), opt(19, "arr_struct_f2", schema.Int)}}
	mapStruct := &schema.StructType{Fields: []*schema.Field{opt(22, "map_field_value_struct_f1", schema.Double), opt(23, "map_field_value_struct_f2", schema.Boolean)}}
	child := &schema.StructType{Fields: []*schema.Field{opt(27, "child_field1", schema.Double), opt(28, "child_field2", schema.Boolean)}}
	return schema.New(0,
		opt(1, "id", schema.Int), opt(2, "name", schema.String), opt(3, "isActive", schema.Boolean),
		opt(4, "byteField", schema.Int), opt(5, "shortField", schema.Int), opt(6, "intField", schema.Int),
		opt(7, "longField", schema.Long), opt(8, "floatField", schema.Float), opt(9, "doubleField", schema.Double),
		opt(10, "decimalField", schema.Decimal(10, 5)), opt(11, "dateField", schema.Date),
		opt(12, "timestampField", schema.TimestampTz), opt(13, "binaryField", schema.Binary),
		opt(14, "arrayField", schema.NewList(17, arrStruct, false)),
		opt(15, "mapField", schema.NewMap(20, schema.String, 21, mapStruct, false)),
		opt(16, "structField", &schema.StructType{Fields: []*schema.Field{opt(24, "field1", schema.String), opt(25, "field2", schema.Int), opt(26, "child_struct", child)}}),
	)
}

func TestCopyOnWriteV8(t *testing.T) {
	root := unzipTable(t, "cow/v8_nonpartitioned.zip", "v8_nonpartitioned")
	ctx := context.Background()
	tab, err := Open(ctx, storage.OSFS{}, root)
	if err != nil {
		t.Fatal(err)
	}
	if tab.TableType() != "COPY_ON_WRITE" || tab.Properties["hoodie.table.version"] != "8" || tab.Properties["hoodie.table.recordkey.fields"] != "id" {
		t.Errorf("properties: %v", tab.Properties)
	}
	s, err := tab.Plan(ctx, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []BaseFile{{
		Path:   root + "/2746610d-ad02-4adb-a038-5cbb99cbd455-0_0-75-100_20250713010536861.parquet",
		FileID: "2746610d-ad02-4adb-a038-5cbb99cbd455-0", WriteToken: "0-75-100", InstantTime: "20250713010536861",
		Format: "PARQUET", SizeBytes: 441515, RecordCount: 4,
	}}
	if !reflect.DeepEqual(s.BaseFiles, want) {
		t.Errorf("base files\n got %+v\nwant %+v", s.BaseFiles, want)
	}
	if s.Instant.Time != "20250713010536861" || s.Instant.CompletionTime != "20250713010537206" || s.Instant.Action != "commit" {
		t.Errorf("instant %+v", s.Instant)
	}
	if !s.Schema.Equal(wantSchema()) {
		t.Errorf("schema\n got %s\nwant %s", s.Schema, wantSchema())
	}
	ws, err := s.WriterSchema(ctx, &s.BaseFiles[0])
	if err != nil || !ws.Equal(wantSchema()) {
		t.Errorf("writer schema %v, %v", ws, err)
	}
	if s.LogsError() != nil || s.IsMergeOnRead() {
		t.Errorf("copy-on-write: %v %v", s.LogsError(), s.IsMergeOnRead())
	}
	// hoodie.table.create.schema (escaped "\:" in the properties file,
	// unions written ["int","null"]) converts to the same schema.
	cs, err := ConvertAvroSchema(tab.Properties["hoodie.table.create.schema"], nil)
	if err != nil || !cs.Equal(wantSchema()) {
		t.Errorf("create schema %v, %v", cs, err)
	}

	// As of the first commit: the first base file of the same file group.
	s, err = tab.Plan(ctx, ScanOptions{AsOfInstant: "20250713010535797"})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.BaseFiles) != 1 || s.BaseFiles[0].InstantTime != "20250713010535797" || s.BaseFiles[0].WriteToken != "0-54-79" || s.BaseFiles[0].RecordCount != 3 {
		t.Errorf("as of the first commit: %+v", s.BaseFiles)
	}
	if _, err := tab.Plan(ctx, ScanOptions{AsOfInstant: "2024"}); !errors.Is(err, ErrNoCommits) {
		t.Errorf("as of before the first commit: err = %v", err)
	}
}

func TestInstantTime(t *testing.T) {
	if got := InstantTime(time.Date(2025, 7, 13, 1, 5, 36, 861_999_999, time.UTC)); got != "20250713010536861" {
		t.Errorf("InstantTime = %s", got)
	}
}

func TestMergeOnReadV6(t *testing.T) {
	root := unzipTable(t, "mor/parquet/v6_nonpartitioned.zip", "v6_nonpartitioned")
	ctx := context.Background()
	tab, err := Open(ctx, storage.OSFS{}, root)
	if err != nil {
		t.Fatal(err)
	}
	s, err := tab.Plan(ctx, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range s.BaseFiles {
		got = append(got, fmt.Sprintf("%s %s rows=%d", strings.TrimPrefix(f.Path, root+"/"), f.InstantTime, f.RecordCount))
	}
	want := []string{
		"d206069c-22c8-4532-b9ea-3cf4282342c4-0_0-13-23_20250117083125837.parquet 20250117083125837 rows=3",
		"d5c0b12d-088d-48e8-9683-3f0c1eabcaf0-0_1-33-44_20250117083136333.parquet 20250117083136333 rows=1",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("base files\n got %v\nwant %v", got, want)
	}
	wantLogs := []LogFile{{Path: root + "/.d206069c-22c8-4532-b9ea-3cf4282342c4-0_20250117083125837.log.1_0-33-43",
		FileID: "d206069c-22c8-4532-b9ea-3cf4282342c4-0", BaseInstant: "20250117083125837", Version: 1, WriteToken: "0-33-43", SizeBytes: 11721}}
	if !reflect.DeepEqual(s.LogFiles, wantLogs) {
		t.Errorf("log files\n got %+v\nwant %+v", s.LogFiles, wantLogs)
	}
	if len(s.FileSlices) != 2 || s.FileSlices[0].Base != &s.BaseFiles[0] || !reflect.DeepEqual(s.FileSlices[0].Logs, wantLogs) ||
		s.FileSlices[1].Base != &s.BaseFiles[1] || len(s.FileSlices[1].Logs) != 0 {
		t.Errorf("file slices %+v", s.FileSlices)
	}
	err = s.LogsError()
	if !errors.Is(err, ErrMergeOnRead) || err.Error() != "hudi: merge-on-read log files: 1 log files in 1 file groups hold changes not in the base files" {
		t.Errorf("LogsError = %v", err)
	}
	if !s.IsMergeOnRead() || s.Instant.Action != "deltacommit" || s.Instant.Time != "20250117083136333" {
		t.Errorf("MOR %v instant %+v", s.IsMergeOnRead(), s.Instant)
	}
	if !s.Schema.Equal(wantSchema()) {
		t.Errorf("schema\n got %s\nwant %s", s.Schema, wantSchema())
	}
}

// TestMissingLogFile: a log file a completed deltacommit's write stats name
// is required like a base file: missing, Plan fails with fs.ErrNotExist
// naming it; shorter than its recorded fileSizeInBytes, with
// ErrShortLogFile (class ErrCorrupt). Reading without it would return the
// base rows its blocks update.
func TestMissingLogFile(t *testing.T) {
	const log = ".d206069c-22c8-4532-b9ea-3cf4282342c4-0_20250117083125837.log.1_0-33-43"
	ctx := context.Background()
	plan := func(root string) error {
		tab, err := Open(ctx, storage.OSFS{}, root)
		if err != nil {
			t.Fatal(err)
		}
		_, err = tab.Plan(ctx, ScanOptions{})
		return err
	}
	root := unzipTable(t, "mor/parquet/v6_nonpartitioned.zip", "v6_nonpartitioned")
	if err := os.Truncate(filepath.Join(root, log), 11720); err != nil {
		t.Fatal(err)
	}
	err := plan(root)
	if !errors.Is(err, ErrShortLogFile) || !errors.Is(err, lakecat.ErrCorrupt) || !strings.Contains(err.Error(), log+": 11720 bytes, a completed commit recorded 11721") {
		t.Errorf("short log: %v", err)
	}
	// Planning the base files only reads no log: the short log is no error.
	baseOnly := func(root string) {
		t.Helper()
		tab, err := Open(ctx, storage.OSFS{}, root)
		if err != nil {
			t.Fatal(err)
		}
		s, err := tab.Plan(ctx, ScanOptions{IgnoreLogs: true})
		if err != nil {
			t.Errorf("IgnoreLogs: %v", err)
		} else if len(s.BaseFiles) == 0 {
			t.Errorf("IgnoreLogs: no base files")
		}
	}
	baseOnly(root)
	if err := os.Remove(filepath.Join(root, log)); err != nil {
		t.Fatal(err)
	}
	baseOnly(root)
	err = plan(root)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "log file "+root+"/"+log+" written by a completed commit") {
		t.Errorf("missing log: %v", err)
	}
}
