package schema

import (
	"fmt"
	"strings"

	"github.com/lakecat/lakecat"
)

// ErrInvalidSchema is matched (with [errors.Is]) by every error the schema
// codecs return for input they cannot decode: malformed JSON, a missing
// required key, an id that is not a JSON integer, a default value that does
// not fit its type.
var ErrInvalidSchema = lakecat.NewSentinel(lakecat.ErrCorrupt, "schema: invalid schema")

// ErrUnknownType is matched (with [errors.Is]) by the error for a type
// spelling the codec does not know ("varient", "decimal(10)", "LIST<INT>").
// Such an error also matches [ErrInvalidSchema].
var ErrUnknownType = lakecat.NewSentinel(lakecat.ErrUnsupported, "unknown type")

// SchemaError describes input a schema codec rejected. It matches
// [ErrInvalidSchema] under [errors.Is], and Err (for example [ErrUnknownType])
// too.
type SchemaError struct {
	// Codec names the input: "iceberg schema", "iceberg table metadata",
	// "paimon schema", "paimon type", "name mapping", "literal".
	Codec string
	// Path is the dotted path of names from the top to the field concerned,
	// empty when the error is not about one field.
	Path string
	// Type is the offending type spelling, when the error is about a type.
	Type string
	// Msg says what is wrong.
	Msg string
	// Err is an underlying error (a sentinel such as [ErrUnknownType], or a
	// JSON decoding error), or nil.
	Err error
}

// Error returns "schema: <codec>: field <path>: <msg> <type>: <err>", leaving
// out the parts that are empty.
func (e *SchemaError) Error() string {
	var b strings.Builder
	b.WriteString("schema: ")
	b.WriteString(e.Codec)
	if e.Path != "" {
		fmt.Fprintf(&b, ": field %q", e.Path)
	}
	if e.Msg != "" {
		b.WriteString(": ")
		b.WriteString(e.Msg)
	}
	if e.Type != "" {
		fmt.Fprintf(&b, " %q", e.Type)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns [ErrInvalidSchema] and Err.
func (e *SchemaError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrInvalidSchema}
	}
	return []error{ErrInvalidSchema, e.Err}
}

// pathJoin joins a parent path and a name with a dot.
func pathJoin(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}
