//go:build !lakecat_nogcs

package blob

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"sync"

	gcblob "gocloud.dev/blob"
	"gocloud.dev/blob/gcsblob"
	"gocloud.dev/gcp"
	"golang.org/x/oauth2/google"
	"google.golang.org/api/option"
)

func init() {
	drivers["gs"] = func(log *slog.Logger) gcblob.BucketURLOpener { return &gcsOpener{log: log} }
}

// gcsOpener opens gs:// URLs with gocloud's gcsblob.URLOpener (its query
// parameters: anonymous, universe_domain, …) over Application Default
// Credentials found once per universe domain. Without credentials it
// logs a warning to log and sends requests without credentials (enough for
// a public bucket; a private one answers 401 or 403), where gocloud's own
// opener would print the warning on stdout.
type gcsOpener struct {
	log     *slog.Logger
	mu      sync.Mutex
	openers map[string]*gcsblob.URLOpener // universe_domain → opener
}

func (o *gcsOpener) OpenBucketURL(ctx context.Context, u *url.URL) (*gcblob.Bucket, error) {
	if os.Getenv("STORAGE_EMULATOR_HOST") != "" || os.Getenv("STORAGE_EMULATOR_HOST_GRPC") != "" {
		// gocloud's opener, which asks for no credentials for an emulator.
		return gcblob.DefaultURLMux().OpenBucketURL(ctx, u)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	domain := u.Query().Get("universe_domain")
	if op := o.openers[domain]; op != nil {
		return op.OpenBucketURL(ctx, u)
	}
	var creds *google.Credentials
	var err error
	if domain != "" {
		creds, err = gcp.DefaultCredentialsWithParams(ctx, google.CredentialsParams{UniverseDomain: domain})
	} else {
		creds, err = gcp.DefaultCredentials(ctx)
	}
	op := &gcsblob.URLOpener{}
	if err != nil {
		o.log.Warn("gs: no Application Default Credentials; requests go without credentials", "err", err)
		op.Client = gcp.NewAnonymousHTTPClient(gcp.DefaultTransport())
	} else {
		if ud, err := creds.GetUniverseDomain(); err != nil {
			o.log.Warn("gs: unable to load the universe domain", "err", err)
		} else if ud != "" {
			op.Options.ClientOptions = append(op.Options.ClientOptions, option.WithUniverseDomain(ud))
		}
		client, err := gcp.NewHTTPClient(gcp.DefaultTransport(), creds.TokenSource)
		if err != nil {
			return nil, fmt.Errorf("open bucket %v: %w", u, err)
		}
		op.Client, op.TokenSource = client, gcp.CredentialsTokenSource(creds)
	}
	if o.openers == nil {
		o.openers = map[string]*gcsblob.URLOpener{}
	}
	o.openers[domain] = op
	return op.OpenBucketURL(ctx, u)
}
