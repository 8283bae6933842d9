package table

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/schema"
)

// TaskVersion is the version of the JSON encoding of a [Task] that
// [Task.MarshalJSON] writes and [Task.UnmarshalJSON] reads.
const TaskVersion = 1

// ErrTaskVersion is matched by the error of [Task.UnmarshalJSON] for an
// encoding of another version than [TaskVersion].
var ErrTaskVersion = lakecat.NewSentinel(lakecat.ErrUnsupported, "table: unsupported task encoding version")

// ErrInvalidTask is matched by the error of [Task.UnmarshalJSON] for JSON
// that is not a task.
var ErrInvalidTask = lakecat.NewSentinel(lakecat.ErrCorrupt, "table: invalid task")

// Task is one unit of a planned read: one data file, or a range of its row
// groups (Parquet) or stripes (ORC), with everything needed to read it in the
// read schema on any machine. It is a plain value: no open files, no
// closures; [Task.MarshalJSON] encodes it.
type Task struct {
	// Path is the data file's path for the storage.FS the table was planned
	// on (stored paths already resolved).
	Path string
	// StoredPath is the path as the table metadata stores it (the _file
	// metadata column), or "" when it is Path.
	StoredPath string
	// Format is "PARQUET", "ORC" or "AVRO".
	Format string
	// SizeBytes is the file's size in bytes as the metadata states it (-1:
	// unknown). Readers take the size from storage.
	SizeBytes int64
	// RecordCount is the file's number of rows as the metadata states it
	// (-1: unknown).
	RecordCount int64
	// FirstRowGroup and RowGroups select the row groups (Parquet) of the
	// file to read: RowGroups groups from FirstRowGroup. RowGroups 0 means
	// the whole file. Split tasks of one file together cover every row
	// group exactly once.
	FirstRowGroup, RowGroups int
	// FileSchema is the schema the file was written with, for a file whose
	// columns are located by name (Paimon schema-N, Hudi, an Iceberg file
	// without ids); nil when the file's own ids are used.
	FileSchema *schema.Schema
	// FileSchemaID is the id of FileSchema, or of the schema the file was
	// written with where the metadata records it (-1: unknown).
	FileSchemaID int
	// ReadSchema is the schema the rows come out in.
	ReadSchema *schema.Schema
	// NameMapping assigns ids to a file written without them (Iceberg
	// schema.name-mapping.default).
	NameMapping schema.NameMapping
	// Rules names the promotion rules of the table format
	// (project.ParseRules: "iceberg-v2", "iceberg-v3", "paimon", "hudi").
	Rules string
	// TimeZone is the IANA name of the session time zone of Paimon's
	// timestamp casts ("" for UTC).
	TimeZone string
	// Constants fill read fields the file does not store, by field id:
	// identity-partition values and metadata columns, in the Go forms of
	// [schema.Field] for the read field's type. Each key is a field id of
	// ReadSchema (a top-level or nested field).
	Constants map[int]any
	// PosFieldID is the field id of the _pos metadata column in ReadSchema,
	// which the reader fills with each row's position in the file (0: the
	// Iceberg reserved id 2147483645, or no _pos column).
	PosFieldID int
	// DeletedFieldID is the field id of the _deleted metadata column in
	// ReadSchema, chosen the same way (0: its reserved id, 2147483644).
	DeletedFieldID int
	// SpecID is the Iceberg partition spec id (0 for other formats).
	SpecID int
	// SequenceNumber and FileSequenceNumber are the Iceberg data and file
	// sequence numbers of the data file (0 in format v1 and other formats).
	SequenceNumber, FileSequenceNumber int64
	// Deletes are the delete files that apply to the file (Iceberg
	// position and equality deletes, deletion vectors), with their
	// sequence numbers, as table/iceberg's planning chose them (Iceberg
	// spec, "Scan Planning"). A reader applies them.
	Deletes []DeleteFile
	// DeleteSchema holds the table schema's fields of the equality ids of
	// Deletes, top-level, in the types the keys are compared in: the data
	// file and every equality delete file are read into them by field id.
	// It is nil when no equality delete applies; an equality id it lacks
	// (a column dropped from the table) fails the read.
	DeleteSchema *schema.Schema
	// Paths is how the table's stored paths were resolved to Path and the
	// delete files' paths, for the paths stored inside delete files (a
	// position delete's file_path): table/iceberg resolves them with it
	// the same way. Nil when no position delete applies.
	Paths *PathResolution
	// Hudi holds the log files of a Hudi merge-on-read file slice to
	// merge onto the file (nil: none; see [HudiSlice]).
	Hudi *HudiSlice

	// Merge, when not nil, makes the task the merge on read of a
	// primary-key table's key range over several files ([MergeTask]); Path,
	// Format and FileSchema then describe its first file only.
	Merge *MergeTask

	// FirstStripe and Stripes select the stripes (ORC) of the file to
	// read, as FirstRowGroup and RowGroups do a Parquet file's row groups:
	// Stripes stripes from FirstStripe; Stripes 0 means every stripe from
	// FirstStripe on, and both 0 the whole file. Split tasks of one file
	// together cover every stripe exactly once. A task selects row groups
	// or stripes, never both. Encoded as the optional "first-stripe" and
	// "stripes" (absent when 0), so tasks written before them decode as
	// whole-file tasks.
	FirstStripe, Stripes int
}

