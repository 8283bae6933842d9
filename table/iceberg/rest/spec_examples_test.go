package rest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/table/iceberg/rest"
)

// Response bodies given as examples in the Iceberg REST OpenAPI document
// (open-api/rest-catalog-open-api.yaml), each under the name of the
// component or route it is the example of. They are replayed verbatim
// through the client's decoders.
var specExamples = map[string]string{
	// getConfig, 200.
	"getConfig": `{
	  "overrides": {"warehouse": "s3://bucket/warehouse/"},
	  "defaults": {"clients": "4"},
	  "idempotency-key-lifetime": "PT30M",
	  "endpoints": [
	    "GET /v1/{prefix}/namespaces/{namespace}",
	    "GET /v1/{prefix}/namespaces",
	    "POST /v1/{prefix}/namespaces",
	    "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}",
	    "GET /v1/{prefix}/namespaces/{namespace}/views/{view}"
	  ]}`,
	"ListNamespacesNonEmptyExample": `{"namespaces": [["accounting", "tax"], ["accounting", "credits"]]}`,
	"ListNamespacesEmptyExample":    `{"namespaces": [ ]}`,
	"ListTablesNonEmptyExample": `{"identifiers": [
	  { "namespace": ["accounting", "tax"], "name": "paid" },
	  { "namespace": ["accounting", "tax"], "name": "owed" }]}`,
	"ListTablesEmptyExample":     `{"identifiers": [ ]}`,
	"NoSuchTableError":           `{"error": {"message": "The given table does not exist", "type": "NoSuchTableException", "code": 404}}`,
	"NoSuchNamespaceError":       `{"error": {"message": "The given namespace does not exist", "type": "NoSuchNamespaceException", "code": 404}}`,
	"UnauthorizedResponse":       `{"error": {"message": "Not authorized to make this request", "type": "NotAuthorizedException", "code": 401}}`,
	"ForbiddenResponse":          `{"error": {"message": "Not authorized to make this request", "type": "NotAuthorizedException", "code": 403}}`,
	"UnsupportedOperation":       `{"error": {"message": "The server does not support this operation", "type": "UnsupportedOperationException", "code": 406}}`,
	"AuthenticationTimeout":      `{"error": {"message": "Credentials have timed out", "type": "AuthenticationTimeoutException", "code": 419}}`,
	"ServiceUnavailableResponse": `{"error": {"message": "Slow down", "type": "SlowDownException", "code": 503}}`,
	"ServerErrorResponse":        `{"error": {"message": "Internal Server Error", "type": "InternalServerError", "code": 500}}`,
	// updateTable, 500, 502 and 504.
	"commit500":  `{"error": {"message": "Internal Server Error", "type": "CommitStateUnknownException", "code": 500}}`,
	"commit502":  `{"error": {"message": "Invalid response from the upstream server", "type": "CommitStateUnknownException", "code": 502}}`,
	"commit504":  `{"error": {"message": "Gateway timed out during commit", "type": "CommitStateUnknownException", "code": 504}}`,
	"OAuthError": `{"error": "invalid_client", "error_description": "Client authentication failed"}`,
}

