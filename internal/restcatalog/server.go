// Package restcatalog is an in-process Iceberg REST catalog for tests: an
// httptest server that implements the routes lakecat's client uses, with
// the semantics of the Iceberg REST OpenAPI document
// (open-api/rest-catalog-open-api.yaml), over table metadata files in a
// local folder.
//
// It serves GET /v1/config (defaults, overrides, the prefix), POST
// /v1/oauth/tokens (client credentials), namespaces and table listings,
// loadTable and commitTable. A commit checks every requirement against the
// current metadata and answers 409 CommitFailedException when one fails;
// otherwise it applies every update to a copy, writes the result as the
// next metadata file (created, never replaced) and only then moves the
// table's pointer to it, under one lock: a commit is applied whole or not
// at all. Unknown requirements and updates are 400, as the spec requires.
//
// The server knows no locate rule of its own: tables are registered with
// the metadata file that is current ([Server.Register]).
package restcatalog

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/iceberg"
)

// Options configure [New].
type Options struct {
	// Token is a bearer token the server accepts. With neither Token nor
	// Clients, requests need no Authorization header.
	Token string
	// Clients maps OAuth2 client ids to secrets accepted by
	// /v1/oauth/tokens; each token issued is accepted afterwards.
	Clients map[string]string
	// TokenTTL is the expires_in of issued tokens (default one hour).
	TokenTTL time.Duration
	// Prefix is the prefix the server announces as an override in
	// /v1/config and requires in every catalog route ("" for none).
	Prefix string
	// Defaults and Overrides are more /v1/config properties.
	Defaults, Overrides map[string]string
	// TableConfig is the "config" of every LoadTableResult.
	TableConfig map[string]string
	// StorageCredentials is the "storage-credentials" of every
	// LoadTableResult, as JSON (nil: the key is absent).
	StorageCredentials json.RawMessage
	// PageSize, when positive, paginates listings whose request has a
	// pageToken parameter.
	PageSize int
	// IdempotencyKeyLifetime, when set (an ISO-8601 duration such as
	// "PT30M"), is announced in /v1/config, and a commit's final response
	// (2xx or 4xx) is stored under its Idempotency-Key and replayed for a
	// request with the same key, without committing again.
	IdempotencyKeyLifetime string
}

// Request is one request the server received.
type Request struct {
	Method, Path  string // Path is escaped, as sent
	Authorization string
	// IdempotencyKey is the Idempotency-Key header.
	IdempotencyKey string
	Form           url.Values // the token request's form
}

// Server is a running in-process catalog. Close it when done.
type Server struct {
	*httptest.Server
	opts Options

	// BeforeCommit, when set, runs at the start of each commit request,
	// before the server looks at the table: a test commits a conflicting
	// change from here.
	BeforeCommit func(namespace []string, table string)
	// Intercept, when set, sees each request first; returning true means
	// it wrote the response itself (a test injects 503s this way).
	Intercept func(w http.ResponseWriter, r *http.Request) bool

	mu         sync.Mutex
	tables     map[string]*table // key: namespace levels and name joined by 0x1F
	namespaces map[string][]string
	tokens     map[string]bool
	replies    map[string]reply // by Idempotency-Key
	issued     int
	requests   []Request
}

type reply struct {
	status int
	body   []byte
}

type table struct {
	namespace []string
	name      string
	location  string // the current metadata file, a local path
	// remote, when set, is the metadata-location of a table whose files
	// are elsewhere (an object store), and data its metadata; such a table
	// is read-only.
	remote string
	data   []byte
}

