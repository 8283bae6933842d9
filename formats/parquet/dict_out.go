package parquet

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/internal/arrowdict"
)

// DictionaryIndexType is the index type of the dictionary arrays
// [BatchOptions.DictionaryFields] asks for.
var DictionaryIndexType = arrow.PrimitiveTypes.Int32

// dictOut is the state of a leaf column returned as an Arrow dictionary
// array ([BatchOptions.DictionaryFields]). A batch whose values all come
// from dictionary-encoded pages of one column chunk is the chunk's indices
// over the chunk's dictionary, decoded once per chunk into an Arrow array
// the batches of that chunk share. A batch that meets a PLAIN page (a
// writer's fallback when the dictionary grows large), or another chunk's
// dictionary, or is read with a row selection, collects its values as a
// string or binary array, dictionary-encoded when the batch is built.
type dictOut struct {
	dtype *arrow.DictionaryType
	// chunk is the current column chunk's dictionary as Arrow values,
	// built from the dictionary page on the first batch that needs it
	// (chunkGen is the leaf reader's dictGen then); nil before.
	chunk    arrow.ArrayData
	chunkGen uint64
	// batch is the dictionary the batch's indices refer to (a reference
	// of its own), nil before the batch takes a value.
	batch arrow.ArrayData
	// plain: the batch collects values, not indices; always: every batch
	// does (a reader with a row selection).
	plain, always bool
}

// dictionaryFields checks the fields of proj opts names (indices into
// proj.Fields) and returns them as a set; each must be a top-level string
// or binary column stored as BYTE_ARRAY.
func dictionaryFields(proj int, idx []int) (map[int]bool, error) {
	if len(idx) == 0 {
		return nil, nil
	}
	set := make(map[int]bool, len(idx))
	for _, i := range idx {
		if i < 0 || i >= proj {
			return nil, fmt.Errorf("parquet: DictionaryFields names field %d of a projection of %d", i, proj)
		}
		set[i] = true
	}
	return set, nil
}

// setDictionary makes the leaf of sn, top-level field i, a dictionary
// column and changes field i of br.schema to its dictionary type.
func (br *BatchReader) setDictionary(sn *selNode, i int) error {
	lr := sn.leaf
	id := sn.dtype.ID()
	if lr == nil || lr.conv.op != opBytes || lr.maxRep != 0 || lr.keepLevels || (id != arrow.STRING && id != arrow.BINARY) {
		return fmt.Errorf("parquet: %s: DictionaryFields names %q, a %s, not a top-level string or binary column",
			displayName(br.f.name), sn.ln.field.Name, sn.dtype)
	}
	if lr.dout != nil {
		return nil
	}
	dt := &arrow.DictionaryType{IndexType: DictionaryIndexType, ValueType: sn.dtype}
	lr.dout = &dictOut{dtype: dt}
	fields := br.schema.Fields()
	fields[i].Type = dt
	md := br.schema.Metadata()
	br.schema = arrow.NewSchema(fields, &md)
	return nil
}

// beginDict starts a batch of a dictionary column.
func (lr *leafReader) beginDict(nRows int) {
	d := lr.dout
	if d.batch != nil {
		d.batch.Release()
		d.batch = nil
	}
	d.plain = d.always
	lr.fixed.reset(lr.mem)
	lr.fixed.reserve(4 * nRows)
}

// chunkDictionary returns the current column chunk's dictionary as Arrow
// values of the column's type, building it from the decoded dictionary
// page on first use.
func (lr *leafReader) chunkDictionary() arrow.ArrayData {
	d := lr.dout
	if d.chunk != nil && d.chunkGen == lr.dictGen {
		return d.chunk
	}
	if d.chunk != nil {
		d.chunk.Release()
	}
	n := len(lr.dictOffs) - 1
	offs := memory.NewResizableBuffer(lr.dataMem)
	offs.Resize(4 * (n + 1))
	copy(arrow.Int32Traits.CastFromBytes(offs.Bytes()), lr.dictOffs)
	size := int(lr.dictOffs[n])
	data := memory.NewResizableBuffer(lr.dataMem)
	data.Resize(size)
	copy(data.Bytes(), lr.dictData[:size])
	d.chunk = array.NewData(d.dtype.ValueType, n, []*memory.Buffer{nil, offs, data}, nil, 0, 0)
	offs.Release()
	data.Release()
	d.chunkGen = lr.dictGen
	return d.chunk
}

// takeIndices appends entries [start, end) of the current page to the
// batch as dictionary indices, when the page is dictionary-encoded and the
// batch's indices so far refer to the same dictionary; otherwise it turns
// the batch into collected values and reports false, and the caller takes
// the entries as values.
func (lr *leafReader) takeIndices(start, end int) (bool, error) {
	d := lr.dout
	if !lr.dictPage {
		return false, lr.dictToValues()
	}
	dict := lr.chunkDictionary()
	if d.batch == nil {
		dict.Retain()
		d.batch = dict
	} else if d.batch != dict {
		return false, lr.dictToValues()
	}
	lr.pos = end
	n := end - start
	base := lr.entries
	lr.entries += n
	nd := uint32(dict.Len())
	out := lr.fixed.extend(4 * n)
	cnt := n
	var dl []byte
	if lr.maxDef > 0 {
		dl = lr.def[start:end]
		cnt = bytes.Count(dl, []byte{lr.maxDef})
		lr.setValid(base, dl, lr.maxDef, cnt)
	}
	v0 := lr.vpos
	if v0+cnt > len(lr.idx) {
		return true, lr.corrupt("%v", errShortPage)
	}
	idx := lr.idx[v0 : v0+cnt]
	lr.vpos += cnt
	lr.nvals += cnt
	if err := checkIndices(idx, nd); err != nil {
		return true, lr.corrupt("%v", err)
	}
	if cnt == n {
		copy(arrow.Int32Traits.CastFromBytes(out), idx)
	} else {
		scatterFixed(out, arrow.Int32Traits.CastToBytes(idx), 4, dl, lr.maxDef)
	}
	return true, nil
}

