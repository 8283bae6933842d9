package rest

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/lakecat/lakecat/table/iceberg"
)

// StorageCredential is one entry of a LoadTableResult's
// "storage-credentials": configuration (access keys, tokens) for the
// storage locations under Prefix.
type StorageCredential struct {
	Prefix string
	Config map[string]string
}

// String names the prefix and the configuration keys, never their values.
func (s StorageCredential) String() string {
	return fmt.Sprintf("storage credential for %s (keys %s)", s.Prefix, strings.Join(sortedKeys(s.Config), ", "))
}

// LoadTableResult is the response of [Client.LoadTable] (the OpenAPI
// schema LoadTableResult).
type LoadTableResult struct {
	// MetadataLocation is the table's current metadata file, "" for a
	// table staged in a transaction.
	MetadataLocation string
	// Metadata is the table metadata the server returned.
	Metadata *iceberg.Metadata
	// Config is the table configuration ("token", "s3.access-key-id",
	// "client.region", …); it may hold credentials.
	Config map[string]string
	// StorageCredentials are the vended credentials, if any.
	StorageCredentials []StorageCredential
}

// String describes the result without its configuration values.
func (r *LoadTableResult) String() string {
	return fmt.Sprintf("table at %s (config keys %s; %d storage credentials)", r.MetadataLocation,
		strings.Join(sortedKeys(r.Config), ", "), len(r.StorageCredentials))
}

// CredentialFor returns the storage credential whose prefix is the longest
// prefix of location (the spec's rule when several apply), or nil.
func (r *LoadTableResult) CredentialFor(location string) *StorageCredential {
	var best *StorageCredential
	for i := range r.StorageCredentials {
		s := &r.StorageCredentials[i]
		if strings.HasPrefix(location, s.Prefix) && (best == nil || len(s.Prefix) > len(best.Prefix)) {
			best = s
		}
	}
	return best
}

// loadTableJSON is the wire form of LoadTableResult and CommitTableResponse.
type loadTableJSON struct {
	MetadataLocation *string           `json:"metadata-location"`
	Metadata         json.RawMessage   `json:"metadata"`
	Config           map[string]string `json:"config"`
	Credentials      []struct {
		Prefix string            `json:"prefix"`
		Config map[string]string `json:"config"`
	} `json:"storage-credentials"`
}

// DecodeLoadTableResult decodes a LoadTableResult JSON body (also the
// response of a table creation). The metadata is decoded with
// iceberg.ParseMetadata. Errors match [ErrInvalidResponse] and, for bad
// metadata, schema.ErrInvalidSchema.
func DecodeLoadTableResult(body []byte) (*LoadTableResult, error) {
	var w loadTableJSON
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, fmt.Errorf("%w: LoadTableResult: %v", ErrInvalidResponse, err)
	}
	if len(w.Metadata) == 0 || string(w.Metadata) == "null" {
		return nil, fmt.Errorf("%w: LoadTableResult: no metadata", ErrInvalidResponse)
	}
	m, err := iceberg.ParseMetadata(w.Metadata)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("%w: LoadTableResult metadata", ErrInvalidResponse), err)
	}
	r := &LoadTableResult{Metadata: m, Config: w.Config}
	if w.MetadataLocation != nil {
		r.MetadataLocation = *w.MetadataLocation
	}
	for _, c := range w.Credentials {
		r.StorageCredentials = append(r.StorageCredentials, StorageCredential{Prefix: c.Prefix, Config: c.Config})
	}
	return r, nil
}

// CommitResult is the response of a commit (CommitTableResponse): the new
// metadata location and metadata.
type CommitResult struct {
	MetadataLocation string
	Metadata         *iceberg.Metadata
	// Attempts is the number of attempts [Client.UpdateTable] made (a load,
	// a build and, unless there was nothing to commit, a commit request);
	// 1 without a conflict.
	Attempts int
}

// DecodeCommitTableResponse decodes a CommitTableResponse JSON body; both
// metadata-location and metadata are required. Errors as
// [DecodeLoadTableResult].
func DecodeCommitTableResponse(body []byte) (*CommitResult, error) {
	r, err := DecodeLoadTableResult(body)
	if err != nil {
		return nil, err
	}
	if r.MetadataLocation == "" {
		return nil, fmt.Errorf("%w: CommitTableResponse: no metadata-location", ErrInvalidResponse)
	}
	return &CommitResult{MetadataLocation: r.MetadataLocation, Metadata: r.Metadata}, nil
}

func (c *Client) tablePath(id Identifier) (string, error) {
	ns, err := encodeNamespace(id.Namespace, c.sep)
	if err != nil {
		return "", err
	}
	if id.Name == "" {
		return "", fmt.Errorf("rest: table %s: empty name", id)
	}
	return c.route("/namespaces/" + ns + "/tables/" + url.PathEscape(id.Name)), nil
}

// rawBody captures a 2xx body for a decoder of its own.
type rawBody []byte

func (r *rawBody) UnmarshalJSON(b []byte) error { *r = append((*r)[:0], b...); return nil }

// LoadTable loads a table (GET /v1/{prefix}/namespaces/{namespace}/tables/{table}).
// A table that does not exist is an [*Error] matching [ErrNotFound].
func (c *Client) LoadTable(ctx context.Context, id Identifier) (*LoadTableResult, error) {
	p, err := c.tablePath(id)
	if err != nil {
		return nil, err
	}
	var body rawBody
	if err := c.do(ctx, request{method: http.MethodGet, path: p}, &body); err != nil {
		return nil, fmt.Errorf("table %s: %w", id, err)
	}
	r, err := DecodeLoadTableResult(body)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", id, err)
	}
	return r, nil
}

// maxPages bounds a paginated listing, against a server that never ends
// one.
const maxPages = 100000

