package scanplan

import (
	"fmt"

	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table"
)

// reservedFieldID is the Iceberg reserved id of a metadata column.
func reservedFieldID(name string) (int, error) {
	switch name {
	case table.ColumnFile:
		return table.FieldIDFile, nil
	case table.ColumnPos:
		return table.FieldIDPos, nil
	case table.ColumnDeleted:
		return table.FieldIDDeleted, nil
	case table.ColumnSpecID:
		return table.FieldIDSpecID, nil
	case table.ColumnPartition:
		return table.FieldIDPartition, nil
	}
	return 0, fmt.Errorf("table: %q is not a metadata column (_file, _pos, _deleted, _spec_id, _partition)", name)
}

// metadataFieldIDs returns the field id of each named metadata column in a
// read of a table whose schemas (read schema, schema history, every file's
// writer schema, system columns included) use the ids in used: its Iceberg
// reserved id when unused, else the highest id below it that is neither
// used nor taken by an earlier name. Field ids of one read must be unique,
// or a metadata column would take a file column of the same id (Paimon's
// _SEQUENCE_NUMBER has _file's reserved id).
func metadataFieldIDs(names []string, used map[int]bool) (map[string]int, error) {
	ids := make(map[string]int, len(names))
	taken := make(map[int]bool, len(names))
	for _, n := range names {
		if _, ok := ids[n]; ok {
			continue
		}
		id, err := reservedFieldID(n)
		if err != nil {
			return nil, err
		}
		for used[id] || taken[id] {
			id--
		}
		ids[n], taken[id] = id, true
	}
	return ids, nil
}

// metadataField returns the read-schema field of a metadata column with
// field id id; partition is the _partition struct type.
func metadataField(name string, id int, partition *schema.StructType) *schema.Field {
	switch name {
	case table.ColumnFile:
		return &schema.Field{ID: id, Name: name, Type: schema.String, Required: true}
	case table.ColumnPos:
		return &schema.Field{ID: id, Name: name, Type: schema.Long, Required: true}
	case table.ColumnDeleted:
		return &schema.Field{ID: id, Name: name, Type: schema.Boolean, Required: true}
	case table.ColumnSpecID:
		return &schema.Field{ID: id, Name: name, Type: schema.Int, Required: true}
	}
	if partition == nil {
		partition = &schema.StructType{}
	}
	return &schema.Field{ID: id, Name: name, Type: partition, Required: true}
}
