package reader

import (
	"context"
	"fmt"
	"path"
	"strings"

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
	// The primary key first: it is what a reader must know before anything
	// else; deletion vectors are refused next, in raw mode too.
	raw := false
	if err := scan.PrimaryKeyError(); err != nil {
		switch {
		case opts.Raw:
			raw = true
		case !opts.ListOnly:
			return nil, fmt.Errorf("%w: %w (--raw reads every stored row with its system columns)", ErrPrimaryKeyTable, err)
		}
	}
	if err := opts.checkDeletes(scan.DeletesError()); err != nil {
		return nil, err
	}
	if err := checkFallbackMerge(ctx, tbl, scan, opts); err != nil {
		return nil, err
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
			Partition: partitionString(df.Partition, writer.Fields), SchemaID: df.SchemaID,
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

// checkFallbackMerge refuses files read through "scan.fallback-branch" from
// a primary-key branch when a merge on read could change them, unless
// opts.Raw. Such a bucket reads as stored only when it has one live file
// whose manifest entry records no delete (retract) rows: one sorted run with
// unique keys and nothing to retract, which is exactly what the merge would
// return.
func checkFallbackMerge(ctx context.Context, tbl *paimon.Table, scan *paimon.Scan, opts TableOptions) error {
	type bucket struct{ branch, dir string }
	files := map[bucket]int{}
	for i := range scan.DataFiles {
		df := &scan.DataFiles[i]
		if df.Branch == scan.Table.Branch {
			continue
		}
		files[bucket{df.Branch, path.Dir(df.Path)}]++
	}
	for i := range scan.DataFiles {
		df := &scan.DataFiles[i]
		if df.Branch == scan.Table.Branch || opts.Raw || opts.ListOnly {
			continue
		}
		ws, err := tbl.Schema(ctx, df.Branch, df.SchemaID)
		if err != nil {
			return err
		}
		if len(ws.PrimaryKeys) == 0 {
			continue
		}
		if n := files[bucket{df.Branch, path.Dir(df.Path)}]; n > 1 || df.DeleteRowCount == nil || *df.DeleteRowCount != 0 {
			return fmt.Errorf("%w: %w: fallback branch %q (primary key %s): %s needs a merge (%d live files in its bucket; --raw reads the stored rows)",
				ErrPrimaryKeyTable, paimon.ErrPrimaryKeyTable, df.Branch, strings.Join(ws.PrimaryKeys, ", "), df.Path, n)
		}
	}
	return nil
}

// withPaimonSystemFields returns s with the system columns of a primary-key
// table's data files in front: _KEY_<pk> for each primary key that is not a
// partition key (Paimon's trimmed primary key: partition columns are
// constant within a file and not repeated), then _SEQUENCE_NUMBER and
// _VALUE_KIND, in the order Paimon writes them.
func withPaimonSystemFields(s *schema.Schema, ps *schema.PaimonSchema) *schema.Schema {
	out := &schema.Schema{ID: s.ID}
	part := map[string]bool{}
	for _, k := range ps.PartitionKeys {
		part[k] = true
	}
	for _, pk := range ps.PrimaryKeys {
		if part[pk] {
			continue
		}
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
