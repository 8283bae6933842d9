package hudi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
)

// Hudi's schema-on-read evolution (hoodie.schema.on.read.enable) keeps the
// history of the table's internal schemas, with field ids, in
// .hoodie/.schema/<instant>.schemacommit: a JSON object {"schemas": [...]}
// holding every version, each
//
//	{"max_column_id": N, "version-id": <instant time as a number>,
//	 "type": "record", "fields": [{"id", "name", "optional", "type", "doc"}]}
//
// with nested types {"type": "record", "fields": [...]},
// {"type": "array", "element-id", "element", "element_optional"} and
// {"type": "map", "key-id", "key", "value-id", "value", "value_optional"},
// and primitives spelled "boolean", "int", "long", "float", "double",
// "date", "time", "timestamp", "string", "uuid", "binary", "fixed[L]",
// "decimal(P, S)". The schema a file written at instant T was written with
// is the version with the largest version-id ≤ T.

// SchemaHistory is a table's schema history: its versions (instant times as
// numbers) and their schemas, with Hudi's field ids.
type SchemaHistory struct {
	// Versions are the version ids in ascending order.
	Versions []int64
	// Schemas maps a version id to its schema.
	Schemas map[int64]*schema.Schema
}

// At returns the schema of the latest version ≤ instant (an instant time
// "yyyyMMddHHmmssSSS"), or nil when there is none. At on a nil history
// returns nil.
func (h *SchemaHistory) At(instant string) *schema.Schema {
	v, err := strconv.ParseInt(instant, 10, 64)
	if err != nil || h == nil {
		return nil
	}
	i := sort.Search(len(h.Versions), func(i int) bool { return h.Versions[i] > v })
	if i == 0 {
		return nil
	}
	return h.Schemas[h.Versions[i-1]]
}

