package reader

import (
	"sync/atomic"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/formats/parquet"
)

// Position deletes and deletion vectors of a Parquet data file can be
// applied inside the decoder (parquet.BatchOptions.Skip; see
// decoderSkipOff): the deleted rows' values
// are stepped over in the decoded pages and never copied into a batch, so
// the batches hold the live rows only, and their file positions come from
// the decoder ([parquet.BatchReader.LastRows]). ORC and Avro files, and
// reads that flag deleted rows in _deleted instead of dropping them, filter
// the decoded batches ([fileDeletes.apply]).

// skipSource is a batch source that leaves out the rows of a skip set
// while decoding: lastRows gives the file rows of the batch Next returned
// last, rowsDone the rows read or skipped so far.
type skipSource interface {
	batchSource
	lastRows() []parquet.RowRange
	rowsDone() int64
}

// skipReader is a [skipSource] over one Parquet batch reader.
type skipReader struct{ *parquet.BatchReader }

func (s skipReader) lastRows() []parquet.RowRange { return s.LastRows() }
func (s skipReader) rowsDone() int64              { return s.RowsDone() }

// decoderSkip returns the rows the decoder of dec should leave out for
// the deletes del: the positions they delete when dec is a Parquet file
// and the read drops deleted rows (no _deleted column), else nil.
func decoderSkip(dec decoder, del *fileDeletes) *roaring64.Bitmap {
	if decoderSkipOff || del == nil || del.positions == nil || del.positions.IsEmpty() || del.deleted >= 0 || del.ignore {
		return nil
	}
	if _, ok := dec.(parquetDecoder); !ok {
		return nil
	}
	decoderSkipFiles.Add(1)
	return del.positions
}

// decoderSkipOff turns the decoder's skipping off and decoderSkipFiles
// counts the files read with it (tests compare both ways). It is on by
// default: every flat column the lakebench tables hold (4- and 8-byte
// values, INT32 and INT64 decimals, byte arrays) takes the kept rows of a
// page in one pass, so the deleted rows cost a step over their levels
// rather than a second copy of the whole batch.
var (
	decoderSkipOff   = false
	decoderSkipFiles atomic.Int64
)

// rowAt returns the file position of row i of a batch whose rows are the
// ranges rows.
func rowAt(rows []parquet.RowRange, i int64) int64 {
	for _, r := range rows {
		if n := r.End - r.Start; i < n {
			return r.Start + i
		} else {
			i -= n
		}
	}
	return -1
}

// setRangePositions sets column col of rec (the _pos column) to the file
// positions of its rows, the ranges rows, and releases rec.
func setRangePositions(rec arrow.RecordBatch, col int, rows []parquet.RowRange, mem memory.Allocator) arrow.RecordBatch {
	n := int(rec.NumRows())
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * 8)
	vals := arrow.Int64Traits.CastFromBytes(buf.Bytes())
	k := 0
	for _, r := range rows {
		for p := r.Start; p < r.End && k < n; p++ {
			vals[k] = p
			k++
		}
	}
	data := array.NewData(arrow.PrimitiveTypes.Int64, n, []*memory.Buffer{nil, buf}, nil, 0, 0)
	pos := array.MakeFromData(data)
	data.Release()
	buf.Release()
	cols := make([]arrow.Array, rec.NumCols())
	copy(cols, rec.Columns())
	cols[col] = pos
	out := array.NewRecordBatch(rec.Schema(), cols, int64(n))
	pos.Release()
	rec.Release()
	return out
}
