package avro_test

import (
	"bytes"
	"testing"

	"github.com/hamba/avro/v2/ocf"

	"github.com/lakecat/lakecat/formats/avro"
)

// FuzzOpenAndRead: any input opens and reads without panicking; errors are
// ErrCorrupt or ErrUnsupported.
func FuzzOpenAndRead(f *testing.F) {
	for _, c := range []ocf.CodecName{ocf.Null, ocf.Deflate, ocf.Snappy, ocf.ZStandard} {
		f.Add(writeAvro(f, c, rows(), 1))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := avro.Open(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return
		}
		file.NumRows()
		readErr(file)
	})
}
