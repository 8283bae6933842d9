package reader

import (
	"fmt"
	"strings"

	"github.com/lakecat/lakecat"
)

var (
	// ErrUnknownFormat is returned for a file that is neither Parquet nor ORC
	// (wrong magic, empty, or truncated before its magic).
	ErrUnknownFormat = lakecat.NewSentinel(lakecat.ErrUnsupported, "reader: unknown file format")

	// ErrNotItsFormat is returned for a file the table names as Parquet,
	// ORC or Avro (the manifest's file_format) that does not start with
	// that format's magic, or any known one: the file is corrupt or was
	// overwritten, not of a format lakecat lacks.
	ErrNotItsFormat = lakecat.NewSentinel(lakecat.ErrCorrupt, "reader: file is not in the format its table names")

	// ErrBadMagic is returned for a file whose leading magic is damaged
	// while its tail (Parquet's trailing "PAR1", ORC's postscript magic)
	// or its name's extension says which format it is in: a corrupt file
	// of that format, not one of a format lakecat lacks ([DetectFormat],
	// [DetectFormatNamed]).
	ErrBadMagic = lakecat.NewSentinel(lakecat.ErrCorrupt, "reader: damaged magic bytes")

	// ErrNoFieldIDs is returned when a file carries no field ids and nothing
	// was supplied to assign them (a name mapping or the schema the file was
	// written with). lakecat never matches such a file by position or silently
	// returns nulls (Iceberg table spec, "Column Projection").
	ErrNoFieldIDs = lakecat.NewSentinel(lakecat.ErrIncompatibleSchema, "reader: file has no field ids; supply a name mapping or the file's schema")

	// ErrRowGroupRange is returned for a task that selects row groups of a
	// file that is not Parquet (only Parquet files are split into tasks).
	ErrRowGroupRange = lakecat.NewSentinel(lakecat.ErrUnsupported, "reader: a row-group range of a file that is not Parquet")

	// ErrStripeRange is returned for a task that selects stripes
	// (table.Task.FirstStripe, Stripes) of a file that is not ORC.
	ErrStripeRange = lakecat.NewSentinel(lakecat.ErrUnsupported, "reader: a stripe range of a file that is not ORC")
)

// pathError prefixes err with the path of the file it concerns unless the
// error's text names that path already (the *fs.PathError of opening it
// does), so a message names the file once. err stays in the chain.
func pathError(path string, err error) error {
	if strings.Contains(err.Error(), path) {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}