// PathResolution is the rules that turn a table's stored paths into paths
// for the storage.FS (table/iceberg's Table.Resolve documents them): the
// path map, the table location the metadata records, the folder the table
// was opened from and whether paths under the location are re-rooted
// there.
type PathResolution struct {
	PathMap  []PathRule `json:"path-map,omitempty"`
	Location string     `json:"location,omitempty"`
	Root     string     `json:"root,omitempty"`
	BaseDir  string     `json:"base-dir,omitempty"`
	Rebase   bool       `json:"rebase,omitempty"`
}

// PathRule rewrites a path starting with Old to start with New.
type PathRule struct {
	Old string `json:"old"`
	New string `json:"new"`
}

// DeletedRows returns how many of the task's file rows its deletes
// remove, when that is known without reading them: the sum of the record
// counts of its deletion vectors (an Iceberg DV's or a Paimon deletion
// vector's record count is its cardinality) and of its position delete
// files that name this file as their referenced_data_file (each record
// deletes one row). It reports false when an equality delete, a position
// delete file shared with other data files, or a delete whose record count
// is unknown (-1: a Paimon index manifest without _CARDINALITY) applies,
// whose effect on this file only reading tells; 0, true for a task without
// deletes. Rows of other row groups of a split task are counted.
func (t Task) DeletedRows() (int64, bool) {
	var n int64
	for _, d := range t.Deletes {
		switch {
		case d.RecordCount < 0:
			return n, false
		case d.Content == DeletionVector, d.Content == PaimonDeletionVector,
			d.Content == PositionDeletes && d.ReferencedDataFile != "":
			n += d.RecordCount
		default:
			return n, false
		}
	}
	return n, true
}

// DeleteContent is what a delete file holds.
type DeleteContent string

// The delete contents (Iceberg spec, "Delete Formats").
const (
	PositionDeletes DeleteContent = "position-deletes"
	EqualityDeletes DeleteContent = "equality-deletes"
	DeletionVector  DeleteContent = "deletion-vector" // v3: position deletes in a Puffin file
)

