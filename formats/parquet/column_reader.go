package parquet

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// pqFile opens the file with parquet-go once (it reads the footer again and
// keeps the column chunk metadata) for page reading.
func (f *File) pqFileOnce() (*pq.File, error) {
	f.pqOnce.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				f.pqErr = corruptf(f.name, -1, "footer", "parquet-go: %v", r)
			}
		}()
		pf, err := pq.OpenFile(f.r, f.size,
			pq.SkipPageIndex(true), pq.SkipBloomFilters(true), pq.ReadBufferSize(16<<10))
		if err != nil {
			f.pqErr = wrapPQ(f.name, "footer", err)
			return
		}
		if len(pf.RowGroups()) != len(f.meta.RowGroups) {
			f.pqErr = corruptf(f.name, -1, "footer", "parquet-go sees %d row groups, footer lists %d", len(pf.RowGroups()), len(f.meta.RowGroups))
			return
		}
		f.pqFile = pf
	})
	return f.pqFile, f.pqErr
}

// wrapPQ classifies an error from parquet-go: codecs it lacks are
// ErrUnsupported, everything else is corrupt input.
func wrapPQ(name, section string, err error) error {
	var ue *unsupportedError
	var ce *CorruptError
	if errors.As(err, &ue) || errors.As(err, &ce) {
		return err
	}
	var ioe *ioError
	if errors.As(err, &ioe) {
		return readErr(name, -1, section, err)
	}
	msg := err.Error()
	if strings.Contains(msg, "unsupported compression codec") || strings.Contains(msg, "not supported") ||
		strings.Contains(msg, "encrypt") {
		return unsupportedf("%s: %v", displayName(name), err)
	}
	return &CorruptError{File: name, Offset: -1, Section: section, Err: err}
}

// leafReader reads one leaf column, page after page and row group after row
// group, collecting for each batch the level entries and the dense (non-null)
// values converted to their Arrow layout.
type leafReader struct {
	f      *File
	pf     *pq.File
	ln     *lnode
	conv   *converter
	col    int
	maxDef byte
	maxRep byte
	mem    memory.Allocator // the batch reader's recycler
	// dataMem allocates the buffers whose bytes Arrow's accessors hand out
	// without copying (String.Value, Binary.Value, FixedSizeBinary.Value):
	// the caller's allocator, never the recycler, so that a value a caller
	// keeps after releasing its batch is not overwritten by a later batch.
	dataMem memory.Allocator

	rg  int    // next row group
	hdr []byte // page header window
	// payload and decoded hold a compressed page and its decoding while
	// checkPagePayload checks it.
	payload []byte
	decoded []byte
	pages   pq.Pages
	page    pq.Page
	// dataOrd counts the data pages of the chunk read so far; emptyV2
	// lists the chunk's data pages that have no values section (see
	// emptyV2Page), and emptyLevels, emptyRep, emptyDef are their buffers.
	dataOrd                         int
	emptyV2                         []emptyV2Page
	emptyLevels, emptyRep, emptyDef []byte

	// Current page.
	def, rep []byte // levels (nil when the max level is 0)
	nEntries int
	pos      int    // next entry
	vpos     int    // next value
	raw      []byte // plain values (converted booleans for opBool)
	offs     []uint32
	idx      []int32 // dictionary indexes (when dictionary-encoded)
	dictPage bool

	// loaded: a page is current (a decoded page, an empty v2 page or
	// the stand-in of skipped pages); skipped: it is the stand-in, whose
	// rows can only be stepped over (see nextSkipped).
	loaded, skipped bool
	// skip is the batch reader's skip set (nil: none); seek the seeking
	// state of the current chunk (nil: it is read whole); seekedPages
	// and seekedBytes count the pages not read (see [SeekCounts]).
	skip                     *roaring64.Bitmap
	seek                     *chunkSeek
	seekedPages, seekedBytes int64

	dict      pq.Dictionary
	dictFixed []byte
	dictData  []byte
	dictOffs  []int32
	// dictShort holds every dictionary string of a BYTE_ARRAY chunk whose
	// strings are all at most 32 bytes long, each padded to blocks beside
	// its length (nil otherwise): see gatherVar.
	dictShort []shortValue
	shortWide bool // dictShort holds strings longer than 16 bytes
	// shortLen is the length of every string of dictShort when they all
	// have the same length of at most 16 bytes, -1 otherwise.
	shortLen int
	bools    []byte

	// Batch output.
	bdef, brep []byte
	entries    int
	nvals      int
	fixed      growBuf // fixed-width values, or bool bytes
	voffs      growBuf // int32 offsets (nvals+1) for variable-length values
	vdata      growBuf
	valid      growBuf // flat optional columns: validity bitmap built while reading
	nulls      int     // flat optional columns: null entries in the batch
	hint       [3]int  // sizes of the last batch's buffers, reserved up front
	keepLevels bool    // collect bdef/brep: nested leaves and leaves whose levels a struct needs

	// dout: a column returned as an Arrow dictionary array (dict_out.go),
	// or nil.
	dout *dictOut

	// validTo is the number of the batch's entries whose validity bits
	// are written (flat optional columns); the entries after it up to
	// entries are all non-null and their bits are set only when a null
	// follows them (setValid) or the batch ends with nulls (fillValid).
	validTo int
	// pageFull is set when every entry of the current page is defined
	// (flat optional columns).
	pageFull bool

	// Row selection scratch (see takeMasked): the kept levels, value keep
	// bytes, dictionary indexes, plain values and byte-array offsets.
	selDef, selKeep []uint8
	selIdx          []int32
	selRaw          []byte
	selOffs         []uint32
}