// replay serves one fixed status and body for every route but /v1/config
// (the getConfig example).
func replay(t *testing.T, status int, body string) *rest.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v1/config" {
			w.Write([]byte(specExamples["getConfig"]))
			return
		}
		w.WriteHeader(status)
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	c, err := rest.New(context.Background(), rest.Options{URI: srv.URL, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSpecExampleConfig(t *testing.T) {
	c := replay(t, 200, "{}")
	if v, _ := c.Property("warehouse"); v != "s3://bucket/warehouse/" {
		t.Fatalf("warehouse %q", v)
	}
	if v, _ := c.Property("clients"); v != "4" {
		t.Fatalf("clients %q", v)
	}
	if c.Prefix() != "" {
		t.Fatalf("prefix %q", c.Prefix())
	}
}

func TestSpecExampleListings(t *testing.T) {
	ctx := context.Background()
	ns, err := replay(t, 200, specExamples["ListNamespacesNonEmptyExample"]).ListNamespaces(ctx, nil)
	if err != nil || jsonOf(t, ns) != `[["accounting","tax"],["accounting","credits"]]` {
		t.Fatalf("%v %v", ns, err)
	}
	ns, err = replay(t, 200, specExamples["ListNamespacesEmptyExample"]).ListNamespaces(ctx, nil)
	if err != nil || len(ns) != 0 {
		t.Fatalf("%v %v", ns, err)
	}
	ids, err := replay(t, 200, specExamples["ListTablesNonEmptyExample"]).ListTables(ctx, []string{"accounting", "tax"})
	if err != nil || len(ids) != 2 || ids[0].String() != "accounting.tax.paid" || ids[1].String() != "accounting.tax.owed" {
		t.Fatalf("%v %v", ids, err)
	}
	ids, err = replay(t, 200, specExamples["ListTablesEmptyExample"]).ListTables(ctx, []string{"accounting"})
	if err != nil || len(ids) != 0 {
		t.Fatalf("%v %v", ids, err)
	}
}

func TestSpecExampleErrors(t *testing.T) {
	tbl := rest.Identifier{Namespace: []string{"accounting", "tax"}, Name: "paid"}
	cases := []struct {
		example string
		status  int
		commit  bool
		kind    error
		text    string
	}{
		{"NoSuchTableError", 404, false, rest.ErrNotFound, "table accounting.tax.paid: rest: GET /v1/namespaces/accounting%1Ftax/tables/paid: not found (404 Not Found): NoSuchTableException: The given table does not exist"},
		{"NoSuchNamespaceError", 404, false, rest.ErrNotFound, "table accounting.tax.paid: rest: GET /v1/namespaces/accounting%1Ftax/tables/paid: not found (404 Not Found): NoSuchNamespaceException: The given namespace does not exist"},
		{"UnauthorizedResponse", 401, false, rest.ErrUnauthorized, "table accounting.tax.paid: rest: GET /v1/namespaces/accounting%1Ftax/tables/paid: authentication failed (401 Unauthorized): NotAuthorizedException: Not authorized to make this request"},
		{"AuthenticationTimeout", 419, false, rest.ErrUnauthorized, "table accounting.tax.paid: rest: GET /v1/namespaces/accounting%1Ftax/tables/paid: authentication failed (419): AuthenticationTimeoutException: Credentials have timed out"},
		{"ForbiddenResponse", 403, false, rest.ErrForbidden, "table accounting.tax.paid: rest: GET /v1/namespaces/accounting%1Ftax/tables/paid: permission denied (403 Forbidden): NotAuthorizedException: Not authorized to make this request"},
		{"UnsupportedOperation", 406, false, rest.ErrUnsupported, "table accounting.tax.paid: rest: GET /v1/namespaces/accounting%1Ftax/tables/paid: operation not supported by the catalog (406 Not Acceptable): UnsupportedOperationException: The server does not support this operation"},
		{"ServiceUnavailableResponse", 503, false, rest.ErrUnavailable, "table accounting.tax.paid: rest: GET /v1/namespaces/accounting%1Ftax/tables/paid: catalog unavailable (503 Service Unavailable): SlowDownException: Slow down"},
		{"ServerErrorResponse", 500, false, rest.ErrUnavailable, "table accounting.tax.paid: rest: GET /v1/namespaces/accounting%1Ftax/tables/paid: catalog unavailable (500 Internal Server Error): InternalServerError: Internal Server Error"},
		{"commit500", 500, true, rest.ErrCommitStateUnknown, "table accounting.tax.paid: rest: POST /v1/namespaces/accounting%1Ftax/tables/paid: commit state unknown (500 Internal Server Error): CommitStateUnknownException: Internal Server Error"},
		{"commit502", 502, true, rest.ErrCommitStateUnknown, "table accounting.tax.paid: rest: POST /v1/namespaces/accounting%1Ftax/tables/paid: commit state unknown (502 Bad Gateway): CommitStateUnknownException: Invalid response from the upstream server"},
		{"commit504", 504, true, rest.ErrCommitStateUnknown, "table accounting.tax.paid: rest: POST /v1/namespaces/accounting%1Ftax/tables/paid: commit state unknown (504 Gateway Timeout): CommitStateUnknownException: Gateway timed out during commit"},
	}
	for _, tc := range cases {
		c := replay(t, tc.status, specExamples[tc.example])
		var err error
		if tc.commit {
			_, err = c.CommitTable(context.Background(), tbl, []byte(`{"requirements":[],"updates":[]}`))
		} else {
			_, err = c.LoadTable(context.Background(), tbl)
		}
		if !errors.Is(err, tc.kind) {
			t.Errorf("%s: err %v, want %v", tc.example, err, tc.kind)
			continue
		}
		if err.Error() != tc.text {
			t.Errorf("%s:\n got %q\nwant %q", tc.example, err, tc.text)
		}
	}
}

// TestDecodeLoadTableResult: the OpenAPI document gives no example
// LoadTableResult, so a real metadata file (written by PyIceberg for
// duckdb-iceberg's tests) is wrapped in one with the fields of the schema,
// storage credentials included.
func TestDecodeLoadTableResult(t *testing.T) {
	dir := testutil.RealDir(t, "duckdb-iceberg", "data", "persistent", "add_columns_with_defaults", "default.db", "add_columns_with_defaults", "metadata")
	md, err := os.ReadFile(filepath.Join(dir, "00003-3f1801a5-7dfb-4072-b14a-39cd12f9279b.metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	body, err := json.Marshal(map[string]any{
		"metadata-location": "s3://bucket/wh/t/metadata/00003-3f1801a5-7dfb-4072-b14a-39cd12f9279b.metadata.json",
		"metadata":          json.RawMessage(md),
		"config":            map[string]string{"client.region": "eu-west-1", "token": "table-token"},
		"storage-credentials": []map[string]any{
			{"prefix": "s3://bucket/", "config": map[string]string{"s3.access-key-id": "A1"}},
			{"prefix": "s3://bucket/wh/", "config": map[string]string{"s3.access-key-id": "A2", "s3.secret-access-key": "S2"}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := rest.DecodeLoadTableResult(body)
	if err != nil {
		t.Fatal(err)
	}
	m := r.Metadata
	if m.FormatVersion != 2 || m.TableUUID != "28bd1b34-0d93-4490-bf00-161a21e09410" || m.CurrentSchemaID != 1 || m.LastColumnID != 15 || len(m.Schemas) != 2 || *m.CurrentSnapshotID != 1915606074736806848 {
		t.Fatalf("metadata: v%d %s schema %d last %d", m.FormatVersion, m.TableUUID, m.CurrentSchemaID, m.LastColumnID)
	}
	if r.Config["client.region"] != "eu-west-1" || len(r.StorageCredentials) != 2 {
		t.Fatalf("config %v", r)
	}
	if c := r.CredentialFor("s3://bucket/wh/t/data/f.parquet"); c == nil || c.Config["s3.access-key-id"] != "A2" {
		t.Fatalf("credential for the table: %v", c)
	}
	if c := r.CredentialFor("s3://other/x"); c != nil {
		t.Fatalf("credential for another bucket: %v", c)
	}
	if s := r.String(); s != "table at s3://bucket/wh/t/metadata/00003-3f1801a5-7dfb-4072-b14a-39cd12f9279b.metadata.json (config keys client.region, token; 2 storage credentials)" {
		t.Fatalf("String %q", s)
	}
	if _, err := rest.DecodeLoadTableResult([]byte(`{"metadata-location": "x"}`)); !errors.Is(err, rest.ErrInvalidResponse) {
		t.Fatalf("no metadata: %v", err)
	}
	if _, err := rest.DecodeCommitTableResponse([]byte(`{"metadata": ` + string(md) + `}`)); !errors.Is(err, rest.ErrInvalidResponse) {
		t.Fatalf("commit response without metadata-location: %v", err)
	}
}

// TestSpecExampleOAuthError: the token endpoint's OAuthError is
// ErrUnauthorized with its error code and description.
func TestSpecExampleOAuthError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(specExamples["OAuthError"]))
	}))
	defer srv.Close()
	_, err := rest.New(context.Background(), rest.Options{URI: srv.URL, Credential: "me:pa55word"})
	if !errors.Is(err, rest.ErrUnauthorized) {
		t.Fatalf("err %v", err)
	}
	if w := "rest: POST /v1/oauth/tokens: authentication failed (401 Unauthorized): invalid_client: Client authentication failed"; err.Error() != w {
		t.Fatalf("err %q, want %q", err, w)
	}
}