// readSchemaHistory reads the newest .schemacommit file whose instant is
// completed; it returns nil when there is none.
func readSchemaHistory(ctx context.Context, fsys storage.FS, root string, completed func(string) bool) (*SchemaHistory, error) {
	dir := storage.JoinPath(root, ".hoodie/.schema")
	names, err := fsys.List(ctx, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	best := ""
	for _, n := range names {
		ts, ok := strings.CutSuffix(n, ".schemacommit")
		if ok && isInstantTime(ts) && completed(ts) && ts > best {
			best = ts
		}
	}
	if best == "" {
		return nil, nil
	}
	p := storage.JoinPath(dir, best+".schemacommit")
	b, err := readFile(ctx, fsys, p)
	if err != nil {
		return nil, err
	}
	h, err := ParseSchemaHistory(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return h, nil
}

// ParseSchemaHistory decodes a .hoodie/.schema/<instant>.schemacommit file
// (see the format above).
// Errors match [ErrUnsupportedSchema].
func ParseSchemaHistory(data []byte) (*SchemaHistory, error) {
	var doc struct {
		Schemas []json.RawMessage `json:"schemas"`
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%w: schema history: %v", ErrUnsupportedSchema, err)
	}
	h := &SchemaHistory{Schemas: map[int64]*schema.Schema{}}
	for i, raw := range doc.Schemas {
		var top struct {
			Version json.Number `json:"version-id"`
		}
		if err := json.Unmarshal(raw, &top); err != nil {
			return nil, fmt.Errorf("%w: schema history entry %d: %v", ErrUnsupportedSchema, i, err)
		}
		v, err := top.Version.Int64()
		if err != nil {
			return nil, fmt.Errorf("%w: schema history entry %d: version-id %q", ErrUnsupportedSchema, i, top.Version)
		}
		t, err := internalType(raw, 0)
		if err != nil {
			return nil, fmt.Errorf("schema history version %d: %w", v, err)
		}
		st, ok := t.(*schema.StructType)
		if !ok {
			return nil, fmt.Errorf("%w: schema history version %d is not a record", ErrUnsupportedSchema, v)
		}
		if _, dup := h.Schemas[v]; !dup {
			h.Versions = append(h.Versions, v)
		}
		h.Schemas[v] = schema.New(0, st.Fields...)
	}
	sort.Slice(h.Versions, func(i, j int) bool { return h.Versions[i] < h.Versions[j] })
	return h, nil
}

var (
	fixedRe   = regexp.MustCompile(`^fixed\[(\d+)\]$`)
	decimalRe = regexp.MustCompile(`^decimal(?:_bytes|_fixed)?\((\d+),\s*(\d+)\)$`)
)

// maxHistoryDepth caps the nesting of a history schema.
const maxHistoryDepth = 64

func internalType(raw json.RawMessage, depth int) (schema.Type, error) {
	if depth > maxHistoryDepth {
		return nil, fmt.Errorf("%w: schema nested deeper than %d", ErrUnsupportedSchema, maxHistoryDepth)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		s = strings.ToLower(s)
		if m := fixedRe.FindStringSubmatch(s); m != nil {
			n, err := strconv.Atoi(m[1])
			if err != nil || n <= 0 {
				return nil, fmt.Errorf("%w: type %q", ErrUnsupportedSchema, s)
			}
			return schema.Fixed(n), nil
		}
		if m := decimalRe.FindStringSubmatch(s); m != nil {
			p, err1 := strconv.Atoi(m[1])
			sc, err2 := strconv.Atoi(m[2])
			if err1 != nil || err2 != nil || p < 1 || p > 38 || sc > p {
				return nil, fmt.Errorf("%w: type %q", ErrUnsupportedSchema, s)
			}
			return schema.Decimal(p, sc), nil
		}
		switch s {
		case "boolean":
			return schema.Boolean, nil
		case "int":
			return schema.Int, nil
		case "long":
			return schema.Long, nil
		case "float":
			return schema.Float, nil
		case "double":
			return schema.Double, nil
		case "date":
			return schema.Date, nil
		case "time":
			return schema.Time, nil
		case "timestamp":
			return schema.TimestampTz, nil
		case "string":
			return schema.String, nil
		case "uuid":
			return schema.UUID, nil
		case "binary":
			return schema.Binary, nil
		}
		return nil, fmt.Errorf("%w: type %q", ErrUnsupportedSchema, s)
	}
	var o struct {
		Type   string `json:"type"`
		Fields []struct {
			ID       *int            `json:"id"`
			Name     string          `json:"name"`
			Optional bool            `json:"optional"`
			Type     json.RawMessage `json:"type"`
			Doc      string          `json:"doc"`
		} `json:"fields"`
		ElementID       *int            `json:"element-id"`
		Element         json.RawMessage `json:"element"`
		ElementOptional bool            `json:"element_optional"`
		KeyID           *int            `json:"key-id"`
		Key             json.RawMessage `json:"key"`
		ValueID         *int            `json:"value-id"`
		Value           json.RawMessage `json:"value"`
		ValueOptional   bool            `json:"value_optional"`
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnsupportedSchema, err)
	}
	switch o.Type {
	case "record":
		st := &schema.StructType{}
		for _, f := range o.Fields {
			if f.ID == nil || *f.ID < 0 || f.Name == "" {
				return nil, fmt.Errorf("%w: record field %q without an id", ErrUnsupportedSchema, f.Name)
			}
			t, err := internalType(f.Type, depth+1)
			if err != nil {
				return nil, err
			}
			st.Fields = append(st.Fields, &schema.Field{ID: *f.ID, Name: f.Name, Type: t, Required: !f.Optional, Doc: f.Doc})
		}
		return st, nil
	case "array":
		if o.ElementID == nil {
			return nil, fmt.Errorf("%w: array without element-id", ErrUnsupportedSchema)
		}
		et, err := internalType(o.Element, depth+1)
		if err != nil {
			return nil, err
		}
		return schema.NewList(*o.ElementID, et, !o.ElementOptional), nil
	case "map":
		if o.KeyID == nil || o.ValueID == nil {
			return nil, fmt.Errorf("%w: map without key-id or value-id", ErrUnsupportedSchema)
		}
		kt, err := internalType(o.Key, depth+1)
		if err != nil {
			return nil, err
		}
		vt, err := internalType(o.Value, depth+1)
		if err != nil {
			return nil, err
		}
		return schema.NewMap(*o.KeyID, kt, *o.ValueID, vt, !o.ValueOptional), nil
	}
	return nil, fmt.Errorf("%w: type %q", ErrUnsupportedSchema, o.Type)
}
