package iceberg

import (
	"reflect"

	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table"
)

// DeletesFor returns the live delete files of the scan that apply to the
// data file f (Iceberg spec, "Scan Planning"), in manifest order:
//
//   - a position delete file or deletion vector applies when its data
//     sequence number is ≥ f's, it is in f's partition (same spec id and
//     partition values), and it names no referenced_data_file or names
//     f's stored path;
//   - an equality delete file applies when its data sequence number is > f's
//     and it is in f's partition, or was written with an unpartitioned spec
//     (a global equality delete);
//   - when a deletion vector applies, the position delete files do not
//     (spec, "Deletion Vectors": a DV replaces the data file's position
//     deletes; writers merge the older ones into it).
//
// Sequence numbers are the inherited ones of [Table.Plan] (format v1: 0
// for every file, so equality deletes, which v1 cannot hold, never apply
// and position deletes always do). Column statistics (lower and upper
// bounds) that would rule more of them out are not used: the result is
// complete, not minimal.
func (s *Scan) DeletesFor(f *DataFile) []table.DeleteFile {
	var out []table.DeleteFile
	hasDV := false
	for i := range s.DeleteFiles {
		d := &s.DeleteFiles[i]
		samePartition := d.SpecID == f.SpecID && reflect.DeepEqual(d.Partition, f.Partition)
		switch d.Content {
		case ContentPositionDeletes:
			if d.SequenceNumber < f.SequenceNumber || !samePartition ||
				(d.ReferencedDataFile != "" && d.ReferencedDataFile != f.StoredPath) {
				continue
			}
		case ContentEqualityDeletes:
			if d.SequenceNumber <= f.SequenceNumber || !(samePartition || s.unpartitioned(d.SpecID)) {
				continue
			}
		default:
			continue
		}
		content := table.PositionDeletes
		switch {
		case d.IsDeletionVector():
			content = table.DeletionVector
			hasDV = true
		case d.Content == ContentEqualityDeletes:
			content = table.EqualityDeletes
		}
		out = append(out, table.DeleteFile{
			Path: d.Path, StoredPath: d.StoredPath, Format: d.Format, Content: content,
			RecordCount: d.RecordCount, SizeBytes: d.SizeBytes, EqualityIDs: d.EqualityIDs,
			SequenceNumber: d.SequenceNumber, FileSequenceNumber: d.FileSequenceNumber,
			ReferencedDataFile: d.ReferencedDataFile, SpecID: d.SpecID,
			ContentOffset: d.ContentOffset, ContentSizeBytes: d.ContentSizeBytes,
		})
	}
	if hasDV {
		kept := out[:0]
		for _, d := range out {
			if d.Content != table.PositionDeletes {
				kept = append(kept, d)
			}
		}
		out = kept
	}
	return out
}

// DeleteSchema returns the fields of read (the scan's read schema before
// any column selection) that the equality deletes among deletes match on,
// top-level, in field-id order of first use: the types both the data file
// and the delete files are read into (a key column renamed or promoted
// after a delete was written still matches by id). An equality id read
// lacks is left out, for the reader to refuse. It returns nil when no
// equality delete is among deletes.
func DeleteSchema(read *schema.Schema, deletes []table.DeleteFile) *schema.Schema {
	var fields []*schema.Field
	seen := map[int]bool{}
	for _, d := range deletes {
		if d.Content != table.EqualityDeletes {
			continue
		}
		for _, id := range d.EqualityIDs {
			if seen[id] {
				continue
			}
			seen[id] = true
			for _, f := range read.Fields {
				if f.ID == id {
					fields = append(fields, f)
				}
			}
		}
	}
	if len(seen) == 0 {
		return nil
	}
	return &schema.Schema{ID: read.ID, Fields: fields}
}

// unpartitioned reports whether partition spec id has no fields.
func (s *Scan) unpartitioned(id int) bool {
	for _, spec := range s.Metadata.PartitionSpecs {
		if spec.SpecID == id {
			return len(spec.Fields) == 0
		}
	}
	return false
}
