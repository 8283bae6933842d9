package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go/format"

	"github.com/lakecat/lakecat/internal/hostile"
)

// TestHostileFilesBinary builds the lakecat binary and runs `lakecat cat`
// in a subprocess on the inputs that used to end the process with a Go
// `fatal error` (out of memory in parquet-go's thrift decoder, a stack
// overflow in its skip) or a decompression bomb: each must exit 3
// (corrupt input) with one line on stderr, and no runtime error. A FIFO
// named as a data file must be refused (exit 4) instead of blocking open(2).
// A table whose manifests or manifest list are such Avro inputs exits 3 too.
// Each run has two minutes, far above the milliseconds it takes.
func TestHostileFilesBinary(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "lakecat")
	build := exec.Command(gobin, "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cases := []struct {
		name string
		data []byte
		code int
		// manifests, when set, names the files of a copy of the
		// generated orders table that data replaces (a hostile manifest
		// list or manifest); the table is read.
		manifests string
	}{
		{"footer-huge-list.parquet", hostile.ParquetHugeSchemaList(), 3, ""},
		{"footer-deep-nesting.parquet", hostile.ParquetDeepFooter(4 << 20), 3, ""},
		{"page-header-deep-nesting.parquet", hostile.ParquetDeepPageHeader(4 << 20), 3, ""},
		{"page-header-huge-list.parquet", hostile.ParquetHugeListPageHeader(), 3, ""},
		{"zstd-bomb.parquet", hostile.ParquetBomb(format.Zstd, false), 3, ""},
		{"block-size.avro", hostile.AvroHugeBlockSize(), 3, ""},
		{"array-count.avro", hostile.AvroHugeArrayCount(), 3, ""},
		{"deflate-bomb.avro", hostile.AvroBomb("deflate"), 3, ""},
		{"fifo.parquet", nil, 4, ""},
		{"manifest-block-size", hostile.AvroHugeBlockSize(), 3, "orders-m"},
		{"manifest-array-count", hostile.AvroHugeArrayCount(), 3, "orders-m"},
		{"manifest-list-zstandard-bomb", hostile.AvroBomb("zstandard"), 3, "snap-"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name)
			if c.manifests != "" {
				copyTree(t, filepath.Join("..", "..", "testdata", "orders"), path)
				names, _ := filepath.Glob(filepath.Join(path, "metadata", c.manifests+"*.avro"))
				if len(names) == 0 {
					t.Fatalf("no %s* manifests", c.manifests)
				}
				for _, n := range names {
					if err := os.WriteFile(n, c.data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			} else if c.data == nil {
				if err := syscall.Mkfifo(path, 0o644); err != nil {
					t.Skipf("mkfifo: %v", err)
				}
			} else if err := os.WriteFile(path, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "cat", path)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("run: %v (stderr %q)", err, stderr.String())
			}
			msg := stderr.String()
			if strings.Contains(msg, "fatal error") || strings.Contains(msg, "goroutine ") || strings.Contains(msg, "panic") {
				t.Fatalf("runtime failure:\n%.2000s", msg)
			}
			if ee.ExitCode() != c.code || strings.Count(msg, "\n") != 1 {
				t.Errorf("exit %d, want %d; stderr %q", ee.ExitCode(), c.code, msg)
			}
			t.Logf("exit %d: %s", ee.ExitCode(), strings.TrimSpace(msg))
		})
	}
}
