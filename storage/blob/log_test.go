//go:build !lakecat_nos3 && !lakecat_nogcs

package blob

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"

	"github.com/aws/smithy-go/logging"
)

// TestS3LoggerRouted opens an s3:// bucket through the FS's mux: the AWS
// SDK client under it logs to the FS's logger (a Debug line at
// slog.LevelDebug, a Warn line at slog.LevelWarn), not to the SDK's
// default stderr logger.
func TestS3LoggerRouted(t *testing.T) {
	var buf bytes.Buffer
	f := New()
	defer f.Close()
	f.SetLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	b, err := f.bucket(context.Background(), "s3://lake", "endpoint=http://127.0.0.1:1&region=us-east-1&anonymous=true&use_path_style=true")
	if err != nil {
		t.Fatal(err)
	}
	sb, ok := b.(*s3Bucket)
	if !ok {
		t.Fatalf("bucket is a %T, not an S3 bucket", b)
	}
	lg := sb.c.Options().Logger
	if _, ok := lg.(awsLogger); !ok {
		t.Fatalf("S3 client logger is %T, want awsLogger", lg)
	}
	lg.Logf(logging.Debug, "Response has no supported checksum. Not validating response payload.")
	lg.Logf(logging.Warn, "Skipped validation of multipart checksum.")
	got := buf.String()
	if !strings.Contains(got, `level=DEBUG msg="s3: Response has no supported checksum. Not validating response payload."`) ||
		!strings.Contains(got, `level=WARN msg="s3: Skipped validation of multipart checksum."`) {
		t.Errorf("log:\n%s", got)
	}
}

// TestGCSNoCredentialsQuiet opens a gs:// bucket with no Application
// Default Credentials anywhere: the driver logs that to the FS's logger at
// slog.LevelWarn and prints nothing (gocloud's opener, used before, printed
// "Warning: unable to load GCP Default Credentials" on stdout).
func TestGCSNoCredentialsQuiet(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLOUDSDK_CONFIG", home)
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", "")
	t.Setenv("STORAGE_EMULATOR_HOST", "")
	t.Setenv("STORAGE_EMULATOR_HOST_GRPC", "")
	stdout := captureStd(t, &os.Stdout)
	stderr := captureStd(t, &os.Stderr)
	var buf bytes.Buffer
	f := New()
	defer f.Close()
	f.SetLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelWarn})))
	_, err := f.bucket(context.Background(), "gs://lakecat-none", "")
	out, errOut := stdout(), stderr()
	if err != nil {
		t.Fatal(err)
	}
	if out != "" || errOut != "" {
		t.Errorf("stdout %q, stderr %q", out, errOut)
	}
	if !strings.Contains(buf.String(), `level=WARN msg="gs: no Application Default Credentials; requests go without credentials"`) {
		t.Errorf("log:\n%s", buf.String())
	}
}

// captureStd points *std at a pipe until the returned function is called,
// which restores it and returns what was written.
func captureStd(t *testing.T, std **os.File) func() string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := *std
	*std = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	restored := false
	restore := func() string {
		if restored {
			return ""
		}
		restored = true
		*std = old
		w.Close()
		return <-done
	}
	t.Cleanup(func() { restore() })
	return restore
}
