package avrorec

import (
	"bytes"

	"github.com/hamba/avro/v2"
	"github.com/hamba/avro/v2/ocf"

	favro "github.com/lakecat/lakecat/formats/avro"
)

// MaxArrayItems caps the items of one array value hamba/avro decodes
// (Config.MaxSliceAllocSize, summed over the array's blocks): 2^21. A
// manifest's longest arrays hold one entry per column (column_sizes,
// lower_bounds) or row group (split_offsets); without the cap one array
// block count of 2^40 makes hamba allocate the slice at once and the
// process dies of a fatal out-of-memory error.
const MaxArrayItems = 1 << 21

var decoderAPI = avro.Config{MaxSliceAllocSize: MaxArrayItems}.Freeze()

// NewDecoder returns a hamba/avro container decoder over data, the whole
// Avro object container file name, after formats/avro.CheckContainer read
// it under that package's caps: hamba's block reader allocates a block's
// stated size and its codecs decompress without a bound, so a block size of
// 2^40 or a decompression bomb would kill the process before an error
// could be returned. Records are decoded with [MaxArrayItems]. Errors of
// the check match formats/avro.ErrCorrupt (or ErrUnsupported for an
// unknown codec).
func NewDecoder(data []byte, name string) (*ocf.Decoder, error) {
	if err := favro.CheckContainer(bytes.NewReader(data), int64(len(data)), name); err != nil {
		return nil, err
	}
	return ocf.NewDecoder(bytes.NewReader(data), ocf.WithDecoderConfig(decoderAPI))
}