// growBuf is an allocator-backed buffer that grows geometrically.
type growBuf struct {
	b *memory.Buffer
	n int
}

func (g *growBuf) reset(mem memory.Allocator) {
	if g.b == nil {
		g.b = memory.NewResizableBuffer(mem)
	}
	g.n = 0
}

// extend grows the buffer by add bytes and returns them.
func (g *growBuf) extend(add int) []byte {
	need := g.n + add
	if need > g.b.Cap() {
		c := 2 * g.b.Cap()
		if c < need {
			c = need
		}
		if c < 256 {
			c = 256
		}
		g.b.Reserve(c)
	}
	g.b.ResizeNoShrink(need)
	out := g.b.Bytes()[g.n:need]
	g.n = need
	return out
}

// reserve makes room for n bytes in all.
func (g *growBuf) reserve(n int) {
	if n > g.b.Cap() {
		g.b.Reserve(n)
	}
}

// take hands the buffer (resized to its content) to the caller.
func (g *growBuf) take() *memory.Buffer {
	b := g.b
	b.ResizeNoShrink(g.n)
	g.b = nil
	g.n = 0
	return b
}

func (g *growBuf) release() {
	if g.b != nil {
		g.b.Release()
		g.b = nil
	}
}

func (lr *leafReader) close() {
	lr.closeDict()
	lr.releasePage()
	if lr.pages != nil {
		lr.pages.Close()
		lr.pages = nil
	}
	lr.fixed.release()
	lr.voffs.release()
	lr.vdata.release()
	lr.valid.release()
}

func (lr *leafReader) releasePage() {
	lr.loaded, lr.skipped = false, false
	if lr.page != nil {
		pq.Release(lr.page)
		lr.page = nil
	}
}

func (lr *leafReader) corrupt(format string, args ...any) error {
	return &CorruptError{File: lr.f.name, Offset: -1, Section: "column " + lr.ln.phys.path, Err: fmt.Errorf(format, args...)}
}

// openChunk reads column chunk lr.col of row group lr.rg into memory (one
// read), checks every page header against the chunk's bytes and the caps,
// and returns parquet-go's page reader over the in-memory copy. parquet-go
// allocates a page's compressed size before reading it, so the check must
// come first.
func (lr *leafReader) openChunk(cc pq.ColumnChunk) (pq.Pages, error) {
	md := lr.pf.Metadata()
	if lr.rg >= len(md.RowGroups) || lr.col >= len(md.RowGroups[lr.rg].Columns) {
		return nil, lr.corrupt("row group %d has no column chunk %d", lr.rg, lr.col)
	}
	meta := &md.RowGroups[lr.rg].Columns[lr.col].MetaData
	if meta.TotalUncompressedSize > lr.f.limits.ColumnChunkBytes {
		return nil, unsupportedf("%s: column %s: row group %d holds %d uncompressed bytes (cap %d)",
			displayName(lr.f.name), lr.ln.phys.path, lr.rg, meta.TotalUncompressedSize, lr.f.limits.ColumnChunkBytes)
	}
	start := meta.DataPageOffset
	if meta.DictionaryPageOffset != 0 {
		start = meta.DictionaryPageOffset
	}
	size := meta.TotalCompressedSize
	if start < 4 || size < 0 || size > lr.f.limits.ColumnChunkBytes || start > lr.f.size-8 || size > lr.f.size-8-start {
		return nil, &CorruptError{File: lr.f.name, Offset: start, Section: "column chunk " + lr.ln.phys.path,
			Err: fmt.Errorf("chunk of %d bytes at offset %d does not fit in a file of %d bytes", size, start, lr.f.size)}
	}
	lr.dict = nil // a new chunk has its own dictionary
	lr.seek = nil
	fc, ok := cc.(*pq.FileColumnChunk)
	if !ok {
		if err := lr.checkPageHeaders([]segment{{off: start, n: size, at: start}}, meta.Codec); err != nil {
			return nil, err
		}
		return cc.Pages(), nil
	}
	segs, cs, err := lr.planSeek(start, size)
	if err != nil {
		return nil, err
	}
	if segs == nil {
		if err := lr.checkPageHeaders([]segment{{off: start, n: size, at: start}}, meta.Codec); err != nil {
			return nil, err
		}
		return fc.PagesFrom(lr.f.r), nil
	}
	if err := lr.checkPageHeaders(segs, meta.Codec); err != nil {
		return nil, err
	}
	lr.seek = cs
	return fc.PagesFrom(newSplicedChunk(lr.f.r, start, segs)), nil
}

