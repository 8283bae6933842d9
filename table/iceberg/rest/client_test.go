package rest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/internal/restcatalog"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/table/iceberg/rest"
)

var ordersID = rest.Identifier{Namespace: []string{"db"}, Name: "orders"}

const testToken = "tok-3f9a-secret"

func newClient(t *testing.T, srv *restcatalog.Server, opts rest.Options) *rest.Client {
	t.Helper()
	opts.URI = srv.URL
	if opts.RetryDelay == 0 {
		opts.RetryDelay = time.Millisecond
	}
	c, err := rest.New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestLoadTableScan loads testdata/orders from the in-process catalog and
// reads every row of the table from the metadata location it returns.
func TestLoadTableScan(t *testing.T) {
	srv, dir := restcatalog.WithOrders(t, restcatalog.Options{Token: testToken, Prefix: "wh"})
	c := newClient(t, srv, rest.Options{Token: testToken})
	if c.Prefix() != "wh" {
		t.Fatalf("prefix %q, want wh (the config override)", c.Prefix())
	}
	res, err := c.LoadTable(context.Background(), ordersID)
	if err != nil {
		t.Fatal(err)
	}
	want := "file://" + dir + "/metadata/v1.metadata.json"
	if res.MetadataLocation != want {
		t.Fatalf("metadata-location %q, want %q", res.MetadataLocation, want)
	}
	m := res.Metadata
	if m.TableUUID != "5b0e1a8e-3c1d-4f7a-9c59-1f6b2a0c9e42" || m.CurrentSchemaID != 2 || m.LastColumnID != 8 || len(m.Schemas) != 3 {
		t.Fatalf("metadata: uuid %s, current schema %d, last-column-id %d, %d schemas", m.TableUUID, m.CurrentSchemaID, m.LastColumnID, len(m.Schemas))
	}

	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tbl, err := reader.OpenTable(context.Background(), strings.TrimPrefix(res.MetadataLocation, "file://"), reader.TableOptions{Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	rr, err := tbl.Scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	var got []string
	for rr.Next() {
		rec := rr.RecordBatch()
		for i := 0; i < int(rec.NumRows()); i++ {
			var row []string
			for j := 0; j < int(rec.NumCols()); j++ {
				row = append(row, rec.Column(j).ValueStr(i))
			}
			got = append(got, strings.Join(row, " "))
		}
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	var fields []string
	for _, f := range rr.Schema().Fields() {
		fields = append(fields, f.Name+" "+f.Type.String())
	}
	if got, want := strings.Join(fields, ", "), "order_shop_id int64, order_id int64, customer utf8, price float64, amount decimal(18, 2), note utf8, channel utf8"; got != want {
		t.Fatalf("schema %s\nwant   %s", got, want)
	}
	wantRows := []string{
		"100 1 alice 9.5 12.34 (null) web",
		"(null) 2 bob 20.25 -0.5 (null) web",
		"5000000000 3 carol 1.5 (null) gift web",
		"101 4 (null) 3 999.99 (null) web",
		"102 5 dave 0.1 1234567890.12 rush app",
		"(null) 6 erin (null) 0.07 (null) (null)",
	}
	if strings.Join(got, "\n") != strings.Join(wantRows, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantRows, "\n"))
	}

	for _, r := range srv.Requests() {
		if r.Authorization != "Bearer "+testToken {
			t.Errorf("%s %s: Authorization %q", r.Method, r.Path, r.Authorization)
		}
	}
	if got := paths(srv.Requests()); got != "GET /v1/config, GET /v1/wh/namespaces/db/tables/orders" {
		t.Fatalf("requests: %s", got)
	}
}

func paths(rs []restcatalog.Request) string {
	var s []string
	for _, r := range rs {
		s = append(s, r.Method+" "+r.Path)
	}
	return strings.Join(s, ", ")
}

// TestUnauthorized: a wrong token is a 401 that says authentication failed
// and does not print the token.
func TestUnauthorized(t *testing.T) {
	srv, _ := restcatalog.WithOrders(t, restcatalog.Options{Token: testToken})
	_, err := rest.New(context.Background(), rest.Options{URI: srv.URL, Token: "wrong-token-77"})
	if !errors.Is(err, rest.ErrUnauthorized) {
		t.Fatalf("err = %v, want ErrUnauthorized", err)
	}
	want := "rest: GET /v1/config: authentication failed (401 Unauthorized): NotAuthorizedException: Not authorized to make this request"
	if err.Error() != want {
		t.Fatalf("err = %q\nwant  %q", err, want)
	}
	var e *rest.Error
	if !errors.As(err, &e) || e.Status != 401 {
		t.Fatalf("err = %#v", err)
	}
	if strings.Contains(err.Error(), "wrong-token-77") {
		t.Fatal("the error prints the token")
	}
	// No token at all: the same error.
	if _, err := rest.New(context.Background(), rest.Options{URI: srv.URL}); !errors.Is(err, rest.ErrUnauthorized) {
		t.Fatalf("no token: err = %v", err)
	}
}

// TestOAuth2 exchanges client credentials for a token, refreshes it when it
// expires and once after a 401, and reports a rejected secret clearly.
func TestOAuth2(t *testing.T) {
	srv, _ := restcatalog.WithOrders(t, restcatalog.Options{Clients: map[string]string{"lakecat": "hunter2-secret"}, TokenTTL: time.Hour})
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	c := newClient(t, srv, rest.Options{Credential: "lakecat:hunter2-secret", Now: clock})
	rs := srv.Requests()
	if len(rs) != 2 || rs[0].Path != "/v1/oauth/tokens" || rs[1].Path != "/v1/config" {
		t.Fatalf("requests: %s", paths(rs))
	}
	form := rs[0].Form
	wantForm := url.Values{"grant_type": {"client_credentials"}, "client_id": {"lakecat"}, "client_secret": {"hunter2-secret"}, "scope": {"catalog"}}
	if form.Encode() != wantForm.Encode() {
		t.Fatalf("token form %v, want %v", form, wantForm)
	}
	if rs[0].Authorization != "" || rs[1].Authorization != "Bearer issued-token-1" {
		t.Fatalf("Authorization: token request %q, config %q", rs[0].Authorization, rs[1].Authorization)
	}

	// Within the lifetime: no new token.
	now = now.Add(58 * time.Minute)
	if _, err := c.LoadTable(context.Background(), ordersID); err != nil {
		t.Fatal(err)
	}
	// Less than a minute before expiry: a new one.
	now = now.Add(90 * time.Second)
	if _, err := c.LoadTable(context.Background(), ordersID); err != nil {
		t.Fatal(err)
	}
	// The server drops its tokens: one 401, then a new token and a retry.
	srv.RevokeTokens()
	if _, err := c.LoadTable(context.Background(), ordersID); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range srv.Requests()[2:] {
		got = append(got, r.Path+" "+r.Authorization)
	}
	want := []string{
		"/v1/namespaces/db/tables/orders Bearer issued-token-1",
		"/v1/oauth/tokens ",
		"/v1/namespaces/db/tables/orders Bearer issued-token-2",
		"/v1/namespaces/db/tables/orders Bearer issued-token-2",
		"/v1/oauth/tokens ",
		"/v1/namespaces/db/tables/orders Bearer issued-token-3",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	_, err := rest.New(context.Background(), rest.Options{URI: srv.URL, Credential: "lakecat:not-the-secret"})
	if !errors.Is(err, rest.ErrUnauthorized) {
		t.Fatalf("wrong secret: err = %v", err)
	}
	if w := "rest: POST /v1/oauth/tokens: authentication failed (401 Unauthorized): invalid_client: unknown client or wrong secret"; err.Error() != w {
		t.Fatalf("wrong secret: err = %q, want %q", err, w)
	}
	if strings.Contains(err.Error(), "not-the-secret") {
		t.Fatal("the error prints the secret")
	}
}

// TestSecretsNotPrinted: Options printed with %v, %+v or %#v shows no
// credential.
func TestSecretsNotPrinted(t *testing.T) {
	o := rest.Options{URI: "https://catalog.example", Token: "tok-abc", Credential: "id:sec-xyz"}
	for _, s := range []string{fmtV(o), fmtPlusV(o), fmtSharpV(o)} {
		if strings.Contains(s, "tok-abc") || strings.Contains(s, "sec-xyz") {
			t.Fatalf("printed a secret: %s", s)
		}
	}
	r := &rest.LoadTableResult{MetadataLocation: "s3://b/t/metadata/v1.metadata.json", Config: map[string]string{"s3.secret-access-key": "AKIA-SECRET"},
		StorageCredentials: []rest.StorageCredential{{Prefix: "s3://b/", Config: map[string]string{"s3.secret-access-key": "AKIA-SECRET"}}}}
	for _, s := range []string{fmtV(r), fmtV(r.StorageCredentials[0])} {
		if strings.Contains(s, "AKIA-SECRET") {
			t.Fatalf("printed a storage secret: %s", s)
		}
	}
}

// TestRetries: 503 and 429 on reads are retried with backoff up to
// MaxRetries; a commit is not retried on 503 without Retry-After, nor on
// 500; the backoff stops when the context is canceled.
func TestRetries(t *testing.T) {
	srv, _ := restcatalog.WithOrders(t, restcatalog.Options{})
	var fails atomic.Int32
	var seen atomic.Int32
	srv.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
		seen.Add(1)
		if fails.Load() == 0 {
			return false
		}
		fails.Add(-1)
		if r.Method == http.MethodGet && seen.Load()%2 == 0 {
			w.Header().Set("Retry-After", "0")
			restcatalog.WriteError(w, http.StatusTooManyRequests, "SlowDownException", "Slow down")
			return true
		}
		restcatalog.WriteError(w, http.StatusServiceUnavailable, "SlowDownException", "Slow down")
		return true
	}
	fails.Store(3)
	c := newClient(t, srv, rest.Options{MaxRetries: 3})
	if n := seen.Load(); n != 4 {
		t.Fatalf("config: %d attempts, want 4", n)
	}

	seen.Store(0)
	fails.Store(100)
	_, err := c.LoadTable(context.Background(), ordersID)
	if !errors.Is(err, rest.ErrUnavailable) || seen.Load() != 4 {
		t.Fatalf("always 503: %d attempts, err %v", seen.Load(), err)
	}
	if w := "table db.orders: rest: GET /v1/namespaces/db/tables/orders: catalog unavailable (429 Too Many Requests): SlowDownException: Slow down"; err.Error() != w {
		t.Fatalf("err %q\nwant %q", err, w)
	}

	seen.Store(0)
	fails.Store(1)
	_, err = c.CommitTable(context.Background(), ordersID, []byte(`{"requirements":[],"updates":[]}`))
	if !errors.Is(err, rest.ErrCommitStateUnknown) || seen.Load() != 1 {
		t.Fatalf("commit on 503: %d attempts, err %v", seen.Load(), err)
	}

	fails.Store(0)
	srv.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
		restcatalog.WriteError(w, http.StatusInternalServerError, "CommitStateUnknownException", "Internal Server Error")
		return true
	}
	_, err = c.CommitTable(context.Background(), ordersID, []byte(`{"requirements":[],"updates":[]}`))
	if !errors.Is(err, rest.ErrCommitStateUnknown) {
		t.Fatalf("commit on 500: %v", err)
	}

	srv.Intercept = nil
	ctx, cancel := context.WithCancel(context.Background())
	slow := newClient(t, srv, rest.Options{RetryDelay: time.Hour, MaxRetries: 5})
	srv.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
		cancel()
		restcatalog.WriteError(w, http.StatusServiceUnavailable, "SlowDownException", "Slow down")
		return true
	}
	if _, err := slow.LoadTable(ctx, ordersID); !errors.Is(err, context.Canceled) || lakecat.ClassOf(err) != lakecat.ErrCanceled {
		t.Fatalf("canceled backoff: %v", err)
	}
}

