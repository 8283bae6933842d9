package reader

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/formats/avro"
	"github.com/lakecat/lakecat/formats/orc"
	"github.com/lakecat/lakecat/formats/parquet"
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
// [parquet.ErrCorrupt]). A file whose leading magic is none of them but
// whose tail is a Parquet file's (the "PAR1" magic after its footer) or an
// ORC file's (the postscript's "ORC" magic before its length byte) is that
// format damaged: [ErrBadMagic], of class lakecat.ErrCorrupt, matching the
// format's ErrCorrupt too.
func DetectFormat(r io.ReaderAt, size int64) (Format, error) {
	return DetectFormatNamed(r, size, "")
}

// DetectFormatNamed is [DetectFormat] for a file named name (a path or URL;
// "" for none): a file whose magic, leading and trailing, is none known but
// whose name ends in .parquet, .orc or .avro (in any case) is that format
// damaged, [ErrBadMagic], not of an unknown format. The name is not part of
// the error: callers name the file, as for every other error.
func DetectFormatNamed(r io.ReaderAt, size int64, name string) (Format, error) {
	f, err := detectFormat(r, size)
	if err == nil || !errors.Is(err, ErrUnknownFormat) || errors.Is(err, lakecat.ErrCorrupt) {
		return f, err
	}
	var tail [4]byte
	if size >= 12 {
		if _, err := r.ReadAt(tail[:], size-4); err != nil && err != io.EOF {
			return FormatUnknown, err
		}
	}
	head := magicHead(r, size)
	switch {
	case bytes.Equal(tail[:], []byte("PAR1")):
		return FormatUnknown, badMagic(FormatParquet, "its trailing magic", head)
	case bytes.Equal(tail[:3], []byte("ORC")) && tail[3] > 0:
		return FormatUnknown, badMagic(FormatORC, "its postscript's magic", head)
	}
	ext := strings.ToLower(path.Ext(strings.TrimRight(name, "/")))
	for _, x := range []Format{FormatParquet, FormatORC, FormatAvro} {
		if ext == "."+x.String() {
			return FormatUnknown, badMagic(x, "its name's extension "+ext, head)
		}
	}
	return f, err
}

// magicHead returns the first 4 bytes of the file (fewer when it is
// shorter or they do not read).
func magicHead(r io.ReaderAt, size int64) []byte {
	var head [4]byte
	n, _ := r.ReadAt(head[:min(4, max(size, 0))], 0)
	return head[:n]
}

// badMagicError is a file of format whose leading magic is damaged: it
// matches [ErrBadMagic] (class lakecat.ErrCorrupt) and the format
// package's ErrCorrupt.
type badMagicError struct {
	format Format
	by     string // what says the file is of format
	head   []byte
}

func badMagic(f Format, by string, head []byte) error {
	return &badMagicError{format: f, by: by, head: head}
}

func (e *badMagicError) Error() string {
	want := map[Format]string{FormatParquet: "PAR1", FormatORC: "ORC", FormatAvro: avro.Magic}[e.format]
	head := e.head[:min(len(e.head), len(want))]
	return fmt.Sprintf("%s: %s file by %s, but its leading magic is %q, not %q", ErrBadMagic, formatTitle(e.format), e.by, head, want)
}

func (e *badMagicError) Unwrap() []error {
	switch e.format {
	case FormatParquet:
		return []error{ErrBadMagic, parquet.ErrCorrupt}
	case FormatORC:
		return []error{ErrBadMagic, orc.ErrCorrupt}
	}
	return []error{ErrBadMagic, avro.ErrCorrupt}
}

// formatTitle spells a format as its project does.
func formatTitle(f Format) string {
	switch f {
	case FormatParquet:
		return "Parquet"
	case FormatORC:
		return "ORC"
	case FormatAvro:
		return "Avro"
	}
	return "unknown"
}

// detectFormat is [DetectFormat] by the leading magic (and Parquet's
// trailing one) alone.
func detectFormat(r io.ReaderAt, size int64) (Format, error) {
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