// ListNamespaces lists the namespaces under parent (nil: the top-level
// ones), following next-page-token to the end
// (GET /v1/{prefix}/namespaces).
func (c *Client) ListNamespaces(ctx context.Context, parent []string) ([][]string, error) {
	q := url.Values{}
	if len(parent) > 0 {
		if _, err := encodeNamespace(parent, c.sep); err != nil {
			return nil, err
		}
		q.Set("parent", strings.Join(parent, c.sep))
	}
	var all [][]string
	err := c.pages(ctx, c.route("/namespaces"), q, func(body []byte) (string, error) {
		var page struct {
			Next       *string    `json:"next-page-token"`
			Namespaces [][]string `json:"namespaces"`
		}
		if err := json.Unmarshal(body, &page); err != nil {
			return "", err
		}
		all = append(all, page.Namespaces...)
		return deref(page.Next), nil
	})
	return all, err
}

// ListTables lists the tables of a namespace, following next-page-token
// (GET /v1/{prefix}/namespaces/{namespace}/tables).
func (c *Client) ListTables(ctx context.Context, namespace []string) ([]Identifier, error) {
	ns, err := encodeNamespace(namespace, c.sep)
	if err != nil {
		return nil, err
	}
	var all []Identifier
	err = c.pages(ctx, c.route("/namespaces/"+ns+"/tables"), url.Values{}, func(body []byte) (string, error) {
		var page struct {
			Next        *string      `json:"next-page-token"`
			Identifiers []Identifier `json:"identifiers"`
		}
		if err := json.Unmarshal(body, &page); err != nil {
			return "", err
		}
		all = append(all, page.Identifiers...)
		return deref(page.Next), nil
	})
	return all, err
}

// pages GETs path until decode returns an empty next-page-token. The first
// request sends pageToken empty, which asks a paginating server to start.
func (c *Client) pages(ctx context.Context, path string, q url.Values, decode func([]byte) (string, error)) error {
	token := ""
	for range maxPages {
		q.Set("pageToken", token)
		var body rawBody
		if err := c.do(ctx, request{method: http.MethodGet, path: path, query: q}, &body); err != nil {
			return err
		}
		next, err := decode(body)
		if err != nil {
			return fmt.Errorf("%w: GET %s: %v", ErrInvalidResponse, path, err)
		}
		if next == "" {
			return nil
		}
		if next == token {
			return fmt.Errorf("%w: GET %s: next-page-token repeats", ErrInvalidResponse, path)
		}
		token = next
	}
	return fmt.Errorf("%w: GET %s: more than %d pages", ErrInvalidResponse, path, maxPages)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// CommitTable sends one CommitTableRequest JSON body
// (POST /v1/{prefix}/namespaces/{namespace}/tables/{table}) and returns the
// new metadata. A failed requirement is an [*Error] matching
// [ErrCommitFailed]; an outcome the server could not tell matches
// [ErrCommitStateUnknown].
func (c *Client) CommitTable(ctx context.Context, id Identifier, body []byte) (*CommitResult, error) {
	return c.commit(ctx, id, body, "")
}

func (c *Client) commit(ctx context.Context, id Identifier, body []byte, token string) (*CommitResult, error) {
	p, err := c.tablePath(id)
	if err != nil {
		return nil, err
	}
	r := request{method: http.MethodPost, path: p, body: body, commit: true, token: token}
	if c.idempotency {
		if r.key, err = newIdempotencyKey(c.now()); err != nil {
			return nil, err
		}
	}
	var resp rawBody
	if err := c.do(ctx, r, &resp); err != nil {
		return nil, fmt.Errorf("table %s: %w", id, err)
	}
	res, err := DecodeCommitTableResponse(resp)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", id, err)
	}
	res.Attempts = 1
	return res, nil
}

// newIdempotencyKey returns a UUIDv7 (RFC 9562 section 5.7), the form the
// OpenAPI document asks of an Idempotency-Key: 48 bits of Unix
// milliseconds, the version, 74 random bits and the variant.
func newIdempotencyKey(now time.Time) (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[6:]); err != nil {
		return "", fmt.Errorf("rest: idempotency key: %w", err)
	}
	ms := uint64(now.UnixMilli())
	for i := range 6 {
		b[i] = byte(ms >> (40 - 8*i))
	}
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]), nil
}

// UpdateTable commits a change computed from the table's current metadata:
// it loads the table, calls build with the result, and sends the
// CommitTableRequest body build returns. When the server answers 409
// CommitFailed (another writer committed first), it loads the table again
// and calls build on the fresh metadata, up to [Options.MaxCommitAttempts]
// times, then returns the last error. build returning a nil body means
// there is nothing to commit: UpdateTable returns a CommitResult with an
// empty MetadataLocation. An error from build is returned as is.
//
// A "token" in the table's configuration is used as the bearer token of
// the commit (OpenAPI document, LoadTableResult).
func (c *Client) UpdateTable(ctx context.Context, id Identifier, build func(current *LoadTableResult) ([]byte, error)) (*CommitResult, error) {
	for n := 1; ; n++ {
		cur, err := c.LoadTable(ctx, id)
		if err != nil {
			return nil, err
		}
		body, err := build(cur)
		if err != nil {
			return nil, err
		}
		if body == nil {
			return &CommitResult{Metadata: cur.Metadata, Attempts: n}, nil
		}
		res, err := c.commit(ctx, id, body, cur.Config["token"])
		if err == nil {
			res.Attempts = n
			return res, nil
		}
		if !errors.Is(err, ErrCommitFailed) || n >= c.attempts {
			return nil, err
		}
		if err := c.sleep(ctx, n-1, ""); err != nil {
			return nil, fmt.Errorf("table %s: %w", id, err)
		}
	}
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }
