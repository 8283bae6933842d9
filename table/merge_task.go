package table

import (
	"encoding/json"
	"fmt"

	"github.com/lakecat/lakecat/schema"
)

// MergeTask is the merge on read of a primary-key table's key range
// (Paimon: one section of a bucket): the sorted runs whose files hold the
// range, and how rows of one key merge. A [Task] with a Merge reads every
// file of every run (each through its own FileSchema, by field id, into
// the task's ReadSchema plus the key, sequence and system columns) and
// yields one row per key.
type MergeTask struct {
	// Runs are the sorted runs, newest level first (Paimon: each level-0
	// file is its own run, each level ≥ 1 one run); the files of a run are
	// in key order.
	Runs []MergeRun `json:"runs"`
	// Spec is how rows of one key merge.
	Spec MergeSpec `json:"spec"`
	// Schema is the table's read schema before any column selection: it
	// gives the key, sequence and aggregated fields a narrower ReadSchema
	// of the task may lack.
	Schema *schema.Schema `json:"-"`
}

type mergeTaskJSON struct {
	Runs         []MergeRun      `json:"runs"`
	Spec         MergeSpec       `json:"spec"`
	Schema       json.RawMessage `json:"schema,omitempty"`
	SchemaPaimon json.RawMessage `json:"schema-paimon,omitempty"`
}

// MarshalJSON encodes m; its schema as in [Task.MarshalJSON].
func (m MergeTask) MarshalJSON() ([]byte, error) {
	out := mergeTaskJSON{Runs: m.Runs, Spec: m.Spec}
	if m.Schema == nil {
		return nil, fmt.Errorf("table: merge task without a schema")
	}
	var err error
	if out.Schema, out.SchemaPaimon, err = marshalSchema(m.Schema); err != nil {
		return nil, fmt.Errorf("table: merge task: %w", err)
	}
	return json.Marshal(out)
}

// UnmarshalJSON decodes what [MergeTask.MarshalJSON] writes; errors match
// [ErrInvalidTask].
func (m *MergeTask) UnmarshalJSON(data []byte) error {
	var in mergeTaskJSON
	if err := json.Unmarshal(data, &in); err != nil {
		return fmt.Errorf("%w: merge: %v", ErrInvalidTask, err)
	}
	if len(in.Runs) == 0 || (len(in.Schema) == 0) == (len(in.SchemaPaimon) == 0) {
		return fmt.Errorf("%w: merge without runs or without one schema", ErrInvalidTask)
	}
	s, err := parseSchema(in.Schema, in.SchemaPaimon)
	if err != nil {
		return fmt.Errorf("%w: merge schema: %w", ErrInvalidTask, err)
	}
	*m = MergeTask{Runs: in.Runs, Spec: in.Spec, Schema: s}
	return nil
}

// MergeRun is one sorted run.
type MergeRun struct {
	// Level is the LSM level of the run's files.
	Level int `json:"level"`
	// Files are the run's files in key order.
	Files []MergeFile `json:"files"`
}

// MergeFile is one data file of a sorted run.
type MergeFile struct {
	// Path, Format, SizeBytes and RecordCount as in [Task].
	Path        string
	Format      string
	SizeBytes   int64
	RecordCount int64
	// FileSchema is the schema the file was written with, system columns
	// (_KEY_<pk>, _SEQUENCE_NUMBER, _VALUE_KIND) included; FileSchemaID its
	// id.
	FileSchema   *schema.Schema
	FileSchemaID int
	// MinSequenceNumber and MaxSequenceNumber bound the file's sequence
	// numbers.
	MinSequenceNumber, MaxSequenceNumber int64
}

