package puffin

import (
	"encoding/binary"
	"encoding/json"
	"io"
)

// fileMagic starts and ends a Puffin file.
var fileMagic = [4]byte{'P', 'F', 'A', '1'}

// DeletionVectorBlob is one deletion vector to write with
// [WriteDeletionVectors]: the data file it applies to (its path as the
// table stores it) and the blob ([EncodeDeletionVector]).
type DeletionVectorBlob struct {
	ReferencedDataFile string
	Cardinality        int64
	Blob               []byte
}

// BlobLocation is where [WriteDeletionVectors] put a blob: what a manifest
// entry records as content_offset and content_size_in_bytes.
type BlobLocation struct {
	Offset, Length int64
}

// WriteDeletionVectors writes a Puffin file holding blobs (uncompressed,
// with the referenced-data-file and cardinality properties the Iceberg
// spec asks of deletion vectors) and its footer, and returns where each
// blob is.
func WriteDeletionVectors(w io.Writer, blobs []DeletionVectorBlob) ([]BlobLocation, error) {
	type blobMeta struct {
		Type           string            `json:"type"`
		Fields         []int             `json:"fields"`
		SnapshotID     int64             `json:"snapshot-id"`
		SequenceNumber int64             `json:"sequence-number"`
		Offset         int64             `json:"offset"`
		Length         int64             `json:"length"`
		Properties     map[string]string `json:"properties"`
	}
	var footer struct {
		Blobs      []blobMeta        `json:"blobs"`
		Properties map[string]string `json:"properties"`
	}
	footer.Properties = map[string]string{"created-by": "lakecat"}
	var out []byte
	out = append(out, fileMagic[:]...)
	locs := make([]BlobLocation, len(blobs))
	for i, b := range blobs {
		locs[i] = BlobLocation{Offset: int64(len(out)), Length: int64(len(b.Blob))}
		footer.Blobs = append(footer.Blobs, blobMeta{Type: BlobType, Fields: []int{2147483645}, SnapshotID: -1, SequenceNumber: -1,
			Offset: locs[i].Offset, Length: locs[i].Length,
			Properties: map[string]string{"referenced-data-file": b.ReferencedDataFile, "cardinality": itoa(b.Cardinality)}})
		out = append(out, b.Blob...)
	}
	payload, err := json.Marshal(footer)
	if err != nil {
		return nil, err
	}
	out = append(out, fileMagic[:]...)
	out = append(out, payload...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(payload)))
	out = append(out, 0, 0, 0, 0) // flags: payload not compressed
	out = append(out, fileMagic[:]...)
	_, err = w.Write(out)
	return locs, err
}

func itoa(v int64) string {
	b, _ := json.Marshal(v)
	return string(b)
}