// DeleteFile is a delete file of a [Task].
type DeleteFile struct {
	// Path is the file's path for the storage.FS; StoredPath as stored.
	Path       string `json:"path"`
	StoredPath string `json:"stored-path,omitempty"`
	// Format is "PARQUET", "ORC", "AVRO" or "PUFFIN".
	Format  string        `json:"format"`
	Content DeleteContent `json:"content"`
	// RecordCount is the number of deletes in the file as the metadata
	// states it (a deletion vector's cardinality), or -1 when unknown; the
	// reader checks it against the rows read.
	RecordCount int64 `json:"record-count"`
	// SizeBytes is the file's size as the metadata states it.
	SizeBytes int64 `json:"size-bytes"`
	// EqualityIDs are the field ids an equality delete matches on.
	EqualityIDs []int `json:"equality-ids,omitempty"`
	// SequenceNumber and FileSequenceNumber are the delete file's data and
	// file sequence numbers (Iceberg spec, "Scan Planning": an equality
	// delete applies to data files with a smaller data sequence number, a
	// position delete to those with a smaller or equal one).
	SequenceNumber     int64 `json:"sequence-number"`
	FileSequenceNumber int64 `json:"file-sequence-number"`
	// ReferencedDataFile is the stored path of the one data file a position
	// delete file or deletion vector applies to, or "".
	ReferencedDataFile string `json:"referenced-data-file,omitempty"`
	// SpecID is the partition spec id of the delete file.
	SpecID int `json:"spec-id"`
	// ContentOffset and ContentSizeBytes locate a deletion vector's blob
	// inside its Puffin file (Iceberg spec, "Deletion Vectors"); 0 for
	// other delete files.
	ContentOffset    int64 `json:"content-offset,omitempty"`
	ContentSizeBytes int64 `json:"content-size-bytes,omitempty"`
}

// The JSON encoding, version 1:
//
//	{"version": 1, "path": "...", "stored-path": "...", "format": "PARQUET",
//	 "size-bytes": N, "record-count": N,
//	 "first-row-group": N, "row-groups": N,
//	 "file-schema": <Iceberg schema JSON>, "file-schema-id": N,
//	 "read-schema": <Iceberg schema JSON>, "name-mapping": <name mapping JSON>,
//	 "rules": "iceberg-v2", "time-zone": "",
//	 "constants": [{"field-id": N, "value": <Iceberg single-value JSON of the read field's type>}],
//	 "pos-field-id": N, "deleted-field-id": N, "spec-id": N, "sequence-number": N, "file-sequence-number": N,
//	 "deletes": [DeleteFile, ...], "delete-schema": <Iceberg schema JSON>,
//	 "paths": PathResolution, "merge": MergeTask, "hudi": HudiSlice (see task_hudi.go),
//	 "first-stripe": N, "stripes": N}
//
// Schemas are Iceberg schema JSON with lakecat's extension types
// (schema.MarshalIcebergSchema), except a schema with list elements or map
// keys or values without field ids (Paimon's), which Iceberg JSON cannot
// hold: it is written as a Paimon schema-N file (schema.MarshalPaimonSchema)
// under "read-schema-paimon" or "file-schema-paimon" instead. Constants are
// typed by the read schema field they fill (Iceberg spec, Appendix D),
// sorted by field id.
type taskJSON struct {
	Version            int             `json:"version"`
	Path               string          `json:"path"`
	StoredPath         string          `json:"stored-path,omitempty"`
	Format             string          `json:"format"`
	SizeBytes          int64           `json:"size-bytes"`
	RecordCount        int64           `json:"record-count"`
	FirstRowGroup      int             `json:"first-row-group,omitempty"`
	RowGroups          int             `json:"row-groups,omitempty"`
	FileSchema         json.RawMessage `json:"file-schema,omitempty"`
	FileSchemaPaimon   json.RawMessage `json:"file-schema-paimon,omitempty"`
	FileSchemaID       int             `json:"file-schema-id"`
	ReadSchema         json.RawMessage `json:"read-schema,omitempty"`
	ReadSchemaPaimon   json.RawMessage `json:"read-schema-paimon,omitempty"`
	NameMapping        json.RawMessage `json:"name-mapping,omitempty"`
	Rules              string          `json:"rules"`
	TimeZone           string          `json:"time-zone,omitempty"`
	Constants          []constantJSON  `json:"constants,omitempty"`
	PosFieldID         int             `json:"pos-field-id,omitempty"`
	DeletedFieldID     int             `json:"deleted-field-id,omitempty"`
	SpecID             int             `json:"spec-id"`
	SequenceNumber     int64           `json:"sequence-number"`
	FileSequenceNumber int64           `json:"file-sequence-number"`
	Deletes            []DeleteFile    `json:"deletes,omitempty"`
	DeleteSchema       json.RawMessage `json:"delete-schema,omitempty"`
	Paths              *PathResolution `json:"paths,omitempty"`
	Hudi               *hudiSliceJSON  `json:"hudi,omitempty"`
	Merge              *MergeTask      `json:"merge,omitempty"`
	FirstStripe        int             `json:"first-stripe,omitempty"`
	Stripes            int             `json:"stripes,omitempty"`
}

