package reader

import (
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/schema"
)

// The field ids of the metadata columns (Iceberg table spec, "Reserved
// Field IDs"). A read schema may hold them; they are never stored in data
// files.
const (
	// FieldIDFile is _file (string): the data file's path as the table
	// metadata stores it.
	FieldIDFile = 2147483646
	// FieldIDPos is _pos (long): the row's position in its data file, from 0.
	FieldIDPos = 2147483645
	// FieldIDDeleted is _deleted (boolean): whether the row is deleted.
	// A read that selects it keeps the deleted rows, flagged.
	FieldIDDeleted = 2147483644
	// FieldIDSpecID is _spec_id (int): the partition spec id of the file.
	FieldIDSpecID = 2147483643
	// FieldIDPartition is _partition (struct): the file's partition values,
	// one optional field per partition field of every spec.
	FieldIDPartition = 2147483642
)

// The metadata column names.
const (
	ColumnFile      = "_file"
	ColumnPos       = "_pos"
	ColumnDeleted   = "_deleted"
	ColumnSpecID    = "_spec_id"
	ColumnPartition = "_partition"
)

// IsMetadataColumn reports whether name is one of the metadata columns a
// table read adds on request.
func IsMetadataColumn(name string) bool {
	switch name {
	case ColumnFile, ColumnPos, ColumnDeleted, ColumnSpecID, ColumnPartition:
		return true
	}
	return false
}

// metadataField returns the read-schema field of a metadata column;
// partition is the _partition struct type.
func metadataField(name string, partition *schema.StructType) (*schema.Field, error) {
	switch name {
	case ColumnFile:
		return &schema.Field{ID: FieldIDFile, Name: name, Type: schema.String, Required: true}, nil
	case ColumnPos:
		return &schema.Field{ID: FieldIDPos, Name: name, Type: schema.Long, Required: true}, nil
	case ColumnDeleted:
		return &schema.Field{ID: FieldIDDeleted, Name: name, Type: schema.Boolean, Required: true}, nil
	case ColumnSpecID:
		return &schema.Field{ID: FieldIDSpecID, Name: name, Type: schema.Int, Required: true}, nil
	case ColumnPartition:
		if partition == nil {
			partition = &schema.StructType{}
		}
		return &schema.Field{ID: FieldIDPartition, Name: name, Type: partition, Required: true}, nil
	}
	return nil, fmt.Errorf("reader: %q is not a metadata column (_file, _pos, _deleted, _spec_id, _partition)", name)
}

// posIndex returns the index of the top-level _pos column of read, or -1.
// The name is checked too: Paimon's _VALUE_KIND system column has the same
// field id (2147483645).
func posIndex(read *schema.Schema) int {
	if read == nil {
		return -1
	}
	for i, f := range read.Fields {
		if f.ID == FieldIDPos && f.Name == ColumnPos {
			return i
		}
	}
	return -1
}

// withPosConstant returns constants with a placeholder for _pos when read
// has it (the plan then fills the column; [fileReader] replaces it with the
// positions).
func withPosConstant(read *schema.Schema, constants map[int]any) map[int]any {
	if posIndex(read) < 0 {
		return constants
	}
	if _, ok := constants[FieldIDPos]; ok {
		return constants
	}
	out := make(map[int]any, len(constants)+1)
	for k, v := range constants {
		out[k] = v
	}
	out[FieldIDPos] = int64(0)
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

// deletedIndex returns the index of the top-level _deleted column of read,
// or -1.
func deletedIndex(read *schema.Schema) int {
	if read == nil {
		return -1
	}
	for i, f := range read.Fields {
		if f.ID == FieldIDDeleted && f.Name == ColumnDeleted {
			return i
		}
	}
	return -1
}

// withDeletedConstant returns constants with false for _deleted when read
// has it: the rows of a file without deletes, or read with deletes
// ignored, are not deleted; [fileDeletes] sets the deleted ones.
func withDeletedConstant(read *schema.Schema, constants map[int]any) map[int]any {
	if deletedIndex(read) < 0 {
		return constants
	}
	if _, ok := constants[FieldIDDeleted]; ok {
		return constants
	}
	out := make(map[int]any, len(constants)+1)
	for k, v := range constants {
		out[k] = v
	}
	out[FieldIDDeleted] = false
	return out
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
