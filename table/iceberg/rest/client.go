package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Secret is a credential. Its printed form (%v, %s, %q, %+v, %#v) is
// "[redacted]", so that an [Options] value printed by mistake shows no
// credential.
type Secret string

// String returns "[redacted]" for a set secret and "" for an empty one.
func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return "[redacted]"
}

// GoString is String, for %#v.
func (s Secret) GoString() string { return s.String() }

// Options configure [New].
type Options struct {
	// URI is the catalog's base URI, the "uri" of an Iceberg REST catalog:
	// "https://host/api/catalog" or "http://127.0.0.1:8181". The routes
	// /v1/config, /v1/{prefix}/… are appended to it.
	URI string
	// Prefix is the client's value of the "prefix" property, used unless
	// the server's configuration overrides it (empty: routes have no
	// prefix segment, /v1/namespaces).
	Prefix string
	// Warehouse is sent as the warehouse query parameter of GET /v1/config.
	Warehouse string
	// Properties are the client's catalog properties, applied after the
	// server's defaults and before its overrides.
	Properties map[string]string
	// Token is a bearer token sent in the Authorization header of every
	// request.
	Token Secret
	// Credential is "client_id:client_secret" (or a bare client secret),
	// exchanged for an access token with the OAuth2 client credentials
	// flow; the token is fetched again when it expires and once after a
	// 401. Token and Credential are exclusive.
	Credential Secret
	// Scope is the OAuth2 scope requested (default "catalog").
	Scope string
	// OAuth2ServerURI is the token endpoint (default:
	// Properties["oauth2-server-uri"], else URI + "/v1/oauth/tokens").
	OAuth2ServerURI string
	// HTTPClient sends the requests (nil: a client with a 60 s timeout).
	HTTPClient *http.Client
	// MaxRetries bounds the retries of one request after a 429, a 5xx or a
	// transport error (default 4; negative: none).
	MaxRetries int
	// RetryDelay is the first backoff delay, doubled on each retry up to
	// 32 times it (default 200 ms). A Retry-After header in seconds is
	// honoured up to that cap.
	RetryDelay time.Duration
	// MaxCommitAttempts bounds the attempts of [Client.UpdateTable] when
	// the server answers 409 CommitFailed (default 4).
	MaxCommitAttempts int
	// Now is the clock used for token expiry (nil: time.Now).
	Now func() time.Time
}

// Client is a REST catalog client. Its methods are safe for concurrent use.
type Client struct {
	base       string // URI without a trailing slash
	http       *http.Client
	props      map[string]string
	prefix     string // escaped path segments, "" for none
	sep        string
	maxRetries int
	delay      time.Duration
	attempts   int
	now        func() time.Time
	auth       *auth
	// idempotency: the server announced idempotency-key-lifetime, so a
	// commit carrying an Idempotency-Key may be retried after a 5xx.
	idempotency bool
}

