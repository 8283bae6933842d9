package main

import (
	"path/filepath"
	"testing"
)

// TestWhereGivenTwice: a second --where is a usage error on every verb
// that takes one, rather than silently replacing the first; one --where
// still filters.
func TestWhereGivenTwice(t *testing.T) {
	orders := filepath.Join("..", "..", "testdata", "orders")
	for _, verb := range []string{"cat", "files", "plan"} {
		out, errOut, code := runCLI(t, verb, orders, "--where", "order_id = 1", "--where", "order_id = 2")
		want := `lakecat: invalid argument "order_id = 2" for "--where" flag: given more than once (combine the filters with AND) (see 'lakecat ` + verb + ` --help')` + "\n"
		if code != exitUsage || out != "" || errOut != want {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d, stderr %q", verb, code, out, errOut, exitUsage, want)
		}
	}
	out, errOut, code := runCLI(t, "cat", orders, "--where", "order_id = 1", "--columns", "order_id,customer", "--format", "csv")
	if code != 0 || out != "order_id,customer\n1,alice\n" || errOut != "" {
		t.Errorf("one --where: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
