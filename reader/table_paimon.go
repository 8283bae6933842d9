package reader

import (
	"context"
	"fmt"

	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/reader/internal/paimon"
	"github.com/lakecat/lakecat/schema"
)

func openPaimon(ctx context.Context, location string, opts TableOptions) (*Table, error) {
	tbl, err := paimon.Open(ctx, opts.FS, location, opts.Branch)
	if err != nil {
		return nil, err
	}
	scan, err := tbl.Plan(ctx, paimon.ScanOptions{SnapshotID: opts.SnapshotID, SchemaID: opts.SchemaID})
	if err != nil {
		return nil, err
	}
	if err := opts.checkDeletes(scan.DeletesError()); err != nil {
		return nil, err
	}
	raw := false
	if err := scan.PrimaryKeyError(); err != nil {
		if !opts.Raw {
			return nil, fmt.Errorf("%w: %v (--raw reads every stored row with its system columns)", ErrPrimaryKeyTable, err)
		}
		raw = true
	}
	read := scan.Schema.Schema()
	if raw {
		read = withPaimonSystemFields(read, scan.Schema)
	}
	t := &Table{ReadSchema: read, CurrentSchemaID: scan.Schema.ID}
	ids, err := tbl.SchemaIDs(ctx, opts.Branch)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		ps, err := tbl.Schema(ctx, opts.Branch, id)
		if err != nil {
			return nil, err
		}
		t.Schemas = append(t.Schemas, ps.Schema())
	}
	for i := range scan.DataFiles {
		df := &scan.DataFiles[i]
		ws, err := tbl.Schema(ctx, df.Branch, df.SchemaID)
		if err != nil {
			return nil, fmt.Errorf("%s: schema %d: %w", df.Path, df.SchemaID, err)
		}
		writer := ws.Schema()
		if raw {
			writer = withPaimonSystemFields(writer, ws)
		}
		t.Files = append(t.Files, TableFile{
			Path: df.Path, Format: df.Format, RecordCount: df.RowCount,
			Partition: partitionString(df.Partition), SchemaID: df.SchemaID,
			task: FileTask{Name: df.Path, Open: openTask(opts.FS, df.Path), Options: Options{
				ReadSchema: read, WriterSchema: writer, Rules: project.Paimon.WithTimeZone(opts.TimeZone),
				Constants: scan.PartitionConstants(df),
			}},
		})
	}
	return t, nil
}

// The field ids Paimon gives its system columns in primary-key tables' data
// files (Paimon's SpecialFields).
const (
	paimonKeyFieldIDStart  = 1073741823 // _KEY_<pk>: this + the key field's id
	paimonSequenceNumberID = 2147483646 // _SEQUENCE_NUMBER BIGINT
	paimonValueKindID      = 2147483645 // _VALUE_KIND TINYINT
)

// withPaimonSystemFields returns s with the system columns of a primary-key
// table's data files in front: _KEY_<pk> for each primary key, then
// _SEQUENCE_NUMBER and _VALUE_KIND, in the order Paimon writes them.
func withPaimonSystemFields(s *schema.Schema, ps *schema.PaimonSchema) *schema.Schema {
	out := &schema.Schema{ID: s.ID}
	for _, pk := range ps.PrimaryKeys {
		if f := s.FindByName(pk, false); f != nil {
			out.Fields = append(out.Fields, &schema.Field{ID: paimonKeyFieldIDStart + f.ID, Name: "_KEY_" + pk, Type: f.Type, Required: f.Required})
		}
	}
	out.Fields = append(out.Fields,
		&schema.Field{ID: paimonSequenceNumberID, Name: "_SEQUENCE_NUMBER", Type: schema.Long, Required: true},
		&schema.Field{ID: paimonValueKindID, Name: "_VALUE_KIND", Type: schema.TinyInt, Required: true},
	)
	out.Fields = append(out.Fields, s.Fields...)
	return out
}
