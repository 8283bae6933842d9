//go:build !lakecat_nogcs

package blob

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"
)

func init() { drivers["gs"] = openGCS }

// gcsScope is the OAuth2 scope the GCS driver asks credentials for.
const gcsScope = "https://www.googleapis.com/auth/devstorage.read_write"

// gcsClients caches one authorized HTTP client per universe domain, since
// finding Application Default Credentials may ask the metadata server.
var gcsClients struct {
	sync.Mutex
	m map[string]*http.Client
}

// openGCS opens a GCS bucket on the Cloud Storage JSON API
// (https://cloud.google.com/storage/docs/json_api) over net/http, with
// Application Default Credentials (golang.org/x/oauth2/google:
// GOOGLE_APPLICATION_CREDENTIALS naming a service-account or other
// credential JSON file, gcloud's application-default credentials, then
// the metadata server on Google Cloud). Without credentials it logs a
// warning to log and sends requests without them (enough for a public
// bucket; a private one answers 401 or 403). STORAGE_EMULATOR_HOST
// ("host:port" or a URL) sends requests to an emulator, without
// credentials. URL query parameters: anonymous (no credentials),
// universe_domain (another universe than googleapis.com), endpoint (the
// API's base URL, e.g. a proxy's; credentials are still sent). Storage
// properties (see [FS.SetProperties]): gcs.oauth2.token, a bearer token
// sent in place of Application Default Credentials, and gcs.service.host,
// the API's base URL.
func openGCS(ctx context.Context, name string, q url.Values, props map[string]string, log *slog.Logger) (bucket, error) {
	anonymous, domain, endpoint := false, "", strings.TrimSuffix(props["gcs.service.host"], "/")
	err := options(q, map[string]func(string) error{
		"anonymous":       func(v string) (err error) { anonymous, err = strconv.ParseBool(v); return err },
		"universe_domain": func(v string) error { domain = v; return nil },
		"endpoint":        func(v string) error { endpoint = strings.TrimSuffix(v, "/"); return nil },
	})
	if err != nil {
		return nil, err
	}
	base := "https://storage.googleapis.com"
	if domain != "" {
		base = "https://storage." + domain
	}
	if endpoint != "" {
		base = endpoint
	} else if h := os.Getenv("STORAGE_EMULATOR_HOST"); h != "" {
		base, anonymous = strings.TrimSuffix(h, "/"), true
		if !strings.Contains(base, "://") {
			base = "http://" + base
		}
	}
	client := http.DefaultClient
	switch tok := props["gcs.oauth2.token"]; {
	case tok != "":
		client = oauth2.NewClient(context.Background(), oauth2.StaticTokenSource(&oauth2.Token{AccessToken: tok, TokenType: "Bearer"}))
	case !anonymous:
		client = gcsClient(ctx, domain, log)
	}
	return &gcsBucket{c: client, base: base, name: name}, nil
}

// gcsClient returns the HTTP client with Application Default Credentials
// of universe domain ("" for googleapis.com), or the unauthorized default
// client (with a warning to log) when there are none.
func gcsClient(ctx context.Context, domain string, log *slog.Logger) *http.Client {
	gcsClients.Lock()
	defer gcsClients.Unlock()
	if c := gcsClients.m[domain]; c != nil {
		return c
	}
	creds, err := google.FindDefaultCredentialsWithParams(ctx, google.CredentialsParams{Scopes: []string{gcsScope}, UniverseDomain: domain})
	c := http.DefaultClient
	if err != nil {
		log.Warn("gs: no Application Default Credentials; requests go without credentials", "err", err)
	} else {
		// The token source outlives ctx (the first request's).
		c = oauth2.NewClient(context.Background(), creds.TokenSource)
	}
	if gcsClients.m == nil {
		gcsClients.m = map[string]*http.Client{}
	}
	gcsClients.m[domain] = c
	return c
}

// gcsBucket is one GCS bucket on the JSON API.
type gcsBucket struct {
	c    *http.Client
	base string // "https://storage.googleapis.com"
	name string
}

