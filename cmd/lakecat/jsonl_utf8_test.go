package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// TestJSONLInvalidUTF8 cats a Parquet string column holding invalid UTF-8,
// quotes, backslashes and control characters: every jsonl line parses
// with encoding/json and each invalid byte reads back as U+FFFD.
func TestJSONLInvalidUTF8(t *testing.T) {
	type row struct {
		S string `parquet:"s"`
	}
	vals := []string{"3\xb8e", "q\"b\\s\n\x01\x7f\t\r", "\xff\xfe", "ok\u2028é😀"}
	rows := make([]row, len(vals))
	for i, v := range vals {
		rows[i].S = v
	}
	path := filepath.Join(t.TempDir(), "bad.parquet")
	if err := parquet.WriteFile(path, rows); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "cat", "--format", "jsonl", path)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := []string{"3\ufffde", "q\"b\\s\n\x01\x7f\t\r", "\ufffd\ufffd", "ok\u2028é😀"}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i, l := range lines {
		var got struct{ S string }
		if err := json.Unmarshal([]byte(l), &got); err != nil {
			t.Errorf("line %d %q: %v", i+1, l, err)
			continue
		}
		if got.S != want[i] {
			t.Errorf("line %d: s %q, want %q", i+1, got.S, want[i])
		}
	}
	if lines[0] != `{"s":"3\ufffde"}` {
		t.Errorf("line 1 %s, want {\"s\":\"3\\ufffde\"}", lines[0])
	}
}
