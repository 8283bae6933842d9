package iceberg

import (
	"reflect"

	"github.com/lakecat/lakecat/table"
)

// DeletesFor returns the live delete files of the scan that may apply to the
// data file f (Iceberg spec, "Scan Planning"):
//
//   - a position delete file or deletion vector applies when its data
//     sequence number is ≥ f's, it is in f's partition (same spec id and
//     partition values), and it names no referenced_data_file or names
//     f's stored path;
//   - an equality delete file applies when its data sequence number is > f's
//     and it is in f's partition, or was written with an unpartitioned spec
//     (a global equality delete).
//
// Column statistics (lower and upper bounds) that would rule more of them
// out are not used: the result is complete, not minimal.
func (s *Scan) DeletesFor(f *DataFile) []table.DeleteFile {
	var out []table.DeleteFile
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
		case d.Content == ContentEqualityDeletes:
			content = table.EqualityDeletes
		}
		out = append(out, table.DeleteFile{
			Path: d.Path, StoredPath: d.StoredPath, Format: d.Format, Content: content,
			RecordCount: d.RecordCount, SizeBytes: d.SizeBytes, EqualityIDs: d.EqualityIDs,
			SequenceNumber: d.SequenceNumber, FileSequenceNumber: d.FileSequenceNumber,
			ReferencedDataFile: d.ReferencedDataFile, SpecID: d.SpecID,
		})
	}
	return out
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
