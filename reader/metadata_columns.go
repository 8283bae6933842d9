package reader

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table"
)

// The field ids of the metadata columns (Iceberg table spec, "Reserved
// Field IDs"): see [table.FieldIDFile] and the others. A metadata column
// whose id some schema of the table uses takes another
// ([Table.MetadataFieldID]).
const (
	FieldIDFile      = table.FieldIDFile
	FieldIDPos       = table.FieldIDPos
	FieldIDDeleted   = table.FieldIDDeleted
	FieldIDSpecID    = table.FieldIDSpecID
	FieldIDPartition = table.FieldIDPartition
)

// The metadata column names (see [table.ColumnFile]).
const (
	ColumnFile      = table.ColumnFile
	ColumnPos       = table.ColumnPos
	ColumnDeleted   = table.ColumnDeleted
	ColumnSpecID    = table.ColumnSpecID
	ColumnPartition = table.ColumnPartition
)

// IsMetadataColumn reports whether name is one of the metadata columns a
// table read adds on request ([table.IsMetadataColumn]).
func IsMetadataColumn(name string) bool { return table.IsMetadataColumn(name) }

// posFieldID is the field id of the _pos column under opts.
func (o Options) posFieldID() int {
	if o.PosFieldID != 0 {
		return o.PosFieldID
	}
	return FieldIDPos
}

// metadataIndex returns the index of the top-level metadata column name
// (ColumnPos, ColumnDeleted) of read with field id id, or -1. The name is
// checked too: a table may use the id for a column of its own.
func metadataIndex(read *schema.Schema, name string, id int) int {
	if read == nil {
		return -1
	}
	for i, f := range read.Fields {
		if f.ID == id && f.Name == name {
			return i
		}
	}
	return -1
}

// posIndex returns the index of the _pos column of read with field id id,
// or -1.
func posIndex(read *schema.Schema, id int) int { return metadataIndex(read, ColumnPos, id) }

// withPosConstant returns constants with a placeholder for the _pos column
// of field id id when read has it (the plan then fills the column;
// [fileReader] replaces it with the positions).
func withPosConstant(read *schema.Schema, constants map[int]any, id int) map[int]any {
	return withConstant(read, constants, ColumnPos, id, int64(0))
}

// withConstant returns constants with v for the metadata column name of
// field id id when read has it and constants holds none for it (a copy;
// constants itself is not changed).
func withConstant(read *schema.Schema, constants map[int]any, name string, id int, v any) map[int]any {
	if metadataIndex(read, name, id) < 0 {
		return constants
	}
	if _, ok := constants[id]; ok {
		return constants
	}
	out := make(map[int]any, len(constants)+1)
	for k, c := range constants {
		out[k] = c
	}
	out[id] = v
	return out
}

// withConstantValue returns a copy of constants with v for field id id.
func withConstantValue(constants map[int]any, id int, v any) map[int]any {
	out := make(map[int]any, len(constants)+1)
	for k, c := range constants {
		out[k] = c
	}
	out[id] = v
	return out
}

// setPositions returns rec with column col replaced by the positions
// first, first+1, …; rec is released.
func setPositions(rec arrow.RecordBatch, col int, first int64, mem memory.Allocator) arrow.RecordBatch {
	n := int(rec.NumRows())
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * 8)
	vals := arrow.Int64Traits.CastFromBytes(buf.Bytes())
	for i := range vals {
		vals[i] = first + int64(i)
	}
	data := array.NewData(arrow.PrimitiveTypes.Int64, n, []*memory.Buffer{nil, buf}, nil, 0, 0)
	pos := array.MakeFromData(data)
	data.Release()
	buf.Release()
	cols := make([]arrow.Array, rec.NumCols())
	copy(cols, rec.Columns())
	cols[col] = pos
	out := array.NewRecordBatch(rec.Schema(), cols, int64(n))
	pos.Release()
	rec.Release()
	return out
}

// deletedFieldID is the field id of the _deleted column under opts.
func (o Options) deletedFieldID() int {
	if o.DeletedFieldID != 0 {
		return o.DeletedFieldID
	}
	return FieldIDDeleted
}

// deletedIndex returns the index of the _deleted column of read with
// field id id, or -1.
func deletedIndex(read *schema.Schema, id int) int { return metadataIndex(read, ColumnDeleted, id) }

// withDeletedConstant returns constants with false for _deleted when read
// has it: the rows of a file without deletes, or read with deletes
// ignored, are not deleted; [fileDeletes] sets the deleted ones.
func withDeletedConstant(read *schema.Schema, constants map[int]any, id int) map[int]any {
	return withConstant(read, constants, ColumnDeleted, id, false)
}

// withKeyColumns returns read with the fields of keys that read lacks at
// the top level appended (optional, so a data file without the column reads
// its initial-default or null).
func withKeyColumns(read, keys *schema.Schema) *schema.Schema {
	if keys == nil {
		return read
	}
	out := read
	for _, k := range keys.Fields {
		found := false
		for _, f := range read.Fields {
			if f.ID == k.ID {
				found = true
			}
		}
		if found {
			continue
		}
		if out == read {
			out = &schema.Schema{ID: read.ID, Fields: slices.Clone(read.Fields), IdentifierFieldIDs: read.IdentifierFieldIDs}
		}
		c := *k
		c.Required = false
		out.Fields = append(out.Fields, &c)
	}
	return out
}