type constantJSON struct {
	FieldID int             `json:"field-id"`
	Value   json.RawMessage `json:"value"`
}

// MarshalJSON encodes t in the versioned encoding above. A constant whose
// field id is not in ReadSchema, or whose value does not fit the field's
// type, is an error.
func (t Task) MarshalJSON() ([]byte, error) {
	if t.ReadSchema == nil {
		return nil, fmt.Errorf("table: task %s: no read schema", t.Path)
	}
	out := taskJSON{Version: TaskVersion, Path: t.Path, StoredPath: t.StoredPath, Format: t.Format,
		SizeBytes: t.SizeBytes, RecordCount: t.RecordCount, FirstRowGroup: t.FirstRowGroup, RowGroups: t.RowGroups,
		FileSchemaID: t.FileSchemaID, Rules: t.Rules, TimeZone: t.TimeZone, PosFieldID: t.PosFieldID, DeletedFieldID: t.DeletedFieldID, SpecID: t.SpecID,
		SequenceNumber: t.SequenceNumber, FileSequenceNumber: t.FileSequenceNumber, Deletes: t.Deletes, Paths: t.Paths, Merge: t.Merge,
		FirstStripe: t.FirstStripe, Stripes: t.Stripes}
	var err error
	if out.Hudi, err = marshalHudi(t.Hudi); err != nil {
		return nil, fmt.Errorf("table: task %s: %w", t.Path, err)
	}
	if out.ReadSchema, out.ReadSchemaPaimon, err = marshalSchema(t.ReadSchema); err != nil {
		return nil, fmt.Errorf("table: task %s: read schema: %w", t.Path, err)
	}
	if t.FileSchema != nil {
		if out.FileSchema, out.FileSchemaPaimon, err = marshalSchema(t.FileSchema); err != nil {
			return nil, fmt.Errorf("table: task %s: file schema: %w", t.Path, err)
		}
	}
	if t.DeleteSchema != nil {
		if out.DeleteSchema, err = schema.MarshalIcebergSchema(t.DeleteSchema); err != nil {
			return nil, fmt.Errorf("table: task %s: delete schema: %w", t.Path, err)
		}
	}
	if t.NameMapping != nil {
		if out.NameMapping, err = schema.MarshalNameMapping(t.NameMapping); err != nil {
			return nil, fmt.Errorf("table: task %s: name mapping: %w", t.Path, err)
		}
	}
	ids := make([]int, 0, len(t.Constants))
	for id := range t.Constants {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		f := t.ReadSchema.FindByID(id)
		if f == nil {
			return nil, fmt.Errorf("table: task %s: constant for field id %d, which the read schema lacks", t.Path, id)
		}
		v, err := schema.MarshalLiteral(f.Type, t.Constants[id])
		if err != nil {
			return nil, fmt.Errorf("table: task %s: constant of field %d (%s): %w", t.Path, id, f.Name, err)
		}
		out.Constants = append(out.Constants, constantJSON{FieldID: id, Value: v})
	}
	return json.Marshal(out)
}

