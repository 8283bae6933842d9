package evolve

import (
	"context"

	"github.com/lakecat/lakecat/table/iceberg/rest"
)

// CommitCatalog applies update to an Iceberg table of a REST catalog: it
// loads the table, prepares the new schema ([PrepareSchemaUpdate]) and
// sends the CommitTableRequest of [SchemaUpdateBody] (assert-table-uuid,
// assert-current-schema-id, assert-last-assigned-field-id; add-schema and
// set-current-schema -1). When the catalog answers 409 because another
// writer committed first, the same update is applied again to the freshly
// loaded metadata ([rest.Client.UpdateTable]), so new fields get ids above
// the winner's last-column-id; a change that no longer applies (both added
// the same name) is the [UpdateSchema.Apply] error.
//
// Result.File is the new metadata location the catalog returned; it is
// empty, and nothing is sent, when the update changes nothing. Errors are
// those of [PrepareSchemaUpdate] and of package rest ([rest.ErrCommitFailed]
// after the last attempt, [rest.ErrUnauthorized], …).
func CommitCatalog(ctx context.Context, c *rest.Client, table rest.Identifier, update *UpdateSchema) (Result, error) {
	var res Result
	out, err := c.UpdateTable(ctx, table, func(cur *rest.LoadTableResult) ([]byte, error) {
		sc, err := PrepareSchemaUpdate(cur.Metadata, update)
		if err != nil {
			return nil, err
		}
		res = Result{Old: cur.Metadata.CurrentSchema(), New: sc.Schema, LastColumnID: sc.Metadata.LastColumnID, Changed: sc.Changed}
		if !sc.Changed {
			return nil, nil
		}
		return SchemaUpdateBody(table.Namespace, table.Name, cur.Metadata, sc)
	})
	if err != nil {
		return Result{}, err
	}
	res.File, res.Attempts = out.MetadataLocation, out.Attempts
	if res.Changed && out.Metadata != nil {
		if s := out.Metadata.CurrentSchema(); s != nil {
			res.New, res.LastColumnID = s, out.Metadata.LastColumnID
		}
	}
	return res, nil
}
