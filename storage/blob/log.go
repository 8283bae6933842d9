package blob

import (
	"log/slog"
)

// The cloud SDKs under the drivers log on their own: the AWS SDK writes a
// line for every GET whose response has no checksum it can validate (an
// S3-compatible store's ranged reads) to stderr, and the Azure SDK logs to
// a process-wide listener. An [FS]'s drivers hand each SDK the FS's logger
// instead ([FS.SetLogger]; by default it discards), so nothing an SDK says
// reaches stdout or stderr unless the caller routes it there; the GCS
// driver logs its own warnings (no credentials found) there too.

// discard is the logger of an FS whose caller set none.
var discard = slog.New(slog.DiscardHandler)

// SetLogger makes the SDKs of the buckets the FS opens from now on log to
// l (nil: discard, the default): SDK warnings at slog.LevelWarn, their
// debug lines at slog.LevelDebug.
func (f *FS) SetLogger(l *slog.Logger) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if l == nil {
		l = discard
	}
	f.log = l
}
