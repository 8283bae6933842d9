package iceberg

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/lakecat/lakecat/internal/jsonutil"
	"github.com/lakecat/lakecat/schema"
)

// This file implements the Iceberg table metadata JSON codec (Iceberg table
// spec, "Table Metadata" and Appendix C "Table Metadata and Snapshots") for
// format versions 1, 2 and 3. Only the parts lakecat reads are decoded into
// fields; every other key (sort orders, refs, statistics, encryption keys,
// next-row-id, …) is kept as raw JSON in Extra, so that a decode followed by
// an encode loses nothing.

const metadataCodec = "iceberg table metadata"

// NameMappingProperty is the table property that holds the default name
// mapping (Iceberg table spec, "Column Projection").
const NameMappingProperty = "schema.name-mapping.default"

// Metadata is an Iceberg table metadata file.
type Metadata struct {
	FormatVersion      int
	TableUUID          string
	Location           string
	LastSequenceNumber int64 // 0 for format v1
	LastUpdatedMs      int64 // milliseconds since the epoch
	LastColumnID       int
	// Schemas are all schemas; a format v1 file with only "schema" gives one
	// schema here (schema id 0 unless it carries one).
	Schemas         []*schema.Schema
	CurrentSchemaID int
	// PartitionSpecs are all partition specs; a format v1 file with only
	// "partition-spec" gives one spec with spec id 0.
	PartitionSpecs  []PartitionSpec
	DefaultSpecID   int
	LastPartitionID int
	Properties      map[string]string
	// CurrentSnapshotID is nil when the table has no current snapshot
	// (written as -1 by older writers, as null or not at all by newer ones).
	CurrentSnapshotID *int64
	Snapshots         []Snapshot
	SnapshotLog       []SnapshotLogEntry
	MetadataLog       []MetadataLogEntry
	// Extra holds every top-level key not decoded above, as raw JSON.
	Extra map[string]json.RawMessage

	present    map[string]bool                   // keys present in the decoded input
	noSnapshot json.RawMessage                   // how the input spelled "no current snapshot"
	schemaInfo map[*schema.Schema]schemaJSONInfo // how the input spelled each schema
	unsigned   map[int64]bool                    // snapshot ids the input wrote above 2^63-1
	interned   map[string]string                 // snapshot summary keys and short values, shared while decoding
}

// maxInterned bounds the strings one decode shares between snapshot
// summaries (keys and values of at most maxInternedLen bytes).
const (
	maxInterned    = 1 << 12
	maxInternedLen = 24
)

// intern returns a string equal to b, shared with the summaries decoded
// before when b is short: snapshot summaries repeat the same keys and many
// of the same values ("0", "append"), and a table may have hundreds of
// thousands of snapshots.
func (m *Metadata) intern(b []byte) string {
	if len(b) > maxInternedLen {
		return string(b)
	}
	if v, ok := m.interned[string(b)]; ok {
		return v
	}
	s := string(b)
	if m.interned == nil {
		m.interned = map[string]string{}
	}
	if len(m.interned) < maxInterned {
		m.interned[s] = s
	}
	return s
}

// decodeSummary decodes a snapshot summary (a JSON object of strings),
// sharing its short strings through intern.
func (m *Metadata) decodeSummary(raw json.RawMessage) (map[string]string, error) {
	return decodeStrings(raw, maxStringMapEntries, m.intern)
}

// snapshotID decodes a snapshot id. Ids above 2^63-1 (seen in DuckDB's test
// tables) are taken modulo 2^64, as Java's Jackson reads them into a long,
// and remembered so that they are written back unchanged.
func (m *Metadata) snapshotID(raw json.RawMessage) (int64, error) {
	v, err := jsonutil.Int(raw, 64)
	if err == nil {
		return v, nil
	}
	u, uerr := strconv.ParseUint(string(bytes.TrimSpace(raw)), 10, 64)
	if uerr != nil {
		return 0, err
	}
	if m.unsigned == nil {
		m.unsigned = map[int64]bool{}
	}
	m.unsigned[int64(u)] = true
	return int64(u), nil
}

// formatSnapshotID is the inverse of snapshotID.
func (m *Metadata) formatSnapshotID(v int64) string {
	if v < 0 && m.unsigned[v] {
		return strconv.FormatUint(uint64(v), 10)
	}
	return strconv.FormatInt(v, 10)
}

