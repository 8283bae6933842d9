//go:build !lakecat_nos3

package blob

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/logging"
)

func init() { drivers["s3"] = openS3 }

// openS3 opens an S3 bucket with the AWS SDK's default configuration
// (environment, shared config and credentials files, instance roles) and
// these URL query parameters: region, endpoint (an S3-compatible store's
// base URL), profile, anonymous, use_path_style (or s3ForcePathStyle),
// disable_https, accelerate, dualstack, fips, ssetype (AES256, aws:kms,
// aws:kms:dsse) and kmskeyid for writes. Storage properties (see
// [FS.SetProperties]) come first, so the query's parameters win. The SDK
// logs to log.
func openS3(ctx context.Context, name string, q url.Values, props map[string]string, log *slog.Logger) (bucket, error) {
	var lopts []func(*config.LoadOptions) error
	var copts []func(*s3.Options)
	b := &s3Bucket{name: name}
	if id, secret := props["s3.access-key-id"], props["s3.secret-access-key"]; id != "" && secret != "" {
		lopts = append(lopts, config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(id, secret, props["s3.session-token"])))
	}
	if v := props["s3.endpoint"]; v != "" {
		copts = append(copts, func(o *s3.Options) { o.BaseEndpoint = aws.String(v) })
	}
	if v := cmp.Or(props["s3.region"], props["client.region"]); v != "" {
		lopts = append(lopts, config.WithRegion(v))
	}
	if v, err := strconv.ParseBool(props["s3.path-style-access"]); err == nil {
		copts = append(copts, func(o *s3.Options) { o.UsePathStyle = v })
	}
	boolean := func(set func(bool)) func(string) error {
		return func(v string) error {
			x, err := strconv.ParseBool(v)
			if err == nil {
				set(x)
			}
			return err
		}
	}
	err := options(q, map[string]func(string) error{
		"region": func(v string) error { lopts = append(lopts, config.WithRegion(v)); return nil },
		"endpoint": func(v string) error {
			copts = append(copts, func(o *s3.Options) { o.BaseEndpoint = aws.String(v) })
			return nil
		},
		"profile": func(v string) error { lopts = append(lopts, config.WithSharedConfigProfile(v)); return nil },
		"anonymous": boolean(func(x bool) {
			if x {
				lopts = append(lopts, config.WithCredentialsProvider(aws.AnonymousCredentials{}))
			}
		}),
		"use_path_style":   boolean(func(x bool) { copts = append(copts, func(o *s3.Options) { o.UsePathStyle = x }) }),
		"s3ForcePathStyle": boolean(func(x bool) { copts = append(copts, func(o *s3.Options) { o.UsePathStyle = x }) }),
		"disable_https":    boolean(func(x bool) { copts = append(copts, func(o *s3.Options) { o.EndpointOptions.DisableHTTPS = x }) }),
		"accelerate":       boolean(func(x bool) { copts = append(copts, func(o *s3.Options) { o.UseAccelerate = x }) }),
		"dualstack": boolean(func(x bool) {
			state := aws.DualStackEndpointStateDisabled
			if x {
				state = aws.DualStackEndpointStateEnabled
			}
			lopts = append(lopts, config.WithUseDualStackEndpoint(state))
		}),
		"fips": boolean(func(x bool) {
			state := aws.FIPSEndpointStateDisabled
			if x {
				state = aws.FIPSEndpointStateEnabled
			}
			lopts = append(lopts, config.WithUseFIPSEndpoint(state))
		}),
		"ssetype": func(v string) error {
			for _, t := range types.ServerSideEncryptionAes256.Values() {
				if strings.EqualFold(string(t), v) {
					b.sse = t
					return nil
				}
			}
			return errors.New("not a server-side encryption type")
		},
		"kmskeyid": func(v string) error { b.kmsKey = v; return nil },
	})
	if err != nil {
		return nil, err
	}
	lopts = append(lopts, config.WithLogger(awsLogger{log}))
	cfg, err := config.LoadDefaultConfig(ctx, lopts...)
	if err != nil {
		return nil, fmt.Errorf("s3: configuration: %w", err)
	}
	b.c = s3.NewFromConfig(cfg, copts...)
	return b, nil
}

// s3Bucket is one S3 bucket through the SDK's client.
type s3Bucket struct {
	c      *s3.Client
	name   string
	sse    types.ServerSideEncryption
	kmsKey string
}

func (b *s3Bucket) attributes(ctx context.Context, key string) (int64, error) {
	out, err := b.c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &b.name, Key: &key})
	if err != nil {
		return 0, s3Error("HEAD", err)
	}
	return aws.ToInt64(out.ContentLength), nil
}

func (b *s3Bucket) newRangeReader(ctx context.Context, key string, off, n int64) (io.ReadCloser, error) {
	rng := fmt.Sprintf("bytes=%d-%d", off, off+n-1)
	out, err := b.c.GetObject(ctx, &s3.GetObjectInput{Bucket: &b.name, Key: &key, Range: &rng})
	if err != nil {
		return nil, s3Error("GET", err)
	}
	return out.Body, nil
}

func (b *s3Bucket) listPage(ctx context.Context, prefix, token string) ([]string, string, error) {
	in := &s3.ListObjectsV2Input{Bucket: &b.name, Prefix: &prefix, Delimiter: aws.String("/")}
	if token != "" {
		in.ContinuationToken = &token
	}
	out, err := b.c.ListObjectsV2(ctx, in)
	if err != nil {
		return nil, "", s3Error("LIST", err)
	}
	names := make([]string, 0, len(out.Contents)+len(out.CommonPrefixes))
	for _, o := range out.Contents {
		names = append(names, aws.ToString(o.Key))
	}
	for _, p := range out.CommonPrefixes {
		names = append(names, aws.ToString(p.Prefix))
	}
	next := ""
	if aws.ToBool(out.IsTruncated) {
		next = aws.ToString(out.NextContinuationToken)
	}
	return names, next, nil
}

func (b *s3Bucket) write(ctx context.Context, key string, data []byte, ifNotExist bool) error {
	in := &s3.PutObjectInput{Bucket: &b.name, Key: &key, Body: bytes.NewReader(data), ContentLength: aws.Int64(int64(len(data)))}
	if ifNotExist {
		in.IfNoneMatch = aws.String("*")
	}
	if b.sse != "" {
		in.ServerSideEncryption = b.sse
	}
	if b.kmsKey != "" {
		in.SSEKMSKeyId = &b.kmsKey
	}
	if _, err := b.c.PutObject(ctx, in); err != nil {
		return s3Error("PUT", err)
	}
	return nil
}

func (b *s3Bucket) remove(ctx context.Context, key string) error {
	if _, err := b.c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &b.name, Key: &key}); err != nil {
		return s3Error("DELETE", err)
	}
	return nil
}

func (b *s3Bucket) close() error { return nil }

// s3Error makes a *StatusError of an S3 response error (keeping the SDK's
// error chain under it for errors.As), and returns other errors (transport,
// context) as they are.
func s3Error(op string, err error) error {
	var re *awshttp.ResponseError
	if !errors.As(err, &re) {
		return err
	}
	se := &StatusError{Op: op, Status: re.HTTPStatusCode()}
	var api smithy.APIError
	if errors.As(err, &api) {
		se.Code, se.Msg = api.ErrorCode(), api.ErrorMessage()
	}
	return &s3StatusError{StatusError: se, err: err}
}

// s3StatusError is a StatusError that also unwraps to the SDK's error.
type s3StatusError struct {
	*StatusError
	err error
}

func (e *s3StatusError) Unwrap() error { return e.err }

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