// MergeSpec is a merge engine with its options, by field id of the read
// schema (Paimon docs, "Merge Engine", "Sequence Field").
type MergeSpec struct {
	// Engine is deduplicate, first-row, partial-update or aggregation.
	Engine string `json:"engine"`
	// KeyIDs are the field ids of the key, in key order (the primary key
	// without partition columns); SequenceIDs those of sequence.field.
	KeyIDs      []int `json:"key-ids"`
	SequenceIDs []int `json:"sequence-ids,omitempty"`
	// SequenceNumberID and ValueKindID are the field ids of the system
	// columns _SEQUENCE_NUMBER and _VALUE_KIND.
	SequenceNumberID int `json:"sequence-number-id"`
	ValueKindID      int `json:"value-kind-id"`
	// IgnoreDelete and RemoveRecordOnDelete: see merge.Spec.
	IgnoreDelete         bool `json:"ignore-delete,omitempty"`
	RemoveRecordOnDelete bool `json:"remove-record-on-delete,omitempty"`
	// SequenceGroups are partial-update's sequence groups.
	SequenceGroups []MergeSequenceGroup `json:"sequence-groups,omitempty"`
	// Aggregates are aggregation's per-field functions; DefaultAggregate
	// (Function "" for none) applies to the other value fields.
	Aggregates       []MergeAggregate `json:"aggregates,omitempty"`
	DefaultAggregate *MergeAggregate  `json:"default-aggregate,omitempty"`
}

// MergeSequenceGroup is one partial-update sequence group, by field id.
type MergeSequenceGroup struct {
	SequenceIDs []int `json:"sequence-ids"`
	FieldIDs    []int `json:"field-ids"`
}

// MergeAggregate is a field's aggregate function.
type MergeAggregate struct {
	FieldID       int    `json:"field-id,omitempty"`
	Function      string `json:"function"`
	Delimiter     string `json:"delimiter,omitempty"`
	IgnoreRetract bool   `json:"ignore-retract,omitempty"`
}

type mergeFileJSON struct {
	Path              string          `json:"path"`
	Format            string          `json:"format"`
	SizeBytes         int64           `json:"size-bytes"`
	RecordCount       int64           `json:"record-count"`
	FileSchema        json.RawMessage `json:"file-schema,omitempty"`
	FileSchemaPaimon  json.RawMessage `json:"file-schema-paimon,omitempty"`
	FileSchemaID      int             `json:"file-schema-id"`
	MinSequenceNumber int64           `json:"min-sequence-number"`
	MaxSequenceNumber int64           `json:"max-sequence-number"`
}

// MarshalJSON encodes f; its schema as in [Task.MarshalJSON].
func (f MergeFile) MarshalJSON() ([]byte, error) {
	out := mergeFileJSON{Path: f.Path, Format: f.Format, SizeBytes: f.SizeBytes, RecordCount: f.RecordCount,
		FileSchemaID: f.FileSchemaID, MinSequenceNumber: f.MinSequenceNumber, MaxSequenceNumber: f.MaxSequenceNumber}
	if f.FileSchema == nil {
		return nil, fmt.Errorf("table: merge file %s: no file schema", f.Path)
	}
	var err error
	if out.FileSchema, out.FileSchemaPaimon, err = marshalSchema(f.FileSchema); err != nil {
		return nil, fmt.Errorf("table: merge file %s: %w", f.Path, err)
	}
	return json.Marshal(out)
}

// UnmarshalJSON decodes what [MergeFile.MarshalJSON] writes; errors match
// [ErrInvalidTask].
func (f *MergeFile) UnmarshalJSON(data []byte) error {
	var in mergeFileJSON
	if err := json.Unmarshal(data, &in); err != nil {
		return fmt.Errorf("%w: merge file: %v", ErrInvalidTask, err)
	}
	if in.Path == "" || (len(in.FileSchema) == 0) == (len(in.FileSchemaPaimon) == 0) {
		return fmt.Errorf("%w: merge file without a path or with not one file schema", ErrInvalidTask)
	}
	s, err := parseSchema(in.FileSchema, in.FileSchemaPaimon)
	if err != nil {
		return fmt.Errorf("%w: merge file %s: %w", ErrInvalidTask, in.Path, err)
	}
	*f = MergeFile{Path: in.Path, Format: in.Format, SizeBytes: in.SizeBytes, RecordCount: in.RecordCount,
		FileSchema: s, FileSchemaID: in.FileSchemaID, MinSequenceNumber: in.MinSequenceNumber, MaxSequenceNumber: in.MaxSequenceNumber}
	return nil
}

// PaimonDeletionVector is the content of a Paimon deletion vector (Paimon
// docs, "Deletion Vectors"): ContentOffset and ContentSizeBytes locate it
// in its index file (Path), and it deletes rows of the task's data file by
// position.
const PaimonDeletionVector DeleteContent = "paimon-deletion-vector"
