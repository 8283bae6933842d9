package main

import (
	"strings"
	"testing"
)

func TestCatWhere(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		// the bundled demo files
		{[]string{"cat", "--where", "channel = 'web' and price > 2", "--format", "jsonl"},
			`{"order_shop_id":100,"order_id":1,"customer":"alice","price":9.5,"amount":"12.34","note":null,"channel":"web"}
{"order_shop_id":null,"order_id":2,"customer":"bob","price":20.25,"amount":"-0.50","note":null,"channel":"web"}
{"order_shop_id":101,"order_id":4,"customer":null,"price":3,"amount":"999.99","note":null,"channel":"web"}
`},
		// a table, filtering on a column not printed
		{[]string{"cat", "../../testdata/orders", "--where", "channel = 'app' or price < 2", "--columns", "order_id", "--format", "jsonl"},
			`{"order_id":3}
{"order_id":5}
`},
		{[]string{"cat", "../../testdata/orders", "--where", "note is null and not order_shop_id > 100", "--columns", "order_id,note", "--format", "jsonl"},
			`{"order_id":1,"note":null}
`},
	} {
		out, errOut, code := runCLI(t, c.args...)
		if code != exitOK || out != c.want {
			t.Errorf("%v: exit %d, stderr %s\nstdout:\n%s\nwant:\n%s", c.args, code, errOut, out, c.want)
		}
	}
}

func TestWhereErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code exitCode
		msg  []string
	}{
		{[]string{"cat", "--where", "channel = 'web' and"}, exitUsage, []string{"--where", "character 20", "expected a column"}},
		{[]string{"cat", "../../testdata/orders", "--where", "customer > 5"}, exitUsage, []string{"customer > 5", "field customer", "string"}},
		{[]string{"cat", "../../testdata/orders", "--where", "nope = 1"}, exitNotFound, []string{`unknown column "nope"`}},
		{[]string{"files", "../../testdata/orders", "--where", "price >"}, exitUsage, []string{"--where", "character 8"}},
		{[]string{"plan", "../../testdata/orders", "--where", "price = 'x'"}, exitUsage, []string{"price = 'x'", "field price"}},
	} {
		out, errOut, code := runCLI(t, c.args...)
		if code != c.code || out != "" {
			t.Errorf("%v: exit %d (want %d), stdout %q, stderr %s", c.args, code, c.code, out, errOut)
		}
		for _, m := range c.msg {
			if !strings.Contains(errOut, m) {
				t.Errorf("%v: stderr %q lacks %q", c.args, errOut, m)
			}
		}
	}
}

func TestFilesAndPlanWhere(t *testing.T) {
	out, errOut, code := runCLI(t, "files", "../../testdata/orders", "--where", "channel = 'app'")
	if code != exitOK || strings.Count(out, "\n") != 2 || !strings.Contains(out, "00002-orders-schema2.parquet") {
		t.Errorf("files --where: exit %d, %s\n%s", code, errOut, out)
	}
	out, errOut, code = runCLI(t, "plan", "../../testdata/orders", "--where", "channel = 'app'")
	want := []string{
		"00000-orders-schema0.parquet  skip  -           1418           columns the file lacks",
		"00001-orders-schema1.parquet  skip  -           1658           columns the file lacks",
		"00002-orders-schema2.parquet  yes   1/1         0              -",
		"files: 1 read, 2 skipped; row groups: 1 of 1 kept; bytes skipped: 3076",
	}
	for _, w := range want {
		if code != exitOK || !strings.Contains(out, w) {
			t.Errorf("plan --where: exit %d, %s: lacks %q in\n%s", code, errOut, w, out)
		}
	}
}

func TestCatWhereNoRow(t *testing.T) {
	out, errOut, code := runCLI(t, "cat", "../../testdata/orders", "--where", "channel = 'none'", "--columns", "order_id", "--format", "csv")
	if code != exitOK || out != "order_id\n" {
		t.Errorf("exit %d, %s, stdout %q", code, errOut, out)
	}
}