// TestNotFoundAndListing: 404 is ErrNotFound (class lakecat.ErrNotFound);
// namespaces and tables are listed across pages; multi-level namespaces
// travel joined by 0x1F.
func TestNotFoundAndListing(t *testing.T) {
	srv, dir := restcatalog.WithOrders(t, restcatalog.Options{PageSize: 1})
	for _, ns := range [][]string{{"db", "sub"}, {"accounting", "tax"}} {
		if err := srv.Register(ns, "paid", dir+"/metadata/v1.metadata.json"); err != nil {
			t.Fatal(err)
		}
	}
	srv.Register([]string{"db"}, "archive", dir+"/metadata/v1.metadata.json")
	c := newClient(t, srv, rest.Options{})
	ctx := context.Background()
	_, err := c.LoadTable(ctx, rest.Identifier{Namespace: []string{"db"}, Name: "nope"})
	if !errors.Is(err, rest.ErrNotFound) || lakecat.ClassOf(err) != lakecat.ErrNotFound {
		t.Fatalf("err = %v", err)
	}
	if w := "table db.nope: rest: GET /v1/namespaces/db/tables/nope: not found (404 Not Found): NoSuchTableException: The given table does not exist"; err.Error() != w {
		t.Fatalf("err %q\nwant %q", err, w)
	}
	top, err := c.ListNamespaces(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonOf(t, top); got != `[["accounting"],["db"]]` {
		t.Fatalf("top-level namespaces %s", got)
	}
	sub, err := c.ListNamespaces(ctx, []string{"accounting"})
	if err != nil || jsonOf(t, sub) != `[["accounting","tax"]]` {
		t.Fatalf("under accounting: %v %v", sub, err)
	}
	tables, err := c.ListTables(ctx, []string{"db"})
	if err != nil || jsonOf(t, tables) != `[{"namespace":["db"],"name":"archive"},{"namespace":["db"],"name":"orders"}]` {
		t.Fatalf("tables of db: %s %v", jsonOf(t, tables), err)
	}
	res, err := c.LoadTable(ctx, rest.Identifier{Namespace: []string{"accounting", "tax"}, Name: "paid"})
	if err != nil || res.Metadata.CurrentSchemaID != 2 {
		t.Fatalf("accounting.tax.paid: %v", err)
	}
	rs := srv.Requests()
	if p := rs[len(rs)-1].Path; p != "/v1/namespaces/accounting%1Ftax/tables/paid" {
		t.Fatalf("path %s", p)
	}
	if _, err := c.ListTables(ctx, []string{"nope"}); !errors.Is(err, rest.ErrNotFound) {
		t.Fatalf("tables of a missing namespace: %v", err)
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestNamespaceSeparator: a namespace-separator override in /v1/config
// (URL-encoded) joins namespace levels in paths and the parent parameter.
func TestNamespaceSeparator(t *testing.T) {
	srv, dir := restcatalog.WithOrders(t, restcatalog.Options{Overrides: map[string]string{"namespace-separator": "%2E"}})
	if err := srv.Register([]string{"accounting", "tax"}, "paid", dir+"/metadata/v1.metadata.json"); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, srv, rest.Options{})
	ctx := context.Background()
	if _, err := c.LoadTable(ctx, rest.Identifier{Namespace: []string{"accounting", "tax"}, Name: "paid"}); err != nil {
		t.Fatal(err)
	}
	sub, err := c.ListNamespaces(ctx, []string{"accounting"})
	if err != nil || jsonOf(t, sub) != `[["accounting","tax"]]` {
		t.Fatalf("%v %v", sub, err)
	}
	rs := srv.Requests()
	if got := rs[1].Path; got != "/v1/namespaces/accounting.tax/tables/paid" {
		t.Fatalf("path %s", got)
	}
	if _, err := c.LoadTable(ctx, rest.Identifier{Namespace: []string{"a.b"}, Name: "t"}); err == nil || !strings.Contains(err.Error(), "holds the separator") {
		t.Fatalf("a level holding the separator: %v", err)
	}
}

// TestTableToken: a "token" in the LoadTableResult config is the bearer
// token of the table's commit.
func TestTableToken(t *testing.T) {
	srv, _ := restcatalog.WithOrders(t, restcatalog.Options{Token: "table-scoped", Clients: map[string]string{"c": "s"},
		TableConfig: map[string]string{"token": "table-scoped"}})
	c := newClient(t, srv, rest.Options{Credential: "c:s"})
	res, err := c.UpdateTable(context.Background(), ordersID, func(cur *rest.LoadTableResult) ([]byte, error) {
		return []byte(`{"requirements":[{"type":"assert-table-uuid","uuid":"` + cur.Metadata.TableUUID + `"}],
			"updates":[{"action":"set-properties","updates":{"owner":"lakecat"}}]}`), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Attempts != 1 || res.Metadata.Properties["owner"] != "lakecat" || !strings.HasSuffix(res.MetadataLocation, "/metadata/v2.metadata.json") {
		t.Fatalf("%+v", res)
	}
	rs := srv.Requests()
	last := rs[len(rs)-1]
	if last.Method != "POST" || last.Authorization != "Bearer table-scoped" {
		t.Fatalf("commit %s with %q", last.Method, last.Authorization)
	}
	if rs[len(rs)-2].Authorization != "Bearer issued-token-1" {
		t.Fatalf("load with %q", rs[len(rs)-2].Authorization)
	}
}

// TestBadRequirement: the server refuses an unknown requirement with 400
// and applies nothing.
func TestBadRequirement(t *testing.T) {
	srv, dir := restcatalog.WithOrders(t, restcatalog.Options{})
	c := newClient(t, srv, rest.Options{})
	_, err := c.CommitTable(context.Background(), ordersID, []byte(`{"requirements":[{"type":"assert-something"}],"updates":[{"action":"set-properties","updates":{"a":"b"}}]}`))
	if !errors.Is(err, rest.ErrBadRequest) || !strings.Contains(err.Error(), `unknown requirement type "assert-something"`) {
		t.Fatalf("err %v", err)
	}
	if got := srv.MetadataFile(ordersID.Namespace, ordersID.Name); got != dir+"/metadata/v1.metadata.json" {
		t.Fatalf("current metadata %s", got)
	}
}

// TestIdempotentCommitRetry: with idempotency-key-lifetime announced, a
// commit whose response is lost (502 after the server applied it) is sent
// again with the same Idempotency-Key, and the server replays its answer
// instead of committing twice.
func TestIdempotentCommitRetry(t *testing.T) {
	srv, dir := restcatalog.WithOrders(t, restcatalog.Options{IdempotencyKeyLifetime: "PT30M"})
	var nested, lost atomic.Bool
	srv.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method != http.MethodPost || nested.Load() || lost.Swap(true) {
			return false
		}
		nested.Store(true)
		srv.Config.Handler.ServeHTTP(httptest.NewRecorder(), r) // applied, answer dropped
		nested.Store(false)
		restcatalog.WriteError(w, http.StatusBadGateway, "CommitStateUnknownException", "Invalid response from the upstream server")
		return true
	}
	c := newClient(t, srv, rest.Options{})
	res, err := c.CommitTable(context.Background(), ordersID, []byte(`{"requirements":[{"type":"assert-current-schema-id","current-schema-id":2}],
		"updates":[{"action":"set-properties","updates":{"owner":"lakecat"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "file://" + dir + "/metadata/v2.metadata.json"; res.MetadataLocation != want || res.Metadata.Properties["owner"] != "lakecat" {
		t.Fatalf("%s %v", res.MetadataLocation, res.Metadata.Properties)
	}
	if _, err := os.Stat(dir + "/metadata/v3.metadata.json"); !os.IsNotExist(err) {
		t.Fatalf("committed twice: %v", err)
	}
	var keys []string
	for _, r := range srv.Requests() {
		if r.Method == http.MethodPost {
			keys = append(keys, r.IdempotencyKey)
		}
	}
	if len(keys) != 3 || keys[0] != keys[1] || keys[1] != keys[2] || len(keys[0]) != 36 || keys[0][14] != '7' {
		t.Fatalf("Idempotency-Keys %q: want one UUIDv7 on the first, the dropped and the retried request", keys)
	}
}
