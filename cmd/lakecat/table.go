package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/hudi"
	"github.com/lakecat/lakecat/table/iceberg"
	"github.com/lakecat/lakecat/table/paimon"
)

// tableFlags are the flags of a table read (cat, schema, files on a table).
type tableFlags struct {
	SnapshotID    optInt64
	AsOf          string
	SchemaID      optInt64
	Branch        string
	PathMap       []string
	AllowPaths    []string
	IgnoreDeletes bool
	Raw           bool
	IgnoreLogs    bool
	Workers       int
	Memory        string
	NoRebase      bool
	TimeZone      string
	listing       bool // set by forListing: reader.TableOptions.ListOnly, no warnings
	// iceberg, paimon and hudi are the format options the flags give (set
	// by options; openTable passes the table format's own).
	iceberg     iceberg.Options
	paimon      paimon.Options
	hudi        hudi.Options
	asOfInstant bool // --as-of is a Hudi instant time (set by options)
	// filter is --where, parsed (set by the verbs that take it).
	filter expr.Expr
	stats  *reader.ScanStats
	// dictionary is cat's --dictionary with --format arrow.
	dictionary bool
	// flags is the flag set register put the flags in: a flag is given
	// when the command line names it (pflag's Changed), whatever its
	// value, so --raw=false is as given as --raw.
	flags *pflag.FlagSet
}

func (t *tableFlags) register(fl *pflag.FlagSet) {
	t.flags = fl
	t.SnapshotID.wrap = true
	fl.Var(&t.SnapshotID, "snapshot-id", "read this snapshot (Iceberg: with the schema it was written with)")
	fl.StringVar(&t.AsOf, "as-of", "", "read the latest snapshot at or before this time: RFC 3339, a date, epoch milliseconds (13 digits), or for a Hudi table an instant time (yyyyMMddHHmmss[SSS])")
	fl.Var(&t.SchemaID, "schema-id", "Paimon: read with schema-N instead of the latest")
	fl.StringVar(&t.Branch, "branch", "", "Paimon: read this branch")
	fl.StringArrayVar(&t.PathMap, "path-map", nil, "rewrite stored data file paths: OLD=NEW (repeatable; longest OLD wins)")
	fl.StringArrayVar(&t.AllowPaths, "allow-path", nil, "let the table's metadata name files under this folder or URL prefix too, outside the table's own location (repeatable)")
	fl.BoolVar(&t.IgnoreDeletes, "ignore-deletes", false, "read the rows as stored, without applying delete files (deleted rows are returned)")
	fl.BoolVar(&t.Raw, "raw", false, "Paimon primary-key table: read every stored row with its system columns")
	fl.BoolVar(&t.IgnoreLogs, "ignore-logs", false, "Hudi merge-on-read table: read base files only, without merging their log files")
	fl.IntVar(&t.Workers, "workers", 0, "files decoded at once; of one data file, its row groups or stripes (default: GOMAXPROCS)")
	fl.StringVar(&t.Memory, "memory", "", "bound on decoded bytes waiting to be printed and the decoders' state, e.g. 256MiB (default 64MiB; 0: no bound on decode state, batches waiting still queue up to 64MiB)")
	fl.StringVar(&t.TimeZone, "time-zone", "", "Paimon: session time zone of casts between TIMESTAMP and TIMESTAMP WITH LOCAL TIME ZONE, and from either to INT, DATE or STRING (IANA name, e.g. Asia/Shanghai; default UTC)")
	fl.BoolVar(&t.NoRebase, "no-rebase", false, "Iceberg: do not re-root stored paths under the table location at the opened folder (only --path-map rewrites them)")
}

// listingHidden are the table flags that change nothing for a verb that
// reads no rows (schema, files; see forListing): accepted, not shown in its
// help.
var listingHidden = []string{"ignore-deletes", "raw", "ignore-logs", "workers", "memory", "time-zone"}

// registerListing registers the table flags of a verb that reads no rows,
// with listingHidden hidden from its help except those in keep.
func (t *tableFlags) registerListing(fl *pflag.FlagSet, keep ...string) {
	t.register(fl)
	for _, name := range listingHidden {
		if !slices.Contains(keep, name) {
			fl.MarkHidden(name)
		}
	}
}

// namesNoFolder reports whether a local table path leaves the folder names
// its layout is read from unknown: ".", "..", or a metadata file in the
// current folder.
func namesNoFolder(path string) bool {
	c := filepath.Clean(path)
	if b := filepath.Base(c); b == "." || b == ".." {
		return true
	}
	return filepath.Dir(c) == "." && (strings.HasSuffix(c, ".metadata.json") || strings.HasSuffix(c, ".metadata.json.gz"))
}

