package avrorec

import (
	"bytes"
	"errors"
	"fmt"

	favro "github.com/lakecat/lakecat/formats/avro"
)

// Open opens data, the whole Avro object container file called name in
// errors, with formats/avro: its [favro.File.Records] is the one decoding
// path for the metadata Avro of every table format (Iceberg manifests and
// manifest lists, Paimon manifests, Hudi instants), bounded by that
// package's caps. Errors match formats/avro.ErrCorrupt, or ErrUnsupported
// for an unknown codec or an Avro schema it does not map.
func Open(data []byte, name string) (*favro.File, error) {
	return favro.Open(bytes.NewReader(data), int64(len(data)), favro.WithName(name))
}

// OpenError wraps an error of [Open] on the metadata file what ("iceberg:
// manifest"): an Avro schema or codec formats/avro does not read keeps its
// ErrUnsupported class, as it has for a data file (README, Errors); any
// other error matches corrupt.
func OpenError(corrupt error, what string, err error) error {
	if errors.Is(err, favro.ErrUnsupported) {
		return fmt.Errorf("%s: %w", what, err)
	}
	return fmt.Errorf("%w: %s: %v", corrupt, what, err)
}