// New starts a server on a loopback port.
func New(opts Options) *Server {
	if opts.TokenTTL == 0 {
		opts.TokenTTL = time.Hour
	}
	s := &Server{opts: opts, tables: map[string]*table{}, namespaces: map[string][]string{}, tokens: map[string]bool{}, replies: map[string]reply{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

func key(levels []string) string { return strings.Join(levels, "\x1f") }

// Register adds a table whose current metadata file is metadataFile (a
// local path), creating its namespace and the namespace's parents.
func (s *Server) Register(namespace []string, name, metadataFile string) error {
	abs, err := filepath.Abs(metadataFile)
	if err != nil {
		return err
	}
	if _, err := os.Stat(abs); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := 1; i <= len(namespace); i++ {
		s.namespaces[key(namespace[:i])] = slices.Clone(namespace[:i])
	}
	s.tables[key(append(slices.Clone(namespace), name))] = &table{namespace: slices.Clone(namespace), name: name, location: abs}
	return nil
}

// RegisterRemote adds a read-only table whose current metadata file is at
// metadataLocation (an s3:// or other object-store URL), with metadata its
// contents, creating its namespace and the namespace's parents. A commit
// to it is refused (501).
func (s *Server) RegisterRemote(namespace []string, name, metadataLocation string, metadata []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := 1; i <= len(namespace); i++ {
		s.namespaces[key(namespace[:i])] = slices.Clone(namespace[:i])
	}
	s.tables[key(append(slices.Clone(namespace), name))] = &table{namespace: slices.Clone(namespace), name: name,
		remote: metadataLocation, data: slices.Clone(metadata)}
}

// MetadataFile returns the local path of a table's current metadata file.
func (s *Server) MetadataFile(namespace []string, name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.tables[key(append(slices.Clone(namespace), name))]; t != nil {
		return t.location
	}
	return ""
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// RevokeTokens forgets every issued OAuth2 token, as a server does when
// tokens expire: the next request with one is 401.
func (s *Server) RevokeTokens() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.tokens)
}

// location is the metadata-location the server reports for a file.
func location(path string) string { return "file://" + filepath.ToSlash(path) }

// WriteError writes an IcebergErrorResponse.
func WriteError(w http.ResponseWriter, status int, typ, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": typ, "code": status}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	rec := Request{Method: r.Method, Path: r.URL.EscapedPath(), Authorization: r.Header.Get("Authorization"), IdempotencyKey: r.Header.Get("Idempotency-Key")}
	if r.URL.Path == "/v1/oauth/tokens" && r.Method == http.MethodPost {
		r.ParseForm()
		rec.Form = r.PostForm
	}
	s.mu.Lock()
	s.requests = append(s.requests, rec)
	s.mu.Unlock()
	if s.Intercept != nil && s.Intercept(w, r) {
		return
	}
	if rec.Form != nil {
		s.token(w, r)
		return
	}
	if !s.authorized(r) {
		WriteError(w, http.StatusUnauthorized, "NotAuthorizedException", "Not authorized to make this request")
		return
	}
	segs, ok := splitPath(r.URL.EscapedPath())
	if !ok || len(segs) < 2 || segs[0] != "v1" {
		WriteError(w, http.StatusNotFound, "NoSuchRouteException", "no such route")
		return
	}
	segs = segs[1:]
	if len(segs) == 1 && segs[0] == "config" && r.Method == http.MethodGet {
		s.config(w)
		return
	}
	if p := s.opts.Prefix; p != "" {
		ps := strings.Split(p, "/")
		if len(segs) < len(ps) || !slices.Equal(segs[:len(ps)], ps) {
			WriteError(w, http.StatusNotFound, "NoSuchWarehouseException", "The given warehouse does not exist")
			return
		}
		segs = segs[len(ps):]
	}
	sep := "\x1f"
	if v, err := url.QueryUnescape(s.opts.Overrides["namespace-separator"]); err == nil && v != "" {
		sep = v
	}
	switch {
	case len(segs) == 1 && segs[0] == "namespaces" && r.Method == http.MethodGet:
		s.listNamespaces(w, r, sep)
	case len(segs) == 2 && segs[0] == "namespaces" && r.Method == http.MethodGet:
		s.loadNamespace(w, splitNS(segs[1], sep))
	case len(segs) == 3 && segs[0] == "namespaces" && segs[2] == "tables" && r.Method == http.MethodGet:
		s.listTables(w, r, splitNS(segs[1], sep))
	case len(segs) == 4 && segs[0] == "namespaces" && segs[2] == "tables" && r.Method == http.MethodGet:
		s.loadTable(w, splitNS(segs[1], sep), segs[3])
	case len(segs) == 4 && segs[0] == "namespaces" && segs[2] == "tables" && r.Method == http.MethodPost:
		s.idempotent(w, r, func(w http.ResponseWriter) { s.commit(w, r, splitNS(segs[1], sep), segs[3]) })
	default:
		WriteError(w, http.StatusNotFound, "NoSuchRouteException", "no such route: "+r.Method+" "+r.URL.EscapedPath())
	}
}

// splitNS splits a decoded namespace at the advertised separator and, as
// the spec asks of servers for older clients, at 0x1F too.
func splitNS(s, sep string) []string {
	return strings.Split(strings.ReplaceAll(s, sep, "\x1f"), "\x1f")
}

// splitPath splits an escaped path into unescaped segments (an escaped
// slash stays inside its segment).
func splitPath(p string) ([]string, bool) {
	parts := strings.Split(strings.Trim(p, "/"), "/")
	for i, s := range parts {
		u, err := url.PathUnescape(s)
		if err != nil {
			return nil, false
		}
		parts[i] = u
	}
	return parts, true
}

func (s *Server) authorized(r *http.Request) bool {
	if s.opts.Token == "" && len(s.opts.Clients) == 0 {
		return true
	}
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || tok == "" {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return (s.opts.Token != "" && tok == s.opts.Token) || s.tokens[tok]
}

// token implements the client credentials grant of /v1/oauth/tokens.
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	oauthErr := func(status int, code, desc string) {
		writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-www-form-urlencoded") {
		oauthErr(http.StatusBadRequest, "invalid_request", "want a form body")
		return
	}
	f := r.PostForm
	if f.Get("grant_type") != "client_credentials" {
		oauthErr(http.StatusBadRequest, "unsupported_grant_type", "only client_credentials")
		return
	}
	id, secret := f.Get("client_id"), f.Get("client_secret")
	if u, p, ok := r.BasicAuth(); ok {
		id, secret = u, p
	}
	want, ok := s.opts.Clients[id]
	if !ok || secret != want {
		oauthErr(http.StatusUnauthorized, "invalid_client", "unknown client or wrong secret")
		return
	}
	s.mu.Lock()
	s.issued++
	tok := "issued-token-" + strconv.Itoa(s.issued)
	s.tokens[tok] = true
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": tok, "token_type": "bearer", "expires_in": int(s.opts.TokenTTL / time.Second),
		"issued_token_type": "urn:ietf:params:oauth:token-type:access_token", "scope": f.Get("scope"),
	})
}

