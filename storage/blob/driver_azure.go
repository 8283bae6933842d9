//go:build !lakecat_noazure

package blob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"strconv"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	azlog "github.com/Azure/azure-sdk-for-go/sdk/azcore/log"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/streaming"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
	azblob "github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blockblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container"
)

func init() { drivers["azblob"] = openAzure }

// azListener guards the Azure SDK's process-wide log listener.
var azListener sync.Mutex

// openAzure opens an Azure Blob Storage container with the Azure SDK's
// azblob client. The account is AZURE_STORAGE_ACCOUNT (or the
// storage_account parameter); credentials come from
// AZURE_STORAGE_CONNECTION_STRING, AZURE_STORAGE_KEY (shared key),
// AZURE_STORAGE_SAS_TOKEN, or else azidentity's default credential chain
// (environment, workload identity, managed identity, Azure CLI). URL query
// parameters: storage_account, domain (default blob.core.windows.net, or
// AZURE_STORAGE_DOMAIN), protocol (https; AZURE_STORAGE_PROTOCOL) and
// localemu (true: the Azurite emulator's URL layout,
// protocol://domain/account/container). The SDK logs nothing unless log
// takes debug lines; then its events go to log at slog.LevelDebug (the
// listener is process-wide: the last FS to open a container with such a
// logger receives them).
func openAzure(ctx context.Context, name string, q url.Values, _ map[string]string, log *slog.Logger) (bucket, error) {
	account := os.Getenv("AZURE_STORAGE_ACCOUNT")
	domain := os.Getenv("AZURE_STORAGE_DOMAIN")
	protocol := os.Getenv("AZURE_STORAGE_PROTOCOL")
	localemu := false
	if v := os.Getenv("AZURE_STORAGE_IS_LOCAL_EMULATOR"); v != "" {
		localemu, _ = strconv.ParseBool(v)
	}
	err := options(q, map[string]func(string) error{
		"storage_account": func(v string) error { account = v; return nil },
		"domain":          func(v string) error { domain = v; return nil },
		"protocol":        func(v string) error { protocol = v; return nil },
		"localemu":        func(v string) (err error) { localemu, err = strconv.ParseBool(v); return err },
	})
	if err != nil {
		return nil, err
	}
	if log.Enabled(ctx, slog.LevelDebug) {
		azListener.Lock()
		azlog.SetListener(func(ev azlog.Event, msg string) { log.Debug("azblob: "+msg, "event", string(ev)) })
		azListener.Unlock()
	}
	if cs := os.Getenv("AZURE_STORAGE_CONNECTION_STRING"); cs != "" {
		c, err := container.NewClientFromConnectionString(cs, name, nil)
		if err != nil {
			return nil, fmt.Errorf("azblob: connection string: %w", err)
		}
		return &azureBucket{c: c}, nil
	}
	if account == "" {
		return nil, fmt.Errorf("%w: azblob: no storage account (AZURE_STORAGE_ACCOUNT or ?storage_account=)", ErrDriverOption)
	}
	if domain == "" {
		domain = "blob.core.windows.net"
	}
	if protocol == "" {
		protocol = "https"
	}
	curl := protocol + "://" + account + "." + domain + "/" + url.PathEscape(name)
	if localemu {
		curl = protocol + "://" + domain + "/" + account + "/" + url.PathEscape(name)
	}
	var c *container.Client
	switch key, sas := os.Getenv("AZURE_STORAGE_KEY"), os.Getenv("AZURE_STORAGE_SAS_TOKEN"); {
	case key != "":
		cred, err := container.NewSharedKeyCredential(account, key)
		if err != nil {
			return nil, fmt.Errorf("azblob: shared key: %w", err)
		}
		c, err = container.NewClientWithSharedKeyCredential(curl, cred, nil)
		if err != nil {
			return nil, fmt.Errorf("azblob: %w", err)
		}
	case sas != "":
		if sas[0] != '?' {
			sas = "?" + sas
		}
		if c, err = container.NewClientWithNoCredential(curl+sas, nil); err != nil {
			return nil, fmt.Errorf("azblob: %w", err)
		}
	default:
		cred, err := azidentity.NewDefaultAzureCredential(nil)
		if err != nil {
			return nil, fmt.Errorf("azblob: default credential: %w", err)
		}
		if c, err = container.NewClient(curl, cred, nil); err != nil {
			return nil, fmt.Errorf("azblob: %w", err)
		}
	}
	return &azureBucket{c: c}, nil
}

// azureBucket is one container through the SDK's container client.
type azureBucket struct{ c *container.Client }

func (b *azureBucket) attributes(ctx context.Context, key string) (int64, error) {
	p, err := b.c.NewBlobClient(key).GetProperties(ctx, nil)
	if err != nil {
		return 0, azureError("HEAD", err)
	}
	if p.ContentLength == nil {
		return 0, errors.New("azblob: no Content-Length")
	}
	return *p.ContentLength, nil
}

func (b *azureBucket) newRangeReader(ctx context.Context, key string, off, n int64) (io.ReadCloser, error) {
	r, err := b.c.NewBlobClient(key).DownloadStream(ctx, &azblob.DownloadStreamOptions{Range: azblob.HTTPRange{Offset: off, Count: n}})
	if err != nil {
		return nil, azureError("GET", err)
	}
	return r.Body, nil
}

func (b *azureBucket) listPage(ctx context.Context, prefix, token string) ([]string, string, error) {
	opts := &container.ListBlobsHierarchyOptions{Prefix: &prefix}
	if token != "" {
		opts.Marker = &token
	}
	page, err := b.c.NewListBlobsHierarchyPager("/", opts).NextPage(ctx)
	if err != nil {
		return nil, "", azureError("LIST", err)
	}
	var names []string
	if s := page.Segment; s != nil {
		for _, it := range s.BlobItems {
			if it.Name != nil {
				names = append(names, *it.Name)
			}
		}
		for _, p := range s.BlobPrefixes {
			if p.Name != nil {
				names = append(names, *p.Name)
			}
		}
	}
	next := ""
	if page.NextMarker != nil {
		next = *page.NextMarker
	}
	return names, next, nil
}

func (b *azureBucket) write(ctx context.Context, key string, data []byte, ifNotExist bool) error {
	var opts blockblob.UploadOptions
	if ifNotExist {
		any := azcore.ETagAny
		opts.AccessConditions = &azblob.AccessConditions{ModifiedAccessConditions: &azblob.ModifiedAccessConditions{IfNoneMatch: &any}}
	}
	if _, err := b.c.NewBlockBlobClient(key).Upload(ctx, streaming.NopCloser(bytes.NewReader(data)), &opts); err != nil {
		return azureError("PUT", err)
	}
	return nil
}

func (b *azureBucket) remove(ctx context.Context, key string) error {
	if _, err := b.c.NewBlobClient(key).Delete(ctx, nil); err != nil {
		return azureError("DELETE", err)
	}
	return nil
}

func (b *azureBucket) close() error { return nil }

// azureError makes a *StatusError of an Azure response error (unwrapping to
// the SDK's error), and returns other errors as they are.
func azureError(op string, err error) error {
	var re *azcore.ResponseError
	if !errors.As(err, &re) {
		return err
	}
	return &azureStatusError{StatusError: &StatusError{Op: op, Status: re.StatusCode, Code: re.ErrorCode}, err: err}
}

// azureStatusError is a StatusError that also unwraps to the SDK's error.
type azureStatusError struct {
	*StatusError
	err error
}

func (e *azureStatusError) Unwrap() error { return e.err }