// objectURL returns the JSON API URL of the object key (under
// /storage/v1, or /upload/storage/v1 for an upload) with query q.
func (b *gcsBucket) objectURL(key string, q url.Values) string {
	u := b.base + "/storage/v1/b/" + url.PathEscape(b.name) + "/o"
	if key != "" {
		u += "/" + url.PathEscape(key)
	}
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

// do sends a request and returns the response of a 2xx status; other
// statuses are a *StatusError with the API's error message.
func (b *gcsBucket) do(ctx context.Context, method, u string, body []byte, hdr http.Header) (*http.Response, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, r)
	if err != nil {
		return nil, err
	}
	for k, v := range hdr {
		req.Header[k] = v
	}
	resp, err := b.c.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 == 2 {
		return resp, nil
	}
	defer resp.Body.Close()
	se := &StatusError{Op: method, Status: resp.StatusCode}
	var e struct {
		Error struct {
			Message string `json:"message"`
			Errors  []struct {
				Reason string `json:"reason"`
			} `json:"errors"`
		} `json:"error"`
	}
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if json.Unmarshal(msg, &e) == nil && e.Error.Message != "" {
		se.Msg = e.Error.Message
		if len(e.Error.Errors) > 0 {
			se.Code = e.Error.Errors[0].Reason
		}
	} else {
		se.Msg = strings.TrimSpace(string(msg))
	}
	return nil, se
}

func (b *gcsBucket) attributes(ctx context.Context, key string) (int64, error) {
	resp, err := b.do(ctx, http.MethodGet, b.objectURL(key, url.Values{"fields": {"size"}}), nil, nil)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var o struct {
		Size string `json:"size"` // a uint64 as a JSON string
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&o); err != nil {
		return 0, fmt.Errorf("gs: object metadata: %w", err)
	}
	n, err := strconv.ParseInt(o.Size, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("gs: object metadata: size %q", o.Size)
	}
	return n, nil
}

func (b *gcsBucket) newRangeReader(ctx context.Context, key string, off, n int64) (io.ReadCloser, error) {
	hdr := http.Header{"Range": {fmt.Sprintf("bytes=%d-%d", off, off+n-1)}}
	resp, err := b.do(ctx, http.MethodGet, b.objectURL(key, url.Values{"alt": {"media"}}), nil, hdr)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusPartialContent && off > 0 {
		// A store that ignored the range sent the object from byte 0.
		if _, err := io.CopyN(io.Discard, resp.Body, off); err != nil {
			resp.Body.Close()
			return nil, err
		}
	}
	return resp.Body, nil
}

func (b *gcsBucket) listPage(ctx context.Context, prefix, token string) ([]string, string, error) {
	q := url.Values{"prefix": {prefix}, "delimiter": {"/"}, "fields": {"items(name),prefixes,nextPageToken"}}
	if token != "" {
		q.Set("pageToken", token)
	}
	resp, err := b.do(ctx, http.MethodGet, b.objectURL("", q), nil, nil)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	var page struct {
		Items []struct {
			Name string `json:"name"`
		} `json:"items"`
		Prefixes      []string `json:"prefixes"`
		NextPageToken string   `json:"nextPageToken"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<20)).Decode(&page); err != nil {
		return nil, "", fmt.Errorf("gs: list: %w", err)
	}
	names := make([]string, 0, len(page.Items)+len(page.Prefixes))
	for _, it := range page.Items {
		names = append(names, it.Name)
	}
	names = append(names, page.Prefixes...)
	return names, page.NextPageToken, nil
}

func (b *gcsBucket) write(ctx context.Context, key string, data []byte, ifNotExist bool) error {
	q := url.Values{"uploadType": {"media"}, "name": {key}}
	if ifNotExist {
		// Generation 0 matches only an object that does not exist.
		q.Set("ifGenerationMatch", "0")
	}
	u := b.base + "/upload/storage/v1/b/" + url.PathEscape(b.name) + "/o?" + q.Encode()
	resp, err := b.do(ctx, http.MethodPost, u, data, http.Header{"Content-Type": {"application/octet-stream"}})
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

func (b *gcsBucket) remove(ctx context.Context, key string) error {
	resp, err := b.do(ctx, http.MethodDelete, b.objectURL(key, nil), nil, nil)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

func (b *gcsBucket) close() error { return nil }