// schemaJSONInfo records optional parts of a decoded schema object so that a
// rewrite reproduces them.
type schemaJSONInfo struct {
	noSchemaID          bool // "schema-id" absent (format v1 "schema")
	emptyIdentifierList bool // "identifier-field-ids": []
}

// Snapshot is one entry of "snapshots".
type Snapshot struct {
	SnapshotID       int64
	ParentSnapshotID *int64
	SequenceNumber   int64 // 0 for format v1
	TimestampMs      int64 // milliseconds since the epoch
	ManifestList     string
	Manifests        []string // format v1 snapshots without a manifest list
	SchemaID         *int     // the schema id current when the snapshot was written
	Summary          map[string]string
	// Extra holds the snapshot's other keys (first-row-id, added-rows, key-id, …).
	Extra map[string]json.RawMessage

	present snapshotKeys // optional keys the decoded input had
}

// snapshotKeys is a set of the optional snapshot keys whose presence a
// rewrite reproduces (a bit set: a metadata file may hold many snapshots).
type snapshotKeys uint8

const (
	hasParentSnapshotID snapshotKeys = 1 << iota
	hasSequenceNumber
	hasManifestList
	hasManifests
	hasSummary
)

// snapshotKeyBits maps each optional snapshot key to its bit.
var snapshotKeyBits = map[string]snapshotKeys{
	"parent-snapshot-id": hasParentSnapshotID, "sequence-number": hasSequenceNumber,
	"manifest-list": hasManifestList, "manifests": hasManifests, "summary": hasSummary,
}

// PartitionSpec is one partition spec.
type PartitionSpec struct {
	SpecID int
	Fields []PartitionField
	Extra  map[string]json.RawMessage

	present map[string]bool
}

// PartitionField is one field of a partition spec. In format v1 specs without
// "field-id", FieldID is assigned 1000, 1001, … in order.
type PartitionField struct {
	SourceID  int
	FieldID   int
	Name      string
	Transform string
	// Extra holds other keys, such as format v3 "source-ids".
	Extra map[string]json.RawMessage

	present map[string]bool
}

// SnapshotLogEntry is one entry of "snapshot-log".
type SnapshotLogEntry struct {
	TimestampMs int64
	SnapshotID  int64
}

// MetadataLogEntry is one entry of "metadata-log".
type MetadataLogEntry struct {
	TimestampMs  int64
	MetadataFile string
}

// CurrentSchema returns the schema whose schema id is CurrentSchemaID, or nil.
func (m *Metadata) CurrentSchema() *schema.Schema { return m.SchemaByID(m.CurrentSchemaID) }

