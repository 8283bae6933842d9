package parquet

import (
	"fmt"

	"github.com/parquet-go/parquet-go/encoding/thrift"

	"github.com/lakecat/lakecat/schema"
)

// PageStats are the page index entries of one data page of a column chunk
// (Parquet format, PageIndex.md): where its rows are, from the offset
// index, and its statistics, from the column index.
type PageStats struct {
	// FirstRow is the page's first row, counted from the row group's
	// first row; Rows is the number of rows it holds.
	FirstRow, Rows int64
	// NullPage: every value of the page is null (its bounds are unset):
	// null_pages says so and null_counts agrees. A null page without a
	// null count of all its rows has no bounds and NullPage false.
	NullPage bool
	// NullCount is the page's number of nulls, or -1 when the writer left
	// null_counts out.
	NullCount int64
	// Min and Max bound the page's non-null values inclusively, in the Go
	// form of the leaf's type as in [ColumnStats]; nil when unknown.
	Min, Max any
	// Offset and Bytes locate the page (header included) in the file.
	Offset int64
	Bytes  int64
}

// columnIndex mirrors ColumnIndex (parquet.thrift).
type columnIndex struct {
	NullPages     []bool   `thrift:"1,required"`
	MinValues     [][]byte `thrift:"2,required"`
	MaxValues     [][]byte `thrift:"3,required"`
	BoundaryOrder int32    `thrift:"4,required"`
	NullCounts    []int64  `thrift:"5,optional"`
}

// offsetIndex mirrors OffsetIndex (parquet.thrift).
type offsetIndex struct {
	PageLocations []pageLocation `thrift:"1,required"`
}

type pageLocation struct {
	Offset             int64 `thrift:"1,required"`
	CompressedPageSize int32 `thrift:"2,required"`
	FirstRowIndex      int64 `thrift:"3,required"`
}

// maxPageIndexBytes bounds one column or offset index read: a larger one
// is not read (the pages are all read).
const maxPageIndexBytes = 16 << 20

// PageIndexOf returns the pages of the leaf column leaf (a field of
// [File.Schema] outside lists and maps) in row group rowGroup, with their
// rows and statistics, from the chunk's offset index and column index
// (Parquet format, PageIndex.md), each read in one ranged read. It returns
// nil and no error when the chunk lacks either index, an index is larger
// than 16 MiB, or the leaf is not such a column: then every page may hold
// any value. The bounds are decoded as [File.ColumnStatsOf] decodes
// min_value/max_value (the column index is always in the column's type
// order); INT96 and FLOAT16 pages have none, and a NaN bound is dropped.
//
// Errors: an index outside the file, one that does not decode, lists of
// different lengths, page first rows that do not start at 0 and go up
// within the row group, or page locations outside the file give a
// [*CorruptError] (matching [ErrCorrupt]) naming the file and the offset;
// a failed read names the file too.
func (f *File) PageIndexOf(rowGroup int, leaf *schema.Field) ([]PageStats, error) {
	f.stats.once.Do(f.buildStatsIndex)
	col, ok := f.stats.byField[leaf]
	if !ok || rowGroup < 0 || rowGroup >= len(f.meta.RowGroups) || col >= len(f.meta.RowGroups[rowGroup].Columns) {
		return nil, nil
	}
	cc := &f.meta.RowGroups[rowGroup].Columns[col]
	if !cc.OffsetIndexOffset.Valid || !cc.OffsetIndexLength.Valid || !cc.ColumnIndexOffset.Valid || !cc.ColumnIndexLength.Valid {
		return nil, nil
	}
	where := fmt.Sprintf("column %s, row group %d", f.leaves[col].path, rowGroup)
	locs, err := f.offsetIndexAt(rowGroup, col)
	if locs == nil || err != nil {
		return nil, err
	}
	var ci columnIndex
	if ok, err := f.readIndex(cc.ColumnIndexOffset.V, cc.ColumnIndexLength.V, "column index", where, &ci); !ok || err != nil {
		return nil, err
	}
	off := cc.ColumnIndexOffset.V
	n := len(locs)
	if len(ci.NullPages) != n || len(ci.MinValues) != n || len(ci.MaxValues) != n || (ci.NullCounts != nil && len(ci.NullCounts) != n) {
		return nil, corruptf(f.name, off, "column index", "%d pages in the offset index, %d/%d/%d/%d null_pages/min_values/max_values/null_counts in the column index (%s)",
			n, len(ci.NullPages), len(ci.MinValues), len(ci.MaxValues), len(ci.NullCounts), where)
	}
	rows := f.meta.RowGroups[rowGroup].NumRows
	ln := f.leaves[col]
	_, conv := leafType(ln)
	pt, _ := leaf.Type.(schema.PrimitiveType)
	out := make([]PageStats, n)
	for i, pl := range locs {
		end := rows
		if i+1 < n {
			end = locs[i+1].FirstRowIndex
		}
		p := PageStats{FirstRow: pl.FirstRowIndex, Rows: end - pl.FirstRowIndex, NullCount: -1, Offset: pl.Offset, Bytes: int64(pl.CompressedPageSize)}
		if ci.NullCounts != nil && ci.NullCounts[i] >= 0 {
			p.NullCount = ci.NullCounts[i]
		}
		// A null page is trusted only when its null count says so:
		// parquet-mr 1.13 without statistics marks every page null
		// (parquet-testing's datapage_v1-*-checksum.parquet, required
		// columns), which would skip every row.
		p.NullPage = ci.NullPages[i] && p.NullCount == p.Rows
		if !ci.NullPages[i] {
			p.Min = statValue(ci.MinValues[i], pt, conv)
			p.Max = statValue(ci.MaxValues[i], pt, conv)
		}
		out[i] = p
	}
	return out, nil
}