// checkPageHeaders walks the page headers of the segments of a column
// chunk that are read (the whole chunk, or the parts seeking keeps),
// reading only the headers, and checks that each page's compressed bytes
// lie inside its segment and its uncompressed size is under the cap; for
// the codecs whose decoder does not bound its output by the header, it
// checks the payload too (checkPagePayload).
func (lr *leafReader) checkPageHeaders(segs []segment, codec format.CompressionCodec) error {
	lr.emptyV2, lr.dataOrd = lr.emptyV2[:0], 0
	ord := 0
	for _, sg := range segs {
		var err error
		if ord, err = lr.checkSegment(sg.off, sg.n, codec, ord); err != nil {
			return err
		}
	}
	return nil
}

// checkSegment checks the pages of the size bytes at start, the first of
// which is data page ord of the pages read (checkPageHeaders), and
// returns the ordinal of the next.
func (lr *leafReader) checkSegment(start, size int64, codec format.CompressionCodec, ord int) (int, error) {
	off := int64(0)
	for off < size {
		h, n, err := lr.readPageHeader(start+off, size-off)
		if err != nil {
			return ord, readErr(lr.f.name, start+off, "page header of "+lr.ln.phys.path, err)
		}
		off += int64(n)
		if h.CompressedPageSize < 0 || int64(h.CompressedPageSize) > size-off {
			return ord, &CorruptError{File: lr.f.name, Offset: start + off, Section: "page header of " + lr.ln.phys.path,
				Err: fmt.Errorf("page claims %d compressed bytes, %d remain in the chunk", h.CompressedPageSize, size-off)}
		}
		if h.UncompressedPageSize < 0 || int64(h.UncompressedPageSize) > lr.f.limits.ColumnChunkBytes {
			return ord, &CorruptError{File: lr.f.name, Offset: start + off, Section: "page header of " + lr.ln.phys.path,
				Err: fmt.Errorf("page claims %d uncompressed bytes (limit %d)", h.UncompressedPageSize, lr.f.limits.ColumnChunkBytes)}
		}
		if err := checkPageEncodings(&h); err != nil {
			return ord, &CorruptError{File: lr.f.name, Offset: start + off - int64(n), Section: "page header of " + lr.ln.phys.path, Err: err}
		}
		if v := pageValues(&h); v > maxPageValues {
			return ord, unsupportedf("%s: column %s: page at offset %d holds %d values (cap %d)",
				displayName(lr.f.name), lr.ln.phys.path, start+off, v, maxPageValues)
		}
		if err := lr.checkPagePayload(codec, &h, start+off); err != nil {
			return ord, readErr(lr.f.name, start+off, "page of "+lr.ln.phys.path, err)
		}
		if emptyV2(codec, &h) {
			v2 := &h.DataPageHeaderV2.V
			lr.emptyV2 = append(lr.emptyV2, emptyV2Page{ord: ord, levelsOff: start + off,
				repLen: v2.RepetitionLevelsByteLength, defLen: v2.DefinitionLevelsByteLength,
				numValues: v2.NumValues, numNonNulls: v2.NumValues - v2.NumNulls})
		}
		if h.Type == format.DataPage || h.Type == format.DataPageV2 {
			ord++
		}
		off += int64(h.CompressedPageSize)
	}
	return ord, nil
}

// maxEncoding is the highest value of parquet.thrift's enum Encoding
// (BYTE_STREAM_SPLIT, 9); 0 to 9 are all defined, GROUP_VAR_INT (1) as
// deprecated.
const maxEncoding = format.ByteStreamSplit

// checkPageEncodings returns an error naming the encoding field of a data
// page (v1: values, definition and repetition levels; v2: values) or
// dictionary page header whose value is none parquet.thrift's enum
// Encoding defines, a damaged header rather than an encoding lakecat does
// not decode: that stays for the page decoder to refuse as unsupported
// (GROUP_VAR_INT, or an encoding the column's type does not take).
func checkPageEncodings(h *format.PageHeader) error {
	check := func(what string, e format.Encoding) error {
		if e < 0 || e > maxEncoding {
			return fmt.Errorf("%s encoding %d, which the Parquet format does not define (parquet.thrift Encoding: 0 to %d)", what, e, maxEncoding)
		}
		return nil
	}
	var err error
	switch {
	case h.DataPageHeader.Valid:
		v := &h.DataPageHeader.V
		err = errors.Join(check("data page", v.Encoding), check("data page definition level", v.DefinitionLevelEncoding),
			check("data page repetition level", v.RepetitionLevelEncoding))
	case h.DataPageHeaderV2.Valid:
		err = check("data page v2", h.DataPageHeaderV2.V.Encoding)
	case h.DictionaryPageHeader.Valid:
		err = check("dictionary page", h.DictionaryPageHeader.V.Encoding)
	}
	return err
}