func (s *Server) config(w http.ResponseWriter) {
	defaults := maps.Clone(s.opts.Defaults)
	overrides := maps.Clone(s.opts.Overrides)
	if defaults == nil {
		defaults = map[string]string{}
	}
	if overrides == nil {
		overrides = map[string]string{}
	}
	if s.opts.Prefix != "" {
		overrides["prefix"] = s.opts.Prefix
	}
	cfg := map[string]any{"defaults": defaults, "overrides": overrides}
	if s.opts.IdempotencyKeyLifetime != "" {
		cfg["idempotency-key-lifetime"] = s.opts.IdempotencyKeyLifetime
	}
	writeJSON(w, http.StatusOK, cfg)
}

// page cuts items to one page when the request asks for pages; next is
// the next page's token, "" for the last page.
func (s *Server) page(r *http.Request, n int) (lo, hi int, next *string) {
	q := r.URL.Query()
	if _, asked := q["pageToken"]; !asked || s.opts.PageSize <= 0 {
		return 0, n, nil
	}
	lo, _ = strconv.Atoi(q.Get("pageToken"))
	lo = min(max(lo, 0), n)
	hi = min(lo+s.opts.PageSize, n)
	if hi < n {
		t := strconv.Itoa(hi)
		next = &t
	}
	return lo, hi, next
}

func (s *Server) listNamespaces(w http.ResponseWriter, r *http.Request, sep string) {
	var parent []string
	if p := r.URL.Query().Get("parent"); p != "" {
		parent = splitNS(p, sep)
	}
	s.mu.Lock()
	if parent != nil && s.namespaces[key(parent)] == nil {
		s.mu.Unlock()
		WriteError(w, http.StatusNotFound, "NoSuchNamespaceException", "The given namespace does not exist")
		return
	}
	var out [][]string
	for _, ns := range s.namespaces {
		if len(ns) == len(parent)+1 && slices.Equal(ns[:len(parent)], parent) {
			out = append(out, ns)
		}
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b []string) int { return strings.Compare(key(a), key(b)) })
	lo, hi, next := s.page(r, len(out))
	writeJSON(w, http.StatusOK, map[string]any{"namespaces": append([][]string{}, out[lo:hi]...), "next-page-token": next})
}

func (s *Server) loadNamespace(w http.ResponseWriter, ns []string) {
	s.mu.Lock()
	ok := s.namespaces[key(ns)] != nil
	s.mu.Unlock()
	if !ok {
		WriteError(w, http.StatusNotFound, "NoSuchNamespaceException", "The given namespace does not exist")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"namespace": ns, "properties": map[string]string{}})
}

