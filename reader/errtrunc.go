package reader

import (
	"fmt"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/formats/parquet"
)

// truncatedError is the error for a file too short to hold any format's
// magic (an empty upload), or one that starts like a Parquet file but is too
// short or lacks the trailing magic: it matches [ErrUnknownFormat] (the
// format cannot be confirmed) and, since the file is evidently cut short,
// the class [lakecat.ErrCorrupt] — not [lakecat.ErrUnsupported]. The Parquet
// case also matches [parquet.ErrCorrupt].
type truncatedError struct {
	msg     string
	parquet bool
}

func truncatedf(parquet bool, format string, args ...any) error {
	return &truncatedError{msg: fmt.Sprintf(format, args...), parquet: parquet}
}

func (e *truncatedError) Error() string { return ErrUnknownFormat.Error() + ": " + e.msg }

func (e *truncatedError) Is(target error) bool {
	return target == ErrUnknownFormat || target == lakecat.ErrCorrupt || (e.parquet && target == parquet.ErrCorrupt)
}