// SchemaByID returns the schema with the given schema id, or nil.
func (m *Metadata) SchemaByID(id int) *schema.Schema {
	for _, s := range m.Schemas {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// CurrentSnapshot returns the current snapshot, or nil when there is none.
func (m *Metadata) CurrentSnapshot() *Snapshot {
	if m.CurrentSnapshotID == nil {
		return nil
	}
	return m.SnapshotByID(*m.CurrentSnapshotID)
}

// SnapshotByID returns the snapshot with the given snapshot id, or nil.
func (m *Metadata) SnapshotByID(id int64) *Snapshot {
	for i := range m.Snapshots {
		if m.Snapshots[i].SnapshotID == id {
			return &m.Snapshots[i]
		}
	}
	return nil
}

// SchemaForSnapshot returns the schema a snapshot was written with (its
// schema-id), or the current schema when the snapshot names none.
func (m *Metadata) SchemaForSnapshot(s *Snapshot) *schema.Schema {
	if s != nil && s.SchemaID != nil {
		if sc := m.SchemaByID(*s.SchemaID); sc != nil {
			return sc
		}
	}
	return m.CurrentSchema()
}

// NameMapping decodes the table's default name mapping from the property
// [NameMappingProperty]. It returns nil and no error when the property is
// absent; a malformed mapping is an error matching [schema.ErrInvalidSchema].
func (m *Metadata) NameMapping() (schema.NameMapping, error) {
	v, ok := m.Properties[NameMappingProperty]
	if !ok {
		return nil, nil
	}
	return schema.ParseNameMapping([]byte(v))
}

// MaxMetadataBytes caps the size of a table metadata file (Iceberg
// metadata JSON after gunzip, Paimon snapshot and schema files, Hudi
// timeline instants), in bytes: 64 MiB. It is the one cap every reader of
// such files applies. An Iceberg metadata file is decoded as a stream (see
// [DecodeMetadata]): a file of Spark-written snapshots peaks at about 3
// times its size in Go heap, the densest input found (schemas of one-line
// fields) at about 5 times.
const MaxMetadataBytes = 64 << 20

// ParseMetadata decodes an Iceberg table metadata JSON file of format
// version 1, 2 or 3. Keys it does not decode are kept in Extra. Errors match
// [schema.ErrInvalidSchema] and name the key concerned; an unsupported format version
// is an error too, and so is a current-snapshot-id (other than -1 or null)
// that names no snapshot of "snapshots", data over [MaxMetadataBytes],
// more than 2^19 snapshots, or more than 2^16 entries in one snapshot
// summary or in "properties".
func ParseMetadata(data []byte) (*Metadata, error) {
	if len(data) > MaxMetadataBytes {
		return nil, &schema.SchemaError{Codec: metadataCodec, Msg: fmt.Sprintf("%d bytes, over the %d-byte cap for table metadata", len(data), MaxMetadataBytes)}
	}
	return decodeMetadata(bytes.NewReader(data), MaxMetadataBytes)
}

// decodeKeys decodes the top-level keys in a fixed order: obj holds the raw
// values of the keys that were not streamed, errs the outcome of each
// streamed key present (see metadataStream).
func (m *Metadata) decodeKeys(obj map[string]json.RawMessage, errs map[string]error) (*Metadata, error) {
	bad := func(key string, err error) error {
		return &schema.SchemaError{Codec: metadataCodec, Msg: fmt.Sprintf("bad %q", key), Err: err}
	}
	get := func(key string) (json.RawMessage, bool) {
		raw, ok := obj[key]
		if ok {
			m.present[key] = true
			delete(obj, key)
		}
		return raw, ok
	}
	// streamed reports whether a streamed key was present and the first
	// error of its value.
	streamed := func(key string) error {
		err, ok := errs[key]
		if ok {
			m.present[key] = true
		}
		return err
	}
	intKey := func(key string, required bool, bits int) (int64, error) {
		raw, ok := get(key)
		if !ok {
			if required {
				return 0, &schema.SchemaError{Codec: metadataCodec, Msg: fmt.Sprintf("missing %q", key)}
			}
			return 0, nil
		}
		v, err := jsonutil.Int(raw, bits)
		if err != nil {
			return 0, bad(key, err)
		}
		return v, nil
	}
	strKey := func(key string) (string, error) {
		raw, ok := get(key)
		if !ok || jsonutil.IsNull(raw) {
			return "", nil
		}
		s, err := jsonutil.String(raw)
		if err != nil {
			return "", bad(key, err)
		}
		return s, nil
	}

	v, err := intKey("format-version", true, 32)
	if err != nil {
		return nil, err
	}
	if v < 1 || v > 3 {
		return nil, &schema.SchemaError{Codec: metadataCodec, Msg: fmt.Sprintf("unsupported format-version %d", v)}
	}
	m.FormatVersion = int(v)
	v2 := m.FormatVersion >= 2
	if m.TableUUID, err = strKey("table-uuid"); err != nil {
		return nil, err
	}
	if m.Location, err = strKey("location"); err != nil {
		return nil, err
	}
	if m.LastSequenceNumber, err = intKey("last-sequence-number", v2, 64); err != nil {
		return nil, err
	}
	if m.LastUpdatedMs, err = intKey("last-updated-ms", true, 64); err != nil {
		return nil, err
	}
	if v, err = intKey("last-column-id", true, 32); err != nil {
		return nil, err
	}
	m.LastColumnID = int(v)

	if err := streamed("schemas"); err != nil {
		return nil, err
	}
	if v, err = intKey("current-schema-id", v2, 32); err != nil {
		return nil, err
	}
	m.CurrentSchemaID = int(v)
	if raw, ok := get("schema"); ok {
		s, err := m.parseSchemaObj(raw)
		if err != nil {
			return nil, err
		}
		if len(m.Schemas) == 0 {
			m.Schemas = []*schema.Schema{s}
			if !m.present["current-schema-id"] {
				m.CurrentSchemaID = s.ID
			}
		}
	}
	if len(m.Schemas) == 0 {
		return nil, &schema.SchemaError{Codec: metadataCodec, Msg: `no "schemas" and no "schema"`}
	}
	if m.CurrentSchema() == nil {
		return nil, &schema.SchemaError{Codec: metadataCodec, Msg: fmt.Sprintf("current-schema-id %d names no schema", m.CurrentSchemaID)}
	}

	if raw, ok := get("partition-specs"); ok {
		a, err := jsonutil.Array(raw)
		if err != nil {
			return nil, bad("partition-specs", err)
		}
		for _, r := range a {
			ps, err := parsePartitionSpec(r)
			if err != nil {
				return nil, err
			}
			m.PartitionSpecs = append(m.PartitionSpecs, ps)
		}
	}
	if v, err = intKey("default-spec-id", v2, 32); err != nil {
		return nil, err
	}
	m.DefaultSpecID = int(v)
	if raw, ok := get("partition-spec"); ok && len(m.PartitionSpecs) == 0 {
		fs, err := parsePartitionFields(raw, true)
		if err != nil {
			return nil, err
		}
		m.PartitionSpecs = []PartitionSpec{{SpecID: m.DefaultSpecID, Fields: fs}}
	}
	if v, err = intKey("last-partition-id", v2, 32); err != nil {
		return nil, err
	}
	m.LastPartitionID = int(v)
	if !m.present["last-partition-id"] {
		m.LastPartitionID = 999
		for _, ps := range m.PartitionSpecs {
			for _, f := range ps.Fields {
				m.LastPartitionID = max(m.LastPartitionID, f.FieldID)
			}
		}
	}
	if raw, ok := get("properties"); ok {
		if m.Properties, err = decodeStrings(raw, maxStringMapEntries, nil); err != nil {
			return nil, bad("properties", err)
		}
	}
	if raw, ok := get("current-snapshot-id"); ok {
		if jsonutil.IsNull(raw) {
			m.noSnapshot = json.RawMessage("null")
		} else {
			id, err := m.snapshotID(raw)
			if err != nil {
				return nil, bad("current-snapshot-id", err)
			}
			if id == -1 {
				m.noSnapshot = json.RawMessage("-1")
			} else {
				m.CurrentSnapshotID = &id
			}
		}
	}
	for _, key := range []string{"snapshots", "snapshot-log", "metadata-log"} {
		if err := streamed(key); err != nil {
			return nil, err
		}
	}
	// A current snapshot id not in "snapshots" would read as an empty
	// table; Iceberg Java refuses such metadata too ("Cannot find current
	// snapshot"). -1 and null, no current snapshot, stay valid.
	if m.CurrentSnapshotID != nil && m.SnapshotByID(*m.CurrentSnapshotID) == nil {
		return nil, &schema.SchemaError{Codec: metadataCodec, Msg: fmt.Sprintf("current-snapshot-id %d names no snapshot", *m.CurrentSnapshotID)}
	}
	for k, raw := range obj {
		m.Extra[k] = raw
	}
	return m, nil
}

// parseSchemaObj decodes one schema of "schemas" or "schema" and records how
// the input spelled it.
func (m *Metadata) parseSchemaObj(raw json.RawMessage) (*schema.Schema, error) {
	s, err := schema.ParseIcebergSchema(raw)
	if err != nil {
		// Name the document the schema is part of, as for its other keys.
		if se, ok := err.(*schema.SchemaError); ok {
			c := *se
			c.Codec = metadataCodec
			return nil, &c
		}
		return nil, err
	}
	var info schemaJSONInfo
	if o, err := jsonutil.Object(raw); err == nil {
		_, hasID := o["schema-id"]
		info.noSchemaID = !hasID
		if ids, ok := o["identifier-field-ids"]; ok && !jsonutil.IsNull(ids) && len(s.IdentifierFieldIDs) == 0 {
			info.emptyIdentifierList = true
		}
	}
	if m.schemaInfo == nil {
		m.schemaInfo = map[*schema.Schema]schemaJSONInfo{}
	}
	m.schemaInfo[s] = info
	return s, nil
}

func parsePartitionSpec(raw json.RawMessage) (PartitionSpec, error) {
	o, err := jsonutil.Object(raw)
	if err != nil {
		return PartitionSpec{}, &schema.SchemaError{Codec: metadataCodec, Msg: "bad partition spec", Err: err}
	}
	ps := PartitionSpec{present: map[string]bool{}}
	id, err := jsonutil.Int(o["spec-id"], 32)
	if err != nil {
		return ps, &schema.SchemaError{Codec: metadataCodec, Msg: `bad partition spec "spec-id"`, Err: err}
	}
	ps.SpecID = int(id)
	if ps.Fields, err = parsePartitionFields(o["fields"], false); err != nil {
		return ps, err
	}
	for k := range o {
		ps.present[k] = true
	}
	delete(o, "spec-id")
	delete(o, "fields")
	ps.Extra = jsonutil.NilIfEmpty(o)
	return ps, nil
}

func parsePartitionFields(raw json.RawMessage, v1 bool) ([]PartitionField, error) {
	a, err := jsonutil.Array(raw)
	if err != nil {
		return nil, &schema.SchemaError{Codec: metadataCodec, Msg: "bad partition fields", Err: err}
	}
	out := make([]PartitionField, 0, len(a))
	for i, r := range a {
		o, err := jsonutil.Object(r)
		if err != nil {
			return nil, &schema.SchemaError{Codec: metadataCodec, Msg: "bad partition field", Err: err}
		}
		f := PartitionField{present: map[string]bool{}}
		for k := range o {
			f.present[k] = true
		}
		if f.Name, err = jsonutil.String(o["name"]); err != nil {
			return nil, &schema.SchemaError{Codec: metadataCodec, Msg: `bad partition field "name"`, Err: err}
		}
		if f.Transform, err = jsonutil.String(o["transform"]); err != nil {
			return nil, &schema.SchemaError{Codec: metadataCodec, Path: f.Name, Msg: `bad partition field "transform"`, Err: err}
		}
		if r, ok := o["source-id"]; ok {
			v, err := jsonutil.Int(r, 32)
			if err != nil {
				return nil, &schema.SchemaError{Codec: metadataCodec, Path: f.Name, Msg: `bad partition field "source-id"`, Err: err}
			}
			f.SourceID = int(v)
		} else if _, ok := o["source-ids"]; !ok {
			return nil, &schema.SchemaError{Codec: metadataCodec, Path: f.Name, Msg: `partition field without "source-id"`}
		}
		if r, ok := o["field-id"]; ok {
			v, err := jsonutil.Int(r, 32)
			if err != nil {
				return nil, &schema.SchemaError{Codec: metadataCodec, Path: f.Name, Msg: `bad partition field "field-id"`, Err: err}
			}
			f.FieldID = int(v)
		} else if v1 {
			f.FieldID = 1000 + i
		} else {
			return nil, &schema.SchemaError{Codec: metadataCodec, Path: f.Name, Msg: `partition field without "field-id"`}
		}
		for _, k := range []string{"name", "transform", "source-id", "field-id"} {
			delete(o, k)
		}
		f.Extra = jsonutil.NilIfEmpty(o)
		out = append(out, f)
	}
	return out, nil
}

func (m *Metadata) parseSnapshot(raw json.RawMessage) (Snapshot, error) {
	var s Snapshot
	var id, parent, seq, ts, list, manifests, schemaID, summary json.RawMessage
	err := eachMember(raw, func(k, v []byte) error {
		switch string(k) {
		case "snapshot-id":
			id = v
		case "parent-snapshot-id":
			parent = v
		case "sequence-number":
			seq = v
		case "timestamp-ms":
			ts = v
		case "manifest-list":
			list = v
		case "manifests":
			manifests = v
		case "schema-id":
			schemaID = v
		case "summary":
			summary = v
		default:
			if s.Extra == nil {
				s.Extra = map[string]json.RawMessage{}
			}
			s.Extra[string(k)] = append(json.RawMessage(nil), v...)
		}
		s.present |= snapshotKeyBits[string(k)]
		return nil
	})
	if err != nil {
		return Snapshot{}, &schema.SchemaError{Codec: metadataCodec, Msg: "bad snapshot", Err: err}
	}
	bad := func(key string, err error) error {
		return &schema.SchemaError{Codec: metadataCodec, Msg: fmt.Sprintf("bad snapshot %q", key), Err: err}
	}
	if s.SnapshotID, err = m.snapshotID(id); err != nil {
		return s, bad("snapshot-id", err)
	}
	if parent != nil && !jsonutil.IsNull(parent) {
		v, err := m.snapshotID(parent)
		if err != nil {
			return s, bad("parent-snapshot-id", err)
		}
		s.ParentSnapshotID = &v
	}
	if seq != nil {
		if s.SequenceNumber, err = jsonutil.Int(seq, 64); err != nil {
			return s, bad("sequence-number", err)
		}
	}
	if s.TimestampMs, err = jsonutil.Int(ts, 64); err != nil {
		return s, bad("timestamp-ms", err)
	}
	if list != nil && !jsonutil.IsNull(list) {
		if s.ManifestList, err = jsonutil.String(list); err != nil {
			return s, bad("manifest-list", err)
		}
	}
	if manifests != nil {
		if s.Manifests, err = jsonutil.StringList(manifests); err != nil {
			return s, bad("manifests", err)
		}
	}
	if schemaID != nil && !jsonutil.IsNull(schemaID) {
		v, err := jsonutil.Int(schemaID, 32)
		if err != nil {
			return s, bad("schema-id", err)
		}
		id := int(v)
		s.SchemaID = &id
	}
	if summary != nil {
		if s.Summary, err = m.decodeSummary(summary); err != nil {
			return s, bad("summary", err)
		}
	}
	return s, nil
}

// metadataKeyOrder is the order keys are written in (that of the Java
// implementation); keys not listed follow in sorted order.
var metadataKeyOrder = []string{
	"format-version", "table-uuid", "location", "last-sequence-number", "last-updated-ms",
	"last-column-id", "schema", "current-schema-id", "schemas", "partition-spec", "default-spec-id",
	"partition-specs", "last-partition-id", "default-sort-order-id", "sort-orders", "properties",
	"current-snapshot-id", "refs", "snapshots", "statistics", "partition-statistics",
	"snapshot-log", "metadata-log",
}

// MarshalMetadata encodes m as Iceberg table metadata JSON. Format v1
// metadata always gets the single "schema" (the current schema) that v1
// readers need, and "schemas" with "current-schema-id" when it has more
// than one schema (so an evolved v1 table keeps its schema history), is new
// or had them; new v1 metadata also gets "partition-spec" (the default
// spec's fields). Format v2 and v3 metadata never get "schema" or
// "partition-spec" unless the decoded input had them. Keys in
// Extra are written unchanged. The output of a decoded file is equal, as a
// JSON value, to the input (key order and white space aside). An invalid
// schema is an error matching [schema.ErrInvalidSchema].
func MarshalMetadata(m *Metadata) ([]byte, error) {
	if m.CurrentSchema() == nil {
		return nil, &schema.SchemaError{Codec: metadataCodec, Msg: fmt.Sprintf("current-schema-id %d names no schema", m.CurrentSchemaID)}
	}
	v1 := m.FormatVersion <= 1
	has := func(k string) bool { return m.present[k] }
	decoded := m.present != nil
	parts := map[string]func(w *jsonutil.Writer) error{}
	add := func(k string, fn func(w *jsonutil.Writer) error) { parts[k] = fn }

	add("format-version", func(w *jsonutil.Writer) error { w.WriteString(strconv.Itoa(m.FormatVersion)); return nil })
	if m.TableUUID != "" || has("table-uuid") {
		add("table-uuid", func(w *jsonutil.Writer) error { w.Quote(m.TableUUID); return nil })
	}
	if m.Location != "" || has("location") {
		add("location", func(w *jsonutil.Writer) error { w.Quote(m.Location); return nil })
	}
	if !v1 || has("last-sequence-number") {
		add("last-sequence-number", func(w *jsonutil.Writer) error { w.WriteString(strconv.FormatInt(m.LastSequenceNumber, 10)); return nil })
	}
	add("last-updated-ms", func(w *jsonutil.Writer) error { w.WriteString(strconv.FormatInt(m.LastUpdatedMs, 10)); return nil })
	add("last-column-id", func(w *jsonutil.Writer) error { w.WriteString(strconv.Itoa(m.LastColumnID)); return nil })
	// Format v1 (table spec, "Table Metadata Fields" and the v1 writer
	// rules): "schema", the current schema, is required; "schemas" and
	// "current-schema-id" are optional, so they are written when there is
	// a history to keep (more than one schema), for new metadata, and when
	// the decoded file had them.
	v1History := v1 && (!decoded || len(m.Schemas) > 1)
	if v1 || has("schema") {
		add("schema", func(w *jsonutil.Writer) error { return m.writeSchema(w, m.CurrentSchema()) })
	}
	if !v1 || v1History || has("current-schema-id") {
		add("current-schema-id", func(w *jsonutil.Writer) error { w.WriteString(strconv.Itoa(m.CurrentSchemaID)); return nil })
	}
	if !v1 || v1History || has("schemas") {
		add("schemas", func(w *jsonutil.Writer) error {
			w.Open('[')
			for _, s := range m.Schemas {
				w.Elem()
				if err := m.writeSchema(w, s); err != nil {
					return err
				}
			}
			w.Close(']')
			return nil
		})
	}
	if (v1 && !decoded) || has("partition-spec") {
		add("partition-spec", func(w *jsonutil.Writer) error {
			var fs []PartitionField
			for _, ps := range m.PartitionSpecs {
				if ps.SpecID == m.DefaultSpecID {
					fs = ps.Fields
				}
			}
			writePartitionFields(w, fs)
			return nil
		})
	}
	if !v1 || !decoded || has("default-spec-id") {
		add("default-spec-id", func(w *jsonutil.Writer) error { w.WriteString(strconv.Itoa(m.DefaultSpecID)); return nil })
	}
	if !v1 || !decoded || has("partition-specs") {
		add("partition-specs", func(w *jsonutil.Writer) error {
			w.Open('[')
			for _, ps := range m.PartitionSpecs {
				w.Elem()
				w.Open('{')
				w.Int("spec-id", int64(ps.SpecID))
				w.Key("fields")
				writePartitionFields(w, ps.Fields)
				w.RawMembers(ps.Extra)
				w.Close('}')
			}
			w.Close(']')
			return nil
		})
	}
	if !v1 || !decoded || has("last-partition-id") {
		add("last-partition-id", func(w *jsonutil.Writer) error { w.WriteString(strconv.Itoa(m.LastPartitionID)); return nil })
	}
	if m.Properties != nil || has("properties") {
		add("properties", func(w *jsonutil.Writer) error {
			w.StrMapValue(m.Properties)
			return nil
		})
	}
	if m.CurrentSnapshotID != nil || m.noSnapshot != nil {
		add("current-snapshot-id", func(w *jsonutil.Writer) error {
			if m.CurrentSnapshotID != nil {
				w.WriteString(m.formatSnapshotID(*m.CurrentSnapshotID))
			} else {
				w.Write(m.noSnapshot)
			}
			return nil
		})
	} else if !decoded && v1 {
		add("current-snapshot-id", func(w *jsonutil.Writer) error { w.WriteString("-1"); return nil })
	}
	if m.Snapshots != nil || has("snapshots") {
		add("snapshots", func(w *jsonutil.Writer) error {
			w.Open('[')
			for i := range m.Snapshots {
				w.Elem()
				m.writeSnapshot(w, &m.Snapshots[i])
			}
			w.Close(']')
			return nil
		})
	}
	if m.SnapshotLog != nil || has("snapshot-log") {
		add("snapshot-log", func(w *jsonutil.Writer) error {
			w.Open('[')
			for _, e := range m.SnapshotLog {
				w.Elem()
				w.Open('{')
				w.Int("timestamp-ms", e.TimestampMs)
				w.Key("snapshot-id")
				w.WriteString(m.formatSnapshotID(e.SnapshotID))
				w.Close('}')
			}
			w.Close(']')
			return nil
		})
	}
	if m.MetadataLog != nil || has("metadata-log") {
		add("metadata-log", func(w *jsonutil.Writer) error {
			w.Open('[')
			for _, e := range m.MetadataLog {
				w.Elem()
				w.Open('{')
				w.Int("timestamp-ms", e.TimestampMs)
				w.Str("metadata-file", e.MetadataFile)
				w.Close('}')
			}
			w.Close(']')
			return nil
		})
	}
	for k, raw := range m.Extra {
		if _, known := parts[k]; known {
			continue
		}
		raw := raw
		add(k, func(w *jsonutil.Writer) error { w.Write(jsonutil.Compact(raw)); return nil })
	}

	var w jsonutil.Writer
	w.Open('{')
	done := map[string]bool{}
	emit := func(k string) error {
		fn, ok := parts[k]
		if !ok || done[k] {
			return nil
		}
		done[k] = true
		w.Key(k)
		return fn(&w)
	}
	for _, k := range metadataKeyOrder {
		if err := emit(k); err != nil {
			return nil, err
		}
	}
	rest := make([]string, 0, len(parts))
	for k := range parts {
		if !done[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		if err := emit(k); err != nil {
			return nil, err
		}
	}
	w.Close('}')
	return w.Bytes(), nil
}

func (m *Metadata) writeSchema(w *jsonutil.Writer, s *schema.Schema) error {
	info := m.schemaInfo[s]
	w.Open('{')
	w.Str("type", "struct")
	if !info.noSchemaID {
		w.Int("schema-id", int64(s.ID))
	}
	if len(s.IdentifierFieldIDs) > 0 || info.emptyIdentifierList {
		w.Key("identifier-field-ids")
		w.Open('[')
		for _, id := range s.IdentifierFieldIDs {
			w.Elem()
			w.WriteString(strconv.Itoa(id))
		}
		w.Close(']')
	}
	fields, err := schemaFields(s)
	if err != nil {
		return err
	}
	w.Key("fields")
	w.Write(fields)
	w.Close('}')
	return nil
}

// fieldsKey is what precedes the "fields" array in the output of
// schema.MarshalIcebergSchema.
var fieldsKey = []byte(`,"fields":`)

// schemaFields returns the "fields" array of s as
// schema.MarshalIcebergSchema writes it. That function writes "fields" last,
// after "type", "schema-id" and the integers of "identifier-field-ids", so
// the first fieldsKey in its output starts the array.
func schemaFields(s *schema.Schema) ([]byte, error) {
	b, err := schema.MarshalIcebergSchema(s)
	if err != nil {
		return nil, err
	}
	i := bytes.Index(b, fieldsKey)
	if i < 0 || b[len(b)-1] != '}' {
		return nil, &schema.SchemaError{Codec: metadataCodec, Msg: "schema without fields"}
	}
	return b[i+len(fieldsKey) : len(b)-1], nil
}

func writePartitionFields(w *jsonutil.Writer, fs []PartitionField) {
	w.Open('[')
	for _, f := range fs {
		w.Elem()
		w.Open('{')
		w.Str("name", f.Name)
		w.Str("transform", f.Transform)
		if f.present == nil || f.present["source-id"] {
			w.Int("source-id", int64(f.SourceID))
		}
		if f.present == nil || f.present["field-id"] {
			w.Int("field-id", int64(f.FieldID))
		}
		w.RawMembers(f.Extra)
		w.Close('}')
	}
	w.Close(']')
}

func (m *Metadata) writeSnapshot(w *jsonutil.Writer, s *Snapshot) {
	has := func(k string) bool { return s.present&snapshotKeyBits[k] != 0 }
	w.Open('{')
	w.Key("snapshot-id")
	w.WriteString(m.formatSnapshotID(s.SnapshotID))
	if s.ParentSnapshotID != nil {
		w.Key("parent-snapshot-id")
		w.WriteString(m.formatSnapshotID(*s.ParentSnapshotID))
	} else if has("parent-snapshot-id") {
		w.Key("parent-snapshot-id")
		w.WriteString("null")
	}
	if s.SequenceNumber != 0 || has("sequence-number") {
		w.Int("sequence-number", s.SequenceNumber)
	}
	w.Int("timestamp-ms", s.TimestampMs)
	if s.ManifestList != "" || has("manifest-list") {
		w.Str("manifest-list", s.ManifestList)
	}
	if s.Manifests != nil || has("manifests") {
		w.StrList("manifests", s.Manifests)
	}
	if s.Summary != nil || has("summary") {
		w.StrMap("summary", s.Summary)
	}
	if s.SchemaID != nil {
		w.Int("schema-id", int64(*s.SchemaID))
	}
	w.RawMembers(s.Extra)
	w.Close('}')
}