// UnmarshalJSON decodes the encoding [Task.MarshalJSON] writes. An encoding
// of another version returns an error matching [ErrTaskVersion]; JSON that is
// not a task, or schemas, mappings and constants that do not parse, an error
// matching [ErrInvalidTask].
func (t *Task) UnmarshalJSON(data []byte) error {
	var probe struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidTask, err)
	}
	if probe.Version == nil {
		return fmt.Errorf("%w: no \"version\"", ErrInvalidTask)
	}
	if *probe.Version != TaskVersion {
		return fmt.Errorf("%w: version %d (this lakecat reads version %d)", ErrTaskVersion, *probe.Version, TaskVersion)
	}
	var in taskJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidTask, err)
	}
	out := Task{Path: in.Path, StoredPath: in.StoredPath, Format: in.Format, SizeBytes: in.SizeBytes,
		RecordCount: in.RecordCount, FirstRowGroup: in.FirstRowGroup, RowGroups: in.RowGroups,
		FileSchemaID: in.FileSchemaID, Rules: in.Rules, TimeZone: in.TimeZone, PosFieldID: in.PosFieldID, DeletedFieldID: in.DeletedFieldID, SpecID: in.SpecID,
		SequenceNumber: in.SequenceNumber, FileSequenceNumber: in.FileSequenceNumber, Deletes: in.Deletes, Paths: in.Paths, Merge: in.Merge,
		FirstStripe: in.FirstStripe, Stripes: in.Stripes}
	if in.FirstStripe < 0 || in.Stripes < 0 || ((in.FirstStripe > 0 || in.Stripes > 0) && (in.FirstRowGroup > 0 || in.RowGroups > 0)) {
		return fmt.Errorf("%w: %s: a negative stripe, or both row groups and stripes", ErrInvalidTask, in.Path)
	}
	if in.Path == "" || (len(in.ReadSchema) == 0) == (len(in.ReadSchemaPaimon) == 0) || in.FirstRowGroup < 0 || in.RowGroups < 0 ||
		(len(in.FileSchema) > 0 && len(in.FileSchemaPaimon) > 0) {
		return fmt.Errorf("%w: no path, not one read schema, two file schemas or a negative row group", ErrInvalidTask)
	}
	var err error
	if out.Hudi, err = unmarshalHudi(in.Hudi); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrInvalidTask, in.Path, err)
	}
	if out.ReadSchema, err = parseSchema(in.ReadSchema, in.ReadSchemaPaimon); err != nil {
		return fmt.Errorf("%w: %s: read schema: %w", ErrInvalidTask, in.Path, err)
	}
	if len(in.FileSchema) > 0 || len(in.FileSchemaPaimon) > 0 {
		if out.FileSchema, err = parseSchema(in.FileSchema, in.FileSchemaPaimon); err != nil {
			return fmt.Errorf("%w: %s: file schema: %w", ErrInvalidTask, in.Path, err)
		}
	}
	if len(in.DeleteSchema) > 0 {
		if out.DeleteSchema, err = schema.ParseIcebergSchema(in.DeleteSchema); err != nil {
			return fmt.Errorf("%w: %s: delete schema: %w", ErrInvalidTask, in.Path, err)
		}
	}
	if len(in.NameMapping) > 0 {
		if out.NameMapping, err = schema.ParseNameMapping(in.NameMapping); err != nil {
			return fmt.Errorf("%w: %s: name mapping: %w", ErrInvalidTask, in.Path, err)
		}
	}
	for _, c := range in.Constants {
		f := out.ReadSchema.FindByID(c.FieldID)
		if f == nil {
			return fmt.Errorf("%w: %s: constant for field id %d, which the read schema lacks", ErrInvalidTask, in.Path, c.FieldID)
		}
		v, err := schema.ParseLiteral(f.Type, c.Value)
		if err != nil {
			return fmt.Errorf("%w: %s: constant of field %d (%s): %w", ErrInvalidTask, in.Path, c.FieldID, f.Name, err)
		}
		if out.Constants == nil {
			out.Constants = map[int]any{}
		}
		out.Constants[c.FieldID] = v
	}
	*t = out
	return nil
}

// marshalSchema encodes s as Iceberg schema JSON, or as a Paimon schema-N
// file when some list element or map key or value has no field id.
func marshalSchema(s *schema.Schema) (iceberg, paimon json.RawMessage, err error) {
	noIDs := false
	schema.Walk(s.Fields, func(_ []string, f *schema.Field) bool {
		if f.ID == schema.NoID {
			noIDs = true
		}
		return !noIDs
	})
	if !noIDs {
		b, err := schema.MarshalIcebergSchema(s)
		return b, nil, err
	}
	b, err := schema.MarshalPaimonSchema(schema.NewPaimonSchema(s.ID, s.Fields, nil, nil, nil))
	return nil, b, err
}

func parseSchema(iceberg, paimon json.RawMessage) (*schema.Schema, error) {
	if len(iceberg) > 0 {
		return schema.ParseIcebergSchema(iceberg)
	}
	p, err := schema.ParsePaimonSchema(paimon)
	if err != nil {
		return nil, err
	}
	return p.Schema(), nil
}