// optInt64 is an integer flag that may be absent (a snapshot id can be any
// int64, so no value can stand for "not given"). Its help shows "int".
type optInt64 struct {
	n   int64
	set bool
	// wrap takes a decimal above 2^63-1 (and below 2^64) modulo 2^64, as
	// table/iceberg reads such a snapshot id from table metadata (DuckDB's
	// test tables have them), so the id the metadata states can be given.
	wrap bool
}

func (v *optInt64) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil && v.wrap && errors.Is(err, strconv.ErrRange) {
		if u, uerr := strconv.ParseUint(s, 10, 64); uerr == nil {
			n, err = int64(u), nil
		}
	}
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return fmt.Errorf("out of range")
		}
		return fmt.Errorf("not an integer")
	}
	v.n, v.set = n, true
	return nil
}

func (v *optInt64) String() string {
	if !v.set {
		return ""
	}
	return strconv.FormatInt(v.n, 10)
}

func (v *optInt64) Type() string { return "int" }

// isTable reports whether path names a table rather than a data file: a
// folder, a URL (scheme://…; the object stores s3://, gs://, azblob:// and
// file:// are read, any other scheme is refused by openTable), or an
// Iceberg metadata file named directly.
func isTable(path string) bool {
	if strings.HasSuffix(path, ".metadata.json") || urlScheme(path) != "" {
		return true
	}
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// urlScheme returns the scheme of a URL such as "hdfs://nn/t" ("hdfs"), or
// "" for a local path. A scheme is a letter followed by letters, digits,
// '+', '-' or '.' (RFC 3986 section 3.1), longer than one character so that
// a Windows drive ("C:/t") stays a path.
func urlScheme(path string) string {
	i := strings.Index(path, "://")
	if i < 2 {
		return ""
	}
	for j, c := range path[:i] {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (j == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return ""
		}
	}
	return path[:i]
}

// errUnsupportedScheme is returned for a URL whose scheme lakecat does not
// read (hdfs://, abfs://, http://, …).
var errUnsupportedScheme = lakecat.NewSentinel(lakecat.ErrUnsupported, "unsupported URL scheme")

func unsupportedScheme(url string) error {
	if urlScheme(url) == "rest" {
		return fmt.Errorf("%s: %w rest:// for this verb (cat and evolve read a REST catalog's table)", url, errUnsupportedScheme)
	}
	return fmt.Errorf("%s: %w %s:// (lakecat reads local paths and s3://, gs://, azblob://, file:// URLs; copy or mount the table, or map its stored paths with --path-map)",
		url, errUnsupportedScheme, urlScheme(url))
}

// knownScheme reports whether url is one of the object stores a full build
// reads.
func knownScheme(url string) bool {
	switch urlScheme(url) {
	case "s3", "gs", "azblob", "file":
		return true
	}
	return false
}

// set reports whether any table flag was given.
func (t *tableFlags) set() bool { return len(t.givenFlags()) > 0 }

// tableFlagNames are the table flags, in the order of the help.
var tableFlagNames = []string{"snapshot-id", "as-of", "schema-id", "branch", "path-map", "allow-path",
	"ignore-deletes", "raw", "ignore-logs", "workers", "memory", "time-zone", "no-rebase"}

// givenFlags returns the table flags given, as "--name", in the order of
// the help, leaving out those named in except.
func (t *tableFlags) givenFlags(except ...string) []string {
	var names []string
	for _, n := range tableFlagNames {
		if t.given(n) && !slices.Contains(except, n) {
			names = append(names, "--"+n)
		}
	}
	return names
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
		Warn:     func(msg string) { fmt.Fprintf(f.Stderr, "lakecat: warning: %s\n", msg) },
		Progress: progressLine(f.Stderr),
	}
	if t.listing {
		o.Warn, o.Progress = nil, nil
	}
	o.Filter, o.Stats = t.filter, t.stats
	o.Dictionary = t.dictionary
	t.iceberg = iceberg.Options{NoRebase: t.NoRebase}
	t.paimon = paimon.Options{Branch: t.Branch, Raw: t.Raw}
	t.hudi = hudi.Options{IgnoreLogs: t.IgnoreLogs}
	if t.Workers < 0 {
		return o, usageError{fmt.Errorf("--workers must be ≥ 0")}
	}
	if t.SnapshotID.set && t.AsOf != "" {
		return o, usageError{fmt.Errorf("give --snapshot-id or --as-of, not both")}
	}
	for _, r := range t.PathMap {
		rule, err := iceberg.ParsePathRule(r)
		if err != nil {
			return o, usageError{fmt.Errorf("--path-map %q: want OLD=NEW", r)}
		}
		t.iceberg.PathMap = append(t.iceberg.PathMap, rule)
	}
	for _, p := range t.AllowPaths {
		if p == "" {
			return o, usageError{fmt.Errorf("--allow-path: want a folder or URL prefix, not an empty string")}
		}
	}
	o.AllowPaths = t.AllowPaths
	if t.TimeZone != "" {
		loc, err := time.LoadLocation(t.TimeZone)
		if err != nil {
			return o, usageError{fmt.Errorf("--time-zone %q: %v", t.TimeZone, err)}
		}
		t.paimon.TimeZone = loc
	}
	if t.SnapshotID.set {
		id := t.SnapshotID.n
		o.SnapshotID = &id
	}
	if t.SchemaID.set {
		id := t.SchemaID.n
		if id < 0 {
			return o, usageError{fmt.Errorf("--schema-id %d: a schema id is ≥ 0", id)}
		}
		t.paimon.SchemaID = &id
	}
	if t.AsOf != "" {
		at, instant, err := parseTime(t.AsOf)
		if err != nil {
			return o, usageError{err}
		}
		o.AsOf, t.asOfInstant = at, instant
	}
	o.MemoryBytes = defaultMemory
	if t.Memory != "" {
		n, err := parseBytes(t.Memory)
		if err != nil {
			return o, usageError{err}
		}
		o.MemoryBytes = n
	}
	return o, nil
}