// checkIndices returns an error when an index is not below nd.
func checkIndices(idx []int32, nd uint32) error {
	var bad uint32
	for _, x := range idx {
		if uint32(x) >= nd {
			bad = 1
		}
	}
	if bad == 0 {
		return nil
	}
	for _, x := range idx {
		if uint32(x) >= nd {
			return errDictIndex(x, nd)
		}
	}
	return nil
}

// dictToValues turns the batch of a dictionary column into collected
// values: the indices taken so far become their strings in the batch's
// offsets and data, as the plain path lays them out (a null entry of a
// flat optional column has an empty value).
func (lr *leafReader) dictToValues() error {
	d := lr.dout
	d.plain = true
	if d.batch == nil {
		return nil
	}
	dict := d.batch
	d.batch = nil
	defer dict.Release()
	n := lr.entries
	idx := arrow.Int32Traits.CastFromBytes(lr.fixed.b.Bytes()[:lr.fixed.n])[:n]
	lr.fixed.n = 0
	do := arrow.Int32Traits.CastFromBytes(dict.Buffers()[1].Bytes())
	dd := dict.Buffers()[2].Bytes()
	var bits []byte
	if lr.maxDef > 0 && lr.nulls > 0 {
		lr.fillValid(n)
		bits = lr.valid.b.Bytes()
	}
	total := 0
	for i, x := range idx {
		if bits == nil || bitutil.BitIsSet(bits, i) {
			total += int(do[x+1] - do[x])
		}
	}
	if lr.vdata.n+total > maxBatchBytes {
		return unsupportedf("column %s: more than %d bytes of values in one batch; use a smaller BatchRows", lr.ln.phys.path, maxBatchBytes)
	}
	base := lr.vdata.n
	data := lr.vdata.extend(total)
	out := arrow.Int32Traits.CastFromBytes(lr.voffs.extend(4 * n))
	p := 0
	for i, x := range idx {
		if bits == nil || bitutil.BitIsSet(bits, i) {
			p += copy(data[p:], dd[do[x]:do[x+1]])
		}
		out[i] = int32(base + p)
	}
	return nil
}

// buildDictLeaf builds the dictionary array of a dictionary column's batch.
func (br *BatchReader) buildDictLeaf(sn *selNode) (arrow.ArrayData, error) {
	lr := sn.leaf
	d := lr.dout
	if d.plain {
		pd, err := br.buildLeaf(sn)
		if err != nil {
			return nil, err
		}
		arr := array.MakeFromData(pd)
		pd.Release()
		defer arr.Release()
		enc, err := arrowdict.Encode(lr.dataMem, d.dtype, arr)
		if err != nil {
			return nil, lr.corrupt("%v", err)
		}
		defer enc.Release()
		out := enc.Data()
		out.Retain()
		return out, nil
	}
	n, nulls := lr.entries, lr.nulls
	if n-nulls != lr.nvals {
		return nil, lr.corrupt("%d values for %d non-null slots", lr.nvals, n-nulls)
	}
	var bm *memory.Buffer
	if nulls > 0 {
		lr.fillValid(n)
		bm = lr.valid.take()
		bm.ResizeNoShrink(int(bitutil.BytesForBits(int64(n))))
		defer bm.Release()
	}
	idx := lr.fixed.take()
	defer idx.Release()
	dict := d.batch
	d.batch = nil
	if dict == nil {
		// No entry (an empty batch).
		offs := memory.NewResizableBuffer(lr.dataMem)
		offs.Resize(4)
		clear(offs.Bytes())
		dict = array.NewData(d.dtype.ValueType, 0, []*memory.Buffer{nil, offs, nil}, nil, 0, 0)
		offs.Release()
	}
	defer dict.Release()
	return array.NewDataWithDictionary(d.dtype, n, []*memory.Buffer{bm, idx}, nulls, 0, dict.(*array.Data)), nil
}

// closeDict releases the dictionaries a dictionary column holds.
func (lr *leafReader) closeDict() {
	d := lr.dout
	if d == nil {
		return
	}
	if d.batch != nil {
		d.batch.Release()
		d.batch = nil
	}
	if d.chunk != nil {
		d.chunk.Release()
		d.chunk = nil
	}
}

// dictGroupEnds returns the file row at which each row group of the range
// a reader reads ends, for dictionary batches that stop at row group ends.
func (br *BatchReader) dictGroupEnds(first, count int) []int64 {
	ends := make([]int64, 0, count)
	var row int64
	for i := 0; i < first+count; i++ {
		row += br.f.meta.RowGroups[i].NumRows
		if i >= first {
			ends = append(ends, row)
		}
	}
	return ends
}

// dictBatchRows caps a batch of n rows from br.next at the end of its row
// group, so that the batch's dictionary columns take one column chunk's
// dictionary.
func (br *BatchReader) dictBatchRows(n int) int {
	for len(br.groupEnds) > 0 && br.groupEnds[0] <= br.next {
		br.groupEnds = br.groupEnds[1:]
	}
	if len(br.groupEnds) > 0 {
		n = int(min(int64(n), br.groupEnds[0]-br.next))
	}
	return n
}
