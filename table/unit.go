package table

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/schema"
)

// UnitVersion is the version of the JSON encoding of a [Unit] that
// [Unit.MarshalJSON] writes and [Unit.UnmarshalJSON] reads.
const UnitVersion = 1

// ErrInvalidUnit is matched by the error for JSON that is not a planning
// unit, a unit of another version than [UnitVersion], or a unit whose
// parts do not fit the table it names (a schema or snapshot id its
// metadata file lacks, a filter that does not parse).
var ErrInvalidUnit = lakecat.NewSentinel(lakecat.ErrCorrupt, "table: invalid planning unit")

// DefaultUnitBytes is how many bytes of Iceberg data manifests one
// planning unit holds at most when [ScanOptions.UnitBytes] is 0: 8 MiB,
// about 20,000 to 50,000 data files. A larger manifest is a unit alone.
const DefaultUnitBytes = 8 << 20

// Unit is one part of the planning of a [Scan]: what one worker needs to
// plan its share of the scan's tasks, a plain value that travels as JSON
// ([Unit.MarshalJSON]) like a [Task]. [Scan.Units] makes the units on one
// machine; table/open's UnitTasks plans one anywhere, reading only what
// the unit names. The tasks of the units, in unit order, are the tasks
// of [Scan.Plan] in its order.
//
// An Iceberg scan has one unit per run of consecutive data manifests of
// at most [ScanOptions.UnitBytes] bytes (Iceberg spec, "Manifest Lists":
// manifest_length), after the filter's manifest pruning; each unit names
// the metadata file, snapshot and read schema chosen when the units were
// made, so a commit made since changes nothing. Its worker reads the
// snapshot's delete manifests again (the unit names them, not their
// files): a delete manifest is small beside the data manifests it serves,
// and a unit of delete files would grow with every delete file of the
// snapshot, once per unit. A Paimon or Hudi scan is one unit, planned
// whole where it is planned (its snapshot chosen then).
type Unit struct {
	// Format is the table's format; Location where the table was opened
	// (table/open's Open takes it).
	Format   Format
	Location string
	// Index is the unit's place among the Count units of its scan.
	Index, Count int
	// Options are the scan's options.
	Options UnitOptions
	// OutputSchema is the schema the scan's rows are returned in: its
	// tasks' read schema without the columns only the filter uses
	// ([Listing.OutputSchema]). It is nil for a unit of a whole scan
	// (Paimon, Hudi), whose listing tells it once planned.
	OutputSchema *schema.Schema
	// Iceberg is the Iceberg part of the unit, nil for other formats.
	Iceberg *IcebergUnit
}

// UnitOptions are the [ScanOptions] of a [Unit] as values that encode as
// JSON: the filter in the string form expr.Parse reads, the format's
// options in their JSON encoding. Warn is not carried; Iceberg's snapshot
// choice is in [IcebergUnit].
type UnitOptions struct {
	SnapshotID      *int64          `json:"snapshot-id,omitempty"`
	AsOf            *time.Time      `json:"as-of,omitempty"`
	Columns         []string        `json:"columns,omitempty"`
	MetadataColumns []string        `json:"metadata-columns,omitempty"`
	Filter          string          `json:"filter,omitempty"`
	SplitBytes      int64           `json:"split-bytes,omitempty"`
	FooterBytes     int64           `json:"footer-bytes,omitempty"`
	IgnoreDeletes   bool            `json:"ignore-deletes,omitempty"`
	FormatOptions   json.RawMessage `json:"format-options,omitempty"`
}

// IcebergUnit is what an Iceberg [Unit] pins: the metadata file read, the
// folder its stored paths are rooted at, the snapshot and read schema
// chosen, and the unit's data manifests with every delete manifest of the
// snapshot, as the manifest list states them.
type IcebergUnit struct {
	MetadataPath    string        `json:"metadata-path"`
	Root            string        `json:"root"`
	Version         int64         `json:"version"`
	Guessed         bool          `json:"guessed,omitempty"`
	SnapshotID      int64         `json:"snapshot-id"`
	SchemaID        int           `json:"schema-id"`
	Manifests       []ManifestRef `json:"manifests"`
	DeleteManifests []ManifestRef `json:"delete-manifests,omitempty"`
}

// ManifestRef is one manifest of an Iceberg [Unit], as its manifest list
// entry states it (Iceberg spec, "Manifest Lists"): the stored path,
// manifest_length, partition_spec_id, content (0 data, 1 deletes), the
// sequence number its ADDED entries inherit, and the live files it lists
// (-1: not stated). Partition summaries are left out: the units were
// pruned by them.
type ManifestRef struct {
	Path            string `json:"path"`
	Length          int64  `json:"length"`
	SpecID          int    `json:"spec-id"`
	Content         int    `json:"content,omitempty"`
	SequenceNumber  int64  `json:"sequence-number,omitempty"`
	AddedSnapshotID int64  `json:"added-snapshot-id,omitempty"`
	Files           int64  `json:"files"`
}