// New returns a client for the catalog at opts.URI: it obtains a token when
// opts.Credential is set, then reads GET /v1/config and merges the server's
// defaults, opts.Properties and the server's overrides.
//
// Errors are [*Error] values (an unreachable or failing server,
// [ErrUnauthorized] for rejected credentials), [ErrInvalidResponse], and
// an error for an unusable opts.URI.
func New(ctx context.Context, opts Options) (*Client, error) {
	u, err := url.Parse(opts.URI)
	if err != nil {
		return nil, errors.New("rest: catalog URI: not a URL") // the text might hold a credential: not echoed
	}
	if u.User != nil || u.RawQuery != "" {
		return nil, fmt.Errorf("rest: catalog URI %s://%s%s: give credentials and parameters as options, not in the URI", u.Scheme, u.Host, u.Path)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("rest: catalog URI %q: want http://HOST[:PORT][/PATH] or https://…", opts.URI)
	}
	if opts.Token != "" && opts.Credential != "" {
		return nil, errors.New("rest: give a token or a credential, not both")
	}
	c := &Client{
		base:       strings.TrimSuffix(opts.URI, "/"),
		http:       opts.HTTPClient,
		maxRetries: opts.MaxRetries,
		delay:      opts.RetryDelay,
		attempts:   opts.MaxCommitAttempts,
		now:        opts.Now,
		sep:        DefaultNamespaceSeparator,
	}
	if c.http == nil {
		c.http = &http.Client{Timeout: 60 * time.Second}
	}
	if c.maxRetries == 0 {
		c.maxRetries = 4
	} else if c.maxRetries < 0 {
		c.maxRetries = 0
	}
	if c.delay <= 0 {
		c.delay = 200 * time.Millisecond
	}
	if c.attempts <= 0 {
		c.attempts = 4
	}
	if c.now == nil {
		c.now = time.Now
	}
	c.auth = &auth{static: string(opts.Token), scope: opts.Scope, tokenURI: opts.OAuth2ServerURI}
	if opts.Credential != "" {
		id, secret, ok := strings.Cut(string(opts.Credential), ":")
		if !ok {
			id, secret = "", id
		}
		c.auth.clientID, c.auth.secret = id, secret
		if c.auth.tokenURI == "" {
			c.auth.tokenURI = opts.Properties["oauth2-server-uri"]
		}
		if c.auth.tokenURI == "" {
			c.auth.tokenURI = c.base + "/v1/oauth/tokens"
		}
		if c.auth.scope == "" {
			c.auth.scope = "catalog"
		}
	}

	var cfg struct {
		Defaults  map[string]string `json:"defaults"`
		Overrides map[string]string `json:"overrides"`
		// IdempotencyLifetime, when present, says the server honours
		// Idempotency-Key on mutations.
		IdempotencyLifetime *string `json:"idempotency-key-lifetime"`
	}
	q := url.Values{}
	if opts.Warehouse != "" {
		q.Set("warehouse", opts.Warehouse)
	}
	if err := c.do(ctx, request{method: http.MethodGet, path: "/v1/config", query: q}, &cfg); err != nil {
		return nil, err
	}
	props := map[string]string{}
	for k, v := range cfg.Defaults {
		props[k] = v
	}
	if opts.Prefix != "" {
		props["prefix"] = opts.Prefix
	}
	for k, v := range opts.Properties {
		props[k] = v
	}
	for k, v := range cfg.Overrides {
		props[k] = v
	}
	c.props = props
	c.idempotency = cfg.IdempotencyLifetime != nil
	if p := strings.Trim(props["prefix"], "/"); p != "" {
		segs := strings.Split(p, "/")
		for i, s := range segs {
			segs[i] = url.PathEscape(s)
		}
		c.prefix = strings.Join(segs, "/")
	}
	if s, ok := props["namespace-separator"]; ok && s != "" {
		dec, err := url.QueryUnescape(s)
		if err != nil || dec == "" {
			return nil, fmt.Errorf("%w: /v1/config: namespace-separator %q is not URL-encoded text", ErrInvalidResponse, s)
		}
		c.sep = dec
	}
	return c, nil
}

// Property returns the merged catalog property k (defaults, client
// properties, overrides) and whether it is set.
func (c *Client) Property(k string) (string, bool) {
	v, ok := c.props[k]
	return v, ok
}

// Prefix returns the {prefix} path segment in use ("" for none), escaped.
func (c *Client) Prefix() string { return c.prefix }

// route returns /v1/{prefix}/rest, where rest starts with a slash.
func (c *Client) route(rest string) string {
	if c.prefix == "" {
		return "/v1" + rest
	}
	return "/v1/" + c.prefix + rest
}

// request is one HTTP request to the catalog.
type request struct {
	method string
	path   string // escaped path below the base URI
	query  url.Values
	body   []byte
	commit bool   // a table commit: not idempotent, 409 and 5xx mean commit outcomes
	token  string // a table-specific bearer token (LoadTableResult config "token")
	key    string // Idempotency-Key of a commit ("" for none)
}

