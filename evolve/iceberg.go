package evolve

import (
	"encoding/json"
	"fmt"

	"github.com/lakecat/lakecat/schema"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/table/iceberg"
)

// ErrNoCurrentSchema: the table metadata's current-schema-id names no schema.
var ErrNoCurrentSchema = lakecat.NewSentinel(lakecat.ErrCorrupt, "evolve: table metadata has no current schema")

// ErrNoChanges is returned by [SchemaUpdateBody] for a commit that changes
// nothing ([SchemaCommit].Changed is false): there is no request to send.
var ErrNoChanges = lakecat.NewSentinel(lakecat.ErrInvalidArgument, "evolve: schema update changes nothing")

// SchemaCommit is the result of [PrepareSchemaUpdate]: new table metadata
// that nothing has persisted yet.
type SchemaCommit struct {
	// Metadata is a copy of the table metadata with the new schema: when
	// Added, the schema appended to Schemas; when Changed, CurrentSchemaID
	// pointing at it; LastColumnID advanced. When nothing changed it is the
	// metadata passed in.
	Metadata *iceberg.Metadata
	// Schema is the resulting current schema, with its schema id.
	Schema *schema.Schema
	// Added reports whether Schema is new to the table (false when the
	// result equals a schema the table already has, whose id is reused).
	Added bool
	// Changed reports whether the current schema changes; false when the
	// result equals the current schema, and then there is nothing to commit.
	Changed bool
}

// PrepareSchemaUpdate applies update to the current schema of metadata, under
// the rules of the table's format version, protecting the source columns of
// every partition spec, and returns the metadata to commit. The new schema
// gets the next free schema id (one above the highest in Schemas); a result
// equal to a schema the table already has (fields, ids, docs, identifier
// field ids; [schema.Schema.Equal]) reuses that schema's id; a result equal
// to the current schema changes nothing. metadata is not modified.
//
// Errors are those of [UpdateSchema.Apply], and [ErrNoCurrentSchema].
func PrepareSchemaUpdate(metadata *iceberg.Metadata, update *UpdateSchema) (SchemaCommit, error) {
	cur := metadata.CurrentSchema()
	if cur == nil {
		return SchemaCommit{}, ErrNoCurrentSchema
	}
	u := update.clone()
	u.format = IcebergFormat(metadata.FormatVersion)
	u.partition = nil
	for _, spec := range metadata.PartitionSpecs {
		for _, pf := range spec.Fields {
			u.partition = append(u.partition, PartitionSource{SourceID: pf.SourceID, Transform: pf.Transform})
		}
	}
	next, last, err := u.Apply(cur, metadata.LastColumnID)
	if err != nil {
		return SchemaCommit{}, err
	}
	if next.Equal(cur) {
		return SchemaCommit{Metadata: metadata, Schema: cur}, nil
	}
	m := *metadata
	m.LastColumnID = max(metadata.LastColumnID, last)
	commit := SchemaCommit{Metadata: &m, Schema: next, Changed: true}
	for _, s := range metadata.Schemas {
		if s.Equal(next) {
			next.ID = s.ID
			commit.Schema = s
			m.CurrentSchemaID = s.ID
			return commit, nil
		}
	}
	id := 0
	for _, s := range metadata.Schemas {
		id = max(id, s.ID+1)
	}
	next.ID = id
	m.Schemas = append(append([]*schema.Schema(nil), metadata.Schemas...), next)
	m.CurrentSchemaID = id
	commit.Added = true
	return commit, nil
}

// Types of the REST CommitTableRequest body (Iceberg REST catalog OpenAPI
// spec: CommitTableRequest, TableRequirement, TableUpdate). Field order is
// the order of the JSON keys.
type (
	restIdentifier struct {
		Namespace []string `json:"namespace"`
		Name      string   `json:"name"`
	}
	restRequirement struct {
		Type                string `json:"type"`
		UUID                string `json:"uuid,omitempty"`
		CurrentSchemaID     *int   `json:"current-schema-id,omitempty"`
		LastAssignedFieldID *int   `json:"last-assigned-field-id,omitempty"`
	}
	restUpdate struct {
		Action       string          `json:"action"`
		Schema       json.RawMessage `json:"schema,omitempty"`
		LastColumnID *int            `json:"last-column-id,omitempty"`
		SchemaID     *int            `json:"schema-id,omitempty"`
	}
	restCommit struct {
		Identifier   restIdentifier    `json:"identifier"`
		Requirements []restRequirement `json:"requirements"`
		Updates      []restUpdate      `json:"updates"`
	}
)

// SchemaUpdateBody returns the Iceberg REST catalog CommitTableRequest JSON
// (POST /v1/{prefix}/namespaces/{namespace}/tables/{table}) that commits
// commit on top of current, the metadata it was prepared from.
//
// The requirements guard against a concurrent change: assert-table-uuid,
// assert-current-schema-id (current's current-schema-id) and
// assert-last-assigned-field-id (current's last-column-id). The updates are
// add-schema (the new schema, with last-column-id for servers that still
// read it) then set-current-schema with schema-id -1, meaning the schema just
// added; a commit that reuses an existing schema sends only
// set-current-schema with that schema's id. Every id is a JSON integer
// (case A22). The body is indented with two spaces.
//
// It returns [ErrNoChanges] when commit.Changed is false, and an error
// matching schema.ErrInvalidSchema when the schema cannot be encoded.
func SchemaUpdateBody(namespace []string, table string, current *iceberg.Metadata, commit SchemaCommit) ([]byte, error) {
	if !commit.Changed {
		return nil, ErrNoChanges
	}
	curID, lastID := current.CurrentSchemaID, current.LastColumnID
	body := restCommit{
		Identifier: restIdentifier{Namespace: append([]string{}, namespace...), Name: table},
		Requirements: []restRequirement{
			{Type: "assert-table-uuid", UUID: current.TableUUID},
			{Type: "assert-current-schema-id", CurrentSchemaID: &curID},
			{Type: "assert-last-assigned-field-id", LastAssignedFieldID: &lastID},
		},
	}
	setID := commit.Schema.ID
	if commit.Added {
		raw, err := schema.MarshalIcebergSchema(commit.Schema)
		if err != nil {
			return nil, fmt.Errorf("evolve: encoding schema: %w", err)
		}
		last := commit.Metadata.LastColumnID
		body.Updates = append(body.Updates, restUpdate{Action: "add-schema", Schema: raw, LastColumnID: &last})
		setID = -1
	}
	body.Updates = append(body.Updates, restUpdate{Action: "set-current-schema", SchemaID: &setID})
	return json.MarshalIndent(body, "", "  ")
}
