package avro

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Schema is one node of a parsed Avro schema (Avro specification 1.11,
// "Schema Declaration"). Type is the Avro type name: a primitive ("null",
// "boolean", "int", "long", "float", "double", "bytes", "string") or
// "record" (an "error" is parsed as a record), "enum", "array", "map",
// "union" or "fixed". A reference to a named type by its name is resolved
// to that type's *Schema, so a recursive type makes the tree a graph.
type Schema struct {
	Type string
	// Name is the full name (namespace.name) of a record, enum or fixed;
	// Aliases are its aliases, also full names.
	Name    string
	Aliases []string
	Doc     string
	// Logical is the logicalType attribute when it is valid for the
	// type ("decimal" on bytes or fixed with a precision the size holds,
	// "uuid", "date", "time-millis", "timestamp-micros", ...), or "" (the
	// specification says to ignore an invalid logical type). Precision and
	// Scale are those of a decimal.
	Logical          string
	Precision, Scale int
	Size             int            // fixed: bytes
	Symbols          []string       // enum
	Fields           []*Field       // record
	Items            *Schema        // array
	Values           *Schema        // map
	Branches         []*Schema      // union
	Props            map[string]any // every other attribute (field ids, adjust-to-utc, a raw logicalType): JSON values, numbers as json.Number
}

// Field is one field of a record schema.
type Field struct {
	Name    string
	Aliases []string
	Doc     string
	Type    *Schema
	Default json.RawMessage // nil when the field has no default
	Props   map[string]any  // every other attribute ("field-id", ...)
}

// Prop returns the attribute key of s that ParseSchema did not interpret,
// or nil.
func (s *Schema) Prop(key string) any { return s.Props[key] }

// Prop returns the attribute key of f that ParseSchema did not interpret,
// or nil.
func (f *Field) Prop(key string) any { return f.Props[key] }

// String returns the type's name: its full name for a named type, else its
// Type, with the branches of a union in brackets.
func (s *Schema) String() string {
	switch s.Type {
	case "record", "enum", "fixed":
		return s.Name
	case "array":
		return "array<" + s.Items.String() + ">"
	case "map":
		return "map<" + s.Values.String() + ">"
	case "union":
		names := make([]string, len(s.Branches))
		for i, b := range s.Branches {
			names[i] = b.String()
		}
		return "[" + strings.Join(names, ", ") + "]"
	}
	return s.Type
}

var primitives = map[string]bool{
	"null": true, "boolean": true, "int": true, "long": true,
	"float": true, "double": true, "bytes": true, "string": true,
}

// ParseSchema parses the JSON of an Avro schema (Avro specification 1.11,
// "Schema Declaration"): primitives, records (and errors), enums, arrays,
// maps, unions and fixed, named types with namespaces and references to
// them, aliases, and the logical types. It returns an error for malformed
// JSON, an unknown type or reference, a name declared twice, a union
// holding a union or the same type twice, a fixed without a non-negative
// size, and JSON nested deeper than the decoder allows.
func ParseSchema(js string) (*Schema, error) {
	d := json.NewDecoder(strings.NewReader(js))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, fmt.Errorf("avro schema: %v", err)
	}
	if _, err := d.Token(); err == nil {
		return nil, fmt.Errorf("avro schema: data after the schema")
	}
	p := &schemaParser{named: map[string]*Schema{}}
	return p.parse(v, "", 0)
}

type schemaParser struct {
	named map[string]*Schema
}

// maxSchemaNesting bounds the recursion of the parser over the JSON tree.
const maxSchemaNesting = 1000

func (p *schemaParser) parse(v any, ns string, depth int) (*Schema, error) {
	if depth > maxSchemaNesting {
		return nil, fmt.Errorf("avro schema: nested deeper than %d levels", maxSchemaNesting)
	}
	switch t := v.(type) {
	case string:
		return p.ref(t, ns)
	case []any:
		return p.union(t, ns, depth)
	case map[string]any:
		return p.object(t, ns, depth)
	}
	return nil, fmt.Errorf("avro schema: a type is a string, array or object, not %s", jsonKind(v))
}

func (p *schemaParser) ref(name, ns string) (*Schema, error) {
	if primitives[name] {
		return &Schema{Type: name}, nil
	}
	if !strings.Contains(name, ".") && ns != "" {
		if s, ok := p.named[ns+"."+name]; ok {
			return s, nil
		}
	}
	if s, ok := p.named[name]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("avro schema: unknown type %q", name)
}