// pageValues returns the number of values (level entries) a page header
// states, 0 for pages without values.
func pageValues(h *format.PageHeader) int64 {
	switch {
	case h.DataPageHeader.Valid:
		return int64(h.DataPageHeader.V.NumValues)
	case h.DataPageHeaderV2.Valid:
		return int64(h.DataPageHeaderV2.V.NumValues)
	case h.DictionaryPageHeader.Valid:
		return int64(h.DictionaryPageHeader.V.NumValues)
	}
	return 0
}

// readPageHeader decodes the page header at off, reading a window that grows
// while the header does not fit in it (statistics can make headers large).
func (lr *leafReader) readPageHeader(off, remain int64) (h format.PageHeader, n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("thrift decoder: %v", r)
		}
	}()
	win := int64(512)
	for {
		if win > remain {
			win = remain
		}
		if int64(cap(lr.hdr)) < win {
			lr.hdr = make([]byte, win)
		}
		buf := lr.hdr[:win]
		if err := readFull(lr.f.r, buf, off); err != nil {
			return h, 0, err
		}
		// The header's lengths and nesting are checked before parquet-go's
		// decoder sees it (here and again when it reads the pages).
		n, err := checkCompact(buf, maxThriftDepth, maxPageHeaderDecodedBytes)
		if err != nil {
			if win == remain || win >= maxPageHeaderBytes || !errors.Is(err, io.ErrUnexpectedEOF) {
				return h, 0, err
			}
			win = min(8*win, maxPageHeaderBytes)
			continue
		}
		h = format.PageHeader{}
		var proto thrift.CompactProtocol
		if err := thrift.NewDecoder(proto.NewReader(bytes.NewReader(buf[:n]))).Decode(&h); err != nil {
			return h, 0, err
		}
		return h, n, nil
	}
}

func readPage(p pq.Pages) (pg pq.Page, err error) {
	defer func() {
		if r := recover(); r != nil {
			pg, err = nil, fmt.Errorf("parquet-go: %v", r)
		}
	}()
	return p.ReadPage()
}

// nextPage loads the next non-empty page, moving to the next row group when
// a column chunk ends. It returns false at the end of the column.
func (lr *leafReader) nextPage() (bool, error) {
	lr.releasePage()
	for {
		if lr.pages == nil {
			rgs := lr.pf.RowGroups()
			if lr.rg >= len(rgs) {
				return false, nil
			}
			chunks := rgs[lr.rg].ColumnChunks()
			if lr.col >= len(chunks) {
				return false, lr.corrupt("row group %d has %d column chunks", lr.rg, len(chunks))
			}
			pages, err := lr.openChunk(chunks[lr.col])
			if err != nil {
				return false, err
			}
			lr.pages = pages
			lr.rg++
		}
		if lr.nextSkipped() {
			lr.loaded = true
			return true, nil
		}
		pg, err := readPage(lr.pages)
		if err == io.EOF {
			if lr.seek != nil && lr.seek.at < len(lr.seek.pages) {
				return false, lr.corrupt("row group %d: the column chunk ends after %d of the %d data pages of its offset index", lr.rg-1, lr.seek.at, len(lr.seek.pages))
			}
			lr.pages.Close()
			lr.pages = nil
			continue
		}
		ord := lr.dataOrd
		lr.dataOrd++
		if err != nil {
			// parquet-go consumed the page before failing on it: an empty
			// v2 page is decoded here instead (see emptyV2Page).
			ep := lr.emptyV2Page(ord)
			if ep == nil {
				return false, wrapPQ(lr.f.name, "page of column "+lr.ln.phys.path, err)
			}
			if err := lr.setupEmptyV2(ep); err != nil {
				return false, err
			}
		} else {
			lr.page = pg
			if err := lr.setupPage(pg); err != nil {
				return false, err
			}
		}
		if err := lr.checkSeekedPage(); err != nil {
			return false, err
		}
		if lr.nEntries > 0 {
			lr.loaded = true
			return true, nil
		}
		lr.releasePage()
	}
}

// emptyV2Page returns the chunk's empty v2 data page of ordinal ord, or
// nil.
func (lr *leafReader) emptyV2Page(ord int) *emptyV2Page {
	for i := range lr.emptyV2 {
		if lr.emptyV2[i].ord == ord {
			return &lr.emptyV2[i]
		}
	}
	return nil
}

