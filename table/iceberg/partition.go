package iceberg

import (
	"strings"

	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/internal/scanplan"
)

// IdentityConstants returns the identity-partition values of f keyed by
// source field id, for project.Options.Constants: the value a data file does
// not store for a column that is an identity partition source (Iceberg spec,
// "Column Projection", rule 1). A null partition value is present with a nil
// value (the column reads as null, not as its initial-default). Source fields
// absent from read are left out. When read holds the source column in a wider
// type than the stored partition value (int → long, float → double; a
// partition column promoted after it was written), the value is widened.
func (s *Scan) IdentityConstants(f *DataFile, read *schema.Schema) map[int]any {
	md := s.Metadata
	var out map[int]any
	for i := range md.PartitionSpecs {
		if md.PartitionSpecs[i].SpecID != f.SpecID {
			continue
		}
		for _, pf := range md.PartitionSpecs[i].Fields {
			if pf.Transform != "identity" {
				continue
			}
			v, ok := f.Partition[pf.FieldID]
			if !ok {
				continue
			}
			rf := read.FindByID(pf.SourceID)
			if rf == nil {
				continue
			}
			if out == nil {
				out = map[int]any{}
			}
			out[pf.SourceID] = WidenValue(v, rf.Type)
		}
	}
	return out
}

// specFieldIDs returns the partition field ids of spec id, in order.
func (t *Table) specFieldIDs(id int) []int {
	md := t.Metadata
	for i := range md.PartitionSpecs {
		if md.PartitionSpecs[i].SpecID == id {
			ids := make([]int, len(md.PartitionSpecs[i].Fields))
			for j, pf := range md.PartitionSpecs[i].Fields {
				ids[j] = pf.FieldID
			}
			return ids
		}
	}
	return nil
}

// WidenValue converts a stored partition value to the Go form of t where
// the source column was widened after the value was written (int → long or
// double, float → double); other values are returned unchanged.
func WidenValue(v any, t schema.Type) any { return scanplan.WidenValue(v, t) }

// PartitionType returns the type of the _partition metadata column (Iceberg
// spec, "Reserved Field IDs": 102 _partition): a struct with one optional
// field per partition field id of every spec of the table, in spec order then
// field order, named by the partition field and typed by its transform's
// result ("Partition Transforms"): identity, truncate[W] and void keep the
// source column's type (in schema s), bucket[N], year, month and hour give
// int, day gives date. A partition field whose source is not in s or whose
// transform is unknown is left out.
func (s *Scan) PartitionType(sc *schema.Schema) *schema.StructType {
	out := &schema.StructType{}
	seen := map[int]bool{}
	for _, spec := range s.Metadata.PartitionSpecs {
		for _, pf := range spec.Fields {
			if seen[pf.FieldID] {
				continue
			}
			src := sc.FindByID(pf.SourceID)
			if src == nil {
				continue
			}
			var t schema.Type
			tr := pf.Transform
			switch {
			case tr == "identity" || tr == "void" || strings.HasPrefix(tr, "truncate["):
				t = src.Type
			case strings.HasPrefix(tr, "bucket[") || tr == "year" || tr == "month" || tr == "hour":
				t = schema.Int
			case tr == "day":
				t = schema.Date
			default:
				continue
			}
			seen[pf.FieldID] = true
			out.Fields = append(out.Fields, &schema.Field{ID: pf.FieldID, Name: pf.Name, Type: t})
		}
	}
	return out
}
