package reader

import (
	"encoding/json"
	"fmt"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/iceberg"
)

// SchemaKind says what a schema document is.
type SchemaKind string

// The schema documents [ParseSchemaDocument] recognises.
const (
	SchemaIceberg         SchemaKind = "iceberg-schema"   // an Iceberg schema JSON (table spec, Appendix C)
	SchemaIcebergMetadata SchemaKind = "iceberg-metadata" // an Iceberg table metadata JSON (vN.metadata.json)
	SchemaPaimon          SchemaKind = "paimon-schema"    // a Paimon schema/schema-N file
)

// SchemaDocument is a parsed schema file: what `--schema` and
// `--file-schema` accept.
type SchemaDocument struct {
	Kind SchemaKind
	// Schema is the schema: the current one of table metadata.
	Schema *schema.Schema
	// Metadata is set for SchemaIcebergMetadata.
	Metadata *iceberg.Metadata
	// Paimon is set for SchemaPaimon.
	Paimon *schema.PaimonSchema
	// NameMapping is the table's schema.name-mapping.default, if any.
	NameMapping schema.NameMapping
	// Rules are the promotion rules of the table format the document
	// belongs to: Iceberg v1/v2, Iceberg v3 (format-version 3) or Paimon.
	Rules project.Rules
}

// ErrUnknownSchemaDocument is returned for JSON that is none of the
// documents [ParseSchemaDocument] recognises.
var ErrUnknownSchemaDocument = lakecat.NewSentinel(lakecat.ErrCorrupt, "reader: not an Iceberg schema, Iceberg table metadata or Paimon schema file")

// ParseSchemaDocument parses an Iceberg schema JSON, an Iceberg table
// metadata JSON or a Paimon schema-N file, telling them apart by their keys
// ("format-version"; "highestFieldId"; "type": "struct"). Errors are the
// schema package's decoding errors or [ErrUnknownSchemaDocument].
func ParseSchemaDocument(data []byte) (*SchemaDocument, error) {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(data, &keys); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnknownSchemaDocument, err)
	}
	_, hasFormatVersion := keys["format-version"]
	_, hasHighest := keys["highestFieldId"]
	_, hasFields := keys["fields"]
	switch {
	case hasFormatVersion:
		md, err := iceberg.ParseMetadata(data)
		if err != nil {
			return nil, err
		}
		cur := md.CurrentSchema()
		if cur == nil {
			return nil, fmt.Errorf("%w: table metadata has no current schema %d", ErrUnknownSchemaDocument, md.CurrentSchemaID)
		}
		nm, err := md.NameMapping()
		if err != nil {
			return nil, err
		}
		rules := project.IcebergV2
		if md.FormatVersion >= 3 {
			rules = project.IcebergV3
		}
		return &SchemaDocument{Kind: SchemaIcebergMetadata, Schema: cur, Metadata: md, NameMapping: nm, Rules: rules}, nil
	case hasHighest:
		ps, err := schema.ParsePaimonSchema(data)
		if err != nil {
			return nil, err
		}
		return &SchemaDocument{Kind: SchemaPaimon, Schema: ps.Schema(), Paimon: ps, Rules: project.Paimon}, nil
	case hasFields:
		s, err := schema.ParseIcebergSchema(data)
		if err != nil {
			return nil, err
		}
		return &SchemaDocument{Kind: SchemaIceberg, Schema: s, Rules: project.IcebergV2}, nil
	}
	return nil, ErrUnknownSchemaDocument
}
