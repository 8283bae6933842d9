package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/storage/blob"
	"github.com/lakecat/lakecat/table/iceberg"
)

// tableFlags are the flags of a table read (cat, schema, files on a table).
type tableFlags struct {
	SnapshotID    string
	AsOf          string
	SchemaID      string
	Branch        string
	PathMap       []string
	IgnoreDeletes bool
	Raw           bool
	IgnoreLogs    bool
	Workers       int
	Memory        string
	NoRebase      bool
	TimeZone      string
	listing       bool // set by forListing: reader.TableOptions.ListOnly, no warnings
	// filter is --where, parsed (set by the verbs that take it).
	filter expr.Expr
	stats  *reader.ScanStats
}

func (t *tableFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&t.SnapshotID, "snapshot-id", "", "read this snapshot (Iceberg: with the schema it was written with)")
	fl.StringVar(&t.AsOf, "as-of", "", "read the latest snapshot at or before this time (RFC 3339, or epoch milliseconds)")
	fl.StringVar(&t.SchemaID, "schema-id", "", "Paimon: read with schema-N instead of the latest")
	fl.StringVar(&t.Branch, "branch", "", "Paimon: read this branch")
	fl.StringArrayVar(&t.PathMap, "path-map", nil, "rewrite stored data file paths: OLD=NEW (repeatable; longest OLD wins)")
	fl.BoolVar(&t.IgnoreDeletes, "ignore-deletes", false, "read a snapshot with delete files anyway (deleted rows are returned)")
	fl.BoolVar(&t.Raw, "raw", false, "Paimon primary-key table: read every stored row with its system columns")
	fl.BoolVar(&t.IgnoreLogs, "ignore-logs", false, "Hudi merge-on-read table: read base files only")
	fl.IntVar(&t.Workers, "workers", 0, "files decoded at once (default: GOMAXPROCS)")
	fl.StringVar(&t.Memory, "memory", "", "bound on decoded bytes waiting to be printed, e.g. 256MiB")
	fl.StringVar(&t.TimeZone, "time-zone", "", "Paimon: session time zone of casts between TIMESTAMP and TIMESTAMP WITH LOCAL TIME ZONE, and from either to INT, DATE or STRING (IANA name, e.g. Asia/Shanghai; default UTC)")
	fl.BoolVar(&t.NoRebase, "no-rebase", false, "Iceberg: do not re-root stored paths under the table location at the opened folder (only --path-map rewrites them)")
}

