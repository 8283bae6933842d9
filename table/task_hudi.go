package table

import (
	"encoding/json"
	"fmt"

	"github.com/lakecat/lakecat/schema"
)

// HudiSlice is the merge-on-read part of a Hudi file slice's task: the log
// files whose records are merged onto the base file (Task.Path), or read
// alone when the slice has no base file. table/hudi plans it; the reader
// merges (Hudi docs, "File Layouts" and "Record Merging").
type HudiSlice struct {
	// NoBase is set for a slice of log files only: Task.Path is then the
	// first log file's path and no base file is read.
	NoBase bool
	// LogFiles are the slice's log files in the order their blocks apply
	// (log version, then write token).
	LogFiles []HudiLogFile
	// Instants are the completed instants whose log blocks are read, each
	// with the index into Schemas of the schema it wrote with (its field
	// ids align it to ReadSchema, as FileSchema does for the base file). A
	// block of an instant not listed is skipped (inflight, failed or rolled
	// back), unless its instant is older than ArchivedBefore.
	Instants []HudiInstant
	// ArchivedBefore is the earliest instant of the active timeline: a
	// block of an older instant was committed and archived; it is read in
	// the schema of its own header aligned by name to FileSchema and
	// ReadSchema. "" when nothing is archived.
	ArchivedBefore string
	// AsOf is the instant read as of ("" for the latest): a block of a
	// later instant is skipped.
	AsOf string
	// Schemas are the writer schemas of Instants.
	Schemas []*schema.Schema
	// KeyFieldID is the field id the merge gives _hoodie_record_key, the
	// record key, in every base and log file (an id no schema uses).
	KeyFieldID int
	// Ordering holds the ordering fields (hoodie.table.precombine.field or
	// hoodie.table.ordering.fields), as in the table schema, in order; nil
	// when the table has none.
	Ordering *schema.Schema
	// IsDeletedFieldID is the id of the table schema's _hoodie_is_deleted
	// column (a record with it true is a delete), or 0.
	IsDeletedFieldID int
	// MergeMode decides between records of one key: "event-time" (the
	// highest ordering value wins, the later record on a tie, against the
	// base file too), "commit-time" (the later record wins) or
	// "overwrite-latest" (log records among themselves by ordering value,
	// a log record always over the base file: Hudi 0.x's
	// OverwriteWithLatestAvroPayload).
	MergeMode string
}

// HudiLogFile is a log file of a [HudiSlice].
type HudiLogFile struct {
	Path      string `json:"path"`
	SizeBytes int64  `json:"size-bytes"`
}

// HudiInstant is a completed instant of a [HudiSlice].
type HudiInstant struct {
	Time   string `json:"time"`
	Schema int    `json:"schema"`
}

// The JSON encoding of a HudiSlice, under "hudi" in a task:
//
//	{"no-base": false, "log-files": [{"path", "size-bytes"}],
//	 "instants": [{"time", "schema"}], "archived-before": "", "as-of": "",
//	 "schemas": [<schema JSON as the task's schemas>],
//	 "key-field-id": N, "ordering": <Iceberg schema JSON>,
//	 "is-deleted-field-id": N, "merge-mode": "event-time"}
type hudiSliceJSON struct {
	NoBase           bool              `json:"no-base,omitempty"`
	LogFiles         []HudiLogFile     `json:"log-files"`
	Instants         []HudiInstant     `json:"instants"`
	ArchivedBefore   string            `json:"archived-before,omitempty"`
	AsOf             string            `json:"as-of,omitempty"`
	Schemas          []json.RawMessage `json:"schemas,omitempty"`
	SchemasPaimon    []bool            `json:"schemas-paimon,omitempty"`
	KeyFieldID       int               `json:"key-field-id"`
	Ordering         json.RawMessage   `json:"ordering,omitempty"`
	IsDeletedFieldID int               `json:"is-deleted-field-id,omitempty"`
	MergeMode        string            `json:"merge-mode"`
}

func marshalHudi(h *HudiSlice) (*hudiSliceJSON, error) {
	if h == nil {
		return nil, nil
	}
	out := &hudiSliceJSON{NoBase: h.NoBase, LogFiles: h.LogFiles, Instants: h.Instants, ArchivedBefore: h.ArchivedBefore, AsOf: h.AsOf,
		KeyFieldID: h.KeyFieldID, IsDeletedFieldID: h.IsDeletedFieldID, MergeMode: h.MergeMode}
	anyPaimon := false
	for i, s := range h.Schemas {
		ice, pai, err := marshalSchema(s)
		if err != nil {
			return nil, fmt.Errorf("hudi schema %d: %w", i, err)
		}
		if pai != nil {
			ice, anyPaimon = pai, true
		}
		out.Schemas = append(out.Schemas, ice)
		out.SchemasPaimon = append(out.SchemasPaimon, pai != nil)
	}
	if !anyPaimon {
		out.SchemasPaimon = nil
	}
	if h.Ordering != nil {
		b, err := schema.MarshalIcebergSchema(h.Ordering)
		if err != nil {
			return nil, fmt.Errorf("hudi ordering fields: %w", err)
		}
		out.Ordering = b
	}
	return out, nil
}

func unmarshalHudi(in *hudiSliceJSON) (*HudiSlice, error) {
	if in == nil {
		return nil, nil
	}
	h := &HudiSlice{NoBase: in.NoBase, LogFiles: in.LogFiles, Instants: in.Instants, ArchivedBefore: in.ArchivedBefore, AsOf: in.AsOf,
		KeyFieldID: in.KeyFieldID, IsDeletedFieldID: in.IsDeletedFieldID, MergeMode: in.MergeMode}
	if len(in.SchemasPaimon) > 0 && len(in.SchemasPaimon) != len(in.Schemas) {
		return nil, fmt.Errorf("hudi: %d schemas, %d schemas-paimon flags", len(in.Schemas), len(in.SchemasPaimon))
	}
	for i, raw := range in.Schemas {
		var s *schema.Schema
		var err error
		if len(in.SchemasPaimon) > 0 && in.SchemasPaimon[i] {
			s, err = parseSchema(nil, raw)
		} else {
			s, err = parseSchema(raw, nil)
		}
		if err != nil {
			return nil, fmt.Errorf("hudi schema %d: %w", i, err)
		}
		h.Schemas = append(h.Schemas, s)
	}
	for _, in := range h.Instants {
		if in.Schema < 0 || in.Schema >= len(h.Schemas) {
			return nil, fmt.Errorf("hudi instant %s: schema %d of %d", in.Time, in.Schema, len(h.Schemas))
		}
	}
	if len(in.Ordering) > 0 {
		s, err := schema.ParseIcebergSchema(in.Ordering)
		if err != nil {
			return nil, fmt.Errorf("hudi ordering fields: %w", err)
		}
		h.Ordering = s
	}
	switch h.MergeMode {
	case "event-time", "commit-time", "overwrite-latest":
	default:
		return nil, fmt.Errorf("hudi merge mode %q", h.MergeMode)
	}
	return h, nil
}
