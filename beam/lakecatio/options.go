package lakecatio

// Option configures [Read] and [ReadRows].
type Option func(*config)

// config is what every DoFn of a read carries to the workers: plain,
// JSON-encodable values (Beam serializes DoFn fields).
type config struct {
	Table         string   `json:"table"`
	Columns       []string `json:"columns,omitempty"`
	Where         string   `json:"where,omitempty"`
	SnapshotID    *int64   `json:"snapshot-id,omitempty"`
	SplitBytes    int64    `json:"split-bytes,omitempty"`
	BatchRows     int      `json:"batch-rows,omitempty"`
	MaxBatchBytes int64    `json:"max-batch-bytes,omitempty"`
	IgnoreDeletes bool     `json:"ignore-deletes,omitempty"`
	AllowPaths    []string `json:"allow-paths,omitempty"`
	FS            string   `json:"fs,omitempty"`
	Retries       int      `json:"retries,omitempty"`
	UnitBytes     int64    `json:"unit-bytes,omitempty"`
}

// DefaultMaxBatchBytes is the size in bytes above which a record batch is
// cut into several elements: 8 MiB of Arrow buffers.
const DefaultMaxBatchBytes = 8 << 20

// DefaultRetries is how many times a worker tries again to read a row
// group whose read failed with a transient storage error (see
// storage.IsTransient) before the read fails.
const DefaultRetries = 4

// Columns reads only these columns (dotted paths, as `lakecat cat
// --columns` takes them), in this order; metadata columns (_file, _pos,
// …) may be named among them.
func Columns(paths ...string) Option {
	return func(c *config) { c.Columns = append([]string(nil), paths...) }
}

// Where keeps only the rows the filter selects, in the syntax of `lakecat
// cat --where` (expr.Parse); it is parsed at planning and on each worker,
// and files and row groups that cannot match are skipped.
func Where(filter string) Option { return func(c *config) { c.Where = filter } }

// SnapshotID reads that snapshot of an Iceberg or Paimon table.
func SnapshotID(id int64) Option { return func(c *config) { c.SnapshotID = &id } }

// SplitBytes is the size above which a Parquet file is cut into several
// restrictions at row-group boundaries, and an ORC file at stripe
// boundaries (0: reader.DefaultSplitBytes; negative: never), as
// reader.SplitTask cuts them. The cut is made on the workers, from the
// footer each reads of its task's file: the planning worker reads no
// footer. Runners split restrictions further while they are read.
func SplitBytes(n int64) Option { return func(c *config) { c.SplitBytes = n } }

// BatchRows is the most rows the decoder puts in one batch (0:
// reader.DefaultBatchRows).
func BatchRows(n int) Option { return func(c *config) { c.BatchRows = n } }

// MaxBatchBytes cuts a batch whose Arrow buffers exceed n bytes into
// slices of about n bytes, one element each (0: [DefaultMaxBatchBytes]).
func MaxBatchBytes(n int64) Option { return func(c *config) { c.MaxBatchBytes = n } }

// IgnoreDeletes reads a table's rows as stored, deletes not applied (as
// `lakecat cat --ignore-deletes`).
func IgnoreDeletes() Option { return func(c *config) { c.IgnoreDeletes = true } }

// AllowPaths are folders or URL prefixes outside the table's location that
// its metadata may name (see reader.TableOptions.AllowPaths).
func AllowPaths(prefixes ...string) Option {
	return func(c *config) { c.AllowPaths = append([]string(nil), prefixes...) }
}

// WithFS reads through the FS registered under name with [RegisterFS]
// instead of the one the table's URL scheme selects.
func WithFS(name string) Option { return func(c *config) { c.FS = name } }

// Retries sets how many times a row group whose read failed with a
// transient error is tried again (0: [DefaultRetries]; negative: never).
func Retries(n int) Option { return func(c *config) { c.Retries = n } }

// PlanUnitBytes is how many bytes of an Iceberg table's data manifests one
// planning element plans (table.ScanOptions.UnitBytes: consecutive
// manifests are grouped up to n bytes, a larger one is an element alone; 0:
// table.DefaultUnitBytes, 8 MiB; negative: one element per manifest).
func PlanUnitBytes(n int64) Option { return func(c *config) { c.UnitBytes = n } }

func newConfig(table string, opts []Option) config {
	c := config{Table: table}
	for _, o := range opts {
		o(&c)
	}
	return c
}

func (c config) maxBatchBytes() int64 {
	if c.MaxBatchBytes <= 0 {
		return DefaultMaxBatchBytes
	}
	return c.MaxBatchBytes
}

func (c config) retries() int {
	switch {
	case c.Retries < 0:
		return 0
	case c.Retries == 0:
		return DefaultRetries
	}
	return c.Retries
}