// isTable reports whether path names a table rather than a data file: a
// folder, an object-store URL (s3://, gs://, azblob://, file://), or an
// Iceberg metadata file named directly.
func isTable(path string) bool {
	if strings.HasSuffix(path, ".metadata.json") || blob.IsURL(path) {
		return true
	}
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// set reports whether any table flag was given.
func (t *tableFlags) set() bool {
	return t.SnapshotID != "" || t.AsOf != "" || t.SchemaID != "" || t.Branch != "" || len(t.PathMap) > 0 ||
		t.IgnoreDeletes || t.Raw || t.IgnoreLogs || t.Workers != 0 || t.Memory != "" || t.TimeZone != "" || t.NoRebase
}

// forListing sets what a command that reads no rows (schema, files) needs:
// a primary-key table, delete files or log files change no schema and no
// file list, so they are not refused (reader.TableOptions.ListOnly, which
// holds for every table format), and nothing is warned about.
func (t *tableFlags) forListing() {
	t.listing = true
}

func (t *tableFlags) options(f *factory) (reader.TableOptions, error) {
	o := reader.TableOptions{
		IgnoreDeletes: t.IgnoreDeletes, Workers: t.Workers, ListOnly: t.listing,
		Iceberg:  reader.IcebergOptions{NoRebase: t.NoRebase},
		Paimon:   reader.PaimonOptions{Branch: t.Branch, Raw: t.Raw},
		Hudi:     reader.HudiOptions{IgnoreLogs: t.IgnoreLogs},
		Warn:     func(msg string) { fmt.Fprintf(f.Stderr, "lakecat: warning: %s\n", msg) },
		Progress: progressLine(f.Stderr),
	}
	if t.listing {
		o.Warn, o.Progress = nil, nil
	}
	o.Filter, o.Stats = t.filter, t.stats
	if t.Workers < 0 {
		return o, usageError{fmt.Errorf("--workers must be ≥ 0")}
	}
	if t.SnapshotID != "" && t.AsOf != "" {
		return o, usageError{fmt.Errorf("give --snapshot-id or --as-of, not both")}
	}
	for _, r := range t.PathMap {
		rule, err := iceberg.ParsePathRule(r)
		if err != nil {
			return o, usageError{fmt.Errorf("--path-map %q: want OLD=NEW", r)}
		}
		o.Iceberg.PathMap = append(o.Iceberg.PathMap, rule)
	}
	if t.TimeZone != "" {
		loc, err := time.LoadLocation(t.TimeZone)
		if err != nil {
			return o, usageError{fmt.Errorf("--time-zone %q: %v", t.TimeZone, err)}
		}
		o.Paimon.TimeZone = loc
	}
	if t.SnapshotID != "" {
		id, err := strconv.ParseInt(t.SnapshotID, 10, 64)
		if err != nil {
			return o, usageError{fmt.Errorf("--snapshot-id %q: not an integer", t.SnapshotID)}
		}
		o.SnapshotID = &id
	}
	if t.SchemaID != "" {
		id, err := strconv.ParseInt(t.SchemaID, 10, 64)
		if err != nil || id < 0 {
			return o, usageError{fmt.Errorf("--schema-id %q: not a schema id", t.SchemaID)}
		}
		o.Paimon.SchemaID = &id
	}
	if t.AsOf != "" {
		at, err := parseTime(t.AsOf)
		if err != nil {
			return o, usageError{err}
		}
		o.AsOf = at
	}
	if t.Memory != "" {
		n, err := parseBytes(t.Memory)
		if err != nil {
			return o, usageError{err}
		}
		o.MemoryBytes = n
	}
	return o, nil
}

func parseTime(s string) (time.Time, error) {
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil {
		return time.UnixMilli(ms).UTC(), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("--as-of %q: want RFC 3339 (2024-01-02T03:04:05Z), a date, or epoch milliseconds", s)
}

// parseBytes reads a size such as 268435456, 256MiB, 256MB or 1GiB.
func parseBytes(s string) (int64, error) {
	units := []struct {
		suffix string
		mul    int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}
	num, mul := s, int64(1)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			num, mul = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mul
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mul {
		return 0, fmt.Errorf("--memory %q: want a size such as 268435456, 256MiB or 1GiB", s)
	}
	return n * mul, nil
}

func openTable(ctx context.Context, f *factory, path string, tf *tableFlags, columns []string, batchRows int) (*reader.Table, error) {
	o, err := tf.options(f)
	if err != nil {
		return nil, err
	}
	o.Columns, o.BatchRows = columns, batchRows
	if blob.IsURL(path) {
		bfs := blob.New()
		path = bfs.StripQuery(path) // driver options such as ?region=…&endpoint=…
		o.FS = bfs
	}
	t, err := reader.OpenTable(ctx, path, o)
	if errors.Is(err, reader.ErrInvalidOption) {
		return nil, usageError{err}
	}
	if err != nil {
		return nil, withFlagHint(err)
	}
	if t.MetadataGuessed && !tf.listing {
		fmt.Fprintf(f.Stderr, "lakecat: warning: %s: no version-hint.text; reading the highest metadata version\n", path)
	}
	return t, nil
}

// flagHints name the flag that reads a table the library refused.
var flagHints = []struct {
	err  error
	hint string
}{
	{reader.ErrPrimaryKeyTable, "--raw reads every stored row with its system columns"},
	{reader.ErrDeleteFiles, "--ignore-deletes reads the rows anyway"},
	{reader.ErrMergeOnRead, "--ignore-logs reads base files only"},
}

// withFlagHint adds to a refusal of the library the flag that overrides
// it: the library's errors never name command-line flags.
func withFlagHint(err error) error {
	for _, h := range flagHints {
		if errors.Is(err, h.err) {
			return hinted{err, h.hint}
		}
	}
	return err
}

type hinted struct {
	err  error
	hint string
}

func (h hinted) Error() string { return h.err.Error() + " (" + h.hint + ")" }
func (h hinted) Unwrap() error { return h.err }

// progressLine returns a scan progress callback that keeps one line on w
// up to date (files done/total, rows, MB/s of data files read), at most
// every 200 ms, when w is a terminal; otherwise nil (no progress output).
func progressLine(w io.Writer) func(reader.ScanProgress) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) || term.IsTerminal(int(os.Stdout.Fd())) {
		return nil // rows printed to the terminal too would be mixed with it
	}
	var last time.Time
	return func(p reader.ScanProgress) {
		done := p.FilesDone == p.FilesTotal
		now := time.Now()
		if !done && now.Sub(last) < 200*time.Millisecond {
			return
		}
		last = now
		fmt.Fprint(w, formatProgress(p, now))
		if done {
			fmt.Fprint(w, "\n")
		}
	}
}

// clearProgress erases an unfinished progress line (a read cut short by
// --limit) from a terminal stderr.
func clearProgress(f *factory) {
	if w, ok := f.Stderr.(*os.File); ok && term.IsTerminal(int(w.Fd())) && !term.IsTerminal(int(os.Stdout.Fd())) {
		fmt.Fprint(w, "\r\x1b[K")
	}
}

// formatProgress renders the progress line, starting with a carriage
// return and ending with an erase-to-end-of-line.
func formatProgress(p reader.ScanProgress, now time.Time) string {
	secs := now.Sub(p.Started).Seconds()
	mbs := 0.0
	if secs > 0 {
		mbs = float64(p.FileBytes) / 1e6 / secs
	}
	return fmt.Sprintf("\rlakecat: %d/%d files, %d rows, %.1f MB/s\x1b[K", p.FilesDone, p.FilesTotal, p.Rows, mbs)
}
