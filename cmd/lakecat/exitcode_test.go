package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
)

// TestExitCodes runs one command line per error class and checks the exit
// code and the one-line message on stderr.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join("..", "..", "testdata", "orders", "data", "00002-orders-schema2.parquet")
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	truncated := write("truncated.parquet", b[:300])
	// The footer length points before the start of the file.
	badFooter := append(append([]byte{}, b[:len(b)-8]...), 0xff, 0xff, 0xff, 0x7f, 'P', 'A', 'R', '1')
	footer := write("footer.parquet", badFooter)
	text := write("hello.txt", []byte("hello, world\n"))
	incompat := write("incompat.json", []byte(`{"type":"struct","schema-id":3,"fields":[{"id":1,"name":"order_id","required":true,"type":"long"},{"id":2,"name":"customer","required":false,"type":"long"}]}`))
	required := write("required.json", []byte(`{"type":"struct","schema-id":3,"fields":[{"id":1,"name":"order_id","required":true,"type":"long"},{"id":99,"name":"must","required":true,"type":"long"}]}`))
	canceled, cancel := context.WithCancel(context.Background())
	cancel()

	cases := []struct {
		name string
		ctx  context.Context
		args []string
		code exitCode
		msg  string // a substring of the one line on stderr
	}{
		{"ok", nil, []string{"cat", good}, exitOK, ""},
		{"usage", nil, []string{"cat", "--bogus"}, exitUsage, "unknown flag: --bogus"},
		{"usage empty where", nil, []string{"cat", good, "--where", ""}, exitUsage, "--where was given an empty value"},
		{"usage empty columns", nil, []string{"cat", good, "--columns", " "}, exitUsage, "--columns was given an empty value"},
		{"usage batch rows", nil, []string{"cat", good, "--batch-rows", "99999999999"}, exitUsage, "--batch-rows must be from 0 (the default, 65536) to 16777216"},
		{"conflict", nil, []string{"evolve", filepath.Join(testutil.RepoRoot(t), "testdata", "orders"), "--add", "customer string", "--dry-run"}, exitConflict, "column already exists"},
		{"not a table", nil, []string{"cat", dir}, exitNotFound, "not an Iceberg, Paimon or Hudi table"},
		{"corrupt truncated", nil, []string{"cat", truncated}, exitCorrupt, "without the trailing PAR1 magic"},
		{"corrupt footer", nil, []string{"cat", footer}, exitCorrupt, "parquet: corrupt"},
		{"unsupported format", nil, []string{"cat", text}, exitUnsupported, `reader: unknown file format: magic "hell"`},
		{"incompatible schema", nil, []string{"cat", "--schema", incompat, good}, exitSchema, "field 2 (customer): incompatible type"},
		{"missing required field", nil, []string{"cat", "--schema", required, good}, exitSchema, "field 99 (must): missing required field"},
		{"not found", nil, []string{"cat", filepath.Join(dir, "nope.parquet")}, exitNotFound, "no such file or directory"},
		{"canceled", canceled, []string{"cat", good}, exitCanceled, "context canceled"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(c.args, &factory{Stdout: &out, Stderr: &errb, Ctx: c.ctx})
			if code != c.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, c.code, errb.String())
			}
			msg := errb.String()
			if c.msg == "" {
				if msg != "" {
					t.Errorf("stderr %q, want none", msg)
				}
				return
			}
			if !strings.HasPrefix(msg, "lakecat: ") || strings.Count(msg, "\n") != 1 || !strings.HasSuffix(msg, "\n") {
				t.Errorf("stderr %q is not one line starting with \"lakecat: \"", msg)
			}
			if !strings.Contains(msg, c.msg) {
				t.Errorf("stderr %q does not contain %q", msg, c.msg)
			}
		})
	}
}
