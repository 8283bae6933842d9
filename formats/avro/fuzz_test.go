package avro_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/hamba/avro/v2/ocf"

	"github.com/lakecat/lakecat/formats/avro"
	"github.com/lakecat/lakecat/internal/hostile"
)

// FuzzOpenAndRead: any input opens and reads (as batches and through
// File.Records) without panicking or leaking;
// errors are ErrCorrupt or ErrUnsupported. Seeds: small containers of each
// codec and the hostile ones (block sizes and counts of 2^40, an array
// count of 2^40, a snappy preamble of 4 GiB). Reading stops after 2^16 rows
// in batches of 512, so that an input claiming many small records does not
// stall the fuzzer.
func FuzzOpenAndRead(f *testing.F) {
	for _, c := range []ocf.CodecName{ocf.Null, ocf.Deflate, ocf.Snappy, ocf.ZStandard} {
		f.Add(writeAvro(f, c, rows(), 1))
	}
	for _, b := range [][]byte{hostile.AvroHugeBlockSize(), hostile.AvroHugeBlockCount(), hostile.AvroHugeArrayCount(), hostile.AvroSnappyClaim(),
		hostile.AvroContainer("deflate", 2, -1, hostile.Compressed("DEFLATE", false, 1<<16)),
		hostile.AvroContainer("zstandard", 2, -1, hostile.Compressed("ZSTD", true, 1<<16))} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		file, err := avro.Open(bytes.NewReader(b), int64(len(b)))
		if err == nil {
			file.NumRows()
			err = readSome(file, mem, 1<<16)
			if rerr := readRecords(file, 1<<16); err == nil {
				err = rerr
			}
		}
		if err != nil && !errors.Is(err, avro.ErrCorrupt) && !errors.Is(err, avro.ErrUnsupported) {
			t.Fatalf("untyped error: %v", err)
		}
	})
}

// readSome reads f in batches of 512 rows until the end or past limit rows.
func readSome(f *avro.File, mem memory.Allocator, limit int64) error {
	br, err := f.NewBatchReader(f.Schema(), avro.BatchOptions{BatchRows: 512, Allocator: mem})
	if err != nil {
		return err
	}
	defer br.Close()
	for n := int64(0); n <= limit; {
		rec, err := br.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		n += rec.NumRows()
		rec.Release()
	}
	return nil
}

// readRecords reads f's records with File.Records until the end or past
// limit records.
func readRecords(f *avro.File, limit int) error {
	n := 0
	for _, err := range f.Records(context.Background()) {
		if err != nil {
			return err
		}
		if n++; n > limit {
			break
		}
	}
	return nil
}