func (lr *leafReader) setupPage(pg pq.Page) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = lr.corrupt("parquet-go: %v", r)
		}
	}()
	lr.pos, lr.vpos = 0, 0
	lr.def, lr.rep = nil, nil
	lr.idx, lr.raw, lr.offs = nil, nil, nil
	lr.pageFull = false
	if lr.maxDef > 0 {
		lr.def = pg.DefinitionLevels()
	}
	if lr.maxRep > 0 {
		lr.rep = pg.RepetitionLevels()
		if len(lr.rep) != len(lr.def) {
			return lr.corrupt("%d repetition levels but %d definition levels", len(lr.rep), len(lr.def))
		}
	}
	data := pg.Data()
	dict := pg.Dictionary()
	lr.dictPage = dict != nil
	var nvals int
	if lr.dictPage {
		if dict != lr.dict {
			if err := lr.loadDictionary(dict); err != nil {
				return err
			}
		}
		lr.idx = data.Int32()
		nvals = len(lr.idx)
	} else {
		raw, offs := data.Data()
		lr.raw, lr.offs = raw, offs
		switch {
		case lr.conv.op == opBool:
			nvals = int(pg.NumValues() - pg.NumNulls())
			if len(raw)*8 < nvals {
				return lr.corrupt("boolean page of %d bytes for %d values", len(raw), nvals)
			}
			if cap(lr.bools) < nvals {
				lr.bools = make([]byte, nvals)
			}
			lr.bools = lr.bools[:nvals]
			for i := range lr.bools {
				lr.bools[i] = (raw[i>>3] >> (i & 7)) & 1
			}
			lr.raw = lr.bools
		case lr.conv.variable() || lr.conv.op == opDecBytes:
			if len(offs) == 0 {
				nvals = 0
			} else {
				nvals = len(offs) - 1
			}
		default:
			nvals = len(raw) / lr.conv.physWidth()
		}
	}
	if lr.maxDef == 0 {
		lr.nEntries = nvals
		return nil
	}
	lr.nEntries = len(lr.def)
	// Levels above their maximum are not rejected one by one: every use of
	// a level compares it, so such a level only makes the counts below (or
	// the slot counts when assembling) disagree, which is reported as
	// corrupt.
	defined := bytes.Count(lr.def, []byte{lr.maxDef})
	if defined != nvals {
		return lr.corrupt("levels define %d values, the page holds %d", defined, nvals)
	}
	lr.pageFull = defined == lr.nEntries
	return nil
}

// setValid records the validity of the len(d) entries of a flat optional
// column that start at entry base of the batch, cnt of which equal md (are
// defined), and counts their nulls. Entries without a null among them
// write no bits: the bits of a stretch of non-null entries are set a word
// at a time, and only when a null follows it in the batch (the bitmap of a
// batch without nulls is dropped).
func (lr *leafReader) setValid(base int, d []byte, md byte, cnt int) {
	if cnt == len(d) {
		return
	}
	lr.fillValid(base)
	if cnt > 0 {
		setValidity(lr.valid.b.Bytes(), base, d, md)
	}
	lr.validTo = base + len(d)
	lr.nulls += len(d) - cnt
}

// fillValid sets the validity bits of the non-null entries from validTo up
// to entry n of the batch.
func (lr *leafReader) fillValid(n int) {
	if n > lr.validTo {
		bitutil.SetBitsTo(lr.valid.b.Bytes(), int64(lr.validTo), int64(n-lr.validTo), true)
	}
	lr.validTo = n
}

func (lr *leafReader) loadDictionary(dict pq.Dictionary) error {
	dp := dict.Page()
	dv := dp.Data()
	raw, offs := dv.Data()
	n := dict.Len()
	lr.dict = dict
	c := lr.conv
	switch {
	case c.variable():
		if n > 0 && len(offs) < n+1 {
			return lr.corrupt("dictionary of %d values with %d offsets", n, len(offs))
		}
		// gatherSlack bytes of room past the end: see gatherVar.
		lr.dictData = slices.Grow(lr.dictData[:0], len(raw)+gatherSlack)
		lr.dictData = append(lr.dictData, raw...)
		lr.dictOffs = lr.dictOffs[:0]
		for i := 0; i <= n && i < len(offs); i++ {
			if int(offs[i]) > len(raw) {
				return lr.corrupt("dictionary offset %d past %d bytes", offs[i], len(raw))
			}
			lr.dictOffs = append(lr.dictOffs, int32(offs[i]))
		}
		if n == 0 {
			lr.dictOffs = append(lr.dictOffs, 0)
		}
		short := lr.dictShort[:0]
		lr.dictShort, lr.shortLen = nil, -1
		if l := maxLength(lr.dictOffs); n <= maxShortDictValues && l >= 0 && l <= 32 {
			lr.dictShort, lr.shortWide = shortValues(short, lr.dictData, lr.dictOffs), l > 16
			if l <= 16 && n > 0 && int(lr.dictOffs[n]-lr.dictOffs[0]) == n*l {
				lr.shortLen = l // no value is shorter than l
			}
		}
	default:
		w := c.width
		if cap(lr.dictFixed) < n*w {
			lr.dictFixed = make([]byte, n*w)
		}
		lr.dictFixed = lr.dictFixed[:n*w]
		if err := c.convertFixed(lr.dictFixed, raw, offs, n); err != nil {
			return lr.wrapConv(err)
		}
	}
	return nil
}

