package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/schema"
)

// TestFormatParquet materializes tables with `cat --format parquet
// --output F` and reads F back with lakecat: the same jsonl rows, and the
// same Arrow schema (names, types with timestamp units and zones, decimal
// precision and scale, nested types, nullability, field ids) as the
// table's own `cat --format arrow`.
func TestFormatParquet(t *testing.T) {
	real := testutil.RealDir(t)
	repo := testutil.RepoRoot(t)
	tables := []struct {
		name string
		args []string
	}{
		{"orders", []string{filepath.Join(repo, "testdata", "orders")}},
		{"paimon_orders", []string{filepath.Join(repo, "testdata", "paimon_orders"), "--raw"}},
		{"paimon ts precision and zones", []string{filepath.Join(real, "paimon-cpp", "test", "test_data", "parquet", "append_with_multiple_ts_precision_and_timezone.db", "append_with_multiple_ts_precision_and_timezone")}},
		{"impala complex types (structs, lists, maps)", []string{filepath.Join(real, "impala", "testdata", "data", "iceberg_test", "hadoop_catalog", "ice", "complextypestbl_iceberg_orc")}},
		{"duckdb uuid (the UUID logical type)", []string{filepath.Join(real, "duckdb-iceberg", "data", "persistent", "uuid")}},
	}
	for _, tb := range tables {
		t.Run(tb.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "t.parquet")
			if _, errOut, code := runCLI(t, append([]string{"cat", "--format", "parquet", "--output", out}, tb.args...)...); code != exitOK {
				t.Fatalf("cat --format parquet: exit %d, %s", code, errOut)
			}
			want, errOut, code := runCLI(t, append([]string{"cat", "--format", "jsonl"}, tb.args...)...)
			if code != exitOK {
				t.Fatalf("cat jsonl: exit %d, %s", code, errOut)
			}
			got, errOut, code := runCLI(t, "cat", "--format", "jsonl", out)
			if code != exitOK || got != want {
				t.Errorf("rows of the Parquet file (exit %d, %s):\n%s\nwant:\n%s", code, errOut, got, want)
			}
			wantArrow, _, _ := runCLI(t, append([]string{"cat", "--format", "arrow", "--limit", "0"}, tb.args...)...)
			gotArrow, _, _ := runCLI(t, "cat", "--format", "arrow", "--limit", "0", out)
			ws, gs := streamSchema(t, wantArrow), streamSchema(t, gotArrow)
			if !typesEqual(ws.Fields(), gs.Fields()) || !metadataEqual(ws.Fields(), gs.Fields()) {
				t.Errorf("schema of the Parquet file:\n%s\nwant:\n%s", gs, ws)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(repo, "cmd", "lakecat", "t.parquet")); err == nil {
		t.Error("a Parquet file was left in the package folder")
	}
}

func streamSchema(t *testing.T, stream string) *arrow.Schema {
	t.Helper()
	r, err := ipc.NewReader(bytes.NewReader([]byte(stream)), ipc.WithAllocator(memory.NewGoAllocator()))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	return r.Schema()
}

// typesEqual compares names, nullability and types (units, zones,
// precision and scale, nested types) of two field lists, without metadata.
func typesEqual(a, b []arrow.Field) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Nullable != b[i].Nullable || !arrow.TypeEqual(a[i].Type, b[i].Type) {
			return false
		}
	}
	return true
}

// metadataEqual compares the field metadata (field ids) of two field
// lists, nested fields included. Field id 0 (Paimon's first column) is
// the one exception: parquet-go writes no field_id for 0, its "no id".
func metadataEqual(a, b []arrow.Field) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if id, _ := a[i].Metadata.GetValue(schema.FieldIDKey); id != "0" && !a[i].Metadata.Equal(b[i].Metadata) {
			return false
		}
		if na, ok := a[i].Type.(arrow.NestedType); ok {
			nb, ok := b[i].Type.(arrow.NestedType)
			if !ok || !metadataEqual(na.Fields(), nb.Fields()) {
				return false
			}
		}
	}
	return true
}
