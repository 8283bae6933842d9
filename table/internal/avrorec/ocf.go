package avrorec

import (
	"bytes"

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
