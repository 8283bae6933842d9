package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/restcatalog"
	"github.com/lakecat/lakecat/testdata/orders"
)

const ordersJSONL = `{"order_shop_id":100,"order_id":1,"customer":"alice","price":9.5,"amount":"12.34","note":null,"channel":"web"}
{"order_shop_id":null,"order_id":2,"customer":"bob","price":20.25,"amount":"-0.50","note":null,"channel":"web"}
{"order_shop_id":5000000000,"order_id":3,"customer":"carol","price":1.5,"amount":null,"note":"gift","channel":"web"}
{"order_shop_id":101,"order_id":4,"customer":null,"price":3,"amount":"999.99","note":null,"channel":"web"}
{"order_shop_id":102,"order_id":5,"customer":"dave","price":0.1,"amount":"1234567890.12","note":"rush","channel":"app"}
{"order_shop_id":null,"order_id":6,"customer":"erin","price":null,"amount":"0.07","note":null,"channel":null}
`

func TestParseCatalogTarget(t *testing.T) {
	cases := []struct {
		catalog, table        string
		uri, prefix, ns, name string
	}{
		{"", "rest://127.0.0.1:8181/wh/db.orders", "http://127.0.0.1:8181", "wh", "db", "orders"},
		{"", "rest://localhost:8181/db.orders", "http://localhost:8181", "", "db", "orders"},
		{"", "rest://catalog.example.com/a/b/acct.tax.paid", "https://catalog.example.com", "a/b", "acct.tax", "paid"},
		{"rest://[::1]:9000/wh", "db.orders", "http://[::1]:9000", "wh", "db", "orders"},
		{"https://catalog.example.com/api/catalog/", "db.orders", "https://catalog.example.com/api/catalog", "", "db", "orders"},
		{"http://127.0.0.1:8181", "db.orders", "http://127.0.0.1:8181", "", "db", "orders"},
	}
	for _, c := range cases {
		got, err := parseCatalogTarget(c.catalog, c.table)
		if err != nil {
			t.Errorf("%s %s: %v", c.catalog, c.table, err)
			continue
		}
		if got.URI != c.uri || got.Prefix != c.prefix || strings.Join(got.Table.Namespace, ".") != c.ns || got.Table.Name != c.name {
			t.Errorf("%s %s: %+v", c.catalog, c.table, got)
		}
	}
	for _, bad := range [][2]string{{"", "rest://host/orders"}, {"", "rest:///db.orders"}, {"ftp://h", "db.t"}, {"rest://h", "db."}, {"", "rest://u:pw-9@h/db.t"}, {"https://u:pw-9@h", "db.t"}, {"http://192.0.2.2:8181/api", "db.orders"}, {"http://catalog.example.com", "db.orders"}} {
		_, err := parseCatalogTarget(bad[0], bad[1])
		if err == nil {
			t.Errorf("%q %q: no error", bad[0], bad[1])
		} else if strings.Contains(err.Error(), "pw-9") {
			t.Errorf("%q %q: error prints the password: %v", bad[0], bad[1], err)
		}
	}
}

func hostPort(srv *restcatalog.Server) string { return strings.TrimPrefix(srv.URL, "http://") }

// TestCatRESTTable reads testdata/orders through the in-process catalog:
// rest:// with the token from the environment, and --catalog with OAuth2
// client credentials from the flag.
func TestCatRESTTable(t *testing.T) {
	srv, _ := restcatalog.WithOrders(t, restcatalog.Options{Token: "env-token-1", Clients: map[string]string{"cli": "s3cret"}, Prefix: "wh"})
	t.Setenv(envCatalogToken, "env-token-1")
	out, errOut, code := runCLI(t, "cat", "--format", "jsonl", "rest://"+hostPort(srv)+"/wh/db.orders")
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if out != ordersJSONL {
		t.Fatalf("stdout:\n%s\nwant\n%s", out, ordersJSONL)
	}
	for _, r := range srv.Requests() {
		if r.Authorization != "Bearer env-token-1" {
			t.Fatalf("%s: Authorization %q", r.Path, r.Authorization)
		}
	}

	t.Setenv(envCatalogToken, "")
	out, errOut, code = runCLI(t, "cat", "--format", "jsonl", "--limit", "2", "--catalog", srv.URL, "--catalog-credential", "cli:s3cret", "db.orders")
	if code != exitOK || out != strings.Join(strings.SplitAfter(ordersJSONL, "\n")[:2], "") {
		t.Fatalf("exit %d, stderr %q, stdout %q", code, errOut, out)
	}
}