func (lr *leafReader) wrapConv(err error) error {
	if errors.Is(err, ErrUnsupported) {
		return err
	}
	return lr.corrupt("%v", err)
}

// readRows collects the entries and values of the next nRows rows.
func (lr *leafReader) readRows(nRows int) error {
	lr.beginBatch(nRows)
	return lr.rows(nRows, false)
}

// rows collects the entries and values of the next nRows rows, or steps
// over them when skip is set.
func (lr *leafReader) rows(nRows int, skip bool) error {
	rowsLeft := nRows
	for {
		if !lr.loaded || lr.pos >= lr.nEntries {
			if lr.maxRep == 0 && rowsLeft == 0 {
				return nil
			}
			ok, err := lr.nextPage()
			if err != nil {
				return err
			}
			if !ok {
				if rowsLeft > 0 {
					return lr.corrupt("column ends %d rows early", rowsLeft)
				}
				return nil
			}
		}
		start := lr.pos
		var end int
		if lr.skipped {
			if rowsLeft == 0 {
				return nil // skipped pages begin at a record boundary
			}
			if !skip {
				return lr.corrupt("rows of a page the skip set rules out asked for")
			}
		}
		if lr.maxRep == 0 || lr.skipped {
			// A flat column, or skipped pages (one entry per record).
			end = start + rowsLeft
			if end > lr.nEntries {
				end = lr.nEntries
			}
			rowsLeft -= end - start
		} else {
			// Rows start where the repetition level is 0: take the whole
			// rest of the page when it starts no more than rowsLeft rows
			// (bytes.Count is vectorized), else find the row boundary.
			rest := lr.rep[start:lr.nEntries]
			if z := bytes.Count(rest, zero); z <= rowsLeft {
				rowsLeft -= z
				end = lr.nEntries
			} else {
				end = start
				for {
					i := bytes.IndexByte(lr.rep[end:lr.nEntries], 0)
					if i < 0 {
						end = lr.nEntries
						break
					}
					if rowsLeft == 0 {
						end += i
						break
					}
					rowsLeft--
					end += i + 1
				}
			}
		}
		if skip {
			lr.advance(start, end)
		} else if err := lr.take(start, end); err != nil {
			return err
		}
		if lr.maxRep == 0 {
			if rowsLeft == 0 {
				return nil
			}
		} else if end < lr.nEntries {
			return nil // the next row starts here
		}
	}
}

var zero = []byte{0}

// take appends entries [start, end) of the current page to the batch.
func (lr *leafReader) take(start, end int) error {
	if lr.dout != nil && !lr.dout.plain {
		if done, err := lr.takeIndices(start, end); done || err != nil {
			return err
		}
	}
	lr.pos = end
	n := end - start
	lr.entries += n
	cnt := n
	if lr.maxDef > 0 {
		d := lr.def[start:end]
		if lr.keepLevels {
			lr.bdef = append(lr.bdef, d...)
			if lr.maxRep > 0 {
				lr.brep = append(lr.brep, lr.rep[start:end]...)
			}
		}
		if lr.maxRep == 0 {
			return lr.takeFlat(start, end)
		}
		cnt = bytes.Count(d, []byte{lr.maxDef})
	}
	if cnt == 0 {
		return nil
	}
	return lr.takeDense(cnt)
}