// parseTime reads --as-of: RFC 3339 (or without a zone: UTC), a date,
// epoch milliseconds (13 digits: 2001-09-09 to 2286-11-20), or a Hudi
// instant time, yyyyMMddHHmmss or yyyyMMddHHmmssSSS (14 or 17 digits;
// instant reports it, and the time is in UTC so that the reader spells the
// same instant back). Any other number is refused: seconds, milliseconds
// and instants cannot be told apart by value alone.
func parseTime(s string) (at time.Time, instant bool, err error) {
	if digits(s) {
		switch len(s) {
		case 13:
			ms, err := strconv.ParseInt(s, 10, 64)
			if err == nil {
				return time.UnixMilli(ms).UTC(), false, nil
			}
		case 14, 17:
			layout, v := "20060102150405", s
			if len(s) == 17 {
				layout, v = "20060102150405.000", s[:14]+"."+s[14:]
			}
			if t, err := time.Parse(layout, v); err == nil {
				return t, true, nil
			}
			return time.Time{}, false, fmt.Errorf("--as-of %q: not a Hudi instant time (yyyyMMddHHmmss[SSS])", s)
		}
		return time.Time{}, false, fmt.Errorf("--as-of %q: a number of %d digits is ambiguous; give epoch milliseconds (13 digits), a Hudi instant time (yyyyMMddHHmmss or yyyyMMddHHmmssSSS) or RFC 3339 (2024-01-02T03:04:05Z)", s, len(s))
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, false, nil
		}
	}
	return time.Time{}, false, fmt.Errorf("--as-of %q: want RFC 3339 (2024-01-02T03:04:05Z), a date, epoch milliseconds (13 digits) or a Hudi instant time (yyyyMMddHHmmssSSS)", s)
}

func digits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// defaultMemory is the scan's memory budget without --memory. Decoding is
// faster than printing, so without a bound the files decoded ahead wait in
// memory: a 10M-row table printed as a table peaked at 1.09 GB RSS with no
// bound, 200 MB with this one and the soft memory limit of memoryLimit, and
// printed faster (16.8 s instead of 35.2 s; fewer, smaller collections).
const defaultMemory = 64 << 20

// memoryLimit is the Go runtime's soft memory limit for a scan of budget
// bytes: the budget, as much again for what is being printed and what the
// collector has not yet freed, and 32 MiB for the rest of the process. Set
// only when $GOMEMLIMIT is not, and never for an unbounded scan.
func memoryLimit(budget int64) int64 {
	if budget <= 0 || os.Getenv("GOMEMLIMIT") != "" {
		return -1
	}
	return 2*budget + 32<<20
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
	return openTableVended(ctx, f, path, tf, columns, batchRows, nil)
}

