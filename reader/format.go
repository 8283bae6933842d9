package reader

import (
	"bytes"
	"fmt"
	"io"

	"github.com/lakecat/lakecat/formats/avro"
)

// Format is a data file format, detected by magic bytes.
type Format int

// The data file formats lakecat reads.
const (
	FormatUnknown Format = iota
	FormatParquet        // "PAR1" at the start and the end (Parquet format spec, "File format")
	FormatORC            // "ORC" at the start (ORC v1 spec, "File Tail"; a 0.11 Hive file also starts with it)
	FormatAvro           // "Obj\x01" at the start (Avro spec, "Object Container Files")
)

// String returns "parquet", "orc", "avro" or "unknown".
func (f Format) String() string {
	switch f {
	case FormatParquet:
		return "parquet"
	case FormatORC:
		return "orc"
	case FormatAvro:
		return "avro"
	}
	return "unknown"
}

// DetectFormat reads the first and last bytes of a file of size bytes and
// reports its format. A file that is neither Parquet, ORC nor Avro, or too
// short to be one, returns [ErrUnknownFormat]. A file of fewer than 3 bytes,
// or one with the leading Parquet magic but too short or without the
// trailing one, is cut short: its error is of class lakecat.ErrCorrupt
// instead of lakecat.ErrUnsupported (and for Parquet matches
// [parquet.ErrCorrupt]).
func DetectFormat(r io.ReaderAt, size int64) (Format, error) {
	var head [4]byte
	if size < 3 {
		return FormatUnknown, truncatedf(false, "%d bytes", size)
	}
	n, err := r.ReadAt(head[:min(4, size)], 0)
	if err != nil && err != io.EOF {
		return FormatUnknown, err
	}
	switch {
	case n >= 4 && bytes.Equal(head[:4], []byte("PAR1")):
		if size < 12 {
			return FormatUnknown, truncatedf(true, "Parquet magic but only %d bytes", size)
		}
		var tail [4]byte
		if _, err := r.ReadAt(tail[:], size-4); err != nil && err != io.EOF {
			return FormatUnknown, err
		}
		if !bytes.Equal(tail[:], []byte("PAR1")) {
			return FormatUnknown, truncatedf(true, "Parquet file without the trailing PAR1 magic (truncated?)")
		}
		return FormatParquet, nil
	case n >= 3 && bytes.Equal(head[:3], []byte("ORC")):
		return FormatORC, nil
	case n >= 4 && bytes.Equal(head[:4], []byte(avro.Magic)):
		return FormatAvro, nil
	}
	return FormatUnknown, fmt.Errorf("%w: magic %q", ErrUnknownFormat, head[:n])
}