// takeFlat appends entries [start, end) of a flat optional column, placing
// values straight at their row positions and setting validity bits as it
// goes.
func (lr *leafReader) takeFlat(start, end int) error {
	n := end - start
	base := lr.entries - n
	d := lr.def[start:end]
	md := lr.maxDef
	cnt := n
	if !lr.pageFull {
		cnt = bytes.Count(d, []byte{md})
	}
	lr.setValid(base, d, md, cnt)
	c := lr.conv
	if c.variable() {
		if err := lr.takeDense(cnt); err != nil {
			return err
		}
		if cnt < n {
			lr.voffs.extend(4 * (n - cnt))
			offs := arrow.Int32Traits.CastFromBytes(lr.voffs.b.Bytes()[4*base : 4*(base+n+1)])
			spreadOffsetsDefs(offs, d, md, cnt)
		}
		return nil
	}
	w := max(c.width, 1)
	if cnt < n && cnt > 0 && ((w == 4 || w == 8) && (c.op == opCopy || c.op == opFixed) || lr.dictPage && (w == 4 || w == 8 || w == 16)) {
		// Copy and place in one pass.
		out := lr.fixed.extend(n * w)
		v0 := lr.vpos
		lr.vpos += cnt
		lr.nvals += cnt
		if lr.dictPage {
			if err := scatterDict(out, lr.dictFixed, w, lr.idx[v0:v0+cnt], d, md); err != nil {
				return lr.corrupt("%v", err)
			}
			return nil
		}
		if len(lr.raw) < (v0+cnt)*w {
			return lr.corrupt("%v", errShortPage)
		}
		scatterFixed(out, lr.raw[v0*w:(v0+cnt)*w], w, d, md)
		return nil
	}
	if cnt < n && cnt > 0 && !lr.dictPage && (c.op == opDecInt32 || c.op == opDecInt64) {
		// Convert and place in one pass.
		pw := c.physWidth()
		out := lr.fixed.extend(n * 16)
		v0 := lr.vpos
		lr.vpos += cnt
		lr.nvals += cnt
		if len(lr.raw) < (v0+cnt)*pw {
			return lr.corrupt("%v", errShortPage)
		}
		scatterDecimal(out, lr.raw[v0*pw:(v0+cnt)*pw], pw, d, md)
		return nil
	}
	mark := lr.fixed.n
	if err := lr.takeDense(cnt); err != nil {
		return err
	}
	if cnt < n {
		lr.fixed.extend((n - cnt) * w)
		spreadFixedDefs(lr.fixed.b.Bytes()[mark:mark+n*w], d, md, w, cnt)
	}
	return nil
}

// takeDense appends the next cnt values of the page, converted, to the
// batch's dense values.
func (lr *leafReader) takeDense(cnt int) error {
	if cnt == 0 {
		return nil
	}
	v0 := lr.vpos
	lr.vpos += cnt
	lr.nvals += cnt
	c := lr.conv
	if lr.dictPage {
		idx := lr.idx[v0 : v0+cnt]
		if c.variable() {
			return lr.gatherVar(idx)
		}
		if err := gatherFixed(lr.fixed.extend(cnt*c.width), lr.dictFixed, c.width, idx); err != nil {
			return lr.corrupt("%v", err)
		}
		return nil
	}
	switch {
	case c.variable():
		offs := lr.offs[v0 : v0+cnt+1]
		a, b := offs[0], offs[cnt]
		if a > b || int(b) > len(lr.raw) {
			return lr.corrupt("byte array offsets out of range")
		}
		if lr.vdata.n+int(b-a) > maxBatchBytes {
			return unsupportedf("column %s: more than %d bytes of values in one batch; use a smaller BatchRows", lr.ln.phys.path, maxBatchBytes)
		}
		base := int32(lr.vdata.n) - int32(a)
		copy(lr.vdata.extend(int(b-a)), lr.raw[a:b])
		out := arrow.Int32Traits.CastFromBytes(lr.voffs.extend(4 * cnt))
		for i := range out {
			o := offs[i+1]
			if o < offs[i] {
				return lr.corrupt("byte array offsets decrease")
			}
			out[i] = int32(o) + base
		}
	case c.op == opBool:
		copy(lr.fixed.extend(cnt), lr.raw[v0:v0+cnt])
	case c.op == opDecBytes:
		if err := c.convertFixed(lr.fixed.extend(cnt*16), lr.raw, lr.offs[v0:], cnt); err != nil {
			return lr.wrapConv(err)
		}
	default:
		pw := c.physWidth()
		if err := c.convertFixed(lr.fixed.extend(cnt*c.width), lr.raw[v0*pw:], nil, cnt); err != nil {
			return lr.wrapConv(err)
		}
	}
	return nil
}

