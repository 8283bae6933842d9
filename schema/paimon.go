package schema

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/lakecat/lakecat/internal/jsonutil"
)

// This file implements Paimon schema files, schema/schema-N (Paimon docs,
// "Specification: Schema"): a JSON object with "version", "id", "fields"
// (DataFields), "highestFieldId", "partitionKeys", "primaryKeys", "options",
// an optional "comment" and "timeMillis". N is the schema id, starting at 0;
// "version" is the format version of the file (currently 3).

const paimonCodec = "paimon schema"

// PaimonCurrentVersion is the schema file format version new schemas get.
const PaimonCurrentVersion = 3

// Option keys the compatibility rules touch.
const (
	PaimonOptionBucket     = "bucket"
	PaimonOptionFileFormat = "file.format"
)

// PaimonSchema is one Paimon schema file.
type PaimonSchema struct {
	// Version is the schema file format version (1 when the file has none).
	Version int
	// ID is the schema id (N of schema-N).
	ID int
	// Fields are the table's columns. Nested ROW fields carry their ids;
	// list elements and map keys and values have NoID.
	Fields         []*Field
	HighestFieldID int
	PartitionKeys  []string
	PrimaryKeys    []string
	// Options are the table options, after the compatibility rules (see
	// ParsePaimonSchema).
	Options    map[string]string
	Comment    string
	TimeMillis int64 // milliseconds since the epoch; 0 when the file has none

	raw        map[*Field]*paimonFieldRaw
	present    map[string]bool
	extra      map[string]json.RawMessage
	hasComment bool
}

// NewPaimonSchema returns a schema of the current format version
// ([PaimonCurrentVersion]) whose highestFieldId is the largest field id in
// fields (nested ROW fields included) and whose options default
// "file.format" to "parquet" unless options set it. options is copied.
func NewPaimonSchema(id int, fields []*Field, partitionKeys, primaryKeys []string, options map[string]string) *PaimonSchema {
	opts := make(map[string]string, len(options)+1)
	for k, v := range options {
		opts[k] = v
	}
	if _, ok := opts[PaimonOptionFileFormat]; !ok {
		opts[PaimonOptionFileFormat] = "parquet"
	}
	return &PaimonSchema{
		Version:        PaimonCurrentVersion,
		ID:             id,
		Fields:         fields,
		HighestFieldID: New(id, fields...).HighestFieldID(),
		PartitionKeys:  append([]string{}, partitionKeys...),
		PrimaryKeys:    append([]string{}, primaryKeys...),
		Options:        opts,
	}
}

// Schema returns the table schema with schema id ID. It shares the fields of
// p.
func (p *PaimonSchema) Schema() *Schema { return New(p.ID, p.Fields...) }

// DefaultValue returns the "defaultValue" of the top-level field with the
// given field id as Paimon wrote it (a JSON value, usually a string holding
// a SQL literal), or nil.
func (p *PaimonSchema) DefaultValue(fieldID int) json.RawMessage {
	for _, f := range p.Fields {
		if f.ID == fieldID {
			if r := p.raw[f]; r != nil {
				return r.defaultValue
			}
		}
	}
	return nil
}

