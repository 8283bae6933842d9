package reader

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/formats/avro"
	"github.com/lakecat/lakecat/formats/orc"
	"github.com/lakecat/lakecat/formats/parquet"
	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/schema"
)

// decoder is what reader needs of a format package's File. Both
// formats/parquet, formats/orc and formats/avro satisfy it through the small adapters
// below; the formats do not import reader.
type decoder interface {
	Schema() *schema.Schema
	NumRows() int64
	batches(proj *schema.Schema, batchRows int, mem memory.Allocator) (batchSource, error)
}

// rowGroupDecoder is a decoder that reads a range of its row groups; the
// rows before the range count for _pos.
type rowGroupDecoder interface {
	decoder
	rowGroupBatches(proj *schema.Schema, batchRows int, mem memory.Allocator, first, count int) (batchSource, int64, error)
}

// batchSource yields decoded batches laid out as schema.ToArrowSchema(proj).
// Next returns io.EOF after the last batch.
type batchSource interface {
	Next(ctx context.Context) (arrow.RecordBatch, error)
	Close() error
}

type parquetDecoder struct{ *parquet.File }

func (d parquetDecoder) batches(proj *schema.Schema, n int, mem memory.Allocator) (batchSource, error) {
	return d.NewBatchReader(proj, parquet.BatchOptions{BatchRows: n, Allocator: mem})
}

func (d parquetDecoder) rowGroupBatches(proj *schema.Schema, n int, mem memory.Allocator, first, count int) (batchSource, int64, error) {
	var before int64
	for i := 0; i < first && i < d.NumRowGroups(); i++ {
		before += d.RowGroupRows(i)
	}
	br, err := d.NewBatchReader(proj, parquet.BatchOptions{BatchRows: n, Allocator: mem, FirstRowGroup: first, RowGroups: count})
	if err != nil {
		return nil, 0, err
	}
	return br, before, nil
}

type orcDecoder struct{ *orc.File }

func (d orcDecoder) batches(proj *schema.Schema, n int, mem memory.Allocator) (batchSource, error) {
	return d.NewBatchReader(proj, orc.BatchOptions{BatchRows: n, Allocator: mem})
}

type avroDecoder struct{ *avro.File }

func (d avroDecoder) batches(proj *schema.Schema, n int, mem memory.Allocator) (batchSource, error) {
	return d.NewBatchReader(proj, avro.BatchOptions{BatchRows: n, Allocator: mem})
}

// parquetOptions returns the Parquet decoder options a read needs: Paimon
// writes TIMESTAMP(7..9) as INT96, whose nanoseconds it keeps.
func parquetOptions(opts Options) []parquet.Option {
	po := []parquet.Option{opts.Limits.parquet()}
	if opts.Rules.SameFormat(project.Paimon) {
		po = append(po, parquet.WithInt96Nanos())
	}
	return po
}

func openDecoder(r io.ReaderAt, size int64, opts Options) (decoder, Format, error) {
	po := parquetOptions(opts)
	name := opts.Name
	if opts.format != "" {
		name = "" // the table's file_format says more than a name
	}
	f, err := DetectFormatNamed(r, size, name)
	if err != nil {
		if opts.format != "" && errors.Is(err, ErrUnknownFormat) && !errors.Is(err, lakecat.ErrCorrupt) {
			return nil, f, fmt.Errorf("%w: the table names its format %s: %v", ErrNotItsFormat, opts.format, err)
		}
		return nil, f, err
	}
	switch f {
	case FormatParquet:
		pf, err := parquet.Open(r, size, po...)
		if err != nil {
			return nil, f, err
		}
		return parquetDecoder{pf}, f, nil
	case FormatAvro:
		af, err := avro.Open(r, size)
		if err != nil {
			return nil, f, err
		}
		return avroDecoder{af}, f, nil
	default:
		of, err := orc.Open(r, size, opts.Limits.orc())
		if err != nil {
			return nil, f, err
		}
		return orcDecoder{of}, f, nil
	}
}