// do sends r and decodes a 2xx body into out (nil: the body is discarded),
// retrying as the package documentation says.
func (c *Client) do(ctx context.Context, r request, out any) error {
	op := r.method + " " + r.path
	reauth := c.auth.canRefresh()
	for attempt := 0; ; attempt++ {
		status, hdr, body, err := c.send(ctx, r)
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("rest: %s: %w", op, ctx.Err())
			}
			var ae authError
			if errors.As(err, &ae) {
				return ae.err // the token request failed; it made its own retries
			}
			if r.commit && r.key == "" {
				return &Error{Op: op, Kind: ErrCommitStateUnknown, Err: err}
			}
			if attempt >= c.maxRetries {
				kind := ErrUnavailable
				if r.commit {
					kind = ErrCommitStateUnknown
				}
				return &Error{Op: op, Kind: kind, Err: err}
			}
			if err := c.sleep(ctx, attempt, ""); err != nil {
				return fmt.Errorf("rest: %s: %w", op, err)
			}
			continue
		}
		if status >= 200 && status < 300 {
			if out == nil || status == http.StatusNoContent {
				return nil
			}
			if err := json.Unmarshal(body, out); err != nil {
				return fmt.Errorf("%w: %s: %v", ErrInvalidResponse, op, err)
			}
			return nil
		}
		if (status == http.StatusUnauthorized || status == 419) && reauth && r.token == "" {
			reauth = false // the token may have been revoked or expired early: fetch one more
			c.auth.invalidate()
			continue
		}
		retry := status == http.StatusTooManyRequests || status >= 500
		if r.commit && r.key == "" {
			retry = status == http.StatusTooManyRequests || (status == http.StatusServiceUnavailable && hdr.Get("Retry-After") != "")
		}
		if retry && attempt < c.maxRetries {
			if err := c.sleep(ctx, attempt, hdr.Get("Retry-After")); err != nil {
				return fmt.Errorf("rest: %s: %w", op, err)
			}
			continue
		}
		return errorFrom(op, status, body, r.commit)
	}
}

// send makes one attempt: the status, headers and body of the response.
func (c *Client) send(ctx context.Context, r request) (int, http.Header, []byte, error) {
	u := c.base + r.path
	if len(r.query) > 0 {
		u += "?" + r.query.Encode()
	}
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u, body)
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Accept", "application/json")
	if r.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.key != "" {
		req.Header.Set("Idempotency-Key", r.key)
	}
	tok := r.token
	if tok == "" {
		if tok, err = c.auth.bearer(ctx, c); err != nil {
			return 0, nil, nil, authError{err}
		}
	}
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	return c.roundTrip(req)
}

