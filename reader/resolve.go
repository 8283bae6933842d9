package reader

import "github.com/lakecat/lakecat/schema"

// ResolveFileSchema returns the file schema with the field ids the read will
// match on. The sources, in order (Iceberg table spec, "Column Projection";
// Paimon and Hudi resolve through the writer's schema):
//
//  1. writer, the schema the file was written with (a Paimon schema-N, the
//     schema of the Hudi commit that wrote it, or an Iceberg schema for a
//     file without ids): file columns are located by that schema's names at
//     every level and take its ids. Ids embedded in the file are ignored;
//     Paimon resolves every file this way.
//  2. ids embedded in the file, where it has any. A name mapping is never
//     applied over ids a file has.
//  3. mapping, a name mapping, for a file written without ids.
//
// A file with no ids and neither a writer schema nor a name mapping returns
// [ErrNoFieldIDs] (never a match by position, never silent nulls). The
// returned schema is a copy; file is not changed.
func ResolveFileSchema(file, writer *schema.Schema, mapping schema.NameMapping) (*schema.Schema, error) {
	switch {
	case writer != nil:
		stripped := file.Clone()
		schema.Walk(stripped.Fields, func(_ []string, f *schema.Field) bool {
			f.ID = schema.NoID
			return true
		})
		return schema.NameMappingFromSchema(writer).Apply(stripped), nil
	case file.HasIDs():
		return file, nil
	case mapping != nil:
		return mapping.Apply(file), nil
	}
	return nil, ErrNoFieldIDs
}

// selfDescribed returns file with every field that lacks an id given a fresh
// one above the file's highest id, in pre-order. It makes a file its own
// read schema when no read schema is given.
func SelfDescribed(file *schema.Schema) *schema.Schema {
	next := file.HighestFieldID() + 1
	if next < 1 {
		next = 1
	}
	out := file.Clone()
	schema.Walk(out.Fields, func(_ []string, f *schema.Field) bool {
		if f.ID == schema.NoID {
			f.ID = next
			next++
		}
		return true
	})
	return out
}

func fileLabel(name string) string {
	if name == "" {
		return "<data file>"
	}
	return name
}

// alignInstants marks a file timestamp column as an instant (timestamptz,
// timestamptz_ns) where the writer schema says the column is one and the
// file's type says it is a wall clock: Parquet INT96, which Paimon writes for
// TIMESTAMP(7..9) WITH LOCAL TIME ZONE, carries no UTC flag. Both kinds have
// the same Arrow type, so the decoded values are unchanged (formats/parquet
// accepts the instant kind for a wall-clock column; the ORC decoder does
// not, so the caller applies this to Paimon reads of Parquet files); a cast
// in a session time zone then treats them as the instants they are.
func alignInstants(fields []*schema.Field, writer *schema.Schema) {
	schema.Walk(fields, func(_ []string, f *schema.Field) bool {
		p, ok := f.Type.(schema.PrimitiveType)
		if !ok || f.ID == schema.NoID || (p.K != schema.KindTimestamp && p.K != schema.KindTimestampNs) {
			return true
		}
		w := writer.FindByID(f.ID)
		if w == nil {
			return true
		}
		switch wp, _ := w.Type.(schema.PrimitiveType); {
		case p.K == schema.KindTimestamp && wp.K == schema.KindTimestampTz:
			f.Type = schema.PrimitiveType{K: schema.KindTimestampTz, Precision: p.Precision}
		case p.K == schema.KindTimestampNs && wp.K == schema.KindTimestampTzNs:
			f.Type = schema.PrimitiveType{K: schema.KindTimestampTzNs, Precision: p.Precision}
		}
		return true
	})
}
