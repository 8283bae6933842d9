//go:build !lakecat_nos3

package blob

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go/logging"
	gcaws "gocloud.dev/aws"
	gcblob "gocloud.dev/blob"
	"gocloud.dev/blob/s3blob"
)

func init() {
	drivers["s3"] = func(log *slog.Logger) gcblob.BucketURLOpener { return s3Opener{log} }
}

// s3Opener opens s3:// URLs as gocloud's s3blob.URLOpener does (the same
// query parameters: region, endpoint, profile, anonymous, use_path_style,
// disable_https, accelerate, ssetype, kmskeyid, …), with the SDK's logger
// set to log instead of the AWS SDK's default (stderr).
type s3Opener struct{ log *slog.Logger }

func (o s3Opener) OpenBucketURL(ctx context.Context, u *url.URL) (*gcblob.Bucket, error) {
	q := u.Query()
	var bopts s3blob.Options
	var copts []func(*s3.Options)
	if v := q.Get("ssetype"); v != "" {
		q.Del("ssetype")
		sse, ok := "", false
		for _, t := range types.ServerSideEncryptionAes256.Values() {
			if strings.EqualFold(string(t), v) {
				sse, ok = string(t), true
			}
		}
		if !ok {
			return nil, fmt.Errorf("%q is not a valid value for ssetype", v)
		}
		bopts.EncryptionType = types.ServerSideEncryption(sse)
	}
	if v := q.Get("kmskeyid"); v != "" {
		q.Del("kmskeyid")
		bopts.KMSEncryptionID = v
	}
	boolParam := func(key string, set func(*s3.Options, bool)) error {
		v := q.Get(key)
		if v == "" {
			return nil
		}
		q.Del(key)
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("invalid value for %q: %w", key, err)
		}
		copts = append(copts, func(o *s3.Options) { set(o, b) })
		return nil
	}
	for key, set := range map[string]func(*s3.Options, bool){
		"accelerate":       func(o *s3.Options, b bool) { o.UseAccelerate = b },
		"disable_https":    func(o *s3.Options, b bool) { o.EndpointOptions.DisableHTTPS = b },
		"use_path_style":   func(o *s3.Options, b bool) { o.UsePathStyle = b },
		"s3ForcePathStyle": func(o *s3.Options, b bool) { o.UsePathStyle = b },
	} {
		if err := boolParam(key, set); err != nil {
			return nil, err
		}
	}
	cfg, err := gcaws.V2ConfigFromURLParams(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("open bucket %v: %w", u, err)
	}
	cfg.Logger = awsLogger{o.log}
	bopts.RequestChecksumCalculation = cfg.RequestChecksumCalculation
	return s3blob.OpenBucket(ctx, s3.NewFromConfig(cfg, copts...), u.Host, &bopts)
}

// awsLogger is the AWS SDK's logging.Logger over slog: its Warn
// classification at slog.LevelWarn, the rest (Debug) at slog.LevelDebug.
type awsLogger struct{ log *slog.Logger }

func (l awsLogger) Logf(c logging.Classification, format string, v ...any) {
	level := slog.LevelDebug
	if c == logging.Warn {
		level = slog.LevelWarn
	}
	l.log.Log(context.Background(), level, "s3: "+fmt.Sprintf(format, v...))
}