// TestCatRESTUnauthorized: a wrong token fails with exit code 7 and a
// message saying authentication failed, without the token.
func TestCatRESTUnauthorized(t *testing.T) {
	srv, _ := restcatalog.WithOrders(t, restcatalog.Options{Token: "right"})
	out, errOut, code := runCLI(t, "cat", "--catalog-token", "wrong-tok-9", "rest://"+hostPort(srv)+"/db.orders")
	want := "lakecat: catalog " + srv.URL + ": rest: GET /v1/config: authentication failed (401 Unauthorized): NotAuthorizedException: Not authorized to make this request\n"
	if code != exitPermission || out != "" || errOut != want {
		t.Fatalf("exit %d, stdout %q, stderr %q\nwant %q", code, out, errOut, want)
	}
	out, errOut, code = runCLI(t, "cat", "--catalog", srv.URL, "--catalog-token", "right", "db.missing")
	if code != exitNotFound || !strings.Contains(errOut, "table db.missing: rest: GET /v1/namespaces/db/tables/missing: not found (404 Not Found)") {
		t.Fatalf("missing table: exit %d, stderr %q", code, errOut)
	}
}

// TestEvolveREST commits a schema change through the catalog and reads the
// table in its new schema.
func TestEvolveREST(t *testing.T) {
	srv, dir := restcatalog.WithOrders(t, restcatalog.Options{Token: "tk"})
	table := "rest://" + hostPort(srv) + "/db.orders"
	out, errOut, code := runCLI(t, "evolve", table, "--catalog-token", "tk", "--add", "coupon string", "--dry-run")
	if code != exitOK || !strings.HasSuffix(out, "dry run: nothing committed\n") || !strings.Contains(out, "coupon") {
		t.Fatalf("dry run: exit %d, stderr %q, stdout %q", code, errOut, out)
	}
	out, errOut, code = runCLI(t, "evolve", table, "--catalog-token", "tk", "--add", "coupon string", "--rename", "note=remark")
	wantTail := "committed file://" + filepath.Join(dir, "metadata", "v2.metadata.json") + " (last-column-id 9)\n"
	if code != exitOK || !strings.HasSuffix(out, wantTail) {
		t.Fatalf("evolve: exit %d, stderr %q, stdout %q\nwant suffix %q", code, errOut, out, wantTail)
	}
	out, errOut, code = runCLI(t, "cat", "--catalog-token", "tk", "--format", "jsonl", "--limit", "1", table)
	want := `{"order_shop_id":100,"order_id":1,"customer":"alice","price":9.5,"amount":"12.34","remark":null,"channel":"web","coupon":null}` + "\n"
	if code != exitOK || out != want {
		t.Fatalf("cat after evolve: exit %d, stderr %q\n got %s\nwant %s", code, errOut, out, want)
	}
}

// TestPlanRESTTable: plan takes a REST catalog's table as schema and files
// do, as rest:// and as NS.TABLE with --catalog, with and without --where:
// its output is the one of plan on the metadata file the catalog names
// (file:// paths).
func TestPlanRESTTable(t *testing.T) {
	srv, dir := restcatalog.WithOrders(t, restcatalog.Options{Token: "tk", Prefix: "wh"})
	meta := "file://" + filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(orders.MetadataPath)))
	table := "rest://" + hostPort(srv) + "/wh/db.orders"
	files := "file file://" + filepath.ToSlash(dir) + "/data/"
	for _, c := range []struct {
		name      string
		args, via []string
		// tail is the last line of the output; files the number of
		// lines starting with files.
		tail  string
		files int
	}{
		{"rest://", []string{"plan", "--catalog-token", "tk", table}, []string{"plan", meta}, "", 3},
		{"--catalog", []string{"plan", "--catalog", "rest://" + hostPort(srv) + "/wh", "--catalog-token", "tk", "db.orders"}, []string{"plan", meta}, "", 3},
		{"rest:// --where", []string{"plan", "--catalog-token", "tk", "--where", "channel = 'app'", table}, []string{"plan", "--where", "channel = 'app'", meta},
			"files: 1 read, 2 skipped; row groups: 1 of 3 kept; bytes skipped: 972", 0},
		{"--catalog --where", []string{"plan", "--catalog", "rest://" + hostPort(srv) + "/wh", "--catalog-token", "tk", "--where", "order_id > 4", "db.orders"}, []string{"plan", "--where", "order_id > 4", meta},
			"files: 1 read, 2 skipped; row groups: 1 of 3 kept; bytes skipped: 972", 0},
	} {
		want, errOut, code := runCLI(t, c.via...)
		if code != exitOK || errOut != "" {
			t.Fatalf("%s: %v: exit %d, stderr %q", c.name, c.via, code, errOut)
		}
		lines := strings.Split(strings.TrimSuffix(want, "\n"), "\n")
		n := 0
		for _, l := range lines {
			if strings.HasPrefix(l, files) {
				n++
			}
		}
		if n != c.files || (c.tail != "" && lines[len(lines)-1] != c.tail) {
			t.Fatalf("%s: %v: %d file lines, want %d; want last line %q:\n%s", c.name, c.via, n, c.files, c.tail, want)
		}
		out, errOut, code := runCLI(t, c.args...)
		if code != exitOK || errOut != "" || out != want {
			t.Errorf("%s: exit %d, stderr %q, stdout:\n%s\nwant\n%s", c.name, code, errOut, out, want)
		}
	}
}