// roundTrip sends req and reads at most MaxResponseBytes of the body.
func (c *Client) roundTrip(req *http.Request) (int, http.Header, []byte, error) {
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, nil, scrub(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if err != nil {
		return 0, nil, nil, scrub(err)
	}
	if len(b) > MaxResponseBytes {
		return 0, nil, nil, fmt.Errorf("%w: %s %s: body above %d bytes", ErrInvalidResponse, req.Method, req.URL.Path, MaxResponseBytes)
	}
	return resp.StatusCode, resp.Header, b, nil
}

// scrub drops the URL from a transport error (*url.Error prints it; ours
// carry no secret, but a query might in a caller's URI).
func scrub(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// sleep waits the backoff of retry n (0-based): RetryDelay·2ⁿ, at most 32
// RetryDelay, or the Retry-After seconds when given, under the same cap.
func (c *Client) sleep(ctx context.Context, n int, retryAfter string) error {
	ceiling := 32 * c.delay
	d := c.delay << min(n, 5)
	if s, err := strconv.Atoi(strings.TrimSpace(retryAfter)); err == nil && s >= 0 {
		d = time.Duration(s) * time.Second
	}
	d = min(d, ceiling)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// errorFrom builds the *Error of a non-2xx response.
func errorFrom(op string, status int, body []byte, commit bool) error {
	e := &Error{Op: op, Status: status, Kind: kindOf(status, commit)}
	var doc struct {
		Error *struct {
			Message string `json:"message"`
			Type    string `json:"type"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &doc) == nil && doc.Error != nil {
		e.Type, e.Message = doc.Error.Type, truncate(doc.Error.Message)
	}
	return e
}

// truncate caps a server message at 512 bytes, so that an error stays one
// readable line.
func truncate(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 512 {
		return s[:512] + "…"
	}
	return s
}

// authError marks a failed token request inside send.
type authError struct{ err error }

func (e authError) Error() string { return e.err.Error() }

// auth holds the credentials and the current OAuth2 access token.
type auth struct {
	static   string
	clientID string
	secret   string
	scope    string
	tokenURI string

	mu      sync.Mutex
	token   string
	expires time.Time // zero: no expiry given
}

func (a *auth) canRefresh() bool { return a.secret != "" }

func (a *auth) invalidate() {
	a.mu.Lock()
	a.token = ""
	a.mu.Unlock()
}

// bearer returns the token for the Authorization header ("" for none),
// fetching an OAuth2 token when there is none or it expires within a
// minute.
func (a *auth) bearer(ctx context.Context, c *Client) (string, error) {
	if a.secret == "" {
		return a.static, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.token != "" && (a.expires.IsZero() || c.now().Before(a.expires.Add(-time.Minute))) {
		return a.token, nil
	}
	tok, exp, err := a.fetch(ctx, c)
	if err != nil {
		return "", err
	}
	a.token, a.expires = tok, exp
	return tok, nil
}

// fetch runs the client credentials flow (RFC 6749 section 4.4) against
// the token endpoint: a form body with grant_type, client_id,
// client_secret and scope. It retries like a GET.
func (a *auth) fetch(ctx context.Context, c *Client) (string, time.Time, error) {
	form := url.Values{}
	form.Set("grant_type", "client_credentials")
	if a.clientID != "" {
		form.Set("client_id", a.clientID)
	}
	form.Set("client_secret", a.secret)
	form.Set("scope", a.scope)
	op := "POST " + tokenPath(a.tokenURI)
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.tokenURI, strings.NewReader(form.Encode()))
		if err != nil {
			return "", time.Time{}, fmt.Errorf("rest: OAuth2 token endpoint: %w", scrub(err))
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept", "application/json")
		status, hdr, body, err := c.roundTrip(req)
		if err == nil && status == http.StatusOK {
			var tr struct {
				AccessToken string `json:"access_token"`
				TokenType   string `json:"token_type"`
				ExpiresIn   *int64 `json:"expires_in"`
			}
			if err := json.Unmarshal(body, &tr); err != nil || tr.AccessToken == "" {
				return "", time.Time{}, fmt.Errorf("%w: %s: no access_token in the OAuth2 token response", ErrInvalidResponse, op)
			}
			if !strings.EqualFold(tr.TokenType, "bearer") {
				return "", time.Time{}, fmt.Errorf("%w: %s: token_type %q, want bearer", ErrInvalidResponse, op, tr.TokenType)
			}
			var exp time.Time
			if tr.ExpiresIn != nil && *tr.ExpiresIn > 0 {
				exp = c.now().Add(time.Duration(*tr.ExpiresIn) * time.Second)
			}
			return tr.AccessToken, exp, nil
		}
		if err != nil && ctx.Err() != nil {
			return "", time.Time{}, fmt.Errorf("rest: %s: %w", op, ctx.Err())
		}
		transient := err != nil || status == http.StatusTooManyRequests || status >= 500
		if transient && attempt < c.maxRetries {
			if err := c.sleep(ctx, attempt, hdr.Get("Retry-After")); err != nil {
				return "", time.Time{}, fmt.Errorf("rest: %s: %w", op, err)
			}
			continue
		}
		if err != nil {
			return "", time.Time{}, &Error{Op: op, Kind: ErrUnavailable, Err: err}
		}
		e := &Error{Op: op, Status: status, Kind: ErrUnauthorized}
		if status == http.StatusTooManyRequests || status >= 500 {
			e.Kind = ErrUnavailable
		}
		var oe struct {
			Error       string `json:"error"`
			Description string `json:"error_description"`
		}
		if json.Unmarshal(body, &oe) == nil {
			e.Type, e.Message = oe.Error, truncate(oe.Description)
		}
		return "", time.Time{}, e
	}
}

// tokenPath is the path of the token endpoint, for error messages.
func tokenPath(uri string) string {
	if u, err := url.Parse(uri); err == nil {
		return u.Path
	}
	return "token endpoint"
}