type ident struct {
	Namespace []string `json:"namespace"`
	Name      string   `json:"name"`
}

func (s *Server) listTables(w http.ResponseWriter, r *http.Request, ns []string) {
	s.mu.Lock()
	if s.namespaces[key(ns)] == nil {
		s.mu.Unlock()
		WriteError(w, http.StatusNotFound, "NoSuchNamespaceException", "The given namespace does not exist")
		return
	}
	var out []ident
	for _, t := range s.tables {
		if slices.Equal(t.namespace, ns) {
			out = append(out, ident{t.namespace, t.name})
		}
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b ident) int { return strings.Compare(a.Name, b.Name) })
	lo, hi, next := s.page(r, len(out))
	writeJSON(w, http.StatusOK, map[string]any{"identifiers": append([]ident{}, out[lo:hi]...), "next-page-token": next})
}

func (s *Server) lookup(ns []string, name string) *table {
	return s.tables[key(append(slices.Clone(ns), name))]
}

func (s *Server) loadTable(w http.ResponseWriter, ns []string, name string) {
	s.mu.Lock()
	t := s.lookup(ns, name)
	var loc, remote string
	var data []byte
	if t != nil {
		loc, remote, data = t.location, t.remote, t.data
	}
	s.mu.Unlock()
	if t == nil {
		WriteError(w, http.StatusNotFound, "NoSuchTableException", "The given table does not exist")
		return
	}
	if remote == "" {
		var err error
		if data, err = os.ReadFile(loc); err != nil {
			WriteError(w, http.StatusInternalServerError, "InternalServerError", err.Error())
			return
		}
		remote = location(loc)
	}
	resp := map[string]any{"metadata-location": remote, "metadata": json.RawMessage(data)}
	if s.opts.TableConfig != nil {
		resp["config"] = s.opts.TableConfig
	}
	if s.opts.StorageCredentials != nil {
		resp["storage-credentials"] = s.opts.StorageCredentials
	}
	writeJSON(w, http.StatusOK, resp)
}

