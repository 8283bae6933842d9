//go:build !lakecat_noazure

package blob

import (
	"context"
	"log/slog"
	"net/url"
	"sync"

	azlog "github.com/Azure/azure-sdk-for-go/sdk/azcore/log"
	gcblob "gocloud.dev/blob"
	_ "gocloud.dev/blob/azureblob" // azblob:// on gocloud's default mux
)

func init() {
	drivers["azblob"] = func(log *slog.Logger) gcblob.BucketURLOpener { return azureOpener{log} }
}

// azureOpener opens azblob:// URLs with gocloud's azureblob opener. The
// Azure SDK logs nothing unless a listener is set; when log takes debug
// lines, the SDK's events go to it at slog.LevelDebug. The listener is
// process-wide: the last FS to open an Azure bucket with such a logger
// receives them.
type azureOpener struct{ log *slog.Logger }

var azListener sync.Mutex

func (o azureOpener) OpenBucketURL(ctx context.Context, u *url.URL) (*gcblob.Bucket, error) {
	if o.log.Enabled(ctx, slog.LevelDebug) {
		azListener.Lock()
		l := o.log
		azlog.SetListener(func(ev azlog.Event, msg string) { l.Debug("azblob: "+msg, "event", string(ev)) })
		azListener.Unlock()
	}
	return gcblob.DefaultURLMux().OpenBucketURL(ctx, u)
}