func (p *schemaParser) union(bs []any, ns string, depth int) (*Schema, error) {
	u := &Schema{Type: "union"}
	seen := map[string]bool{}
	for _, b := range bs {
		s, err := p.parse(b, ns, depth+1)
		if err != nil {
			return nil, err
		}
		if s.Type == "union" {
			return nil, fmt.Errorf("avro schema: a union holds a union")
		}
		key := s.Type
		if s.Name != "" {
			key = s.Name
		}
		if seen[key] {
			return nil, fmt.Errorf("avro schema: union holds %s twice", key)
		}
		seen[key] = true
		u.Branches = append(u.Branches, s)
	}
	return u, nil
}

func (p *schemaParser) object(o map[string]any, ns string, depth int) (*Schema, error) {
	tv, ok := o["type"]
	if !ok {
		return nil, fmt.Errorf("avro schema: object without a type")
	}
	typ, ok := tv.(string)
	if !ok {
		// {"type": {...}} or {"type": [...]}: the attributes wrap a type.
		return p.parse(tv, ns, depth+1)
	}
	s := &Schema{Type: typ, Props: map[string]any{}}
	switch typ {
	case "record", "error", "enum", "fixed":
		if err := p.declare(s, o, &ns); err != nil {
			return nil, err
		}
	default:
		if !primitives[typ] && typ != "array" && typ != "map" {
			if len(o) == 1 { // {"type": "Name"} refers to a named type
				return p.ref(typ, ns)
			}
			return nil, fmt.Errorf("avro schema: unknown type %q", typ)
		}
	}
	s.Doc, _ = o["doc"].(string)
	var err error
	switch typ {
	case "record", "error":
		s.Type = "record"
		err = p.fields(s, o, ns, depth)
	case "enum":
		syms, ok := o["symbols"].([]any)
		if !ok {
			return nil, fmt.Errorf("avro schema: enum %s without symbols", s.Name)
		}
		seen := map[string]bool{}
		for _, y := range syms {
			sym, ok := y.(string)
			if !ok || seen[sym] || !validName(sym) {
				return nil, fmt.Errorf("avro schema: enum %s: symbol %v", s.Name, y)
			}
			seen[sym] = true
			s.Symbols = append(s.Symbols, sym)
		}
	case "fixed":
		n, ok := o["size"].(json.Number)
		size, perr := n.Int64()
		if !ok || perr != nil || size < 0 || size > maxHeaderBytes {
			return nil, fmt.Errorf("avro schema: fixed %s: size %v", s.Name, o["size"])
		}
		s.Size = int(size)
	case "array":
		s.Items, err = p.child(o, "items", ns, depth)
	case "map":
		s.Values, err = p.child(o, "values", ns, depth)
	}
	if err != nil {
		return nil, err
	}
	for k, v := range o {
		switch k {
		case "type", "name", "namespace", "aliases", "doc", "fields", "symbols", "size", "items", "values", "default":
			if typ != "enum" || k != "default" {
				continue
			}
		}
		s.Props[k] = v
	}
	p.logical(s)
	return s, nil
}

func (p *schemaParser) child(o map[string]any, key, ns string, depth int) (*Schema, error) {
	v, ok := o[key]
	if !ok {
		return nil, fmt.Errorf("avro schema: %s without %s", o["type"], key)
	}
	return p.parse(v, ns, depth+1)
}

// declare sets the full name and aliases of a named type, registers it,
// and makes its namespace the enclosing one of what it contains.
func (p *schemaParser) declare(s *Schema, o map[string]any, ns *string) error {
	name, ok := o["name"].(string)
	if !ok {
		return fmt.Errorf("avro schema: %s without a name", s.Type)
	}
	space := *ns
	if v, ok := o["namespace"].(string); ok {
		space = v
	}
	full, err := fullName(name, space)
	if err != nil {
		return err
	}
	if _, dup := p.named[full]; dup || primitives[full] {
		return fmt.Errorf("avro schema: type %q declared twice", full)
	}
	s.Name = full
	p.named[full] = s
	if i := strings.LastIndexByte(full, '.'); i >= 0 {
		*ns = full[:i]
	} else {
		*ns = ""
	}
	if as, ok := o["aliases"].([]any); ok {
		for _, a := range as {
			an, ok := a.(string)
			if !ok {
				return fmt.Errorf("avro schema: %s: alias %v", full, a)
			}
			af, err := fullName(an, *ns)
			if err != nil {
				return err
			}
			s.Aliases = append(s.Aliases, af)
		}
	}
	return nil
}