// NewUnitOptions returns the unit options of opts, with the format
// options encoded as JSON. ListOnly and Warn are not carried.
func NewUnitOptions(opts ScanOptions) (UnitOptions, error) {
	u := UnitOptions{SnapshotID: opts.SnapshotID, Columns: opts.Columns, MetadataColumns: opts.MetadataColumns,
		SplitBytes: opts.SplitBytes, FooterBytes: opts.FooterBytes, IgnoreDeletes: opts.IgnoreDeletes}
	if !opts.AsOf.IsZero() {
		t := opts.AsOf
		u.AsOf = &t
	}
	if opts.Filter != nil {
		u.Filter = opts.Filter.String()
	}
	if opts.Options != nil {
		b, err := json.Marshal(opts.Options)
		if err != nil {
			return UnitOptions{}, fmt.Errorf("table: %s options: %w", opts.Options.TableFormat(), err)
		}
		u.FormatOptions = b
	}
	return u, nil
}

// ScanOptions returns the scan options of u, with format as the format
// options (decoded from u.FormatOptions by the caller, who knows their
// type; nil for none) and warn as Warn. A filter that does not parse is
// [ErrInvalidUnit].
func (u UnitOptions) ScanOptions(format FormatOptions, warn func(string)) (ScanOptions, error) {
	o := ScanOptions{SnapshotID: u.SnapshotID, Columns: u.Columns, MetadataColumns: u.MetadataColumns,
		SplitBytes: u.SplitBytes, FooterBytes: u.FooterBytes, IgnoreDeletes: u.IgnoreDeletes, Options: format, Warn: warn}
	if u.AsOf != nil {
		o.AsOf = *u.AsOf
	}
	if u.Filter != "" {
		f, err := expr.Parse(u.Filter)
		if err != nil {
			return ScanOptions{}, fmt.Errorf("%w: filter: %w", ErrInvalidUnit, err)
		}
		o.Filter = f
	}
	return o, nil
}

// unitJSON is the encoding of a Unit.
type unitJSON struct {
	Version  int             `json:"version"`
	Format   Format          `json:"format"`
	Location string          `json:"location"`
	Index    int             `json:"index"`
	Count    int             `json:"count"`
	Options  UnitOptions     `json:"options"`
	Output   json.RawMessage `json:"output-schema,omitempty"`
	OutputP  json.RawMessage `json:"output-schema-paimon,omitempty"`
	Iceberg  *IcebergUnit    `json:"iceberg,omitempty"`
}

// MarshalJSON encodes u as a JSON object with "version" [UnitVersion].
func (u Unit) MarshalJSON() ([]byte, error) {
	j := unitJSON{Version: UnitVersion, Format: u.Format, Location: u.Location, Index: u.Index, Count: u.Count, Options: u.Options, Iceberg: u.Iceberg}
	if u.OutputSchema != nil {
		var err error
		if j.Output, j.OutputP, err = marshalSchema(u.OutputSchema); err != nil {
			return nil, err
		}
	}
	return json.Marshal(j)
}

// UnmarshalJSON decodes what [Unit.MarshalJSON] writes. JSON that is not a
// unit, of another version, or of a format other than Iceberg, Paimon and
// Hudi (an Iceberg one without its Iceberg part) is [ErrInvalidUnit].
func (u *Unit) UnmarshalJSON(b []byte) error {
	var j unitJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidUnit, err)
	}
	if j.Version != UnitVersion {
		return fmt.Errorf("%w: version %d (this reader reads version %d)", ErrInvalidUnit, j.Version, UnitVersion)
	}
	switch {
	case j.Format == Iceberg && j.Iceberg == nil:
		return fmt.Errorf("%w: an iceberg unit without its manifests", ErrInvalidUnit)
	case j.Format != Iceberg && j.Format != Paimon && j.Format != Hudi:
		return fmt.Errorf("%w: format %q", ErrInvalidUnit, j.Format)
	case j.Index < 0 || j.Index >= max(j.Count, 1):
		return fmt.Errorf("%w: index %d of %d units", ErrInvalidUnit, j.Index, j.Count)
	}
	*u = Unit{Format: j.Format, Location: j.Location, Index: j.Index, Count: j.Count, Options: j.Options, Iceberg: j.Iceberg}
	if len(j.Output) > 0 || len(j.OutputP) > 0 {
		out, err := parseSchema(j.Output, j.OutputP)
		if err != nil {
			return fmt.Errorf("%w: output schema: %w", ErrInvalidUnit, err)
		}
		u.OutputSchema = out
	}
	return nil
}