// ParsePaimonSchema decodes a schema-N file and applies Paimon's rules for
// older files: no "version" means format version 1; a version 1 file without
// the "bucket" option gets bucket = 1; a version 1 or 2 file without
// "file.format" gets file.format = orc; no "timeMillis" means 0. An option the
// file stores is never replaced. Errors match [ErrInvalidSchema] and name the
// field (also for a field id used twice or a name used twice in one row
// type); an unknown type also matches [ErrUnknownType].
func ParsePaimonSchema(data []byte) (*PaimonSchema, error) {
	o, err := jsonutil.Object(data)
	if err != nil {
		return nil, &SchemaError{Codec: paimonCodec, Msg: "not a JSON object", Err: err}
	}
	p := &PaimonSchema{raw: map[*Field]*paimonFieldRaw{}, present: map[string]bool{}}
	for k := range o {
		p.present[k] = true
	}
	bad := func(key string, err error) error {
		return &SchemaError{Codec: paimonCodec, Msg: fmt.Sprintf("bad %q", key), Err: err}
	}
	p.Version = 1
	if r, ok := o["version"]; ok {
		v, err := jsonutil.Int(r, 32)
		if err != nil {
			return nil, bad("version", err)
		}
		p.Version = int(v)
	}
	id, err := jsonutil.Int(o["id"], 32)
	if err != nil || id < 0 {
		return nil, bad("id", jsonutil.ErrNotInteger)
	}
	p.ID = int(id)
	a, err := jsonutil.Array(o["fields"])
	if err != nil || a == nil {
		return nil, bad("fields", err)
	}
	d := paimonDecoder{}
	for _, r := range a {
		fo, _ := jsonutil.Object(r)
		f, def, err := d.dataField(r, "")
		if err != nil {
			if se, ok := err.(*SchemaError); ok {
				se.Codec = paimonCodec
			}
			return nil, err
		}
		_, hasDesc := fo["description"]
		p.raw[f] = &paimonFieldRaw{typ: fo["type"], parsed: CloneType(f.Type), required: f.Required, hasDescription: hasDesc, defaultValue: def}
		p.Fields = append(p.Fields, f)
	}
	if err := checkUnique(paimonCodec, p.Fields); err != nil {
		return nil, err
	}
	if r, ok := o["highestFieldId"]; ok {
		v, err := jsonutil.Int(r, 32)
		if err != nil {
			return nil, bad("highestFieldId", err)
		}
		p.HighestFieldID = int(v)
	} else {
		p.HighestFieldID = p.Schema().HighestFieldID()
	}
	if p.PartitionKeys, err = jsonutil.StringList(o["partitionKeys"]); err != nil {
		return nil, bad("partitionKeys", err)
	}
	if p.PrimaryKeys, err = jsonutil.StringList(o["primaryKeys"]); err != nil {
		return nil, bad("primaryKeys", err)
	}
	if p.Options, err = jsonutil.StringMap(o["options"]); err != nil {
		return nil, bad("options", err)
	}
	if p.Options == nil {
		p.Options = map[string]string{}
	}
	if r, ok := o["comment"]; ok && !jsonutil.IsNull(r) {
		if p.Comment, err = jsonutil.String(r); err != nil {
			return nil, bad("comment", err)
		}
		p.hasComment = true
	}
	if r, ok := o["timeMillis"]; ok {
		if p.TimeMillis, err = jsonutil.Int(r, 64); err != nil {
			return nil, bad("timeMillis", err)
		}
	}
	// Compatibility with older format versions.
	if _, ok := p.Options[PaimonOptionBucket]; !ok && p.Version <= 1 {
		p.Options[PaimonOptionBucket] = "1"
	}
	if _, ok := p.Options[PaimonOptionFileFormat]; !ok && p.Version <= 2 {
		p.Options[PaimonOptionFileFormat] = "orc"
	}
	for _, k := range []string{"version", "id", "fields", "highestFieldId", "partitionKeys", "primaryKeys", "options", "comment", "timeMillis"} {
		delete(o, k)
	}
	p.extra = jsonutil.NilIfEmpty(o)
	return p, nil
}

// MarshalPaimonSchema encodes p as a schema-N file, keys in Paimon's order:
// "version", "id", "fields", "highestFieldId", "partitionKeys",
// "primaryKeys", "options" (sorted: their order has no meaning), "comment"
// (when set or decoded), "timeMillis". A field keeps the type spelling it was
// decoded with as long as its type and requiredness are unchanged; other
// types are written in Paimon's canonical form (atomic types as strings,
// ARRAY/MAP/ROW as objects). Errors match [ErrInvalidSchema].
func MarshalPaimonSchema(p *PaimonSchema) ([]byte, error) {
	var w jsonutil.Writer
	w.Open('{')
	w.Int("version", int64(p.Version))
	w.Int("id", int64(p.ID))
	w.Key("fields")
	w.Open('[')
	for _, f := range p.Fields {
		if f == nil {
			return nil, &SchemaError{Codec: paimonCodec, Msg: "nil field"}
		}
		w.Elem()
		if err := writePaimonField(&w, f, p.raw[f], ""); err != nil {
			if se, ok := err.(*SchemaError); ok {
				se.Codec = paimonCodec
			}
			return nil, err
		}
	}
	w.Close(']')
	w.Int("highestFieldId", int64(p.HighestFieldID))
	w.StrList("partitionKeys", p.PartitionKeys)
	w.StrList("primaryKeys", p.PrimaryKeys)
	w.StrMap("options", p.Options)
	if p.Comment != "" || p.hasComment {
		w.Str("comment", p.Comment)
	}
	w.Int("timeMillis", p.TimeMillis)
	w.RawMembers(p.extra)
	w.Close('}')
	return w.Bytes(), nil
}

// PaimonSchemaFileName returns "schema-N" for schema id N.
func PaimonSchemaFileName(id int) string { return "schema-" + strconv.Itoa(id) }