// openTableVended is openTable with storage properties a catalog vended
// for the table's object store.
func openTableVended(ctx context.Context, f *factory, path string, tf *tableFlags, columns []string, batchRows int, vended []vendedProps) (*reader.Table, error) {
	o, err := tf.options(f)
	if err != nil {
		return nil, err
	}
	o.Columns, o.BatchRows = columns, batchRows
	if urlScheme(path) != "" {
		if o.FS, path, err = objectStoreVended(path, f.logger(), vended); err != nil {
			return nil, err
		}
	} else if namesNoFolder(path) {
		// "." inside metadata/, or "v1.metadata.json" there: the table's
		// folder is known only by the absolute path.
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
	}
	fsys := o.FS
	if fsys == nil {
		fsys = storage.OSFS{}
	}
	if format, err := table.Detect(ctx, fsys, path); err == nil {
		if tf.asOfInstant && format != table.Hudi {
			return nil, usageError{fmt.Errorf("--as-of %s is a Hudi instant time, and %s is not a Hudi table (%s): give RFC 3339 or epoch milliseconds (13 digits)", tf.AsOf, path, format)}
		}
		if o.FormatOptions, err = tf.formatOptions(format); err != nil {
			return nil, err
		}
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

// formatFlags are the table flags of one table format, and the common
// flags a format does not have.
var formatFlags = []struct {
	flag    string
	formats []table.Format // the formats it applies to
	why     string         // what to do instead, or ""
}{
	{"path-map", []table.Format{table.Iceberg}, ""},
	{"no-rebase", []table.Format{table.Iceberg}, ""},
	{"schema-id", []table.Format{table.Paimon}, ""},
	{"branch", []table.Format{table.Paimon}, ""},
	{"raw", []table.Format{table.Paimon}, ""},
	{"time-zone", []table.Format{table.Paimon}, ""},
	{"ignore-logs", []table.Format{table.Hudi}, ""},
	{"snapshot-id", []table.Format{table.Iceberg, table.Paimon}, "a Hudi table is read as of an instant time (--as-of)"},
	{"as-of", []table.Format{table.Iceberg, table.Hudi}, "a Paimon table is read by snapshot id; reading as of a time is not supported yet (--snapshot-id)"},
	{"ignore-deletes", []table.Format{table.Iceberg, table.Paimon}, "a Hudi table's deletes are log records (--ignore-logs reads base files only)"},
}

// given reports whether the table flag name was given on the command line,
// with any value (--raw=false, an empty --branch): the rule every per-format
// flag and every table flag given with FILE arguments is checked by. Flags
// not registered (a verb's own tableFlags value) are given when set to a
// value other than their default.
func (t *tableFlags) given(name string) bool {
	if t.flags != nil {
		if fl := t.flags.Lookup(name); fl != nil {
			return fl.Changed
		}
	}
	switch name {
	case "path-map":
		return len(t.PathMap) > 0
	case "no-rebase":
		return t.NoRebase
	case "schema-id":
		return t.SchemaID.set
	case "branch":
		return t.Branch != ""
	case "raw":
		return t.Raw
	case "time-zone":
		return t.TimeZone != ""
	case "ignore-logs":
		return t.IgnoreLogs
	case "snapshot-id":
		return t.SnapshotID.set
	case "as-of":
		return t.AsOf != ""
	case "ignore-deletes":
		return t.IgnoreDeletes
	case "allow-path":
		return len(t.AllowPaths) > 0
	case "workers":
		return t.Workers != 0
	case "memory":
		return t.Memory != ""
	}
	return false
}

// formatOptions returns the options of format the flags give, after
// checking that no flag given belongs to another format: a usage error
// naming the flag and the formats it applies to.
func (t *tableFlags) formatOptions(format table.Format) (table.FormatOptions, error) {
	for _, ff := range formatFlags {
		if t.given(ff.flag) && !slices.Contains(ff.formats, format) {
			names := make([]string, len(ff.formats))
			for i, f := range ff.formats {
				names[i] = formatName(f)
			}
			article := "a"
			if format == table.Iceberg {
				article = "an"
			}
			msg := fmt.Sprintf("--%s does not apply to %s %s table (it is for %s tables)", ff.flag, article, formatName(format), strings.Join(names, " and "))
			if ff.why != "" {
				msg += ": " + ff.why
			}
			return nil, usageError{errors.New(msg)}
		}
	}
	switch format {
	case table.Iceberg:
		return t.iceberg, nil
	case table.Paimon:
		return t.paimon, nil
	}
	return t.hudi, nil
}

// formatName spells a table format as its project does.
func formatName(f table.Format) string {
	switch f {
	case table.Iceberg:
		return "Iceberg"
	case table.Paimon:
		return "Paimon"
	case table.Hudi:
		return "Hudi"
	}
	return string(f)
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