func (p *schemaParser) fields(s *Schema, o map[string]any, ns string, depth int) error {
	fs, ok := o["fields"].([]any)
	if !ok {
		return fmt.Errorf("avro schema: record %s without fields", s.Name)
	}
	seen := map[string]bool{}
	for _, fv := range fs {
		fo, ok := fv.(map[string]any)
		if !ok {
			return fmt.Errorf("avro schema: record %s: a field is %s, not an object", s.Name, jsonKind(fv))
		}
		name, ok := fo["name"].(string)
		if !ok || !validName(name) || seen[name] {
			return fmt.Errorf("avro schema: record %s: field name %v", s.Name, fo["name"])
		}
		seen[name] = true
		tv, ok := fo["type"]
		if !ok {
			return fmt.Errorf("avro schema: record %s: field %s without a type", s.Name, name)
		}
		t, err := p.parse(tv, ns, depth+1)
		if err != nil {
			return err
		}
		f := &Field{Name: name, Type: t, Props: map[string]any{}}
		f.Doc, _ = fo["doc"].(string)
		for k, v := range fo {
			switch k {
			case "name", "type", "doc":
			case "aliases":
				as, _ := v.([]any)
				for _, a := range as {
					if an, ok := a.(string); ok {
						f.Aliases = append(f.Aliases, an)
					}
				}
			case "default":
				b, err := json.Marshal(v)
				if err != nil {
					return fmt.Errorf("avro schema: record %s: field %s: default: %v", s.Name, name, err)
				}
				f.Default = b
			default:
				f.Props[k] = v
			}
		}
		s.Fields = append(s.Fields, f)
	}
	return nil
}

// logical sets s.Logical from a logicalType attribute valid for s's type
// (Avro specification, "Logical Types"); an invalid one stays in Props only.
func (p *schemaParser) logical(s *Schema) {
	lt, ok := s.Props["logicalType"].(string)
	if !ok {
		return
	}
	valid := false
	switch lt {
	case "decimal":
		if s.Type != "bytes" && s.Type != "fixed" {
			break
		}
		prec, ok1 := propInt(s.Props["precision"])
		scale, ok2 := propInt(s.Props["scale"])
		if !ok2 && s.Props["scale"] == nil {
			scale, ok2 = 0, true
		}
		if !ok1 || !ok2 || prec < 1 || scale < 0 || scale > prec {
			break
		}
		if s.Type == "fixed" && (s.Size > 64 || prec > maxDecimalDigits(s.Size)) {
			break
		}
		s.Precision, s.Scale, valid = prec, scale, true
	case "uuid":
		valid = s.Type == "string" || (s.Type == "fixed" && s.Size == 16)
	case "date", "time-millis":
		valid = s.Type == "int"
	case "time-micros", "timestamp-millis", "timestamp-micros", "timestamp-nanos",
		"local-timestamp-millis", "local-timestamp-micros", "local-timestamp-nanos":
		valid = s.Type == "long"
	case "duration":
		valid = s.Type == "fixed" && s.Size == 12
	default:
		valid = true // a logical type of another specification (Iceberg's "map")
	}
	if valid {
		s.Logical = lt
		delete(s.Props, "logicalType")
		if lt == "decimal" {
			delete(s.Props, "precision")
			delete(s.Props, "scale")
		}
	}
}

// maxDecimalDigits is the number of decimal digits a two's-complement
// value of n bytes always holds: floor(log10(2^(8n-1) - 1)).
func maxDecimalDigits(n int) int {
	if n <= 0 {
		return 0
	}
	// 8n-1 bits: log10(2) = 0.30102999566...
	return int(float64(8*n-1) * 0.30102999566398119521)
}

func propInt(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	if err != nil || i < -1<<31 || i > 1<<31-1 {
		return 0, false
	}
	return int(i), true
}

// fullName joins name and namespace (a name with a dot is already full)
// and checks each part (Avro specification, "Names").
func fullName(name, ns string) (string, error) {
	full := name
	if !strings.Contains(name, ".") && ns != "" {
		full = ns + "." + name
	}
	for _, part := range strings.Split(full, ".") {
		if !validName(part) {
			return "", fmt.Errorf("avro schema: invalid name %q", full)
		}
	}
	return full, nil
}

// validName reports whether s is an Avro name: [A-Za-z_][A-Za-z0-9_]*.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range []byte(s) {
		switch {
		case c == '_', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	}
	return "an object"
}