// offsetIndexAt returns the page locations of the offset index of column
// chunk col of row group rowGroup, checked: at least one page, first rows
// from 0 going up within the row group, each page inside the file. It
// returns nil and no error when the chunk has no offset index or it is
// over maxPageIndexBytes.
func (f *File) offsetIndexAt(rowGroup, col int) ([]pageLocation, error) {
	cc := &f.meta.RowGroups[rowGroup].Columns[col]
	if !cc.OffsetIndexOffset.Valid || !cc.OffsetIndexLength.Valid {
		return nil, nil
	}
	where := fmt.Sprintf("column %s, row group %d", f.leaves[col].path, rowGroup)
	var oi offsetIndex
	if ok, err := f.readIndex(cc.OffsetIndexOffset.V, cc.OffsetIndexLength.V, "offset index", where, &oi); !ok || err != nil {
		return nil, err
	}
	locs := oi.PageLocations
	n := len(locs)
	if n == 0 {
		return nil, corruptf(f.name, cc.OffsetIndexOffset.V, "offset index", "no pages (%s)", where)
	}
	rows := f.meta.RowGroups[rowGroup].NumRows
	for i, pl := range locs {
		end := rows
		if i+1 < n {
			end = locs[i+1].FirstRowIndex
		}
		if (i == 0 && pl.FirstRowIndex != 0) || pl.FirstRowIndex < 0 || end <= pl.FirstRowIndex || end > rows {
			return nil, corruptf(f.name, cc.OffsetIndexOffset.V, "offset index", "page %d starts at row %d, the next at %d, in a row group of %d rows (%s)", i, pl.FirstRowIndex, end, rows, where)
		}
		if pl.Offset < 4 || pl.CompressedPageSize <= 0 || int64(pl.CompressedPageSize) > f.size-8-pl.Offset {
			return nil, corruptf(f.name, cc.OffsetIndexOffset.V, "offset index", "page %d at offset %d of %d bytes does not fit in the file of %d bytes (%s)", i, pl.Offset, pl.CompressedPageSize, f.size, where)
		}
	}
	return locs, nil
}

// readIndex reads and decodes the index of length bytes at off into v.
// ok is false, with no error, when the index is over maxPageIndexBytes.
func (f *File) readIndex(off int64, length int32, section, where string, v any) (bool, error) {
	if off < 4 || length <= 0 || off >= f.size-8 || int64(length) > f.size-8-off {
		return false, corruptf(f.name, off, section, "%d bytes at offset %d do not fit in the file of %d bytes (%s)", length, off, f.size, where)
	}
	if length > maxPageIndexBytes {
		return false, nil
	}
	buf := make([]byte, length)
	if err := readFull(f.r, buf, off); err != nil {
		return false, readErr(f.name, off, section, err)
	}
	if _, err := checkCompact(buf, maxThriftDepth, 8*maxPageIndexBytes); err != nil {
		return false, corruptf(f.name, off, section, "%v (%s)", err, where)
	}
	if err := decodeThrift(buf, v); err != nil {
		return false, corruptf(f.name, off, section, "%v (%s)", err, where)
	}
	return true, nil
}

// decodeThrift decodes thrift compact bytes into v, turning a panic inside
// the thrift decoder into an error.
func decodeThrift(b []byte, v any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("thrift decoder: %v", r)
		}
	}()
	return thrift.Unmarshal(new(thrift.CompactProtocol), b, v)
}
