package reader

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/formats/avro"
)

// avroClass files an error of formats/avro under its lakecat class: its
// *avro.CorruptError matches avro.ErrCorrupt but not lakecat.ErrCorrupt
// (found by the reader/fuzzopen fuzz target), so the reader adds the class.
// Errors that already have one pass unchanged.
func avroClass(err error) error {
	switch {
	case err == nil || lakecat.ClassOf(err) != nil:
		return err
	case errors.Is(err, avro.ErrCorrupt):
		return lakecat.Classify(lakecat.ErrCorrupt, err)
	case errors.Is(err, avro.ErrUnsupported):
		return lakecat.Classify(lakecat.ErrUnsupported, err)
	}
	return err
}

// avroBatches is an avro batch reader whose errors carry their class.
type avroBatches struct{ *avro.BatchReader }

func (b avroBatches) Next(ctx context.Context) (arrow.RecordBatch, error) {
	rec, err := b.BatchReader.Next(ctx)
	return rec, avroClass(err)
}