// idempotent runs handle, replaying the stored final response of an
// earlier request with the same Idempotency-Key instead (OpenAPI document,
// parameter idempotency-key: 2xx and 4xx are final, 5xx are not stored).
func (s *Server) idempotent(w http.ResponseWriter, r *http.Request, handle func(http.ResponseWriter)) {
	key := r.Header.Get("Idempotency-Key")
	if s.opts.IdempotencyKeyLifetime == "" || key == "" {
		handle(w)
		return
	}
	s.mu.Lock()
	old, ok := s.replies[key]
	s.mu.Unlock()
	if !ok {
		rec := httptest.NewRecorder()
		handle(rec)
		old = reply{rec.Code, rec.Body.Bytes()}
		if old.status < 500 {
			s.mu.Lock()
			s.replies[key] = old
			s.mu.Unlock()
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(old.status)
	w.Write(old.body)
}

// commitRequest is CommitTableRequest.
type commitRequest struct {
	Identifier   *ident            `json:"identifier"`
	Requirements []json.RawMessage `json:"requirements"`
	Updates      []json.RawMessage `json:"updates"`
}

// statusError is a commit failure with its response.
type statusError struct {
	status   int
	typ, msg string
}

func (e *statusError) Error() string { return e.msg }

func (s *Server) commit(w http.ResponseWriter, r *http.Request, ns []string, name string) {
	if s.BeforeCommit != nil {
		s.BeforeCommit(ns, name)
	}
	var req commitRequest
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(&req); err != nil || req.Requirements == nil || req.Updates == nil {
		WriteError(w, http.StatusBadRequest, "BadRequestException", "Malformed request: want a CommitTableRequest")
		return
	}
	if req.Identifier != nil && (!slices.Equal(req.Identifier.Namespace, ns) || req.Identifier.Name != name) {
		WriteError(w, http.StatusBadRequest, "BadRequestException", "identifier does not match the route")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.lookup(ns, name)
	if t == nil {
		WriteError(w, http.StatusNotFound, "NoSuchTableException", "The given table does not exist")
		return
	}
	if t.remote != "" {
		WriteError(w, http.StatusNotImplemented, "NotImplementedException", "commits to a table registered with RegisterRemote")
		return
	}
	data, err := os.ReadFile(t.location)
	if err != nil {
		WriteError(w, http.StatusInternalServerError, "InternalServerError", err.Error())
		return
	}
	cur, err := iceberg.ParseMetadata(data)
	if err != nil {
		WriteError(w, http.StatusInternalServerError, "InternalServerError", err.Error())
		return
	}
	for _, raw := range req.Requirements {
		if err := checkRequirement(cur, raw); err != nil {
			se := err.(*statusError)
			WriteError(w, se.status, se.typ, se.msg)
			return
		}
	}
	next, err := applyUpdates(cur, req.Updates)
	if err != nil {
		WriteError(w, http.StatusBadRequest, "BadRequestException", err.Error())
		return
	}
	next.LastUpdatedMs = max(time.Now().UnixMilli(), cur.LastUpdatedMs+1)
	next.MetadataLog = append(slices.Clone(cur.MetadataLog), iceberg.MetadataLogEntry{TimestampMs: cur.LastUpdatedMs, MetadataFile: location(t.location)})
	out, err := iceberg.MarshalMetadata(next)
	if err != nil {
		WriteError(w, http.StatusBadRequest, "BadRequestException", err.Error())
		return
	}
	file, err := writeNext(t.location, out)
	if err != nil {
		WriteError(w, http.StatusInternalServerError, "CommitStateUnknownException", err.Error())
		return
	}
	t.location = file
	writeJSON(w, http.StatusOK, map[string]any{"metadata-location": location(file), "metadata": json.RawMessage(out)})
}

// writeNext creates the metadata file after prev: vN+1.metadata.json when
// prev is vN.metadata.json, else the first free vN; never replacing a file.
func writeNext(prev string, data []byte) (string, error) {
	dir := filepath.Dir(prev)
	n := 1
	if v, ok := strings.CutPrefix(filepath.Base(prev), "v"); ok {
		if i, err := strconv.Atoi(strings.TrimSuffix(v, ".metadata.json")); err == nil {
			n = i + 1
		}
	}
	for range 1000 {
		p := filepath.Join(dir, fmt.Sprintf("v%d.metadata.json", n))
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if os.IsExist(err) {
			n++
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(p)
			return "", err
		}
		return p, nil
	}
	return "", fmt.Errorf("no free metadata file name in %s", dir)
}

func failed(format string, args ...any) error {
	return &statusError{http.StatusConflict, "CommitFailedException", "Requirement failed: " + fmt.Sprintf(format, args...)}
}

func badRequest(format string, args ...any) error {
	return &statusError{http.StatusBadRequest, "BadRequestException", fmt.Sprintf(format, args...)}
}

// checkRequirement checks one TableRequirement against the current metadata.
func checkRequirement(m *iceberg.Metadata, raw json.RawMessage) error {
	var q struct {
		Type                string  `json:"type"`
		UUID                *string `json:"uuid"`
		Ref                 *string `json:"ref"`
		SnapshotID          *int64  `json:"snapshot-id"`
		CurrentSchemaID     *int    `json:"current-schema-id"`
		LastAssignedFieldID *int    `json:"last-assigned-field-id"`
		LastPartitionID     *int    `json:"last-assigned-partition-id"`
		DefaultSpecID       *int    `json:"default-spec-id"`
	}
	if err := json.Unmarshal(raw, &q); err != nil {
		return badRequest("malformed requirement: %v", err)
	}
	need := func(ok bool) error {
		if !ok {
			return badRequest("requirement %s lacks its value", q.Type)
		}
		return nil
	}
	switch q.Type {
	case "assert-create":
		return failed("table already exists")
	case "assert-table-uuid":
		if err := need(q.UUID != nil); err != nil {
			return err
		}
		if *q.UUID != m.TableUUID {
			return failed("table UUID does not match: expected %s != %s", *q.UUID, m.TableUUID)
		}
	case "assert-current-schema-id":
		if err := need(q.CurrentSchemaID != nil); err != nil {
			return err
		}
		if *q.CurrentSchemaID != m.CurrentSchemaID {
			return failed("current schema changed: expected id %d != %d", *q.CurrentSchemaID, m.CurrentSchemaID)
		}
	case "assert-last-assigned-field-id":
		if err := need(q.LastAssignedFieldID != nil); err != nil {
			return err
		}
		if *q.LastAssignedFieldID != m.LastColumnID {
			return failed("last assigned field id changed: expected id %d != %d", *q.LastAssignedFieldID, m.LastColumnID)
		}
	case "assert-last-assigned-partition-id":
		if err := need(q.LastPartitionID != nil); err != nil {
			return err
		}
		if *q.LastPartitionID != m.LastPartitionID {
			return failed("last assigned partition id changed: expected id %d != %d", *q.LastPartitionID, m.LastPartitionID)
		}
	case "assert-default-spec-id":
		if err := need(q.DefaultSpecID != nil); err != nil {
			return err
		}
		if *q.DefaultSpecID != m.DefaultSpecID {
			return failed("default partition spec changed: expected id %d != %d", *q.DefaultSpecID, m.DefaultSpecID)
		}
	case "assert-ref-snapshot-id":
		if q.Ref == nil || *q.Ref != "main" {
			return badRequest("assert-ref-snapshot-id: only the main branch is known to this catalog")
		}
		cur := m.CurrentSnapshotID
		switch {
		case q.SnapshotID == nil && cur != nil:
			return failed("branch main was created concurrently")
		case q.SnapshotID != nil && (cur == nil || *cur != *q.SnapshotID):
			return failed("branch main has changed")
		}
	default:
		return badRequest("unknown requirement type %q", q.Type)
	}
	return nil
}

// applyUpdates applies the updates to a copy of m.
func applyUpdates(m *iceberg.Metadata, updates []json.RawMessage) (*iceberg.Metadata, error) {
	next := *m
	next.Schemas = slices.Clone(m.Schemas)
	next.Properties = maps.Clone(m.Properties)
	lastAdded := -1
	for _, raw := range updates {
		var u struct {
			Action       string            `json:"action"`
			Schema       json.RawMessage   `json:"schema"`
			LastColumnID *int              `json:"last-column-id"`
			SchemaID     *int              `json:"schema-id"`
			Updates      map[string]string `json:"updates"`
			Removals     []string          `json:"removals"`
		}
		if err := json.Unmarshal(raw, &u); err != nil {
			return nil, fmt.Errorf("malformed update: %v", err)
		}
		switch u.Action {
		case "add-schema":
			sc, err := schema.ParseIcebergSchema(u.Schema)
			if err != nil {
				return nil, fmt.Errorf("add-schema: %v", err)
			}
			if err := uniqueIDs(sc); err != nil {
				return nil, fmt.Errorf("add-schema: %v", err)
			}
			reuse := -1
			for _, old := range next.Schemas {
				if old.Equal(sc) {
					reuse = old.ID
				}
			}
			if reuse >= 0 {
				lastAdded = reuse
				break
			}
			id := 0
			for _, old := range next.Schemas {
				id = max(id, old.ID+1)
			}
			sc.ID = id
			next.Schemas = append(next.Schemas, sc)
			last := max(next.LastColumnID, sc.HighestFieldID())
			if u.LastColumnID != nil {
				last = max(last, *u.LastColumnID)
			}
			next.LastColumnID = last
			lastAdded = id
		case "set-current-schema":
			if u.SchemaID == nil {
				return nil, fmt.Errorf("set-current-schema lacks schema-id")
			}
			id := *u.SchemaID
			if id == -1 {
				if lastAdded < 0 {
					return nil, fmt.Errorf("set-current-schema -1 without add-schema before it")
				}
				id = lastAdded
			}
			if next.SchemaByID(id) == nil {
				return nil, fmt.Errorf("set-current-schema: no schema with id %d", id)
			}
			next.CurrentSchemaID = id
		case "set-properties":
			if next.Properties == nil {
				next.Properties = map[string]string{}
			}
			maps.Copy(next.Properties, u.Updates)
		case "remove-properties":
			for _, k := range u.Removals {
				delete(next.Properties, k)
			}
		default:
			return nil, fmt.Errorf("unknown or unsupported update action %q", u.Action)
		}
	}
	return &next, nil
}

// uniqueIDs checks that no field id appears twice in s.
func uniqueIDs(s *schema.Schema) error {
	seen := map[int]bool{}
	var walk func(fs []*schema.Field) error
	walk = func(fs []*schema.Field) error {
		for _, f := range fs {
			if seen[f.ID] {
				return fmt.Errorf("field id %d appears twice", f.ID)
			}
			seen[f.ID] = true
			if err := walk(children(f.Type)); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(s.Fields)
}

// children returns the nested fields of a struct, list or map type.
func children(t schema.Type) []*schema.Field {
	switch t := t.(type) {
	case *schema.StructType:
		return t.Fields
	case *schema.ListType:
		return []*schema.Field{t.Element}
	case *schema.MapType:
		return []*schema.Field{t.Key, t.Value}
	}
	return nil
}
