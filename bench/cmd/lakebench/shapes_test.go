package main

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/reader"
)

// checksumOf reads rr to the end and returns its checksum.
func checksumOf(t *testing.T, what string, rr array.RecordReader, err error) *checksum {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	defer rr.Release()
	c := &checksum{}
	for rr.Next() {
		if err := c.add(rr.RecordBatch()); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	if err := rr.Err(); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return c
}

// TestShapesAgree writes every shape small, by DuckDB and by parquet-go,
// snappy and zstd, and checks that lakecat, pqarrow and DuckDB (its Arrow
// output, in a build with -tags duckdb_arrow) read the same rows: equal row
// counts, null counts and value hashes per column.
func TestShapesAgree(t *testing.T) {
	var names []string
	for _, s := range shapes {
		names = append(names, s.name)
	}
	files, err := shapeFiles(t.TempDir(), names, []string{"snappy", "zstd"}, 0.003, 3000)
	if err != nil {
		t.Fatal(err)
	}
	var d *duck
	if haveDuckArrow {
		if d, err = openDuck(1); err != nil {
			t.Fatal(err)
		}
		defer d.close()
	} else {
		t.Log("DuckDB's own read not compared: build with -tags duckdb_arrow")
	}
	ctx := context.Background()
	for _, f := range files {
		t.Run(f.shape+"/"+f.writer+"/"+f.codec, func(t *testing.T) {
			data, err := os.ReadFile(f.path)
			if err != nil {
				t.Fatal(err)
			}
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rr, err := reader.Open(ctx, bytes.NewReader(data), int64(len(data)), reader.Options{BatchRows: 1000, Allocator: mem})
			lc := checksumOf(t, "lakecat", rr, err)
			if lc.rows != int64(f.rows) {
				t.Fatalf("lakecat read %d rows, want %d", lc.rows, f.rows)
			}
			pr, err := openPqarrow(ctx, data, false)
			pc := checksumOf(t, "pqarrow", pr, err)
			if !lc.equal(pc) {
				t.Errorf("lakecat and pqarrow differ:\nlakecat %v\npqarrow %v", lc, pc)
			}
			if d == nil {
				return
			}
			dc := &checksum{}
			n, err := d.streamArrow(scanQuery(f.path), func(rec arrow.RecordBatch) error { return dc.add(rec) })
			if err != nil {
				t.Fatal(err)
			}
			if n != int64(f.rows) || !lc.equal(dc) {
				t.Errorf("lakecat and DuckDB differ (%d rows):\nlakecat %v\nduckdb  %v", n, lc, dc)
			}
		})
	}
}
