package hostile

import (
	"io"

	"github.com/klauspost/compress/flate"
)

func newDeflate(w io.Writer) (io.WriteCloser, error) {
	return flate.NewWriter(w, flate.BestSpeed)
}
