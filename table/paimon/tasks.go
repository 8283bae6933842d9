package paimon

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table"
)

// Task returns the task that reads the data file f of the scan in read: the
// file is read through the schema it was written with (schema-N of its
// schema id, on its branch; Paimon locates columns by name through it),
// with Paimon's promotion rules in the session time zone zone ("" for
// UTC) and the partition values as constants ([Scan.PartitionConstants]).
// With raw, the writer schema gets the system columns of a primary-key
// table's files ([WithSystemFields]) and read should have them too.
func (scan *Scan) Task(ctx context.Context, f *DataFile, read *schema.Schema, raw bool, zone string) (table.Task, error) {
	ws, err := scan.Table.Schema(ctx, f.Branch, f.SchemaID)
	if err != nil {
		return table.Task{}, fmt.Errorf("%s: schema %d: %w", f.Path, f.SchemaID, err)
	}
	writer := ws.Schema()
	if raw {
		writer = WithSystemFields(writer, ws)
	}
	return table.Task{
		Path: f.Path, Format: f.Format, SizeBytes: f.SizeBytes, RecordCount: f.RowCount,
		FileSchema: writer, FileSchemaID: int(f.SchemaID), ReadSchema: read, Rules: "paimon", TimeZone: zone,
		Constants: scan.PartitionConstants(f),
	}, nil
}

// The field ids Paimon gives its system columns in primary-key tables' data
// files (Paimon's SpecialFields).
const (
	keyFieldIDStart  = 1073741823 // _KEY_<pk>: this + the key field's id
	sequenceNumberID = 2147483646 // _SEQUENCE_NUMBER BIGINT
	valueKindID      = 2147483645 // _VALUE_KIND TINYINT
)

// FallbackMergeError returns an error matching [ErrPrimaryKeyTable] when a
// file read through "scan.fallback-branch" from a primary-key branch needs a
// merge on read that could change it, and nil otherwise. Such a bucket reads
// as stored only when it has one live file whose manifest entry records no
// delete (retract) rows: one sorted run with unique keys and nothing to
// retract, which is exactly what the merge would return.
func (scan *Scan) FallbackMergeError(ctx context.Context) error {
	tbl := scan.Table
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
		if df.Branch == scan.Table.Branch {
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
			return fmt.Errorf("%w: fallback branch %q (primary key %s): %s needs a merge (%d live files in its bucket)",
				ErrPrimaryKeyTable, df.Branch, strings.Join(ws.PrimaryKeys, ", "), df.Path, n)
		}
	}
	return nil
}

// WithSystemFields returns s with the system columns of a primary-key
// table's data files in front: _KEY_<pk> for each primary key that is not a
// partition key (Paimon's trimmed primary key: partition columns are
// constant within a file and not repeated), then _SEQUENCE_NUMBER and
// _VALUE_KIND, in the order Paimon writes them.
func WithSystemFields(s *schema.Schema, ps *schema.PaimonSchema) *schema.Schema {
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
			out.Fields = append(out.Fields, &schema.Field{ID: keyFieldIDStart + f.ID, Name: "_KEY_" + pk, Type: f.Type, Required: f.Required})
		}
	}
	out.Fields = append(out.Fields,
		&schema.Field{ID: sequenceNumberID, Name: "_SEQUENCE_NUMBER", Type: schema.Long, Required: true},
		&schema.Field{ID: valueKindID, Name: "_VALUE_KIND", Type: schema.TinyInt, Required: true},
	)
	out.Fields = append(out.Fields, s.Fields...)
	return out
}