// gatherVar appends the dictionary strings idx names to the batch's data
// and offsets: the lengths first (checking every index and the batch's
// byte cap), then one pass of copies into the data grown once. The data
// is grown by shortSlack bytes more than its values need (then given
// back), so that a short value can be stored as one fixed-size block. A
// dictionary of strings of at most 32 bytes (dictShort) is read as blocks
// beside their lengths, one load per index for the length and one for the
// bytes; in other dictionaries, values of at most gatherSlack bytes are
// moved as one block (loadDictionary leaves gatherSlack bytes past the
// dictionary data) and longer values are copied by length. When every
// string of a dictionary has the same length (codes, flags), the total
// needs no pass over the indexes, which are checked while gathering
// (gatherEqual).
func (lr *leafReader) gatherVar(idx []int32) error {
	nd := uint32(len(lr.dictOffs) - 1)
	var total int
	var err error
	switch {
	case lr.shortLen >= 0 && lr.dictShort != nil:
		total = len(idx) * lr.shortLen // indexes checked while gathering
	case lr.dictShort != nil:
		total, err = shortTotal(lr.dictShort, idx)
	default:
		do := lr.dictOffs
		for _, x := range idx {
			if uint32(x) >= nd {
				return lr.corrupt("dictionary index %d out of range [0, %d)", x, nd)
			}
			total += int(do[x+1] - do[x])
		}
	}
	if err != nil {
		return lr.corrupt("%v", err)
	}
	if lr.vdata.n+total > maxBatchBytes {
		return unsupportedf("column %s: more than %d bytes of values in one batch; use a smaller BatchRows", lr.ln.phys.path, maxBatchBytes)
	}
	data := lr.vdata.extend(total + shortSlack)[:total+shortSlack]
	lr.vdata.n -= shortSlack
	out := arrow.Int32Traits.CastFromBytes(lr.voffs.extend(4 * len(idx)))
	out = out[:len(idx)]
	base := int32(lr.vdata.n - total)
	if lr.shortLen >= 0 && lr.dictShort != nil {
		if err := gatherEqual(data, out, lr.dictShort, idx, base, lr.shortLen); err != nil {
			return lr.corrupt("%v", err)
		}
		return nil
	}
	if lr.dictShort != nil {
		gatherShort(data, out, lr.dictShort, idx, base, lr.shortWide)
		return nil
	}
	do := lr.dictOffs
	p := 0
	dd := lr.dictData[:len(lr.dictData)+gatherSlack]
	for i, x := range idx {
		a, b := do[x], do[x+1]
		if b-a <= gatherSlack {
			*(*[gatherSlack]byte)(data[p : p+gatherSlack]) = *(*[gatherSlack]byte)(dd[a : a+gatherSlack])
		} else {
			copy(data[p:], dd[a:b])
		}
		p += int(b - a)
		out[i] = base + int32(p)
	}
	return nil
}

// gatherSlack is the length up to which gatherVar moves a string of a
// dictionary with longer strings as one fixed-size block rather than
// calling copy.
const gatherSlack = 16

// shortSlack is the room gatherVar leaves past the values it writes: the
// largest block it stores.
const shortSlack = 32

// shortValue is one dictionary string of at most 32 bytes: its bytes
// padded with zeros to a 32-byte block, and its length.
type shortValue struct {
	b [32]byte
	n uint32
}

// maxLength returns the length of the longest value the offsets delimit,
// or -1 when they decrease.
func maxLength(offs []int32) int {
	m := int32(0)
	for i := 1; i < len(offs); i++ {
		l := offs[i] - offs[i-1]
		if l < 0 {
			return -1
		}
		m = max(m, l)
	}
	return int(m)
}

// shortValues appends the values of the dictionary data its offsets
// delimit (each at most 32 bytes long) to dst as blocks; the result is not
// nil.
func shortValues(dst []shortValue, data []byte, offs []int32) []shortValue {
	if dst == nil {
		dst = make([]shortValue, 0, len(offs))
	}
	for i := 1; i < len(offs); i++ {
		var v shortValue
		v.n = uint32(copy(v.b[:], data[offs[i-1]:offs[i]]))
		dst = append(dst, v)
	}
	return dst
}

// shortTotal returns the bytes of the strings idx names, or an error for
// an index out of range.
func shortTotal(short []shortValue, idx []int32) (int, error) {
	nd := uint32(len(short))
	total := 0
	for _, x := range idx {
		if uint32(x) >= nd {
			return 0, errDictIndex(x, nd)
		}
		total += int(short[x].n)
	}
	return total, nil
}

// gatherShort writes the strings short[idx[i]] one after another into data
// (which has 32 bytes of room past their total) and the offset after each,
// plus base, into out: the first 16 bytes of each block when wide is
// false (every string is at most 16 bytes long), the whole block when it
// is set. Every index is in range (shortTotal checked them).
func gatherShort(data []byte, out []int32, short []shortValue, idx []int32, base int32, wide bool) {
	p := 0
	out = out[:len(idx)]
	if !wide {
		for i, x := range idx {
			v := &short[x]
			*(*[16]byte)(data[p : p+16]) = *(*[16]byte)(v.b[:16])
			p += int(v.n)
			out[i] = base + int32(p)
		}
		return
	}
	for i, x := range idx {
		v := &short[x]
		*(*[32]byte)(data[p : p+32]) = v.b
		p += int(v.n)
		out[i] = base + int32(p)
	}
}

// gatherEqual is gatherShort for a dictionary whose strings all have
// length l (at most 16 bytes): the offsets follow from l, and each index
// is checked as it is read; an index out of range is an error (the values
// before it are written).
func gatherEqual(data []byte, out []int32, short []shortValue, idx []int32, base int32, l int) error {
	nd := uint32(len(short))
	p := 0
	out = out[:len(idx)]
	for i, x := range idx {
		if uint32(x) >= nd {
			return errDictIndex(x, nd)
		}
		*(*[16]byte)(data[p : p+16]) = *(*[16]byte)(short[x].b[:16])
		p += l
		out[i] = base + int32(p)
	}
	return nil
}
