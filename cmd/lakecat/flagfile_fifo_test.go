//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFlagFileFIFO: a FIFO named by a flag that takes a file (--schema,
// --file-schema, --name-mapping, --union-by-name) or by `schema PATH` is
// refused at once as unsupported (exit 4); it blocked open(2) forever,
// deaf to SIGTERM.
func TestFlagFileFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "schema.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	good := filepath.Join("..", "..", "testdata", "orders", "data", "00002-orders-schema2.parquet")
	orders := filepath.Join("..", "..", "testdata", "orders")
	for _, args := range [][]string{
		{"cat", "--schema", fifo, good},
		{"cat", "--file-schema", fifo, good},
		{"cat", "--name-mapping", fifo, good},
		{"plan", good, "--schema", fifo},
		{"evolve", orders, "--union-by-name", fifo, "--dry-run"},
		{"schema", fifo},
	} {
		_, errOut, code := runCLI(t, args...)
		if code != exitUnsupported || !strings.Contains(errOut, "not a regular file") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}
