package parquet

import "github.com/lakecat/lakecat/schema"

// DecodeBytes estimates, in bytes, the decode state a batch reader over
// proj, row groups first..first+count-1 (count 0: to the end) and batches
// of batchRows rows (0: [DefaultBatchRows]) holds at once, from the footer
// alone (parquet.thrift ColumnMetaData), as the largest over those row
// groups of a sum over the leaf columns the projection reads of:
//
//   - the page being decoded, compressed and decompressed: at most
//     [DecodePageBytes] and at most the chunk's total_compressed_size plus
//     total_uncompressed_size;
//   - the dictionary page, compressed (data_page_offset less
//     dictionary_page_offset) and decoded (scaled by the chunk's
//     uncompressed to compressed ratio);
//   - the batch buffers the reader recycles, three batches of batchRows
//     values at the chunk's mean uncompressed bytes per value.
//
// It is an estimate: a writer's pages larger than [DecodePageBytes] hold
// more. proj is as for [File.NewBatchReader], whose errors DecodeBytes
// returns. No page is read.
func (f *File) DecodeBytes(proj *schema.Schema, first, count, batchRows int) (int64, error) {
	br, err := f.NewBatchReader(proj, BatchOptions{FirstRowGroup: first, RowGroups: count})
	if err != nil {
		return 0, err
	}
	defer br.Close()
	if count == 0 {
		count = len(f.meta.RowGroups) - first
	}
	if len(br.readers) == 0 || count == 0 {
		return 0, nil
	}
	if batchRows <= 0 {
		batchRows = DefaultBatchRows
	}
	pf, err := f.pqFileOnce()
	if err != nil {
		return 0, err
	}
	rgs := pf.Metadata().RowGroups
	if first+count > len(rgs) {
		return 0, corruptf(f.name, -1, "footer", "parquet-go sees %d row groups, footer lists %d", len(rgs), len(f.meta.RowGroups))
	}
	var most int64
	for _, rg := range rgs[first : first+count] {
		var n int64
		for _, lr := range br.readers {
			if lr.col >= len(rg.Columns) {
				return 0, corruptf(f.name, -1, "footer", "row group has %d column chunks, column %d selected", len(rg.Columns), lr.col)
			}
			md := rg.Columns[lr.col].MetaData
			c := min(max(md.TotalCompressedSize, 0), maxDecodeEstimate)
			u := min(max(md.TotalUncompressedSize, 0), maxDecodeEstimate)
			state := min(c+u, DecodePageBytes)
			if d := md.DataPageOffset - md.DictionaryPageOffset; md.DictionaryPageOffset > 0 && d > 0 && d <= c && c > 0 {
				state += d + min(u, d*(u/c+1))
			}
			state = min(state, c+u)
			if vals := md.NumValues; vals > 0 {
				state += min(u, u/vals*int64(min(int64(batchRows), vals))*3)
			}
			n = min(n+state, maxDecodeEstimate)
		}
		most = max(most, n)
	}
	return most, nil
}

// DecodePageBytes is the most [File.DecodeBytes] counts for the page a
// column is decoding, compressed and decompressed: twice the 1 MiB data
// page size parquet-mr and Arrow write by default (parquet-go writes
// 256 KiB pages).
const DecodePageBytes = 2 << 20

// maxDecodeEstimate caps each size [File.DecodeBytes] adds (1 TiB): the
// footer's sizes are the file's word, and the sum must not overflow.
const maxDecodeEstimate = 1 << 40
